import Foundation
import Testing

@testable import ChecklistsCore

#if canImport(Glibc)
  import Glibc
#endif

@Suite("State file: remembered choices beside the data file")
struct StateFileTests {
  /// Each side's changes since the state both read stay, as in the data file's merge.
  @Test func aStateSavedAfterAnotherWriterIsMergedWithIt() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    folder.write("Checklists.plist", encodedBytes(sampleModel()))
    let (store, load) = try ChecklistsStore.open(location: folder.location())
    var base = load.state
    base.sortByDue = ["A", "B"]
    base.notified = ["1@10", "2@20"]
    base.nextItemID = 5
    try store.saveState(base)
    // Another writer: opens list 1, takes "B" out of sorting, records a reminder, takes one.
    var theirs = base
    theirs.checklistIndex = 1
    theirs.checklistName = "Two"
    theirs.sortByDue = ["A"]
    theirs.notified = ["2@20", "3@30"]
    theirs.nextItemID = 9
    try store.saveState(theirs)
    // We add "C" to sorting, record another reminder, show Today; the open list is theirs.
    var ours = base
    ours.sortByDue = ["A", "B", "C"]
    ours.notified = ["1@10", "2@20", "4@40"]
    ours.openView = "today"
    ours.nextItemID = 7
    let written = try store.saveState(ours, base: base)
    let onDisk = try #require(store.currentState())
    #expect(written == onDisk)
    #expect(onDisk.checklistName == "Two")
    #expect(onDisk.checklistIndex == 1)
    #expect(onDisk.sortByDue == ["A", "C"])
    #expect(onDisk.notified == ["2@20", "3@30", "4@40"])
    #expect(onDisk.openView == "today")
    #expect(onDisk.nextItemID == 9)
    // Our own choice of list wins over theirs.
    var again = onDisk
    again.remember(openList: 0, in: load.model)
    #expect(try store.saveState(again, base: onDisk).checklistIndex == 0)
  }

  /// A snooze set, changed or ended on one side stays so; the other side's snoozes stay.
  @Test func snoozedRemindersMergeByKey() {
    var base = ChecklistsState()
    base.snoozed = ["1@10": 100, "2@20": 200, "3@30": 300]
    var theirs = base
    theirs.snoozed["4@40"] = 400
    theirs.snoozed["3@30"] = nil
    var ours = base
    ours.snoozed["1@10"] = 150
    ours.snoozed["2@20"] = nil
    ours.snoozed["5@50"] = 500
    let merged = ChecklistsState.merged(base: base, ours: ours, theirs: theirs)
    #expect(merged.snoozed == ["1@10": 150, "4@40": 400, "5@50": 500])
    // Unchanged on our side: theirs as it is.
    #expect(
      ChecklistsState.merged(base: base, ours: base, theirs: theirs).snoozed == theirs.snoozed)
  }

  @Test func aMissingStateGivesTheDefaultsWithoutAWarning() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    folder.write("Checklists.plist", encodedBytes(sampleModel()))
    let (_, load) = try ChecklistsStore.open(location: folder.location())
    #expect(load.warnings.isEmpty)
    #expect(load.state.checklistIndex == -1)
    #expect(load.state.sortByDue.isEmpty)
    #expect(load.state.notified.isEmpty)
  }

  @Test(arguments: ["{not json", "[1,2]", "{\"checklistIndex\": \"x\"}"])
  func aDamagedStateGivesTheDefaultsAndAWarning(content: String) throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    folder.write("Checklists.plist", encodedBytes(sampleModel()))
    try FileManager.default.createDirectory(
      atPath: folder.path + "/state", withIntermediateDirectories: true)
    folder.write("state/Checklists.plist.json", Data(content.utf8))
    let (_, load) = try ChecklistsStore.open(location: folder.location())
    #expect(load.state.checklistIndex == -1)
    #expect(
      load.warnings == [
        "The state file \(folder.path)/state/Checklists.plist.json is damaged; using defaults"
      ])
  }

  @Test func aStateRoundTripsAndIsWrittenPrivately() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    folder.write("Checklists.plist", encodedBytes(sampleModel()))
    let (store, load) = try ChecklistsStore.open(location: folder.location())
    var state = load.state
    state.checklistIndex = 1
    state.nextItemID = 42
    state.sortByDue = ["Chores"]
    state.notified = ["3@1800000000"]
    try store.saveState(state)
    store.close()
    #expect(folder.permissions("state/Checklists.plist.json") == 0o600)
    #expect(try SystemFileSystem().stat(folder.path + "/state").permissions == 0o700)
    let (_, again) = try ChecklistsStore.open(location: folder.location())
    #expect(again.state.checklistIndex == 1)
    #expect(again.state.sortByDue == ["Chores"])
    #expect(again.state.notified == ["3@1800000000"])
    #expect(again.state.dataFile == folder.path + "/Checklists.plist")
    #expect(again.model.nextItemID == 42)
    #expect(again.state.nextItemID == 42)
  }

  /// The app's write of the state merges with what another writer wrote since its base, as
  /// the data file merges: their reminders sent and sorted lists stay, our own changes win.
  @Test func aMergingStateWriteKeepsWhatAnotherWriterRecorded() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    folder.write("Checklists.plist", encodedBytes(sampleModel()))
    let (store, load) = try ChecklistsStore.open(location: folder.location())
    defer { store.close() }
    var base = load.state
    base.sortByDue = ["Trips"]
    try store.saveState(base)
    // Another writer (`due --notify`, another app) records a reminder and sorts a list.
    var theirs = base
    theirs.notified = ["3@1800000000"]
    theirs.sortByDue = ["Trips", "Chores"]
    theirs.nextItemID = 50
    try store.saveState(theirs)
    // Ours: another open list, Trips no longer sorted, Groceries sorted.
    var ours = base
    ours.checklistIndex = 1
    ours.checklistName = "Chores"
    ours.sortByDue = ["Groceries"]
    ours.nextItemID = 7
    let written = try store.saveState(ours, base: base, durable: false)
    let onDisk = try #require(store.currentState())
    #expect(written == onDisk)
    #expect(onDisk.notified == ["3@1800000000"])
    #expect(onDisk.sortByDue == ["Chores", "Groceries"])
    #expect(onDisk.checklistName == "Chores" && onDisk.checklistIndex == 1)
    #expect(onDisk.nextItemID == 50)
    // A field we left alone takes theirs.
    var again = written
    again.openView = "today"
    try store.saveState(again)
    let next = try store.saveState(written, base: written)
    #expect(next.openView == "today")
  }

  /// The app's writer records its choices merged from what it last read or wrote: another
  /// writer's reminders stay; an unchanged state is not written again; each write is the base
  /// of the next.
  @Test func theAppsStateWriterMergesFromWhatItLastSaw() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    folder.write("Checklists.plist", encodedBytes(sampleModel()))
    let (store, load) = try ChecklistsStore.open(location: folder.location())
    defer { store.close() }
    let writer = StateFileWriter(store: store, loaded: load.state)
    // Meanwhile the reminder service records a delivery.
    var theirs = load.state
    theirs.notified = ["3@1800000000"]
    try store.saveState(theirs)
    writer.rememberApp(openList: 1, in: load.model, sortByDue: ["Chores"], openView: nil)
    let first = try #require(store.currentState())
    #expect(first.notified == ["3@1800000000"])
    #expect(first.checklistName == load.model.lists[1].name && first.checklistIndex == 1)
    #expect(first.sortByDue == ["Chores"])
    #expect(!first.firstTime)
    #expect(writer.last == first)
    // Nothing new: the file is not written again.
    let path = folder.location().stateFile
    let before = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate]
    usleep(20_000)
    writer.rememberApp(openList: 1, in: load.model, sortByDue: ["Chores"], openView: nil)
    let after = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate]
    #expect(before as? Date == after as? Date)
    // The next choice is merged from the last write: the reminder another writer took out
    // since stays out, and All Lists with Today open is ours.
    var later = first
    later.notified = []
    try store.saveState(later)
    writer.rememberApp(openList: -1, in: load.model, sortByDue: [], openView: "today")
    let second = try #require(store.currentState())
    #expect(second.notified.isEmpty)
    #expect(second.checklistName == nil && second.openView == "today")
    #expect(second.sortByDue.isEmpty)
  }

  /// A line the app's form gives the conflicts log is stamped and names the file, on one line.
  @Test func aFormsLineGoesToTheConflictsLog() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    folder.write("Checklists.plist", encodedBytes(sampleModel()))
    let (store, _) = try ChecklistsStore.open(location: folder.location())
    defer { store.close() }
    store.appendToConflictLog("list \"Trips\", item \"Milk\": moved\nthere")
    let log = String(
      decoding: folder.bytes("Checklists.plist.conflicts.log") ?? Data(), as: UTF8.self)
    #expect(
      log.hasSuffix(" Checklists.plist: list \"Trips\", item \"Milk\": moved there\n"), "\(log)")
    #expect(log.split(separator: "\n").count == 1)
  }

  @Test func missingKeysTakeTheirDefaults() throws {
    let state = try JSONDecoder().decode(
      ChecklistsState.self, from: Data("{\"checklistIndex\": 2}".utf8))
    #expect(state == ChecklistsState(checklistIndex: 2))
  }

  @Test func aStateOfAnotherDataFileIsNotUsed() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    folder.write("Checklists.plist", encodedBytes(sampleModel()))
    try FileManager.default.createDirectory(
      atPath: folder.path + "/state", withIntermediateDirectories: true)
    folder.write(
      "state/Checklists.plist.json",
      Data("{\"checklistIndex\": 1, \"dataFile\": \"/elsewhere.plist\"}".utf8))
    let (_, load) = try ChecklistsStore.open(location: folder.location())
    #expect(load.state.checklistIndex == -1)
    #expect(load.warnings.first?.contains("belongs to /elsewhere.plist") == true)
  }
}

@Suite("Data file location: XDG, CHECKLISTS_FILE and --file")
struct StoreLocationTests {
  @Test func theDefaultsFollowXDGWithHomeFallbacks() throws {
    let location = try DataFileLocation.resolve(environment: ["HOME": "/home/u"])
    #expect(location.dataFile == "/home/u/.local/share/checklists/Checklists.plist")
    #expect(location.stateFile.hasPrefix("/home/u/.local/state/checklists/Checklists-"))
    #expect(location.stateFile.hasSuffix(".json"))
    #expect(location.displayPath == "~/.local/share/checklists/Checklists.plist")
    #expect(location.fileName == "Checklists.plist")
  }

  @Test func xdgVariablesMoveTheFilesButOnlyWhenAbsolute() throws {
    let env = ["HOME": "/home/u", "XDG_DATA_HOME": "/data/", "XDG_STATE_HOME": "/st"]
    let location = try DataFileLocation.resolve(environment: env)
    #expect(location.dataFile == "/data/checklists/Checklists.plist")
    #expect(location.stateFile.hasPrefix("/st/checklists/"))
    let relative = try DataFileLocation.resolve(
      environment: ["HOME": "/home/u", "XDG_DATA_HOME": "rel", "XDG_STATE_HOME": ""])
    #expect(relative.dataFile == "/home/u/.local/share/checklists/Checklists.plist")
    #expect(relative.stateFile.hasPrefix("/home/u/.local/state/checklists/"))
  }

  @Test func checklistsFileOverridesXDGAndFileOverridesBoth() throws {
    let env = ["HOME": "/home/u", "XDG_DATA_HOME": "/data", "CHECKLISTS_FILE": "~/mine.plist"]
    let fromEnvironment = try DataFileLocation.resolve(environment: env)
    #expect(fromEnvironment.dataFile == "/home/u/mine.plist")
    let fromOption = try DataFileLocation.resolve(
      environment: env, filePath: "../x/./y.plist", currentDirectory: "/work/dir")
    #expect(fromOption.dataFile == "/work/x/y.plist")
    #expect(fromOption.stateFile.hasPrefix("/home/u/.local/state/checklists/y-"))
  }

  @Test func eachDataFileHasItsOwnStateFile() throws {
    let a = try DataFileLocation.resolve(environment: ["HOME": "/h"], filePath: "/a/C.plist")
    let b = try DataFileLocation.resolve(environment: ["HOME": "/h"], filePath: "/b/C.plist")
    #expect(a.stateFile != b.stateFile)
    let again = try DataFileLocation.resolve(environment: ["HOME": "/h"], filePath: "/a/C.plist")
    #expect(a.stateFile == again.stateFile)
  }

  @Test func aFolderPathIsRejected() {
    #expect(throws: StoreError.self) {
      _ = try DataFileLocation.resolve(environment: ["HOME": "/h"], filePath: "/tmp/")
    }
  }
}
