extension KeyTable {
  /// The keys out of the box. A new key is one more key in a row; a new action is a
  /// `KeyAction` case, a row here and its case in `ChecklistsApp.perform`.
  public static let defaults = KeyTable(
    [
      row(.generic, .interrupt, .control("c")),
      row(.generic, .save, .control("s")),
      row(.generic, .suspend, .control("z")),
      row(.generic, .help, .function(1)),

      row(.lists, .open, .enter, "l", .right),
      row(.lists, .addList, "a"),
      row(.lists, .editList, "e"),
      row(.lists, .deleteList, "d", .delete),
      row(.lists, .clearFilter, .escape),
      row(.lists, .search, "/"),

      row(.planner, .open, .enter, "l", .right),
      row(.planner, .toggle, " ", "x"),
      row(.planner, .editItem, "e"),
      row(.planner, .deleteItem, "d", .delete),
      row(.planner, .moveToList, "m"),
      row(.planner, .search, "/"),
      row(.planner, .back, .escape),
      row(.planner, .closeList, "h", .left),

      row(.checklist, .toggle, " ", "x"),
      row(.checklist, .addItem, "a"),
      row(.checklist, .editItem, "e", .enter),
      row(.checklist, .deleteItem, "d", .delete),
      row(.checklist, .moveDown, "J"),
      row(.checklist, .moveUp, "K"),
      row(.checklist, .sort, "s"),
      row(.checklist, .clearChecked, "C"),
      row(.checklist, .moveToList, "m"),
      row(.checklist, .indent, ">", .tab),
      row(.checklist, .outdent, "<", .backTab),
      row(.checklist, .toggleFold, "o"),
      row(.checklist, .foldAll, "-"),
      row(.checklist, .unfoldAll, "+"),
      row(.checklist, .cyclePriority, "!"),
      row(.checklist, .back, .escape),
      row(.checklist, .closeList, "h", .left),

      row(.browse, .quit, "q"),
      row(.browse, .help, "?"),
      row(.browse, .filter, "/"),
      row(.browse, .undo, "u"),
      row(.browse, .redo, .control("r")),
      row(.browse, .lastReminder, "r"),
      row(.browse, .snoozeReminder, "z"),
      row(.browse, .messages, "M"),
    ] + motions(.browse)
      + [
        row(.filter, .keepFilter, .enter, .down, .up, .tab),
        row(.filter, .clearFilter, .escape),

        row(.form, .done, .enter),
        row(.form, .cancel, .escape),
        row(.form, .nextField, .tab, .down),
        row(.form, .previousField, .backTab, .up),
        row(.remind, .toggleRemind, " ", "x"),
        row(.remind, .nextLead, .right, "+"),
        row(.remind, .previousLead, .left, "-"),
        row(.remind, .help, "?"),
        row(.remind, .quit, "q"),
        row(.due, .dayLater, "+"),
        row(.due, .dayEarlier, "-"),
        row(.note, .newLine, .enter),
        row(.note, .nextField, .tab, .control("d")),
        row(.note, .previousField, .backTab),
        row(.note, .previousLine, .up),
        row(.note, .nextLine, .down),
        row(.repeat, .chooseRepeat, .enter, " "),
        row(.repeat, .nextRepeat, .right, "+"),
        row(.repeat, .previousRepeat, .left, "-"),
        row(.repeat, .help, "?"),
        row(.repeat, .quit, "q"),
        row(.photo, .choosePhoto, .enter, " "),
        row(.photo, .removePhoto, "d", .delete, .backspace),
        row(.photo, .help, "?"),
        row(.photo, .quit, "q"),
        row(.photoPicker, .pick, .enter),
        row(.photoPicker, .closePicker, .escape),
        row(.photoPicker, .parentFolder, .backspace, .left),
        row(.photoPicker, .completePath, .tab),
        row(.photoPicker, .previous, .up),
        row(.photoPicker, .next, .down),
        row(.photoPicker, .pageUp, .pageUp),
        row(.photoPicker, .pageDown, .pageDown),
        row(.icon, .chooseIcon, .enter, " "),
        row(.icon, .help, "?"),
        row(.icon, .quit, "q"),

        row(.picker, .pick, .enter, " "),
        row(.picker, .closePicker, .escape),
        row(.picker, .help, "?"),
        row(.picker, .quit, "q"),
      ] + motions(.picker)
      + [
        row(.help, .closeHelp, .escape, "q", "?", .enter)
      ]
      + motions(.help, pageDown: [.pageDown, .character(" "), .control("f")])
      + [
        row(.confirm, .yes, "y", "Y"),

        row(.quitPrompt, .retrySave, "r", "R"),
        row(.quitPrompt, .saveElsewhere, "w", "W"),
        row(.quitPrompt, .rescueQuit, "q", "Q", .control("c")),
        row(.quitPrompt, .stay, .escape),
        row(.savePath, .saveCopy, .enter),
        row(.savePath, .cancel, .escape),
        row(.savePath, .rescueQuit, .control("c")),
      ])

  /// The same motion keys on every list-like screen.
  private static func motions(_ screen: KeyScreen, pageDown: [Key] = [.pageDown, .control("f")])
    -> [Row]
  {
    [
      Row(screen: screen, action: .previous, keys: [.up, .character("k")]),
      Row(screen: screen, action: .next, keys: [.down, .character("j")]),
      Row(screen: screen, action: .pageUp, keys: [.pageUp, .control("b")]),
      Row(screen: screen, action: .pageDown, keys: pageDown),
      Row(screen: screen, action: .halfPageUp, keys: [.control("u")]),
      Row(screen: screen, action: .halfPageDown, keys: [.control("d")]),
      Row(screen: screen, action: .first, keys: [.home, .character("g")]),
      Row(screen: screen, action: .last, keys: [.end, .character("G")]),
    ]
  }

  private static func row(_ screen: KeyScreen, _ action: KeyAction, _ keys: KeyLiteral...) -> Row {
    Row(screen: screen, action: action, keys: keys.map(\.key))
  }
}

/// A key in the defaults: a one-character string for a printable key, or a `Key`.
struct KeyLiteral: ExpressibleByUnicodeScalarLiteral {
  var key: Key

  init(unicodeScalarLiteral value: Unicode.Scalar) { key = .character(Character(value)) }
  init(_ key: Key) { self.key = key }

  static let enter = KeyLiteral(.enter)
  static let escape = KeyLiteral(.escape)
  static let tab = KeyLiteral(.tab)
  static let backTab = KeyLiteral(.backTab)
  static let delete = KeyLiteral(.delete)
  static let backspace = KeyLiteral(.backspace)
  static let pageUp = KeyLiteral(.pageUp)
  static let pageDown = KeyLiteral(.pageDown)
  static let up = KeyLiteral(.up)
  static let down = KeyLiteral(.down)
  static let left = KeyLiteral(.left)
  static let right = KeyLiteral(.right)
  static func control(_ letter: Character) -> KeyLiteral { KeyLiteral(.control(letter)) }
  static func function(_ number: Int) -> KeyLiteral { KeyLiteral(.function(number)) }
}
