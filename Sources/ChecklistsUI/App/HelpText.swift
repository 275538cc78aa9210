extension ChecklistsApp {
  /// The screens whose keys a help context lists, the screen the keys are looked up on for each,
  /// and the heading of each part after the first.
  static func helpSections(_ context: HelpContext) -> [(
    screen: KeyScreen, on: KeyScreen, heading: String?
  )] {
    switch context {
    case .allLists:
      return [
        (.lists, .lists, nil), (.browse, .lists, nil), (.generic, .lists, "Everywhere"),
        (.filter, .filter, "Typing a search"),
      ]
    case .planner:
      return [
        (.planner, .planner, nil), (.browse, .planner, nil),
        (.generic, .planner, "Everywhere"), (.filter, .filter, "Typing a search"),
      ]
    case .checklist:
      return [
        (.checklist, .checklist, nil), (.browse, .checklist, nil),
        (.generic, .checklist, "Everywhere"), (.filter, .filter, "Typing a filter"),
      ]
    case .itemForm:
      return [
        (.form, .form, nil), (.note, .note, "In the Notes field"),
        (.remind, .remind, "On the Remind Me row"), (.due, .due, "In the Due Date field"),
        (.repeat, .repeat, "On the Repeat row"), (.photo, .photo, "On the Photo row"),
        (.generic, .form, "Everywhere"),
      ]
    case .listForm:
      return [
        (.form, .form, nil), (.icon, .icon, "On the Icon row"), (.generic, .form, "Everywhere"),
      ]
    case .iconPicker, .listPicker, .repeatPicker:
      return [(.picker, .picker, nil), (.generic, .picker, "Everywhere")]
    case .photoPicker:
      return [(.photoPicker, .photoPicker, nil), (.generic, .photoPicker, "Everywhere")]
    case .messages:
      return []
    }
  }

  /// The messages view's lines: each message the status line showed, oldest first, wrapped to
  /// `width` columns (a problem's lines start with `!`).
  func messageLines(width: Int) -> [String] {
    var lines = ["Messages, newest last"]
    if session.messageLog.messages.isEmpty { lines += ["", "No messages yet"] }
    let room = max(width - 2, 1)
    for message in session.messageLog.messages {
      for (number, part) in Self.wrap(message.text, width: room).enumerated() {
        lines.append((number == 0 ? (message.isError ? "! " : "  ") : "  ") + part)
      }
    }
    return lines
  }

  /// Every key of a screen, "keys  what they do", from the key table, wrapped to `width`
  /// columns; a heading starts each part of the screen with keys of its own.
  func helpLines(_ context: HelpContext, width: Int) -> [String] {
    if context == .messages { return messageLines(width: width) }
    // Parts with a heading start a block; each block aligns its own key column.
    var blocks: [(heading: String?, entries: [(keys: String, what: String)])] = []
    for section in Self.helpSections(context) {
      var part: [(keys: String, what: String)] = []
      let rows = keys.rows(of: section.screen)
      func live(_ row: KeyTable.Row) -> [Key] {
        row.keys.filter { keys.action(for: $0, on: section.on) == row.action }
      }
      for row in rows {
        let own = live(row)
        guard !own.isEmpty else { continue }
        // A pair with as many keys each shows on one line: "Up/Down k/j  previous / next row".
        if let pair = Self.helpPairs.first(where: {
          $0.first == row.action || $0.second == row.action
        }),
          let first = rows.first(where: { $0.action == pair.first }).map(live)
            .map(Self.pairingOrder),
          let second = rows.first(where: { $0.action == pair.second }).map(live)
            .map(Self.pairingOrder),
          first.count == second.count,
          zip(first, second).allSatisfy({ Self.pairingKind($0) == Self.pairingKind($1) })
        {
          if row.action == pair.first {
            let keys = zip(first, second).map {
              KeyNotation.display($0) + "/" + KeyNotation.display($1)
            }
            part.append(Self.helpEntry(keys, pair.summary))
          }
          continue
        }
        part.append(Self.helpEntry(own.map(KeyNotation.display), row.action.summary))
      }
      if section.screen == .browse {
        part.append(("mouse", "click selects, a click on the selected row opens it, wheel scrolls"))
      }
      part += Self.fieldNotes(section.screen)
      if context == .itemForm && section.screen == .form { part += Self.priorityAndTagsNotes }
      part += Self.photoNotes(section.screen)
      if section.screen == .due {
        part.append(
          (
            "Due Date",
            "e.g. 2026-12-24 18:00, tomorrow 9am, fri, +2h; what was understood shows below; "
              + "empty: no due date (Remind Me needs one)"
          ))
      }
      guard !part.isEmpty else { continue }
      if section.heading == nil, !blocks.isEmpty {
        blocks[blocks.count - 1].entries += part
      } else {
        blocks.append((section.heading, part))
      }
      if section.screen == .form {
        blocks.append(("Editing text", Self.editingKeys))
      }
    }
    let title: String
    switch context {
    case .allLists: title = "All Lists"
    case .planner: title = "Today, Scheduled and search"
    case .checklist: title = "Checklist"
    case .itemForm: title = "Item"
    case .listForm: title = "List"
    case .iconPicker: title = "Icon"
    case .listPicker: title = "Move to List"
    case .repeatPicker: title = "Repeat"
    case .photoPicker: title = "Photo picker"
    case .messages: title = "Messages"
    }
    var lines = ["Keys: \(title)"]
    for block in blocks {
      lines.append("")
      if let heading = block.heading { lines.append(heading) }
      let keyWidth = block.entries.map { DisplayWidth.of($0.keys) }.max() ?? 0
      let indent = keyWidth + 4
      let room = width - indent
      for (keys, what) in block.entries {
        let pad = String(repeating: " ", count: max(keyWidth - DisplayWidth.of(keys), 0))
        let wrapped = room >= 12 ? Self.wrap(what, width: room) : [what]
        for (number, part) in wrapped.enumerated() {
          let head = number == 0 ? "  \(keys)\(pad)  " : String(repeating: " ", count: indent)
          lines.append(head + part)
        }
      }
    }
    return lines
  }

  /// A help line's keys column: the first key and as many more as fit in 13 columns; the rest
  /// are named after what they do, "(also Ctrl-B/Ctrl-F)".
  static func helpEntry(_ names: [String], _ what: String) -> (keys: String, what: String) {
    var shown: [String] = []
    var rest: [String] = []
    for name in names {
      let width = shown.map { DisplayWidth.of($0) + 1 }.reduce(0, +) + DisplayWidth.of(name)
      if shown.isEmpty || (rest.isEmpty && width <= 13) {
        shown.append(name)
      } else {
        rest.append(name)
      }
    }
    let also = rest.isEmpty ? "" : " (also \(rest.joined(separator: ", ")))"
    return (shown.joined(separator: " "), what + also)
  }

  /// Keys in the order they pair in: named keys (Up, PgUp…), then chords, then characters, each
  /// kind in its own order; so Up pairs with Down and k with j, whatever order a config bound
  /// them in.
  static func pairingOrder(_ keys: [Key]) -> [Key] {
    keys.enumerated().sorted {
      (pairingKind($0.element), $0.offset) < (pairingKind($1.element), $1.offset)
    }.map(\.element)
  }

  /// 0 for named keys, 1 for control chords, 2 for characters.
  static func pairingKind(_ key: Key) -> Int {
    switch key {
    case .character: return 2
    case .control: return 1
    default: return 0
    }
  }

  /// Actions the help shows on one line when their keys pair up.
  static let helpPairs: [(first: KeyAction, second: KeyAction, summary: String)] = [
    (.previous, .next, "previous / next row"), (.pageUp, .pageDown, "a page up / down"),
    (.halfPageUp, .halfPageDown, "half a page up / down"), (.first, .last, "first / last row"),
    (.moveDown, .moveUp, "move the item down / up (manual order only)"),
  ]

  /// The text field's readline keys (built into `TextField`, the same in every field).
  static let editingKeys: [(keys: String, what: String)] = [
    ("Left/Right", "move the cursor"),
    ("Home/End Ctrl-A/E", "start / end of the text"),
    ("Backspace/Delete", "delete before / at the cursor (also Ctrl-H / Ctrl-D)"),
    ("Ctrl-U / Ctrl-K", "delete to the start / to the end"),
    ("Ctrl-W", "delete the word before the cursor"),
  ]

  /// Splits text at spaces into lines of at most `width` columns (a longer word gets a line).
  static func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    var lineWidth = 0
    for word in text.split(separator: " ") {
      let wordWidth = DisplayWidth.of(String(word))
      if lineWidth > 0 && lineWidth + 1 + wordWidth > width {
        lines.append(line)
        line = ""
        lineWidth = 0
      }
      if lineWidth > 0 {
        line += " "
        lineWidth += 1
      }
      line += word
      lineWidth += wordWidth
    }
    if !line.isEmpty || lines.isEmpty { lines.append(line) }
    return lines
  }
}

/// A status-line hint: the keys of one or more actions and what they do together.
struct Hint: Equatable {
  /// The actions whose first keys show, joined by `/` (`J/K move`).
  var actions: [KeyAction]
  /// What the keys do, as the status line says it.
  var label: String
  /// The highest is dropped first when the line is too narrow (0: never).
  var dropRank: Int
}

extension ChecklistsApp {
  /// The most useful keys for the screen, for the status line, as many whole hints as fit in
  /// `width` columns (the least needed go first; the help hint stays).
  func hintText(width: Int) -> String {
    var hints = shownHints
    while hints.count > 1 {
      let text = hints.map(\.text).joined(separator: "  ")
      if DisplayWidth.of(text) <= width { return text }
      guard let drop = hints.indices.max(by: { hints[$0].dropRank < hints[$1].dropRank }) else {
        break
      }
      hints.remove(at: drop)
    }
    return hints.map(\.text).joined(separator: "  ")
  }

  /// The hints with their keys as they are bound in this exact state; a hint whose actions
  /// have no key here, or cannot act now, is left out.
  var shownHints: [(text: String, dropRank: Int, keys: [Key], actions: [KeyAction])] {
    let screen = keyScreen
    return screenHints.compactMap { hint in
      var names: [String] = []
      var shownKeys: [Key] = []
      var shownActions: [KeyAction] = []
      for action in hint.actions where canPerform(action) {
        guard let key = keys.keys(for: action, on: screen).first else { continue }
        names.append(KeyNotation.display(key))
        shownKeys.append(key)
        shownActions.append(action)
      }
      guard !names.isEmpty else { return nil }
      return (
        names.joined(separator: "/") + " " + hint.label, hint.dropRank, shownKeys, shownActions
      )
    }
  }

  /// Whether an action would do something in this state (hints show only those).
  func canPerform(_ action: KeyAction) -> Bool {
    for screen in stack.screens.reversed() {
      if let answer = screen.canPerform(action, in: self) { return answer }
    }
    switch action {
    case .undo: return !session.undoStack.isEmpty
    case .previous, .next: return true
    case .moveDown, .moveUp, .clearChecked, .moveToList, .sort: return false  // the lists' own
    case .messages: return !session.messageLog.messages.isEmpty
    default: return true
    }
  }

  /// The hints of the screen in display order, each with its drop rank. Keys come from the
  /// table (`shownHints`); the labels say what the keys do in this state.
  private var screenHints: [Hint] {
    for screen in stack.screens.reversed() {
      if let hints = screen.hints(in: self) { return hints }
    }
    return []  // All Lists is always on the stack and gives its own
  }
}
