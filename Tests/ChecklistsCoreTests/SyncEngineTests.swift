import ChecklistsTestSupport
import Foundation
import Testing

@testable import ChecklistsCore

/// A data file, a vdir and a state folder in a temporary folder.
struct SyncFixture {
  let folder = StoreTestFolder()
  var location: DataFileLocation { folder.location() }
  var vdir: String { folder.path + "/vdir" }
  let now = Date(timeIntervalSince1970: 1_796_130_000)

  init(_ model: DataModel = sampleModel()) throws {
    let (store, _) = try ChecklistsStore.open(location: location)
    try store.save(model)
  }

  func remove() { folder.remove() }

  @discardableResult
  func sync(forceDelete: Bool = false, dryRun: Bool = false, at time: Date? = nil) throws
    -> SyncReport
  {
    try VdirSync.run(
      location: location, vdir: vdir,
      options: SyncOptions(
        forceDelete: forceDelete, timeZone: ZoneRules.utc, now: time ?? now, createsVdir: true),
      dryRun: dryRun
    ).report
  }

  /// The data file's lists as (name, [(text, checked)]).
  func lists() throws -> [String: [String]] {
    let (_, load) = try ChecklistsStore.open(location: location)
    var result: [String: [String]] = [:]
    for list in load.model.lists {
      result[list.name] = list.items.map { ($0.checked ? "[x] " : "[ ] ") + $0.text }
    }
    return result
  }

  /// Changes the data file through the store.
  func edit(_ change: (inout DataModel) -> Void) throws {
    let (store, load) = try ChecklistsStore.open(location: location)
    var model = load.model
    change(&model)
    try store.save(model)
  }

  /// Every item file: path -> text.
  func files() -> [String: String] {
    var result: [String: String] = [:]
    let manager = FileManager.default
    for folder in (try? manager.contentsOfDirectory(atPath: vdir)) ?? []
    where !folder.hasPrefix(".") {
      for name in (try? manager.contentsOfDirectory(atPath: vdir + "/" + folder)) ?? []
      where name.hasSuffix(".ics") && !name.hasPrefix(".") {
        let path = folder + "/" + name
        result[path] = (try? String(contentsOfFile: vdir + "/" + path, encoding: .utf8)) ?? ""
      }
    }
    return result
  }

  /// The path (inside the vdir) of the file whose SUMMARY is `text`.
  func file(summary text: String) -> String? {
    files().first { unfoldedLines($0.value).contains("SUMMARY:" + ICalendar.escapeText(text)) }?
      .key
  }

  /// The folder of the list named `name`.
  func folder(named name: String) -> String? {
    ((try? FileManager.default.contentsOfDirectory(atPath: vdir)) ?? []).first {
      Vdir.readMetadata(vdir + "/" + $0 + "/displayname") == name
    }
  }

  func write(_ path: String, _ text: String) throws {
    try Vdir.createFolder((vdir + "/" + path as NSString).deletingLastPathComponent)
    try Vdir.writeAtomically(Array(text.utf8), to: vdir + "/" + path)
  }

  func replace(in path: String, _ old: String, with new: String) throws {
    let text = try String(contentsOfFile: vdir + "/" + path, encoding: .utf8)
    #expect(text.contains(old), "\(path) has no \(old)")
    try write(path, text.replacingOccurrences(of: old, with: new))
  }
}

/// A phone-made VTODO with foreign properties.
func phoneTask(uid: String, summary: String, extra: String = "") -> String {
  """
  BEGIN:VCALENDAR\r
  VERSION:2.0\r
  PRODID:-//Apple Inc.//iOS 18.1//EN\r
  BEGIN:VTODO\r
  UID:\(uid)\r
  DTSTAMP:20261130T101500Z\r
  SUMMARY:\(summary)\r
  CATEGORIES:Errands\r
  X-APPLE-SORT-ORDER:100\r
  \(extra)END:VTODO\r
  END:VCALENDAR\r

  """
}

@Suite("Sync: the engine between a data file and a vdir")
struct SyncEngineTests {
  /// A file holding an item of ID Int.max (damaged, or made so) syncs, and new tasks from the
  /// vdir get IDs no item has: the pass crashed on the count past the largest ID.
  @Test func aFileWithTheLargestItemIDSyncs() throws {
    let fixture = try SyncFixture(
      DataModel(lists: [
        Checklist(
          name: "Odd",
          items: [
            ChecklistItem(text: "max", itemID: Int.max), ChecklistItem(text: "zero", itemID: 0),
          ])
      ]))
    defer { fixture.remove() }
    try fixture.sync()
    let folder = try #require(fixture.folder(named: "Odd"))
    try fixture.write(folder + "/a.ics", phoneTask(uid: "a", summary: "From the phone"))
    try fixture.write(folder + "/b.ics", phoneTask(uid: "b", summary: "And another"))
    try fixture.sync()
    let (_, load) = try ChecklistsStore.open(location: fixture.location)
    let items = load.model.lists.flatMap(\.items)
    #expect(Set(items.map(\.text)) == ["max", "zero", "From the phone", "And another"])
    #expect(Set(items.map(\.itemID)).count == 4, "\(items.map(\.itemID))")
  }

  @Test func firstSyncWritesEveryListAndItemThenNothingIsLeftToDo() throws {
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    let report = try fixture.sync()
    #expect(report.newHere == 3 && report.newListsHere == 2 && report.merge.conflicts.isEmpty)
    #expect(report.summary == "2 new lists here, 3 new here, 0 conflicts")
    #expect(fixture.files().count == 3)
    let groceries = try #require(fixture.folder(named: "Groceries"))
    #expect(Vdir.readMetadata(fixture.vdir + "/" + groceries + "/" + Vdir.iconFile) == "Groceries")
    #expect(groceries.allSatisfy { $0.isASCII })
    let milk = try #require(fixture.file(summary: "Milk"))
    #expect(milk.hasPrefix(groceries + "/"))
    let again = try fixture.sync()
    #expect(again.isNothing && again.summary == "nothing to do, 0 conflicts")
    #expect(try fixture.lists()["Groceries"] == ["[ ] Milk", "[x] Eggs"])
  }

  @Test func differentFieldsChangedOnEachSideAreBothKept() throws {
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    try fixture.sync()
    let milk = try #require(fixture.file(summary: "Milk"))
    try fixture.replace(in: milk, "STATUS:NEEDS-ACTION", with: "STATUS:COMPLETED")
    try fixture.edit { model in
      let list = model.lists.first { $0.name == "Groceries" }!
      var item = list.items[0]
      item.text = "Oat milk"
      model.apply(model.replaceItem(listID: list.id, at: 0, with: item)!)
    }
    let report = try fixture.sync()
    #expect(
      report.changedFromVdir == 1 && report.changedHere == 1 && report.merge.conflicts.isEmpty)
    #expect(try fixture.lists()["Groceries"] == ["[x] Oat milk", "[x] Eggs"])
    let text = try #require(fixture.files()[milk])
    #expect(unfoldedLines(text).contains("SUMMARY:Oat milk"))
    #expect(unfoldedLines(text).contains("STATUS:COMPLETED"))
    #expect(try fixture.sync().isNothing)
  }

  @Test func theSameFieldChangedOnBothSidesKeepsOursAndLogsTheirs() throws {
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    try fixture.sync()
    let milk = try #require(fixture.file(summary: "Milk"))
    try fixture.replace(in: milk, "SUMMARY:Milk", with: "SUMMARY:Soy milk")
    try fixture.edit { model in
      let list = model.lists.first { $0.name == "Groceries" }!
      var item = list.items[0]
      item.text = "Goat milk"
      model.apply(model.replaceItem(listID: list.id, at: 0, with: item)!)
    }
    let report = try fixture.sync()
    #expect(report.merge.conflicts.count == 1)
    #expect(report.needsUser)
    #expect(try fixture.lists()["Groceries"]?.first == "[ ] Goat milk")
    let log = try String(
      contentsOfFile: fixture.location.dataFile + ".conflicts.log", encoding: .utf8)
    #expect(log.contains("Soy milk"))
    let milkText = try #require(fixture.files()[milk])
    #expect(unfoldedLines(milkText).contains("SUMMARY:Goat milk"))
  }

  @Test func deletionsGoBothWays() throws {
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    try fixture.sync()
    let eggs = try #require(fixture.file(summary: "Eggs"))
    try FileManager.default.removeItem(atPath: fixture.vdir + "/" + eggs)
    try fixture.edit { model in
      let list = model.lists.first { $0.name == "Chores" }!
      model.apply(model.deleteItem(listID: list.id, at: 0)!)
    }
    let report = try fixture.sync()
    #expect(report.deletedFromVdir == 1 && report.deletedHere == 1)
    #expect(try fixture.lists() == ["Groceries": ["[ ] Milk"], "Chores": []])
    #expect(fixture.files().count == 1)
    #expect(fixture.folder(named: "Chores") != nil, "an emptied list keeps its folder")
  }

  @Test func aVdirThatSuddenlyHoldsNothingDeletesNothingWithoutForce() throws {
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    try fixture.sync()
    for path in fixture.files().keys {
      try FileManager.default.removeItem(atPath: fixture.vdir + "/" + path)
    }
    let refused = try fixture.sync()
    #expect(refused.refused != nil && refused.needsUser)
    #expect(try fixture.lists()["Groceries"]?.count == 2)
    try FileManager.default.removeItem(atPath: fixture.vdir)
    let unmounted = try fixture.sync()
    #expect(unmounted.refused?.contains("not there") == true)
    #expect(!FileManager.default.fileExists(atPath: fixture.vdir))
    try Vdir.createFolder(fixture.vdir)
    let forced = try fixture.sync(forceDelete: true)
    // The folders went too: the lists are deleted with their items.
    #expect(forced.refused == nil && forced.itemsOfDeletedListsFromVdir == 3)
    #expect(forced.deletedListsFromVdir.sorted() == ["Chores", "Groceries"])
    #expect(try fixture.lists().isEmpty)
  }

  @Test func aListAndItemsMadeOnThePhoneArriveWithTheirForeignPropertiesKept() throws {
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    try fixture.sync()
    try fixture.write("phone-list/displayname", "Holiday\n")
    let foreign = phoneTask(uid: "a@b", summary: "Pack\\, then go", extra: "RRULE:FREQ=DAILY\r\n")
    try fixture.write("phone-list/odd name.ics", foreign)
    let report = try fixture.sync()
    #expect(report.newFromVdir == 1 && report.newListsFromVdir == 1)
    let (_, load) = try ChecklistsStore.open(location: fixture.location)
    let holiday = try #require(load.model.lists.first { $0.name == "Holiday" })
    #expect(holiday.iconName == "No Icon")
    #expect(holiday.items.map(\.text) == ["Pack, then go"])
    // Nothing changed here, so the file is as the phone wrote it: our id for it is in the state.
    #expect(fixture.files()["phone-list/odd name.ics"] == foreign)
    #expect(try fixture.sync().isNothing)
    // Edited here: our properties change, every foreign one stays, and no id of ours is added.
    try fixture.edit { model in
      for index in model.lists.indices where model.lists[index].name == "Holiday" {
        var item = model.lists[index].items[0]
        item.text = "Go"
        model.lists[index].replaceItem(at: 0, with: item)
      }
    }
    #expect(try fixture.sync().changedHere == 1)
    let lines = unfoldedLines(try #require(fixture.files()["phone-list/odd name.ics"]))
    #expect(lines.contains("SUMMARY:Go"))
    #expect(!lines.contains { $0.hasPrefix("X-CHECKLISTS-ITEMID") })
    for kept in ["CATEGORIES:Errands", "RRULE:FREQ=DAILY", "PRODID:-//Apple Inc.//iOS 18.1//EN"] {
      #expect(lines.contains(kept))
    }
    #expect(try fixture.sync().isNothing)
  }

  @Test func malformedAndDuplicateFilesAreReportedNeverMergedOrDeleted() throws {
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    try fixture.sync()
    let milk = try #require(fixture.file(summary: "Milk"))
    let milkText = try #require(fixture.files()[milk])
    let folder = (milk as NSString).deletingLastPathComponent
    try fixture.write(milk, "BEGIN:VCALENDAR\nBEGIN:VTODO\nSUMMARY:half")
    try fixture.write(folder + "/copy.ics", milkText)
    try fixture.write(folder + "/junk.ics", "not a calendar at all")
    try fixture.write(folder + "/notes.tmp", "ignored")
    try fixture.write(folder + "/.hidden.ics", "ignored")
    let report = try fixture.sync()
    #expect(report.problems.contains { $0.contains(milk) && $0.contains("not a valid iCalendar") })
    #expect(report.problems.contains { $0.contains("junk.ics") })
    #expect(report.needsUser)
    #expect(try fixture.lists()["Groceries"] == ["[ ] Milk", "[x] Eggs"])
    #expect(
      fixture.files()[milk]?.contains("SUMMARY:half") == true, "the broken file is left alone")
    #expect(fixture.files()[folder + "/junk.ics"] != nil)
    // The copy (same UID as the original) is one item: once the original is readable again
    // it is reported as a duplicate, not merged.
    try fixture.write(milk, milkText)
    let second = try fixture.sync()
    #expect(second.problems.contains { $0.contains("copy.ics") && $0.contains("also in") })
    #expect(try fixture.lists()["Groceries"] == ["[ ] Milk", "[x] Eggs"])
  }

  @Test func aLostStateRecognisesOurItemsByTheirIDAndMakesNoDuplicates() throws {
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    try fixture.sync()
    try FileManager.default.removeItem(
      atPath: VdirSync.statePath(location: fixture.location, vdir: fixture.vdir))
    let report = try fixture.sync()
    #expect(report.newFromVdir == 0 && report.newHere == 0, "\(report.summary)")
    #expect(try fixture.lists()["Groceries"] == ["[ ] Milk", "[x] Eggs"])
    #expect(fixture.files().count == 3)
  }

  @Test func aPassKilledAfterSavingTheDataFileMakesNoDuplicateOfAPhoneItem() throws {
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    try fixture.sync()
    let folder = try #require(fixture.folder(named: "Groceries"))
    try fixture.write(folder + "/bread.ics", phoneTask(uid: "bread@phone", summary: "Bread"))
    // As a pass killed after it saved the data file and before it recorded anything: the data
    // file has the phone's item, the state and the file know nothing of each other.
    try fixture.edit { model in
      let list = model.lists.first { $0.name == "Groceries" }!
      model.apply(model.insertItem(model.makeItem(text: "Bread"), listID: list.id)!)
    }
    let report = try fixture.sync()
    #expect(report.newHere == 0 && report.newFromVdir == 0, "\(report.summary)")
    #expect(try fixture.lists()["Groceries"] == ["[ ] Milk", "[x] Eggs", "[ ] Bread"])
    #expect(fixture.files().keys.filter { $0.hasPrefix(folder + "/") }.count == 3)
    #expect(try fixture.sync().isNothing)
  }

  @Test func aDryRunChangesNothing() throws {
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    let report = try fixture.sync(dryRun: true)
    #expect(report.newHere == 3)
    #expect(!FileManager.default.fileExists(atPath: fixture.vdir))
  }

  @Test func anItemMovedToAnotherListMovesItsFileKeepingItsUID() throws {
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    try fixture.sync()
    let milk = try #require(fixture.file(summary: "Milk"))
    let milkText = try #require(fixture.files()[milk])
    let uid = try #require(unfoldedLines(milkText).first { $0.hasPrefix("UID:") })
    try fixture.edit { model in
      let from = model.lists.first { $0.name == "Groceries" }!
      let to = model.lists.first { $0.name == "Chores" }!
      let item = from.items[0]
      model.apply(model.deleteItem(listID: from.id, at: 0)!)
      model.apply(model.insertItem(item, listID: to.id)!)
    }
    try fixture.sync()
    let moved = try #require(fixture.file(summary: "Milk"))
    let chores = try #require(fixture.folder(named: "Chores"))
    #expect(moved.hasPrefix(chores + "/"))
    let movedText = try #require(fixture.files()[moved])
    #expect(unfoldedLines(movedText).contains(uid))
    #expect(fixture.files().count == 3)
    #expect(try fixture.sync().isNothing)
  }

  @Test func reorderingHereWritesSortOrdersThatSortTheSameOnThePhone() throws {
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    try fixture.sync()
    try fixture.edit { model in
      let list = model.lists.first { $0.name == "Groceries" }!
      model.apply(model.moveItem(listID: list.id, from: 1, to: 0)!)
    }
    try fixture.sync()
    func order(_ text: String) -> Int? {
      unfoldedLines(fixture.files()[fixture.file(summary: text) ?? ""] ?? "")
        .first { $0.hasPrefix("X-APPLE-SORT-ORDER:") }.flatMap { Int($0.dropFirst(19)) }
    }
    let eggs = try #require(order("Eggs"))
    let milk = try #require(order("Milk"))
    #expect(eggs < milk)
    #expect(try fixture.sync().isNothing)
  }
}
