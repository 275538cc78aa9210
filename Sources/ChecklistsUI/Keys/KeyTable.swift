/// The one table of keys: which key does which action on which screen.
///
/// Dispatch (`ChecklistsApp.handleKey`), the help screen, the status-line hints,
/// `checklists keys` and the key sections of the README and the man page all read it, so they
/// cannot disagree. A user's `bind` lines change a copy of `defaults` (`applying(_:)`).
public struct KeyTable: Equatable, Sendable {
  /// One line of the table: an action's keys on one screen.
  struct Row: Equatable, Sendable {
    /// Where the keys work.
    var screen: KeyScreen
    /// What they do.
    var action: KeyAction
    /// The keys, the one hints show first.
    var keys: [Key]
  }

  /// The rows, in the order help and docs list them.
  private(set) var rows: [Row]
  /// Keys unbound on a screen (`bind SCREEN KEY none`): the lookup stops there.
  private(set) var unbound: [KeyScreen: Set<Key>] = [:]
  private var index: [KeyScreen: [Key: KeyAction]] = [:]

  /// A table of these rows.
  init(_ rows: [Row]) {
    self.rows = rows
    reindex()
  }

  private mutating func reindex() {
    index = [:]
    for row in rows {
      for key in row.keys where index[row.screen, default: [:]][key] == nil {
        index[row.screen, default: [:]][key] = row.action
      }
    }
  }

  /// The action a key does on `screen` (looking in its fallbacks too), nil when none.
  func action(for key: Key, on screen: KeyScreen) -> KeyAction? {
    for place in screen.lookupOrder {
      if let action = index[place]?[key] { return action }
      if unbound[place]?.contains(key) == true { return nil }
    }
    return nil
  }

  /// The keys that do `action` on `screen` (its fallbacks included), in table order.
  func keys(for action: KeyAction, on screen: KeyScreen) -> [Key] {
    var found: [Key] = []
    for place in screen.lookupOrder {
      for row in rows where row.screen == place && row.action == action {
        for key in row.keys
        where !found.contains(key) && self.action(for: key, on: screen) == action {
          found.append(key)
        }
      }
    }
    return found
  }

  /// The first key of `action` on `screen` as shown on screen (`Space`, `Ctrl-R`), if bound.
  func keyName(_ action: KeyAction, on screen: KeyScreen) -> String? {
    keys(for: action, on: screen).first.map(KeyNotation.display)
  }

  /// The rows of one screen (its own, not its fallbacks'), without empty ones.
  func rows(of screen: KeyScreen) -> [Row] {
    rows.filter { $0.screen == screen && !$0.keys.isEmpty }
  }

  /// The screens an action means something on: where it is bound by default, and the screens
  /// that fall back to those.
  static func screens(for action: KeyAction) -> [KeyScreen] {
    let homes = Set(defaults.rows.filter { $0.action == action }.map(\.screen))
    return KeyScreen.allCases.filter { screen in
      screen.lookupOrder.contains { homes.contains($0) }
    }
  }

  /// Binds `key` to `action` on `screen` (nil unbinds it there); the key leaves any other
  /// action of that screen.
  mutating func bind(_ key: Key, to action: KeyAction?, on screen: KeyScreen) {
    for position in rows.indices where rows[position].screen == screen {
      rows[position].keys.removeAll { $0 == key }
    }
    if let action {
      unbound[screen]?.remove(key)
      if let position = rows.firstIndex(where: { $0.screen == screen && $0.action == action }) {
        rows[position].keys.append(key)
      } else {
        rows.append(Row(screen: screen, action: action, keys: [key]))
      }
    } else {
      unbound[screen, default: []].insert(key)
    }
    reindex()
  }
}
