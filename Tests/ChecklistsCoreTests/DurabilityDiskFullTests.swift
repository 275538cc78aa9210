import ChecklistsTestSupport
import Foundation
import Testing

@testable import ChecklistsCore

#if canImport(Glibc)
  import Glibc
#endif

extension CoreProcesses {
  /// A real full disk (tmpfs): the save fails, and succeeds once space returns.
  @Suite("Durability: a full disk, then space again", .serialized)
  struct DurabilityDiskFullTests {
    @Test func theNextSaveAfterSpaceReturnsSucceeds() throws {
      let folder = StoreTestFolder()
      defer { folder.remove() }
      // Fails (not skips) without root: CI runs as root, and this is the only real full disk.
      let point = try StoreMountTests.mountTmpfs(folder, size: "4m")
      defer { Tmpfs.unmount(point) }
      let old = encodedBytes(sampleModel())
      #expect(FileManager.default.createFile(atPath: point + "/Checklists.plist", contents: old))
      let location = DataFileLocation(
        dataFile: point + "/Checklists.plist", stateFile: folder.path + "/state.json")
      let (store, load) = try ChecklistsStore.open(location: location)
      defer { store.close() }
      let first = bigModel(load.model)
      let firstBytes = encodedBytes(first)
      // Fill the disk so that the new version cannot fit.
      var info = statvfs()
      #expect(statvfs(point, &info) == 0)
      let free = Int(info.f_bavail) * Int(info.f_frsize)
      #expect(free > firstBytes.count, "the disk is too small for the test")
      let filler = point + "/filler"
      #expect(
        FileManager.default.createFile(
          atPath: filler, contents: Data(count: max(free - firstBytes.count / 2, 0))))
      #expect {
        try store.save(first)
      } throws: { error in
        (error as? StoreError)?.cause?.code == ENOSPC
      }
      #expect(FileManager.default.contents(atPath: location.dataFile) == old)
      // Space returns: the same model saves, then the next one.
      #expect(unlink(filler) == 0)
      #expect(try store.save(first).outcome == .saved)
      #expect(FileManager.default.contents(atPath: location.dataFile) == firstBytes)
      #expect(FileManager.default.contents(atPath: location.dataFile + ".bak") == old)
      let second = adding("After the disk was full", to: first)
      #expect(try store.save(second).outcome == .saved)
      #expect(FileManager.default.contents(atPath: location.dataFile) == encodedBytes(second))
      #expect(FileManager.default.contents(atPath: location.dataFile + ".bak") == firstBytes)
      let names = (try? FileManager.default.contentsOfDirectory(atPath: point)) ?? []
      #expect(!names.contains { $0.contains(".tmp-") }, "\(names)")
    }
  }
}
