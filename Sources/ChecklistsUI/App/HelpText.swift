extension ChecklistsApp {
  /// Every key of a screen, "keys  what they do", wrapped to `width` columns.
  func helpLines(_ context: HelpContext, width: Int) -> [String] {
    let everywhere: [(String, String)] = [
      ("q", "quit (saves first; in a form q is text or does nothing: Enter saves, Esc cancels)"),
      ("Ctrl-C", "quit (in a form it keeps the form open and says so; a second one quits)"),
      ("Ctrl-S", "save now"),
      ("Ctrl-Z", "suspend (fg resumes)"),
      ("? F1", "this help (Esc, q, ? or F1 closes it; in a text field only F1 opens it)"),
    ]
    let moving: [(String, String)] = [
      ("Up/Down k/j", "previous / next row"),
      ("PgUp/PgDn", "page up / down (also Ctrl-B/Ctrl-F)"),
      ("Ctrl-U/D", "half a page up / down"),
      ("Home/End g/G", "first / last row"),
      ("/", "filter as you type (Enter keeps it, Esc clears it)"),
      ("u", "undo the last change (shows where it happened)"),
      ("Ctrl-R", "redo"),
      ("r", "show the item of the latest reminder"),
      ("mouse", "click selects, a click on the selected row opens it, wheel scrolls"),
    ]
    let editing: [(String, String)] = [
      ("Left/Right", "move the cursor"),
      ("Home/End Ctrl-A/E", "start / end of the text"),
      ("Backspace/Delete", "delete before / at the cursor"),
      ("Ctrl-U / Ctrl-K", "delete to the start / to the end"),
      ("Ctrl-W", "delete the word before the cursor"),
      ("Tab/Shift-Tab Up/Down", "next / previous field"),
    ]
    var pairs: [(String, String)]
    var title: String
    switch context {
    case .allLists:
      title = "All Lists"
      pairs =
        [
          ("Enter l Right", "open the list"),
          ("a", "add a list"),
          ("e", "edit the list's name and icon"),
          ("d Delete", "delete the list (asks y/n; u undoes)"),
          ("Esc", "clear the filter"),
        ] + moving + everywhere
    case .checklist:
      title = "Checklist"
      pairs =
        [
          ("Space x", "check / uncheck the item (or click its check mark)"),
          ("a", "add an item"),
          ("e Enter", "edit the item"),
          ("d Delete", "delete the item (u undoes; a second d within 0.5 s is ignored)"),
          ("J / K", "move the item down / up (manual order only)"),
          ("s", "sort by due date (items with a due date first) / manual order"),
          ("Esc h Left", "back to All Lists (Esc clears a filter first)"),
        ] + moving + everywhere
    case .itemForm:
      title = "Item"
      pairs =
        [
          ("Enter", "done (refused while the text is empty or the date unreadable)"),
          ("Esc", "cancel, changing nothing"),
          ("Space", "switch Remind Me on / off (on its row)"),
          ("+ / -", "due date a day later / earlier (when the field holds a date)"),
          (
            "Due Date",
            "e.g. 2026-12-24 18:00, tomorrow 9am, fri, +2h; what was understood shows below; "
              + "empty: no due date (Remind Me needs one)"
          ),
        ] + editing + everywhere
    case .listForm:
      title = "List"
      pairs =
        [
          ("Enter", "done (on the Name field; refused while the name is empty)"),
          ("Enter Space", "choose an icon (on the Icon row)"),
          ("Esc", "cancel, changing nothing"),
        ] + editing + everywhere
    case .iconPicker:
      title = "Icon"
      pairs =
        [
          ("Up/Down k/j", "previous / next icon"),
          ("Enter Space", "pick the icon"),
          ("Esc", "back without picking"),
        ] + everywhere
    }
    let keyWidth = pairs.map { DisplayWidth.of($0.0) }.max() ?? 0
    var lines = ["Keys: \(title)", ""]
    let indent = keyWidth + 4
    let room = width - indent
    for (keys, what) in pairs {
      let pad = String(repeating: " ", count: max(keyWidth - DisplayWidth.of(keys), 0))
      let wrapped = room >= 12 ? Self.wrap(what, width: room) : [what]
      for (number, part) in wrapped.enumerated() {
        let head = number == 0 ? "  \(keys)\(pad)  " : String(repeating: " ", count: indent)
        lines.append(head + part)
      }
    }
    return lines
  }

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

  /// The most useful keys for the screen, for the status line, as many whole hints as fit in
  /// `width` columns (the least needed go first; "? help" stays).
  func hintText(width: Int) -> String {
    var hints = screenHints
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

  /// The hints of the screen in display order, each with its rank: the highest is dropped first
  /// when the line is too narrow (0: never). Each is true of the exact state: only keys that
  /// do something here, as they do it now.
  private var screenHints: [(text: String, dropRank: Int)] {
    if help != nil { return [("Esc close", 0), ("Up/Down scroll", 1)] }
    switch form {
    case .item(let form):
      switch form.focus {
      case .remind:
        return [
          ("Space switch", 0), ("Enter done", 0), ("Esc cancel", 0), ("Tab next field", 2),
          ("? help", 1),
        ]
      case .due:
        var hints: [(String, Int)] = [("Enter done", 0), ("Esc cancel", 0)]
        if form.dueDate != nil { hints.append(("+/- a day", 1)) }
        return hints + [("Tab next field", 3), ("F1 help", 2)]
      case .text:
        return [("Enter done", 0), ("Esc cancel", 0), ("Tab next field", 2), ("F1 help", 1)]
      }
    case .list(let form):
      if form.picker != nil { return [("Enter pick", 0), ("Esc back", 0), ("? help", 1)] }
      if form.focus == .icon {
        return [("Enter choose icon", 0), ("Esc cancel", 0), ("Tab name", 2), ("? help", 1)]
      }
      return [("Enter done", 0), ("Esc cancel", 0), ("Tab icon", 2), ("F1 help", 1)]
    case nil: break
    }
    let undo: [(String, Int)] = undoStack.isEmpty ? [] : [("u undo", 7)]
    if let open, let list = dataModel.list(withID: open.listID) {
      let filtered = open.browser.filter != nil
      let escape = filtered ? ("Esc clear filter", 3) : ("Esc back", 3)
      guard open.browser.rowCount(total: list.items.count) > 0 else {
        return [("a add", 1)] + undo + [escape, ("? help", 0)]
      }
      var hints: [(String, Int)] = [
        ("Space check", 1), ("a add", 2), ("e edit", 4), ("d delete", 5),
      ]
      if open.dueOrder == nil && list.items.count > 1 {
        hints.append(("J/K move", 9))
        hints.append(("s by due date", 8))
      } else if open.dueOrder != nil {
        hints.append(("s manual order", 8))
      }
      return hints + [("/ filter", 6)] + undo + [escape, ("? help", 0)]
    }
    guard allLists.rowCount(total: dataModel.lists.count) > 0 else {
      return [("a add", 1)] + undo + [("q quit", 3), ("? help", 0)]
    }
    return [("Enter open", 1), ("a add", 2), ("e edit", 4), ("d delete", 5), ("/ filter", 6)]
      + undo + [("q quit", 3), ("? help", 0)]
  }
}
