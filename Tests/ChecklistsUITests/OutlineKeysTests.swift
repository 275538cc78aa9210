import ChecklistsCore
import Foundation
import Testing

@testable import ChecklistsUI

/// The outline's keys on a Checklist: in the table, each key once, none shadowing another.
@Suite struct OutlineKeysTests {
  static let actions: [KeyAction] = [
    .indent, .outdent, .toggleFold, .foldAll, .unfoldAll, .cyclePriority,
  ]

  @Test func everyOutlineActionHasKeysOnTheChecklist() {
    let table = KeyTable.defaults
    let expected: [KeyAction: [Key]] = [
      .indent: [.character(">"), .tab], .outdent: [.character("<"), .backTab],
      .toggleFold: [.character("o")], .foldAll: [.character("-")],
      .unfoldAll: [.character("+")], .cyclePriority: [.character("!")],
    ]
    for action in Self.actions {
      #expect(!action.label.isEmpty && !action.summary.isEmpty)
      for key in expected[action] ?? [] {
        #expect(table.action(for: key, on: .checklist) == action, "\(action)")
        #expect(KeyNotation.parse(KeyNotation.notation(key)) == key)
      }
    }
  }

  /// Each of their keys is bound once on the checklist screen, and none of them is taken from
  /// another action there or on its fallbacks.
  @Test func theirKeysShadowNothing() {
    let table = KeyTable.defaults
    let keys = table.rows(of: .checklist).filter { Self.actions.contains($0.action) }
      .flatMap(\.keys)
    #expect(Set(keys).count == keys.count)
    for screen in KeyScreen.checklist.lookupOrder {
      for row in table.rows(of: screen) where !Self.actions.contains(row.action) {
        #expect(Set(row.keys).isDisjoint(with: keys), "\(row.action) on \(screen)")
      }
    }
  }
}
