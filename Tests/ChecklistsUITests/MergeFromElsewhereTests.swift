import Foundation
import Testing

@testable import ChecklistsCore
@testable import ChecklistsUI

/// Merges from elsewhere (a sync pass, another program): the counts of those that come one
/// after another before the user has read the status line add up, and a list deleted
/// elsewhere comes back with undo.
@Suite struct MergeFromElsewhereTests {
  /// A merge of `model` whose report counts `changes` changes, `deletions` of them deletions.
  static func merge(
    _ model: DataModel, changes: Int, deletions: Int = 0, conflicts: Int = 0
  ) -> InputEvent {
    var report = MergeReport()
    report.changesFromElsewhere = changes
    report.deletionsFromElsewhere = deletions
    report.conflicts = Array(
      repeating: MergeConflict(place: "list \"Groceries\"", field: "name", kept: "a", other: "b"),
      count: conflicts)
    return .mergedFromElsewhere(
      MergedLists(
        model: model, matchesFile: true, report: report,
        logName: "Checklists.plist.conflicts.log"),
      message: "")
  }

  /// A rename, a check and a deletion came in by three passes: the line said only the last
  /// one ("1 deletion made elsewhere merged").
  @Test func thePassesMergedBeforeTheLineWasReadAddUp() {
    var app = makeApp()
    var model = app.dataModel
    _ = app.handle(Self.merge(model, changes: 1), now: testNow)
    #expect(app.statusMessage == "1 change made elsewhere merged")
    _ = app.handle(Self.merge(model, changes: 1), now: testNow)
    #expect(app.statusMessage == "2 changes made elsewhere merged")
    model.lists.removeLast()
    _ = app.handle(Self.merge(model, changes: 1, deletions: 1), now: testNow)
    #expect(app.statusMessage == "3 changes made elsewhere merged (1 of them a deletion)")
    // A conflict and the pass's own words come after the counts.
    _ = app.handle(
      .mergedFromElsewhere(
        MergedLists(
          model: model, matchesFile: true,
          report: {
            var report = MergeReport()
            report.changesFromElsewhere = 1
            report.conflicts = [
              MergeConflict(place: "list \"Chores\"", field: "name", kept: "a", other: "b")
            ]
            return report
          }(), logName: "Checklists.plist.conflicts.log"),
        message: "Sync: 1 conflict"),
      now: testNow)
    #expect(
      app.statusMessage
        == "4 changes made elsewhere merged (1 of them a deletion); 1 conflict: kept your change "
        + "(details in Checklists.plist.conflicts.log); Sync: 1 conflict")
  }

  /// Once the line was read (a key cleared it, or another message replaced it), the next merge
  /// counts from nothing.
  @Test func aMergeAfterTheLineWasReadCountsAfresh() {
    var app = makeApp()
    let model = app.dataModel
    _ = app.handle(Self.merge(model, changes: 2), now: testNow)
    app.press(.character("j"))
    #expect(app.statusMessage == nil)
    _ = app.handle(Self.merge(model, changes: 1, deletions: 1), now: testNow)
    #expect(app.statusMessage == "1 deletion made elsewhere merged")
    _ = app.handle(.notice("Sync: broken.ics: not a valid iCalendar file"), now: testNow)
    _ = app.handle(Self.merge(model, changes: 1), now: testNow)
    #expect(app.statusMessage == "1 change made elsewhere merged")
  }

  /// A merge with nothing to count says the event's own words (the store's "changed
  /// elsewhere; nothing to merge"), after any counts still unread.
  @Test func aMergeWithNothingToCountKeepsTheUnreadCounts() {
    var app = makeApp()
    let model = app.dataModel
    _ = app.handle(
      .mergedFromElsewhere(
        MergedLists(model: model, matchesFile: true),
        message: "Checklists.plist was changed elsewhere; nothing to merge"),
      now: testNow)
    #expect(app.statusMessage == "Checklists.plist was changed elsewhere; nothing to merge")
    _ = app.handle(Self.merge(model, changes: 2), now: testNow)
    _ = app.handle(
      .mergedFromElsewhere(
        MergedLists(model: model, matchesFile: true), message: "Sync: 1 file skipped"),
      now: testNow)
    #expect(app.statusMessage == "2 changes made elsewhere merged; Sync: 1 file skipped")
  }

  /// A list deleted elsewhere (its folder removed from the vdir and the pass merged) comes back
  /// with `u`, items and all; redo deletes it again.
  @Test func aListDeletedElsewhereComesBackWithUndo() {
    var app = makeApp()
    var model = app.dataModel
    let trips = model.lists[2]
    model.lists.removeLast()
    _ = app.handle(Self.merge(model, changes: 1, deletions: 1), now: testNow)
    #expect(app.dataModel.lists.map(\.name) == ["Chores", "Groceries"])
    app.press(.character("u"))
    #expect(app.statusMessage == "Undid: delete list \"Trips\"")
    #expect(app.dataModel.lists.map(\.name) == ["Chores", "Groceries", "Trips"])
    #expect(app.dataModel.lists.last?.items == trips.items)
    #expect(app.isDirty)
    app.press(.control("r"))
    #expect(app.dataModel.lists.map(\.name) == ["Chores", "Groceries"])
  }
}
