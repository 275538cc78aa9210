import Foundation
import Testing

@testable import ChecklistsCore

#if canImport(Glibc)
  import Glibc
#endif

/// Where hard links are missing, the `.bak` is a copy; a failure while copying it is a failed
/// backup step like any other.
@Suite("Durability: failures while copying the .bak on file systems without hard links")
struct DurabilityBackupCopyFaultTests {
  /// The second temporary file of a save is the backup copy.
  @Test(arguments: ["open", "write", "fsync"], [ENOSPC, EIO, EACCES])
  func aFailedBackupCopyKeepsBothOldFilesAndTheNextSaveSucceeds(call: String, code: Int32) throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    let old = encodedBytes(sampleModel())
    folder.write("Checklists.plist", old)
    folder.write("Checklists.plist.bak", Data("older".utf8))
    let location = folder.location()
    let fileSystem = FaultyFileSystem(hardLinks: false)
    let (store, load) = try ChecklistsStore.open(
      location: location, fileSystem: fileSystem)
    defer { store.close() }
    let changed = adding("Laundry", to: load.model)
    fileSystem.setFault(
      .init(call: call, code: code, matches: { $0.contains(".tmp-") }, occurrence: 2))
    #expect(
      throws: StoreError(
        .saveFailed(step: .keepingBackup), path: location.dataFile,
        cause: SystemCallError(code, call: call))
    ) {
      try store.save(changed)
    }
    #expect(folder.bytes("Checklists.plist") == old)
    #expect(folder.bytes("Checklists.plist.bak") == Data("older".utf8))
    #expect(!folder.names().contains { $0.contains(".tmp-") }, "\(folder.names())")
    fileSystem.setFault(nil)
    #expect(try store.save(changed).outcome == .saved)
    #expect(folder.bytes("Checklists.plist") == encodedBytes(changed))
    #expect(folder.bytes("Checklists.plist.bak") == old)
  }
}
