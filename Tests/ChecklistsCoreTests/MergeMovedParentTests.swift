import Foundation
import Testing

@testable import ChecklistsCore

/// The three-way merge when a parent moved to another list on one side: the subtasks the other
/// side kept or added under it in the old list go with it, and the report says so.
@Suite struct MergeMovedParentTests {
  static func item(_ text: String, _ id: Int, parent: Int? = nil) -> ChecklistItem {
    var item = ChecklistItem(text: text, itemID: id)
    item.parentItemID = parent
    return item
  }

  /// Home: Trip ▸ Passport, Groceries. Work: Report.
  static func base() -> DataModel {
    DataModel(lists: [
      Checklist(
        name: "Home",
        items: [item("Trip", 1), item("Passport", 2, parent: 1), item("Groceries", 3)]),
      Checklist(name: "Work", items: [item("Report", 4)]),
    ])
  }

  /// `model` with the subtree at `index` of the first list moved to the second.
  static func moved(_ model: DataModel, at index: Int) throws -> DataModel {
    var model = model
    let changes = try #require(
      model.moveSubtree(listID: model.lists[0].id, at: index, toListID: model.lists[1].id))
    for change in changes { model.apply(change) }
    return model
  }

  @Test func aParentMovedElsewhereTakesTheSubtaskAddedHere() throws {
    let base = Self.base()
    var ours = base
    // Here: a new subtask under Trip.
    if let change = ours.insertItem(
      Self.item("Tickets", 5, parent: 1), listID: ours.lists[0].id, at: 2)
    {
      ours.apply(change)
    }
    // Elsewhere: Trip (with Passport) moved to Work.
    let theirs = try Self.moved(base, at: 0)
    #expect(theirs.lists[1].items.map(\.text) == ["Report", "Trip", "Passport"])
    let result = ModelMerge.merge(
      base: base, ours: ours, theirs: DataModel(lists: theirs.lists).lists)
    let home = try #require(result.model.lists.first { $0.name == "Home" })
    let work = try #require(result.model.lists.first { $0.name == "Work" })
    #expect(home.items.map(\.text) == ["Groceries"])
    #expect(work.items.map(\.text) == ["Report", "Trip", "Passport", "Tickets"])
    #expect(work.depths() == [0, 0, 1, 1])
    #expect(
      result.report.movedWithParents.map(\.text) == ["Tickets"]
        && result.report.movedWithParents.first?.reason == "moved with its parent to list \"Work\"")
    #expect(
      result.report.logLines(stamp: "T", file: "F").contains(
        "T F: list \"Home\", item \"Tickets\": moved with its parent to list \"Work\""))
  }

  @Test func aSubtaskMovedAloneToAnotherListStaysThereTopLevel() throws {
    let base = Self.base()
    // Elsewhere: Passport moved alone to Work (it becomes top-level there).
    let theirs = try Self.moved(base, at: 1)
    let result = ModelMerge.merge(
      base: base, ours: base, theirs: DataModel(lists: theirs.lists).lists)
    let work = try #require(result.model.lists.first { $0.name == "Work" })
    #expect(work.items.map(\.text) == ["Report", "Passport"])
    #expect(work.items.allSatisfy { $0.parentItemID == nil })
    #expect(result.report.movedWithParents.isEmpty)
  }

  @Test func aParentDeletedElsewhereLeavesItsSubtaskTopLevelWhereItIs() throws {
    let base = Self.base()
    var theirs = base
    if let change = theirs.deleteItem(listID: theirs.lists[0].id, at: 0) { theirs.apply(change) }
    let result = ModelMerge.merge(
      base: base, ours: base, theirs: DataModel(lists: theirs.lists).lists)
    let home = try #require(result.model.lists.first { $0.name == "Home" })
    #expect(home.items.map(\.text) == ["Passport", "Groceries"])
    #expect(home.items[0].parentItemID == nil)
    #expect(result.report.movedWithParents.isEmpty)
  }
}
