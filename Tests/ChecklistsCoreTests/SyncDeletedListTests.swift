import ChecklistsTestSupport
import Foundation
import Testing

@testable import ChecklistsCore

/// A list's folder removed from the vdir (the list deleted on the phone or on the server): the
/// list is deleted here and named in the report, under the guards items have; never written
/// back as new.
@Suite("Sync: a list whose folder went from the vdir")
struct SyncDeletedListTests {
  /// The folder of the list named `name`, removed from the vdir.
  static func removeFolder(of name: String, in fixture: SyncFixture) throws {
    let folder = try #require(fixture.folder(named: name))
    try FileManager.default.removeItem(atPath: fixture.vdir + "/" + folder)
  }

  /// A list made on the phone, taken in at a time with a fraction of a second (as every real
  /// clock has): its folder gone, the list goes too. It was written back as "1 new here": the
  /// state recorded the item's date with the fraction the data file does not keep, so the list
  /// looked changed here.
  @Test func aListFromThePhoneGoesWithItsFolder() throws {
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    try fixture.sync()
    try fixture.write("phone-list/displayname", "Holiday\n")
    try fixture.write("phone-list/p1.ics", phoneTask(uid: "P1", summary: "Pack"))
    let taken = try fixture.sync(at: fixture.now.addingTimeInterval(0.375))
    #expect(taken.newListsFromVdir == 1)
    #expect(try fixture.sync().isNothing)
    try FileManager.default.removeItem(atPath: fixture.vdir + "/phone-list")
    let report = try fixture.sync(at: fixture.now.addingTimeInterval(60.5))
    #expect(report.deletedListsFromVdir == ["Holiday"])
    #expect(report.itemsOfDeletedListsFromVdir == 1)
    #expect(report.deletedFromVdir == 0 && report.newHere == 0 && report.newListsHere == 0)
    #expect(report.summary == "list \"Holiday\" deleted from the vdir (1 item), 0 conflicts")
    #expect(try fixture.lists()["Holiday"] == nil)
    #expect(!FileManager.default.fileExists(atPath: fixture.vdir + "/phone-list"))
    #expect(fixture.files().count == 3)
    #expect(try fixture.sync().isNothing)
  }

  /// A list of ours with an item edited here and synced before its folder went: deleted, not
  /// written back.
  @Test func aListEditedHereAndSyncedGoesWithItsFolder() throws {
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    try fixture.sync()
    try fixture.edit { model in
      let list = model.lists.first { $0.name == "Groceries" }!
      var milk = list.items[0]
      milk.text = "Milk 2L"
      milk.dueDate = milk.dueDate.addingTimeInterval(0.25)
      model.apply(model.replaceItem(listID: list.id, at: 0, with: milk)!)
    }
    #expect(try fixture.sync().changedHere == 1)
    try Self.removeFolder(of: "Groceries", in: fixture)
    let report = try fixture.sync()
    #expect(report.deletedListsFromVdir == ["Groceries"] && report.newHere == 0)
    #expect(try fixture.lists() == ["Chores": ["[ ] Dishes"]])
    #expect(fixture.files().count == 1)
    #expect(try fixture.sync().isNothing)
  }

  /// A list changed here since the last pass whose folder went: changed on one side and
  /// deleted on the other, it stays (as an item does), and the conflict log says so.
  @Test func aListChangedHereSinceTheLastPassStaysAndIsLogged() throws {
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    try fixture.sync()
    try fixture.edit { model in
      let list = model.lists.first { $0.name == "Groceries" }!
      model.apply(model.deleteItem(listID: list.id, at: 1)!)
    }
    try Self.removeFolder(of: "Groceries", in: fixture)
    let report = try fixture.sync()
    #expect(report.deletedListsFromVdir.isEmpty)
    #expect(report.merge.keptLists == ["Groceries"])
    #expect(report.newHere == 1)
    #expect(fixture.folder(named: "Groceries") != nil)
    #expect(try fixture.lists()["Groceries"] == ["[ ] Milk"])
    let log = try String(
      contentsOfFile: fixture.location.dataFile + ".conflicts.log", encoding: .utf8)
    #expect(log.contains("list \"Groceries\": kept: deleted on one side, changed on the other"))
  }

  /// More than half of the synced items (and at least 10) going with their lists' folders
  /// is refused, like a data file that lacks most items, until --force-delete.
  @Test func mostItemsGoingWithTheirFoldersIsRefusedUntilForced() throws {
    var big = Checklist(name: "Big", iconName: "Folder")
    for index in 0..<12 { big.insertItem(ChecklistItem(text: "item \(index)", itemID: 10 + index)) }
    var model = sampleModel()
    model = DataModel(lists: model.lists + [big], nextItemID: 30)
    let fixture = try SyncFixture(model)
    defer { fixture.remove() }
    try fixture.sync()
    try Self.removeFolder(of: "Big", in: fixture)
    let refused = try fixture.sync()
    #expect(refused.needsUser)
    #expect(
      refused.refused?.contains("would delete list \"Big\" here, 12 of the 15 synced items")
        == true,
      "\(refused.summary)")
    #expect(try fixture.lists()["Big"]?.count == 12)
    let forced = try fixture.sync(forceDelete: true)
    #expect(forced.deletedListsFromVdir == ["Big"])
    #expect(try fixture.lists()["Big"] == nil)
  }
}
