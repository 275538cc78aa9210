import CNcursesw
import ChecklistsUI

/// Maps the key codes curses decodes (`KEY_CODE_YES`) to `Key`.
enum CursesKeys {
  /// The key for a curses key code; `name` (from `keyname`) places keys with modifiers, such as
  /// `kUP5` for Ctrl-Up, as the plain key. Nil for keys the program has no use for.
  static func key(forCode code: Int32, name: String) -> Key? {
    switch code {
    case KEY_UP: return .up
    case KEY_DOWN: return .down
    case KEY_LEFT: return .left
    case KEY_RIGHT: return .right
    case KEY_HOME: return .home
    case KEY_END: return .end
    case KEY_PPAGE: return .pageUp
    case KEY_NPAGE: return .pageDown
    case KEY_DC: return .delete
    case KEY_BACKSPACE: return .backspace
    case KEY_ENTER: return .enter
    case KEY_BTAB: return .backTab
    default: break
    }
    let first = cn_key_f(1)
    if code >= first && code <= first + 11 { return .function(Int(code - first + 1)) }
    return modifiedKey(name: name)
  }

  /// Arrows and Home/End with modifiers, which curses names `kUP3`, `kLFT5`, `kEND6` and so on.
  static func modifiedKey(name: String) -> Key? {
    let table: [(String, Key)] = [
      ("kUP", .up), ("kDN", .down), ("kLFT", .left), ("kRIT", .right), ("kHOM", .home),
      ("kEND", .end), ("kPRV", .pageUp), ("kNXT", .pageDown), ("kDC", .delete),
    ]
    for (prefix, key) in table where name.hasPrefix(prefix) {
      let rest = name.dropFirst(prefix.count)
      if !rest.isEmpty && rest.allSatisfy(\.isNumber) { return key }
    }
    return nil
  }
}
