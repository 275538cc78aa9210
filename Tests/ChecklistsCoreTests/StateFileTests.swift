import Foundation
import Testing

@testable import ChecklistsCore

@Suite("State file: remembered choices beside the data file")
struct StateFileTests {
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
