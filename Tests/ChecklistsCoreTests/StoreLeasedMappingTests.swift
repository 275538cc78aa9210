import Foundation
import Testing

@testable import ChecklistsCore

#if canImport(Glibc)
  import Glibc
#endif

@Suite("Store: big files decoded where they lie, mapped under a read lease")
struct StoreLeasedMappingTests {
  /// Bytes that differ from page to page.
  private func bytes(_ count: Int) -> Data {
    Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 12) })
  }

  /// One list of `count` items with texts long enough that 10,000 make more than a megabyte.
  private func model(items count: Int) -> DataModel {
    let due = Date(timeIntervalSince1970: 1_800_000_000)
    let items = (0..<count).map { index in
      ChecklistItem(
        text: "Item number \(index), with a text long enough to matter",
        checked: index % 3 == 0, dueDate: due, itemID: index)
    }
    return DataModel(lists: [Checklist(name: "Big", iconName: "Folder", items: items)])
  }

  /// `data` written to "Big.plist" in `folder`, and the file opened for reading.
  private func written(_ data: Data, in folder: StoreTestFolder) throws -> (
    path: String, fd: Int32
  ) {
    let path = try leasable(data, as: "Big.plist", in: folder)
    let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
    try #require(fd >= 0)
    return (path, fd)
  }

  /// `data` written as `name` in `folder`, once no process holds the file open for writing any
  /// more; its path.
  ///
  /// The kernel grants no lease while any open file description of the file is writable, and
  /// one that this process wrote through can live on a moment in a child that another test
  /// spawns at that instant (between its fork and its exec). Waiting for the lease to be
  /// granted, for at most 10 seconds, waits for that; no new one can appear, as nothing here
  /// opens the file for writing again.
  private func leasable(_ data: Data, as name: String, in folder: StoreTestFolder) throws
    -> String
  {
    folder.write(name, data)
    let path = folder.path + "/" + name
    let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
    try #require(fd >= 0)
    defer { Glibc.close(fd) }
    // F_SETSIG to SIGURG first, as `LeasedMapping` does, then F_SETLEASE: granted or not.
    guard fcntl(fd, 10, SIGURG) == 0 else { return path }
    let deadline = Self.now() + 10_000
    while fcntl(fd, 1024, Int32(F_RDLCK)) != 0, Self.now() < deadline {
      usleep(1_000)
    }
    _ = fcntl(fd, 1024, Int32(F_UNLCK))
    return path
  }

  /// The lines of this process's memory map that name `path`.
  private func mappings(of path: String) -> [String] {
    let maps = (try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8)) ?? ""
    return maps.split(separator: "\n").filter { $0.contains(path) }.map(String.init)
  }

  /// Waits until `/proc/locks` shows the lease on `path` being broken (a writer held back), for
  /// at most 10 seconds; whether it did.
  private static func waitUntilLeaseBreaking(_ path: String) -> Bool {
    var status = stat()
    guard stat(path, &status) == 0 else { return false }
    let inode = ":\(status.st_ino) "
    let deadline = now() + 10_000
    while now() < deadline {
      let locks = (try? String(contentsOfFile: "/proc/locks", encoding: .utf8)) ?? ""
      if locks.split(separator: "\n").contains(where: {
        $0.contains("LEASE") && $0.contains("BREAKING") && $0.contains(inode)
      }) {
        return true
      }
      usleep(1_000)
    }
    return false
  }

  /// Milliseconds on the monotonic clock.
  private static func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
  }

  @Test(arguments: [PlistFormat.binary, .xml])
  func aBigFileIsMappedForTheLoadOnlyAndDecodedThereWhenBinary(format: PlistFormat) throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    // XML big enough that its bytes are given back as they are read (`ReadBytesRelease`).
    let items = format == .binary ? 12_000 : 40_000
    let expected = model(items: items)
    let data = encodedBytes(expected, format: format)
    let minimum = format == .binary ? LeasedMapping.minimumBytes : ReadBytesRelease.minimumBytes
    #expect(data.count >= minimum)
    let path = try leasable(data, as: "Checklists.plist", in: folder)
    let faulty = FaultyFileSystem()
    let (store, load) = try ChecklistsStore.open(location: folder.location(), fileSystem: faulty)
    #expect(faulty.calls.contains("mapped \(path)"))
    // XML is looked at mapped, then read (see `ChecklistsStore.readAndDecode`).
    #expect(faulty.calls.contains("read \(path)") == (format == .xml))
    let same = load.model.lists == expected.lists
    #expect(same)
    // Nothing of the file stays mapped, and the lease is given up: an open for writing that
    // would wait for a lease fails with EAGAIN instead, and this one must not.
    #expect(mappings(of: folder.path).isEmpty)
    let writable = Glibc.open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
    #expect(writable >= 0)
    if writable >= 0 { Glibc.close(writable) }
    // The file's fingerprint is its own: a save finds no change made elsewhere.
    #expect(store.refresh(load.model) == nil)
  }

  @Test func whileMappedWritersWaitAndEveryByteStaysReadable() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    let data = bytes(3 << 20)
    let (path, fd) = try written(data, in: folder)
    defer { Glibc.close(fd) }
    struct Held {
      var nonBlockingOpen: Int32
      var nonBlockingError: Int32
      var writer: ThreadedWork<Double>
      var breaking: Bool
      var hash: UInt64
      var endOfCall: Double
    }
    let held = try #require(
      LeasedMapping.run(fd, size: data.count) { bytes in
        // An open for writing that would not wait fails at once.
        let nonBlocking = Glibc.open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        let error = errno
        if nonBlocking >= 0 { Glibc.close(nonBlocking) }
        // One that waits, emptying the file (which would make the pages behind `bytes` vanish
        // and end this process with SIGBUS on the next read of them, were it not held up).
        let writer = ThreadedWork { () -> Double in
          let fd = Glibc.open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
          let opened = Self.now()
          if fd >= 0 {
            _ = Glibc.write(fd, "x", 1)
            Glibc.close(fd)
          }
          return opened
        }
        // Until the kernel holds the writer back, breaking the lease (or 10 s).
        let breaking = Self.waitUntilLeaseBreaking(path)
        let hash = ContentHash.of(UnsafeRawBufferPointer(bytes))
        return Held(
          nonBlockingOpen: nonBlocking, nonBlockingError: error, writer: writer,
          breaking: breaking, hash: hash, endOfCall: Self.now())
      })
    #expect(held.nonBlockingOpen == -1)
    #expect(held.nonBlockingError == EAGAIN)
    #expect(held.breaking)
    #expect(held.hash == ContentHash.of(data))
    // The writer got its file only once the mapping was gone, and wrote it.
    #expect(held.writer.result() >= held.endOfCall)
    #expect(folder.bytes("Big.plist") == Data("x".utf8))
    #expect(mappings(of: folder.path).isEmpty)
  }

  @Test func noMappingWithoutALeaseOrForASmallOrChangedFile() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    let data = bytes(2 << 20)
    let (path, fd) = try written(data, in: folder)
    defer { Glibc.close(fd) }
    var ran = 0
    // Open for writing elsewhere: no lease.
    let writer = Glibc.open(path, O_WRONLY | O_CLOEXEC)
    try #require(writer >= 0)
    #expect(LeasedMapping.run(fd, size: data.count) { _ in ran += 1 } == nil)
    Glibc.close(writer)
    // Not the size the caller measured.
    #expect(LeasedMapping.run(fd, size: data.count - 1) { _ in ran += 1 } == nil)
    #expect(ran == 0)
    // The same file with nothing in the way is mapped, and the lease given up after.
    #expect(LeasedMapping.run(fd, size: data.count) { _ in ran += 1 } != nil)
    #expect(ran == 1)
    let again = Glibc.open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
    #expect(again >= 0)
    if again >= 0 { Glibc.close(again) }
    // A small file is read.
    folder.write("Small.plist", bytes(LeasedMapping.minimumBytes - 1))
    let small = Glibc.open(folder.path + "/Small.plist", O_RDONLY | O_CLOEXEC)
    try #require(small >= 0)
    defer { Glibc.close(small) }
    #expect(LeasedMapping.run(small, size: LeasedMapping.minimumBytes - 1) { _ in ran += 1 } == nil)
    #expect(ran == 1)
  }

  /// A big file the system will not lease (open for writing elsewhere), or that the file system
  /// does not map, is read instead, with the same lists.
  @Test(arguments: [true, false])
  func aBigFileThatIsNotMappedIsReadAndGivesTheSameLists(openForWriting: Bool) throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    let expected = model(items: 12_000)
    folder.write("Checklists.plist", encodedBytes(expected, format: .binary))
    let path = folder.path + "/Checklists.plist"
    let writer = openForWriting ? Glibc.open(path, O_WRONLY | O_CLOEXEC) : -1
    try #require(writer >= 0 || !openForWriting)
    defer { if writer >= 0 { Glibc.close(writer) } }
    let refusal = FaultyFileSystem.Fault(call: "map", code: EAGAIN) { _ in true }
    let faulty = FaultyFileSystem(fault: openForWriting ? nil : refusal)
    let (_, load) = try ChecklistsStore.open(location: folder.location(), fileSystem: faulty)
    #expect(faulty.calls.contains("map \(path)"))
    #expect(!faulty.calls.contains("mapped \(path)"))
    #expect(faulty.calls.contains("read \(path)"))
    let same = load.model.lists == expected.lists
    #expect(same)
  }

  @Test func onlyFilesOnLocalFileSystemsAreMapped() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    let (_, fd) = try written(bytes(16), in: folder)
    defer { Glibc.close(fd) }
    #expect(LeasedMapping.isLocal(fd))
    // procfs is no disk.
    let proc = Glibc.open("/proc/self/status", O_RDONLY | O_CLOEXEC)
    try #require(proc >= 0)
    defer { Glibc.close(proc) }
    #expect(!LeasedMapping.isLocal(proc))
  }

  @Test func aDamagedBigFileSaysWhatIsWrongAsWhenRead() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    var data = encodedBytes(model(items: 12_000), format: .binary)
    // The trailer's offset size: 9 bytes is not a size a binary property list may use.
    data[data.count - 26] = 9
    let path = try leasable(data, as: "Checklists.plist", in: folder)
    var messages: [String] = []
    for fault in [nil, FaultyFileSystem.Fault(call: "map", code: EAGAIN) { _ in true }] {
      let faulty = FaultyFileSystem(fault: fault)
      do {
        _ = try ChecklistsStore.open(location: folder.location(), fileSystem: faulty)
      } catch {
        messages.append(error.message)
      }
      #expect(faulty.calls.contains("mapped \(path)") == (fault == nil))
    }
    #expect(messages.count == 2)
    #expect(Set(messages).count == 1)
    #expect(messages.first?.contains("damaged trailer") == true)
  }
}
