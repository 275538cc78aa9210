/// The written forms of a key: the configuration notation (`n`, `<C-n>`, `<Down>`) and the
/// names the help screen and the status line show (`n`, `Ctrl-N`, `Down`).
///
/// Notation: a printable character stands for itself (`n`, `N`, `+`, `日`); the rest are named in
/// angle brackets, in any case: `<Space>`, `<Hash>` (`#` starts a comment), `<lt>` (`<`),
/// `<Enter>`, `<Esc>`, `<Tab>`, `<S-Tab>`, `<BS>`, `<Del>`, `<Up>`, `<Down>`, `<Left>`, `<Right>`,
/// `<Home>`, `<End>`, `<PgUp>`, `<PgDn>`, `<F1>`…`<F12>`, and `<C-a>`…`<C-z>` for Ctrl chords.
/// Terminals send Ctrl-H, Ctrl-I, Ctrl-J and Ctrl-M as Backspace, Tab and Enter, so those
/// chords are read as those keys.
enum KeyNotation {
  /// The named keys, canonical name first for each key; matched in any case.
  static let names: [(String, Key)] = [
    ("Space", .character(" ")), ("Hash", .character("#")), ("lt", .character("<")),
    ("Enter", .enter), ("CR", .enter), ("Return", .enter), ("Esc", .escape), ("Escape", .escape),
    ("Tab", .tab), ("S-Tab", .backTab), ("BackTab", .backTab), ("BS", .backspace),
    ("Backspace", .backspace), ("Del", .delete), ("Delete", .delete), ("Up", .up),
    ("Down", .down), ("Left", .left), ("Right", .right), ("Home", .home), ("End", .end),
    ("PgUp", .pageUp), ("PageUp", .pageUp), ("PgDn", .pageDown), ("PageDown", .pageDown),
  ]

  /// Reads a key written in the notation; nil when it names no key.
  static func parse(_ text: String) -> Key? {
    if text.count == 1, let character = text.first {
      guard !character.unicodeScalars.contains(where: { SafeText.isControl($0.value) }),
        character != " "
      else { return nil }
      return .character(character)
    }
    guard text.hasPrefix("<"), text.hasSuffix(">"), text.count > 2 else { return nil }
    let inner = String(text.dropFirst().dropLast())
    let lower = inner.lowercased()
    if let named = names.first(where: { $0.0.lowercased() == lower }) { return named.1 }
    if lower.hasPrefix("f"), let number = Int(lower.dropFirst()), (1...12).contains(number),
      !lower.dropFirst().hasPrefix("0")
    {
      return .function(number)
    }
    if lower.hasPrefix("c-"), lower.count == 3, let letter = lower.last,
      let ascii = letter.asciiValue, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(ascii)
    {
      switch letter {
      case "h": return .backspace
      case "i": return .tab
      case "j", "m": return .enter
      default: return .control(letter)
      }
    }
    return nil
  }

  /// The key in the notation, as `checklists keys` prints it and a config line may write it.
  static func notation(_ key: Key) -> String {
    switch key {
    case .character(let character):
      if let named = names.first(where: { $0.1 == key }) { return "<\(named.0)>" }
      return String(character)
    case .control(let letter): return "<C-\(letter)>"
    case .function(let number): return "<F\(number)>"
    default:
      return names.first(where: { $0.1 == key }).map { "<\($0.0)>" } ?? "<?>"
    }
  }

  /// The key as the help screen and the status line name it: `x`, `Space`, `Ctrl-R`, `PgDn`.
  static func display(_ key: Key) -> String {
    switch key {
    case .character(" "): return "Space"
    case .character(let character): return SafeText.sanitized(String(character))
    case .control(let letter): return "Ctrl-\(letter.uppercased())"
    case .function(let number): return "F\(number)"
    case .enter: return "Enter"
    case .escape: return "Esc"
    case .tab: return "Tab"
    case .backTab: return "Shift-Tab"
    case .backspace: return "Backspace"
    case .delete: return "Delete"
    case .up: return "Up"
    case .down: return "Down"
    case .left: return "Left"
    case .right: return "Right"
    case .home: return "Home"
    case .end: return "End"
    case .pageUp: return "PgUp"
    case .pageDown: return "PgDn"
    }
  }

  /// Whether a text field takes the key as typing or editing (a printable character, the
  /// cursor keys, Backspace, readline's Ctrl chords): asked of `TextField` itself.
  static func isTextEditing(_ key: Key) -> Bool {
    var field = TextField("ab")
    return field.handle(key)
  }

  /// Whether the key types a sign: a printable character that is no letter, digit or space.
  static func isSign(_ key: Key) -> Bool {
    guard case .character(let character) = key else { return false }
    return !character.isLetter && !character.isNumber && !character.isWhitespace
  }

  /// Whether the key is typing or editing in the text field `screen` may focus (the Notes
  /// field's own field on `note`, where Ctrl-D is no editing key); false where none can be.
  static func isTextEditing(_ key: Key, on screen: KeyScreen) -> Bool {
    guard screen.hasTextEntry else { return false }
    guard screen == .note else { return isTextEditing(key) }
    var field = TextField("ab\ncd", multiline: true)
    return field.handle(key)
  }
}
