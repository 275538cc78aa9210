import Foundation
import Testing

@testable import ChecklistsCore

@Suite("State file: the list to reopen, and no state left behind for files that are gone")
struct StateReopenAndPruneTests {
  func model(_ names: [String]) -> DataModel {
    DataModel(lists: names.map { Checklist(name: $0) })
  }

  @Test func theListReopensByNameWhereverItMoved() {
    var state = ChecklistsState()
    state.remember(openList: 1, in: model(["Lisbon 2027", "List"]))
    #expect(state.checklistName == "List")
    #expect(state.openListIndex(in: model(["Apples", "Lisbon 2027", "List"])) == 2)
    #expect(state.openListIndex(in: model(["List"])) == 0)
  }

  @Test func aGoneListOpensAllLists() {
    var state = ChecklistsState()
    state.remember(openList: 0, in: model(["List", "Trips"]))
    #expect(state.openListIndex(in: model(["Trips"])) == -1)
    state.remember(openList: -1, in: model(["Trips"]))
    #expect(state.checklistName == nil)
    #expect(state.openListIndex(in: model(["Trips"])) == -1)
  }

  @Test func ofSameNamedListsTheNearestToTheSavedIndexReopens() {
    var state = ChecklistsState()
    state.remember(openList: 2, in: model(["A", "Todo", "Todo", "Todo"]))
    #expect(state.openListIndex(in: model(["A", "B", "Todo", "Todo", "Todo"])) == 2)
    #expect(state.openListIndex(in: model(["Todo", "Z"])) == 0)
  }

  @Test func aStateWithoutANameUsesTheIndex() throws {
    let state = try JSONDecoder().decode(
      ChecklistsState.self, from: Data("{\"checklistIndex\": 1}".utf8))
    #expect(state.checklistName == nil)
    #expect(state.openListIndex(in: model(["A", "B"])) == 1)
    #expect(state.openListIndex(in: model(["A"])) == -1)
  }

  @Test func theNameRoundTripsThroughTheStateFile() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    folder.write("Checklists.plist", encodedBytes(sampleModel()))
    let (store, load) = try ChecklistsStore.open(location: folder.location())
    var state = load.state
    state.remember(openList: 1, in: load.model)
    state.openView = "scheduled"
    try store.saveState(state)
    store.close()
    let (_, again) = try ChecklistsStore.open(location: folder.location())
    #expect(again.state.checklistName == load.model.lists[1].name)
    #expect(again.state.openListIndex(in: again.model) == 1)
    #expect(again.state.openView == "scheduled")
  }

  @Test func savingTheStateRemovesTheStatesOfDataFilesThatAreGone() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    folder.write("Checklists.plist", encodedBytes(sampleModel()))
    let fileSystem = SystemFileSystem()
    let stateFolder = folder.path + "/state"
    try FileManager.default.createDirectory(atPath: stateFolder, withIntermediateDirectories: true)
    func stateJSON(_ dataFile: String) -> Data {
      Data("{\"dataFile\": \"\(dataFile)\", \"checklistIndex\": 0}".utf8)
    }
    // A state of a deleted file, one of a file that exists, and files that are not ours.
    folder.write("state/Gone-0123456789abcdef.json", stateJSON(folder.path + "/gone.plist"))
    folder.write("Other.plist", encodedBytes(sampleModel()))
    folder.write("state/Other-fedcba9876543210.json", stateJSON(folder.path + "/Other.plist"))
    folder.write("state/notes.json", stateJSON(folder.path + "/gone.plist"))
    folder.write("state/Broken-00000000000000aa.json", Data("{".utf8))
    let location = DataFileLocation(
      dataFile: folder.path + "/Checklists.plist",
      stateFile: stateFolder + "/Checklists-1111111111111111.json")
    let (store, load) = try ChecklistsStore.open(location: location)
    try store.saveState(load.state)
    store.close()
    let names = Set(try fileSystem.listDirectory(stateFolder))
    #expect(
      names == [
        "Checklists-1111111111111111.json", "Other-fedcba9876543210.json", "notes.json",
        "Broken-00000000000000aa.json",
      ])
  }

  @Test func theStateIsPrunedWhenItsFileIsNewAndWrittenWithoutFsyncWhenAsked() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    folder.write("Checklists.plist", encodedBytes(sampleModel()))
    let stateFolder = folder.path + "/state"
    try FileManager.default.createDirectory(atPath: stateFolder, withIntermediateDirectories: true)
    let orphan = "state/Gone-0123456789abcdef.json"
    let orphanJSON = Data("{\"dataFile\": \"\(folder.path)/gone.plist\"}".utf8)
    let location = DataFileLocation(
      dataFile: folder.path + "/Checklists.plist",
      stateFile: stateFolder + "/Checklists-1111111111111111.json")
    let faulty = FaultyFileSystem()
    let (store, load) = try ChecklistsStore.open(location: location, fileSystem: faulty)
    defer { store.close() }
    // The state file exists: saving it again does not look at the others.
    try store.saveState(load.state)
    #expect(faulty.calls.filter { $0.hasPrefix("fsync ") }.count == 2)
    folder.write(orphan, orphanJSON)
    var state = load.state
    state.firstTime = false
    try store.saveState(state, durable: false)
    #expect(folder.bytes(orphan) != nil)
    // Written whole by a rename, without an fsync of the file or of its folder.
    #expect(
      faulty.calls.filter { $0.hasPrefix("rename ") && $0.contains("Checklists-1111") }.count == 2)
    #expect(faulty.calls.filter { $0.hasPrefix("fsync ") }.count == 2)
    // A new state file (its data file's first, or one removed) prunes the gone ones.
    #expect(unlink(location.stateFile) == 0)
    try store.saveState(state)
    #expect(folder.bytes(orphan) == nil)
    #expect(folder.bytes("state/Checklists-1111111111111111.json") != nil)
  }
}
