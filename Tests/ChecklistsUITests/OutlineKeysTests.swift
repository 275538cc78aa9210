import ChecklistsCore
import Foundation
import Testing

@testable import ChecklistsUI

/// The outline's keys, waiting for the checklist screen to perform them: free where they will
/// go, and not claimed by the table yet.
@Suite struct OutlineKeysTests {
  @Test func everyOutlineActionHasKeysOnTheChecklist() {
    for action in OutlineKeyAction.allCases {
      let rows = KeyTable.outlineKeys.filter { $0.action == action }
      #expect(rows.count == 1, "\(action)")
      #expect(rows.allSatisfy { $0.screen == .checklist && !$0.keys.isEmpty }, "\(action)")
      #expect(!action.label.isEmpty && !action.summary.isEmpty)
    }
  }

  /// Their names are new `bind` names, and their keys are free on the checklist screen and its
  /// fallbacks (so adding them to the defaults shadows nothing), each once.
  @Test func namesAndKeysAreFree() {
    let table = KeyTable.defaults
    for action in OutlineKeyAction.allCases {
      #expect(KeyAction(rawValue: action.rawValue) == nil, "\(action.rawValue)")
    }
    var seen = Set<Key>()
    for row in KeyTable.outlineKeys {
      #expect(!row.screen.hasTextEntry)
      for key in row.keys {
        #expect(seen.insert(key).inserted, "\(KeyNotation.notation(key)) twice")
        #expect(
          table.action(for: key, on: row.screen) == nil,
          "\(KeyNotation.notation(key)) is taken on \(row.screen)")
        #expect(KeyNotation.parse(KeyNotation.notation(key)) == key)
      }
    }
  }

  /// Until then the app claims none of them: help, hints and the docs (all read the table)
  /// show nothing for them.
  @Test func theTableDoesNotClaimThemYet() {
    let keys = KeyTable.outlineKeys.flatMap(\.keys)
    for screen in KeyScreen.checklist.lookupOrder {
      for row in KeyTable.defaults.rows(of: screen) {
        #expect(Set(row.keys).isDisjoint(with: keys), "\(row.action) on \(screen)")
      }
    }
  }
}
