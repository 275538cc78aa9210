import ChecklistsCore

extension KeyTable {
  /// The default table with a configuration's `bind` lines applied, and every problem of the
  /// file (its unreadable lines and the `bind` lines that could not be applied), by line.
  ///
  /// A bad line never stops the others: `bind checklist n add-item` adds `n` to the action (the
  /// key leaves any other action of that screen), `bind checklist d none` unbinds `d` there.
  public static func configured(by config: ConfigFile) -> (
    table: KeyTable, problems: [ConfigProblem]
  ) {
    var table = KeyTable.defaults
    var problems = config.problems
    // The line that bound each key on each screen, to warn when a later line binds it again.
    var boundAt: [BoundKey: ConfigFile.Binding] = [:]
    for binding in config.bindings {
      let before = table
      if let problem = table.apply(binding) {
        problems.append(problem)
      } else if let lost = table.lostWayOut() {
        // A line that leaves no way out of a screen is not applied.
        table = before
        problems.append(
          ConfigProblem(
            line: binding.line,
            message: "\(binding.key) on \(binding.screen) would leave no key to \(lost) (bind "
              + "another key to it first)"))
      } else if let screen = KeyScreen(rawValue: binding.screen),
        let key = KeyNotation.parse(binding.key)
      {
        let place = BoundKey(screen: screen, key: key)
        if let earlier = boundAt[place] {
          problems.append(
            ConfigProblem(
              line: binding.line,
              message: "\(binding.key) on \(binding.screen) is bound twice: line \(earlier.line) "
                + "binds it to \(earlier.action), line \(binding.line) to \(binding.action) "
                + "(line \(binding.line) is in force)"))
        }
        boundAt[place] = binding
      }
    }
    problems.sort { $0.line < $1.line }
    return (table, problems)
  }

  /// A key on a screen, as two `bind` lines may name it (`<Space>` and ` ` are one key).
  private struct BoundKey: Hashable {
    var screen: KeyScreen
    var key: Key
  }

  /// What no key does any more of the ways out a user needs: quitting from All Lists (or
  /// Ctrl-C), finishing and cancelling a form, closing help; nil when every one has a key.
  func lostWayOut() -> String? {
    let needs: [(screen: KeyScreen, actions: [KeyAction], words: String)] = [
      (.lists, [.quit, .interrupt], "quit from All Lists"),
      (.form, [.done], "finish a form"),
      (.form, [.cancel], "cancel a form"),
      (.help, [.closeHelp, .help], "close help"),
    ]
    return needs.first { need in
      need.actions.allSatisfy { keys(for: $0, on: need.screen).isEmpty }
    }?.words
  }

  /// Applies one `bind` line; returns why it cannot be applied, if so.
  mutating func apply(_ binding: ConfigFile.Binding) -> ConfigProblem? {
    func problem(_ message: String) -> ConfigProblem {
      ConfigProblem(line: binding.line, message: message)
    }
    guard let screen = KeyScreen(rawValue: binding.screen) else {
      let known = KeyScreen.allCases.map(\.rawValue).joined(separator: ", ")
      return problem("unknown screen '\(shown(binding.screen))' (screens: \(known))")
    }
    guard let key = KeyNotation.parse(binding.key) else {
      return problem(
        "'\(shown(binding.key))' is not a key (write n, N, <C-n>, <Down>, <Enter>, <Space>, "
          + "<F1>…; see checklists keys)")
    }
    // Ctrl-H, -I, -J and -M reach the app as Backspace, Tab and Enter: binding one would
    // silently rebind that key.
    if case .control = key {
    } else if binding.key.lowercased().hasPrefix("<c-") {
      let same = KeyNotation.notation(key)
      return problem(
        "\(shown(binding.key)) is the same key as \(same) to a terminal (it sends the same "
          + "byte); write \(same) to bind that key")
    }
    if binding.action == "none" {
      bind(key, to: nil, on: screen)
      return nil
    }
    guard let action = KeyAction(rawValue: binding.action) else {
      return problem(
        "unknown action '\(shown(binding.action))' (checklists keys lists them; none unbinds)")
    }
    let screens = Self.screens(for: action)
    guard screens.contains(screen) else {
      let places = screens.map(\.rawValue).joined(separator: ", ")
      return problem(
        "\(action.rawValue) does nothing on \(screen.rawValue) (it works on \(places))")
    }
    // `+` and `-` give way only to keys that make the field read as another date: a letter,
    // a digit or an editing key (Backspace, Ctrl-U, Left…) taken by them could no longer type
    // `today` or put right a date the field holds.
    if KeyNotation.isTextEditing(key, on: screen), action == .dayLater || action == .dayEarlier,
      !KeyNotation.isSign(key)
    {
      return problem(
        "\(binding.key) on \(screen.rawValue) would stop dates being typed and edited in the "
          + "Due Date field (bind a sign such as + or -, a Ctrl chord such as <C-n>, or an F key)")
    }
    if KeyNotation.isTextEditing(key, on: screen) && !action.givesWayToTyping {
      return problem(
        "\(binding.key) on \(screen.rawValue) would shadow typing in a text field "
          + "(bind a Ctrl chord such as <C-n>, an F key, <Enter>, <Esc>, <Tab>, <Up> or <Down>)")
    }
    bind(key, to: action, on: screen)
    return nil
  }

  /// A word from the file as a message shows it.
  private func shown(_ word: String) -> String {
    String(
      word.unicodeScalars.prefix(40).map { scalar in
        scalar.value < 0x20 || scalar.value == 0x7F ? "?" : Character(scalar)
      })
  }
}

extension ConfigProblem {
  /// The status line at start when the configuration has problems: the first one, and with
  /// several how many and how to see them all, first, so that a narrow status line cuts the
  /// problem's end rather than the count; nil when there are none.
  public static func statusLine(for problems: [ConfigProblem]) -> String? {
    guard let first = problems.first else { return nil }
    guard problems.count > 1 else { return "\(first) (the rest of the config is in force)" }
    return "\(problems.count) config problems (checklists config --check); \(first)"
  }
}
