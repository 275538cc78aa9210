import Foundation
import Testing

@testable import ChecklistsCore

@Suite("Store: big files handed to the disk piece by piece")
struct StoreWritebackTests {
  /// Bytes that differ from piece to piece, so that a piece written twice or out of place shows.
  private func bytes(_ count: Int) -> Data {
    Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 20) })
  }

  /// The writes made to temporary files, in order.
  private func temporaryWrites(_ faulty: FaultyFileSystem) -> [String] {
    faulty.calls.filter { $0.hasPrefix("write ") && $0.contains(".tmp-") }
  }

  @Test func aBigDurableFileIsWrittenInPiecesEachHandedToTheDiskBeforeTheFsync() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    let piece = AtomicFileWriter.pieceBytes
    let data = bytes(5 * piece + 123)
    let faulty = FaultyFileSystem()
    try AtomicFileWriter(fileSystem: faulty).write(
      data, to: folder.path + "/Big.plist", keepBackup: true)
    // Compared outside #expect: its report of two big unequal values takes minutes.
    let written = folder.bytes("Big.plist") == data
    #expect(written)
    let expected = (0..<6).map { index in
      Int64(index * piece)..<Int64(min((index + 1) * piece, data.count))
    }
    #expect(faulty.writebacks == expected)
    #expect(temporaryWrites(faulty).count == 6)
    // Every piece is handed over before the file is synced.
    let lastWriteback = try #require(faulty.calls.lastIndex { $0.hasPrefix("startWriteback") })
    let fsync = try #require(faulty.calls.firstIndex { $0.hasPrefix("fsync") })
    #expect(lastWriteback < fsync)
  }

  @Test func smallFilesAndFilesWithoutFsyncAreWrittenInOneGo() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    let faulty = FaultyFileSystem()
    let writer = AtomicFileWriter(fileSystem: faulty)
    // Just under two pieces, durable.
    let small = bytes(2 * AtomicFileWriter.pieceBytes - 1)
    try writer.write(small, to: folder.path + "/Small.plist", keepBackup: false)
    // Big, not durable (a state file's kind of write): nothing to hand to the disk early.
    let big = bytes(3 * AtomicFileWriter.pieceBytes)
    try writer.write(big, to: folder.path + "/Loose.json", keepBackup: false, durable: false)
    let written = (folder.bytes("Small.plist") == small, folder.bytes("Loose.json") == big)
    #expect(written == (true, true))
    #expect(temporaryWrites(faulty).count == 2)
    #expect(faulty.writebacks.isEmpty)
  }

  @Test func aPieceThatFailsLeavesTheOldFileAndNoTemporaryFile() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    let old = Data("the old file".utf8)
    folder.write("Big.plist", old)
    let faulty = FaultyFileSystem(
      fault: .init(call: "write", code: ENOSPC, matches: { $0.contains(".tmp-") }, occurrence: 3))
    #expect {
      try AtomicFileWriter(fileSystem: faulty).write(
        bytes(4 * AtomicFileWriter.pieceBytes), to: folder.path + "/Big.plist", keepBackup: true)
    } throws: { error in
      (error as? AtomicWriteFailure)
        == AtomicWriteFailure(
          step: .writingTemporaryFile, cause: SystemCallError(ENOSPC, call: "write"))
    }
    #expect(folder.bytes("Big.plist") == old)
    #expect(folder.names() == ["Big.plist"])
    // The two pieces written before the failure were handed over; the third never was.
    #expect(faulty.writebacks.count == 2)
  }

  @Test func theSystemsEarlyWritebackIsFoundAndTakesItsArguments() throws {
    #if os(Linux)
      let function = try #require(EarlyWriteback.function)
      // The arguments arrive as the C function expects them: a real range with the flag to
      // start writing is accepted, an unknown flag refused with EINVAL, a bad descriptor with
      // EBADF.
      let file = StoreTestFolder()
      defer { file.remove() }
      file.write("Range.plist", bytes(3 * AtomicFileWriter.pieceBytes))
      let fd = open(file.path + "/Range.plist", O_WRONLY)
      #expect(fd >= 0)
      defer { close(fd) }
      #expect(function(fd, 4096, Int64(AtomicFileWriter.pieceBytes), EarlyWriteback.write) == 0)
      #expect(function(fd, 0, 4096, 0x80) == -1 && errno == EINVAL)
      #expect(function(-1, 0, 4096, EarlyWriteback.write) == -1 && errno == EBADF)
      // A hint on a real file: it neither fails nor changes what is written.
      let folder = StoreTestFolder()
      defer { folder.remove() }
      let data = bytes(3 * AtomicFileWriter.pieceBytes + 7)
      try AtomicFileWriter(fileSystem: SystemFileSystem()).write(
        data, to: folder.path + "/Real.plist", keepBackup: false)
      let written = folder.bytes("Real.plist") == data
      #expect(written)
    #endif
  }
}
