import Foundation
import Testing

@testable import ChecklistsCore

@Suite("Store: a failure at any step of a save leaves the old file intact")
struct StoreFaultInjectionTests {
  /// The call that performs each step, and how to recognise it (by path).
  static func fault(for step: SaveStep, code: Int32, dataFile: String) -> FaultyFileSystem.Fault {
    let folder = (dataFile as NSString).deletingLastPathComponent
    let isTemporary: @Sendable (String) -> Bool = { $0.contains(".Checklists.plist.tmp-") }
    switch step {
    case .creatingFolder: return .init(call: "mkdir", code: code) { _ in true }
    case .creatingTemporaryFile: return .init(call: "open", code: code, matches: isTemporary)
    case .settingPermissions: return .init(call: "fchmod", code: code, matches: isTemporary)
    case .writingTemporaryFile: return .init(call: "write", code: code, matches: isTemporary)
    case .syncingTemporaryFile: return .init(call: "fsync", code: code, matches: isTemporary)
    case .closingTemporaryFile: return .init(call: "close", code: code, matches: isTemporary)
    case .keepingBackup: return .init(call: "link", code: code) { _ in true }
    case .replacingFile: return .init(call: "rename", code: code) { $0 == dataFile }
    case .syncingFolder: return .init(call: "fsync", code: code) { $0 == folder }
    }
  }

  static let stepsWithAnOldFile = SaveStep.allCases.filter {
    $0 != .creatingFolder && $0 != .syncingFolder
  }
  static let codes: [Int32] = [ENOSPC, EIO, EACCES]

  @Test(arguments: stepsWithAnOldFile, codes)
  func aFailedStepKeepsTheOldFileRemovesTheTemporaryFileAndNamesTheCause(
    step: SaveStep, code: Int32
  ) throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    let old = encodedBytes(sampleModel())
    folder.write("Checklists.plist", old)
    folder.write("Checklists.plist.bak", Data("older".utf8))
    let location = folder.location()
    let faulty = FaultyFileSystem()
    let (store, load) = try ChecklistsStore.open(location: location, fileSystem: faulty)
    let changed = adding("Laundry", to: load.model)
    faulty.setFault(Self.fault(for: step, code: code, dataFile: location.dataFile))
    do {
      try store.save(changed)
      Issue.record("the save succeeded despite the failing \(step)")
    } catch {
      #expect(error.kind == .saveFailed(step: step))
      #expect(error.cause?.code == code)
      let reason = String(cString: strerror(code))
      #expect(error.message == "Could not save \(location.dataFile): \(reason) (\(step))")
    }
    #expect(folder.bytes("Checklists.plist") == old)
    #expect(!folder.names().contains { $0.contains(".tmp-") })
    // The .bak is only ever replaced whole.
    let backup = folder.bytes("Checklists.plist.bak")
    #expect(backup == Data("older".utf8) || backup == old)
    // The data stayed in memory: once the disk works again, the same model saves.
    faulty.setFault(nil)
    #expect(try store.save(changed).outcome == .saved)
    #expect(folder.bytes("Checklists.plist") == encodedBytes(changed))
    #expect(folder.bytes("Checklists.plist.bak") == old)
  }

  /// A save that failed (or was killed) after keeping the `.bak` and before replacing the data
  /// file leaves the `.bak` and the data file as two names of one file. The next save once linked
  /// the data file to a temporary name and renamed it onto the `.bak`: a rename of two names of
  /// one file does nothing, and the temporary name stayed after a successful save.
  @Test func aSaveAfterOneStoppedBeforeTheReplaceLeavesNoTemporaryFile() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    let old = encodedBytes(sampleModel())
    folder.write("Checklists.plist", old)
    let location = folder.location()
    let faulty = FaultyFileSystem()
    let (store, load) = try ChecklistsStore.open(location: location, fileSystem: faulty)
    let changed = adding("Laundry", to: load.model)
    faulty.setFault(Self.fault(for: .replacingFile, code: EIO, dataFile: location.dataFile))
    #expect(throws: StoreError.self) { try store.save(changed) }
    let data = try SystemFileSystem().stat(location.dataFile)
    let backup = try SystemFileSystem().stat(location.dataFile + ".bak")
    #expect(data.inode == backup.inode, "the stopped save's .bak is the data file")
    faulty.setFault(nil)
    #expect(try store.save(changed).outcome == .saved)
    #expect(folder.names().filter { $0.contains(".tmp-") } == [])
    #expect(folder.bytes("Checklists.plist") == encodedBytes(changed))
    #expect(folder.bytes("Checklists.plist.bak") == old)
    // And the save after it keeps a .bak as always.
    let more = adding("More", to: changed)
    #expect(try store.save(more).outcome == .saved)
    #expect(folder.names().filter { $0.contains(".tmp-") } == [])
    #expect(folder.bytes("Checklists.plist.bak") == encodedBytes(changed))
  }

  @Test(arguments: codes)
  func aFailedFolderSyncIsReportedButTheNewFileIsInPlace(code: Int32) throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    folder.write("Checklists.plist", encodedBytes(sampleModel()))
    let location = folder.location()
    let faulty = FaultyFileSystem()
    let (store, load) = try ChecklistsStore.open(location: location, fileSystem: faulty)
    let changed = adding("Laundry", to: load.model)
    faulty.setFault(Self.fault(for: .syncingFolder, code: code, dataFile: location.dataFile))
    #expect(
      throws: StoreError(
        .saveFailed(step: .syncingFolder), path: location.dataFile,
        cause: SystemCallError(code, call: "fsync"))
    ) {
      try store.save(changed)
    }
    #expect(folder.bytes("Checklists.plist") == encodedBytes(changed))
    faulty.setFault(nil)
    // The store knows the new file: no conflict copy, nothing to write again.
    #expect(try store.save(changed).outcome == .unchanged)
    #expect(try store.save(adding("More", to: changed)).outcome == .saved)
  }

  @Test(arguments: codes)
  func aFolderThatCannotBeCreatedFailsTheFirstSave(code: Int32) throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    let location = DataFileLocation(
      dataFile: folder.path + "/missing/Checklists.plist", stateFile: folder.path + "/s.json")
    let faulty = FaultyFileSystem()
    let (store, load) = try ChecklistsStore.open(
      location: location, fileSystem: faulty)
    faulty.setFault(Self.fault(for: .creatingFolder, code: code, dataFile: location.dataFile))
    #expect {
      try store.save(load.model)
    } throws: { error in
      (error as? StoreError)?.kind == .saveFailed(step: .creatingFolder)
    }
    #expect(folder.names().isEmpty)
    faulty.setFault(nil)
    #expect(try store.save(load.model).outcome == .saved)
  }

  @Test(arguments: [EIO, ENOSPC])
  func aFailedStateSaveKeepsTheOldState(code: Int32) throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    let faulty = FaultyFileSystem()
    let (store, load) = try ChecklistsStore.open(
      location: folder.location(), fileSystem: faulty)
    var state = load.state
    try store.saveState(state)
    let before = FileManager.default.contents(atPath: folder.location().stateFile)
    state.checklistIndex = 5
    faulty.setFault(.init(call: "write", code: code) { $0.contains(".tmp-") })
    #expect(throws: StoreError.self) { try store.saveState(state) }
    #expect(FileManager.default.contents(atPath: folder.location().stateFile) == before)
  }
}
