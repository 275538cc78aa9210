import Foundation
import Testing

@testable import ChecklistsCore

@Suite("Store: one checklists at a time per file")
struct StoreLockTests {
  @Test func aSecondOpenIsRefusedWithOurPidAndAllowedAfterClose() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    let location = DataFileLocation(
      dataFile: folder.path + "/Checklists.plist", stateFile: folder.path + "/s.json",
      homeDirectory: folder.path)
    let (first, _) = try ChecklistsStore.open(location: location, lock: true)
    #expect {
      _ = try ChecklistsStore.open(location: location, lock: true)
    } throws: { error in
      (error as? StoreError)?.message
        == "~/Checklists.plist is open in another checklists (pid \(getpid()))"
    }
    #expect(
      String(decoding: folder.bytes("Checklists.plist.lock") ?? Data(), as: UTF8.self)
        == "\(getpid())\n")
    // Reading without the lock is still possible (e.g. for a rescue).
    _ = try ChecklistsStore.open(location: location, lock: false)
    first.close()
    _ = try ChecklistsStore.open(location: location, lock: true)
  }

  @Test func aSymbolicLinkAndItsTargetShareTheLock() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    folder.write("Target.plist", encodedBytes(sampleModel()))
    #expect(symlink("Target.plist", folder.path + "/Checklists.plist") == 0)
    let (held, _) = try ChecklistsStore.open(location: folder.location("Target.plist"), lock: true)
    #expect(throws: StoreError.self) {
      _ = try ChecklistsStore.open(location: folder.location(), lock: true)
    }
    withExtendedLifetime(held) {}
  }

  @Test func aReadOnlyFolderIsReadWithoutTheLockAndAWarning() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    folder.write("Checklists.plist", encodedBytes(sampleModel()))
    let faulty = FaultyFileSystem(
      fault: .init(call: "open", code: EROFS) { $0.hasSuffix(".lock") })
    let (_, load) = try ChecklistsStore.open(
      location: folder.location(), lock: true, fileSystem: faulty)
    #expect(load.model == sampleModel())
    #expect(load.warnings.count == 1)
    #expect(load.warnings.first?.contains("changes cannot be saved") == true)
  }
}
