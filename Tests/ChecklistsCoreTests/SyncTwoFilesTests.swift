import ChecklistsTestSupport
import Foundation
import Testing

@testable import ChecklistsCore

/// Two data files (two computers) syncing one vdir: their item ids overlap, since each file
/// numbers its own items.
@Suite("Sync: two data files and one vdir")
struct SyncTwoFilesTests {
  /// A model of `lists` (name, texts), items numbered from 0 across the lists.
  static func model(_ lists: [(String, [String])]) -> DataModel {
    var next = 0
    var result: [Checklist] = []
    for (name, texts) in lists {
      var list = Checklist(name: name)
      for text in texts {
        list.insertItem(ChecklistItem(text: text, itemID: next))
        next += 1
      }
      result.append(list)
    }
    return DataModel(lists: result, nextItemID: next)
  }

  /// A pass of `fixture`'s data file against `vdir`.
  @discardableResult
  func sync(_ fixture: SyncFixture, vdir: String) throws -> SyncReport {
    try VdirSync.run(
      location: fixture.location, vdir: vdir,
      options: SyncOptions(
        forceDelete: false, timeZone: ZoneRules.utc, now: fixture.now, createsVdir: true)
    ).report
  }

  /// The data file's item ids.
  func itemIDs(_ fixture: SyncFixture) throws -> [Int] {
    let (_, load) = try ChecklistsStore.open(location: fixture.location)
    return load.model.lists.flatMap { $0.items.map(\.itemID) }
  }

  /// A data file replaced by another (a fresh copy of the phone's) lacks most synced items: the
  /// pass deletes none of them from the vdir without --force-delete; fewer deletions go through.
  @Test func aFileThatLacksMostSyncedItemsDeletesNothingWithoutForce() throws {
    let texts = (1...24).map { "item \($0)" }
    let fixture = try SyncFixture(Self.model([("Home", texts)]))
    defer { fixture.remove() }
    try sync(fixture, vdir: fixture.vdir)
    // Nine deletions of 24 are made.
    try fixture.edit { model in
      guard let list = model.lists.first else { return }
      for item in list.items.prefix(9) {
        _ = model.apply(.deleteItem(listID: list.id, index: 0, item: item))
      }
    }
    #expect(try sync(fixture, vdir: fixture.vdir).deletedHere == 9)
    #expect(fixture.files().count == 15)
    // Another file with two items of the same texts (and ids of its own): all 15 would go.
    let other = Self.model([("Home", ["item 10", "item 11"])])
    try encodedBytes(other).write(to: URL(fileURLWithPath: fixture.location.dataFile))
    let refused = try sync(fixture, vdir: fixture.vdir)
    #expect(refused.refused?.contains("would delete 15 of the 15 synced items") == true)
    #expect(refused.needsUser)
    #expect(fixture.files().count == 15)
    let forced = try VdirSync.run(
      location: fixture.location, vdir: fixture.vdir,
      options: SyncOptions(
        forceDelete: true, timeZone: ZoneRules.utc, now: fixture.now, createsVdir: true)
    ).report
    #expect(forced.refused == nil && forced.deletedHere == 15 && forced.newHere == 2)
    #expect(fixture.files().count == 2)
  }

  @Test func eachFileKeepsEveryItemOnceInItsListAndNeitherRewritesTheOthersFiles() throws {
    let desktop = try SyncFixture(
      Self.model([("Groceries", ["a", "b", "c", "d", "e", "f"]), ("Work", ["w1", "w2", "w3"])]))
    let laptop = try SyncFixture(Self.model([("Laptop", ["L0", "L1", "L2"])]))
    defer {
      desktop.remove()
      laptop.remove()
    }
    let vdir = desktop.vdir
    try sync(desktop, vdir: vdir)
    try sync(laptop, vdir: vdir)
    let expected: [String: [String]] = [
      "Groceries": ["a", "b", "c", "d", "e", "f"].map { "[ ] " + $0 },
      "Work": ["w1", "w2", "w3"].map { "[ ] " + $0 },
      "Laptop": ["L0", "L1", "L2"].map { "[ ] " + $0 },
    ]
    #expect(try laptop.lists() == expected)
    let ids = try itemIDs(laptop)
    #expect(Set(ids).count == ids.count, "\(ids)")
    try sync(desktop, vdir: vdir)
    #expect(try desktop.lists() == expected)
    // From here on neither pass has anything to do, and no file is written again.
    let files = desktop.files()
    for _ in 0..<2 {
      #expect(try sync(laptop, vdir: vdir).isNothing)
      #expect(try sync(desktop, vdir: vdir).isNothing)
    }
    #expect(desktop.files() == files)
    #expect(try laptop.lists() == expected)
  }
}
