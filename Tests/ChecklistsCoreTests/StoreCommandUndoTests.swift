import Foundation
import Testing

@testable import ChecklistsCore

@Suite("Store: a command's change, kept and taken back in a later process")
struct StoreCommandUndoTests {
  /// A list of `count` items, every other one checked.
  static func model(_ count: Int) -> DataModel {
    var list = Checklist(name: "Big")
    for id in 1...count {
      list.insertItem(ChecklistItem(text: "item \(id)", checked: id % 2 == 0, itemID: id))
    }
    return DataModel(lists: [list, Checklist(name: "Other")])
  }

  /// Clearing 10,000 checked items of 20,000 comes back whole and in order, each list's items
  /// in one pass, after a trip through the log's encoding.
  @Test func aBigClearComesBackInOrderThroughTheLog() throws {
    let before = Self.model(20_000)
    var after = before
    let listID = before.lists[0].id
    let checked = before.lists[0].items.indices.filter { before.lists[0].items[$0].checked }
    let changes = checked.reversed().map {
      ModelChange.deleteItem(listID: listID, index: $0, item: before.lists[0].items[$0])
    }
    let cleared = after.apply(CompoundChange(kind: .clearChecked, changes: changes))
    #expect(cleared)
    let change = CommandChange(summary: "clear Big", from: before, to: after)
    #expect(change.items.count == 10_000)
    let folder = StoreTestFolder()
    defer { folder.remove() }
    let log = CommandUndoLog(location: folder.location(), fileSystem: SystemFileSystem())
    try log.save([change])
    let read = try #require(log.load().last)
    #expect(read == change)
    let undone = try read.undone(in: after)
    #expect(undone.lists[0].items == before.lists[0].items)
  }

  @Test func aListRenamedElsewhereSinceIsNotRenamedBack() throws {
    var before = Self.model(3)
    let listID = before.lists[1].id
    var after = before
    _ = after.apply(try #require(after.editList(id: listID, name: "Mine", iconName: "No Icon")))
    let change = CommandChange(summary: "edit-list Other --name Mine", from: before, to: after)
    var elsewhere = after
    let renamed = try #require(elsewhere.lists.first { $0.name == "Mine" })
    _ = elsewhere.apply(
      try #require(elsewhere.editList(id: renamed.id, name: "Theirs", iconName: "No Icon")))
    #expect(
      throws: CommandChange.Refusal(reason: "the list \"Mine\" was changed since (elsewhere)")
    ) {
      try change.undone(in: elsewhere)
    }
    before = try change.undone(in: after)
    #expect(before.lists.map(\.name).sorted() == ["Big", "Other"])
  }
}
