import ChecklistsTestSupport
import Foundation
import Testing

@testable import ChecklistsCore

/// A list's icon on its tasks (`X-CHECKLISTS-ICON`), which the server keeps.
@Suite("Sync: a list's icon on its tasks")
struct SyncListIconTests {
  /// The icon lines of every file.
  static func iconLines(_ fixture: SyncFixture) -> [String] {
    fixture.files().values.flatMap {
      unfoldedLines($0).filter { $0.hasPrefix("X-CHECKLISTS-ICON") }
    }
    .sorted()
  }

  /// Every task carries its list's icon; an icon changed here is written on all of them; a
  /// task rewritten by an app that drops the property says nothing about the icon.
  @Test func theIconIsOnEveryTaskAndAMissingOneChangesNothing() throws {
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    try fixture.sync()
    #expect(
      Self.iconLines(fixture) == [
        "X-CHECKLISTS-ICON:Chores", "X-CHECKLISTS-ICON:Groceries", "X-CHECKLISTS-ICON:Groceries",
      ])
    try fixture.edit { model in
      let list = model.lists.first { $0.name == "Groceries" }!
      model.apply(
        .editList(
          id: list.id, old: ModelChange.ListInfo(name: "Groceries", iconName: "Groceries"),
          new: ModelChange.ListInfo(name: "Groceries", iconName: "Trips")))
    }
    try fixture.sync()
    #expect(
      Self.iconLines(fixture) == [
        "X-CHECKLISTS-ICON:Chores", "X-CHECKLISTS-ICON:Trips", "X-CHECKLISTS-ICON:Trips",
      ])
    // Another app rewrites Milk without our icon line: the icon stays, the text comes.
    let milk = try #require(fixture.file(summary: "Milk"))
    try fixture.replace(in: milk, "X-CHECKLISTS-ICON:Trips\r\n", with: "")
    try fixture.replace(in: milk, "SUMMARY:Milk", with: "SUMMARY:Oat milk")
    let report = try fixture.sync()
    #expect(report.changedFromVdir == 1)
    let (_, load) = try ChecklistsStore.open(location: fixture.location)
    #expect(load.model.lists.first { $0.name == "Groceries" }?.iconName == "Trips")
    // Another computer's icon, through the server, on a task: taken.
    let eggs = try #require(fixture.file(summary: "Eggs"))
    try fixture.replace(in: eggs, "X-CHECKLISTS-ICON:Trips", with: "X-CHECKLISTS-ICON:Folder")
    try fixture.sync()
    let (_, again) = try ChecklistsStore.open(location: fixture.location)
    #expect(again.model.lists.first { $0.name == "Groceries" }?.iconName == "Folder")
  }
}
