import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// A failed system call: which call, on what, and the `errno` it set.
public struct SystemCallError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The `errno` value.
  public var code: Int32
  /// The call that failed, e.g. "open".
  public var call: String

  /// Creates an error from an `errno` value.
  public init(_ code: Int32, call: String) {
    self.code = code
    self.call = call
  }

  /// The system's text for the error, e.g. "No space left on device".
  public var reason: String { String(cString: strerror(code)) }

  /// The call and the system's text.
  public var description: String { "\(call): \(reason)" }
}

/// What `stat` tells about a file, in the parts the store uses.
public struct FileStatus: Equatable, Sendable {
  /// The kinds of file the store tells apart.
  public enum Kind: Equatable, Sendable {
    case regular, directory, fifo, characterDevice, blockDevice, socket, symbolicLink, other
  }

  /// The file's kind.
  public var kind: Kind
  /// The permission bits (`st_mode & 0o7777`).
  public var permissions: mode_t
  /// The size in bytes.
  public var size: Int64
  /// The device the file is on.
  public var device: UInt64
  /// The inode number.
  public var inode: UInt64
  /// The modification time in nanoseconds since 1970.
  public var modificationNanoseconds: Int64
  /// The status-change time (ctime) in nanoseconds since 1970; programs cannot set it back.
  public var changeNanoseconds: Int64 = 0
  /// The owner's user id.
  public var owner: uid_t
  /// The group id.
  public var group: gid_t

  /// Creates a status from a `stat` record.
  public init(_ record: stat) {
    switch record.st_mode & S_IFMT {
    case S_IFREG: kind = .regular
    case S_IFDIR: kind = .directory
    case S_IFIFO: kind = .fifo
    case S_IFCHR: kind = .characterDevice
    case S_IFBLK: kind = .blockDevice
    case S_IFSOCK: kind = .socket
    case S_IFLNK: kind = .symbolicLink
    default: kind = .other
    }
    permissions = record.st_mode & 0o7777
    size = Int64(record.st_size)
    device = UInt64(record.st_dev)
    inode = UInt64(record.st_ino)
    modificationNanoseconds =
      Int64(record.st_mtim.tv_sec) * 1_000_000_000 + Int64(record.st_mtim.tv_nsec)
    changeNanoseconds =
      Int64(record.st_ctim.tv_sec) * 1_000_000_000 + Int64(record.st_ctim.tv_nsec)
    owner = record.st_uid
    group = record.st_gid
  }

  /// Creates a status from its parts (for tests).
  public init(
    kind: Kind, permissions: mode_t, size: Int64, device: UInt64 = 0, inode: UInt64 = 0,
    modificationNanoseconds: Int64 = 0, owner: uid_t = 0, group: gid_t = 0
  ) {
    self.kind = kind
    self.permissions = permissions
    self.size = size
    self.device = device
    self.inode = inode
    self.modificationNanoseconds = modificationNanoseconds
    self.owner = owner
    self.group = group
  }
}

/// The file-system calls the store makes, so that tests can make any of them fail.
///
/// Every method mirrors one POSIX call and throws its `errno` as a `SystemCallError`.
public protocol FileSystem: Sendable {
  /// `open(2)`; returns the descriptor.
  func open(_ path: String, flags: Int32, mode: mode_t) throws(SystemCallError) -> Int32
  /// `write(2)` of the whole buffer (repeats short writes).
  func write(_ fd: Int32, _ data: Data) throws(SystemCallError)
  /// `read(2)` until end of file, at most `limit` bytes.
  func readAll(_ fd: Int32, limit: Int) throws(SystemCallError) -> Data
  /// `read(2)` until end of file, at most `limit` bytes, into an array of its own: the store may
  /// give the array's memory back to the system while it decodes it (`ReadBytesRelease`), so it
  /// must share its storage with no other array.
  func readAllBytes(_ fd: Int32, limit: Int) throws(SystemCallError) -> [UInt8]
  /// Runs `body` on the `size` bytes of the big regular file open read-only at `fd`, mapped
  /// into memory under a read lease (`LeasedMapping`); nil, without running `body`, when the
  /// file is not mapped so (the caller reads it instead).
  func withLeasedMapping<Result, Failure: Error>(
    _ fd: Int32, size: Int, _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
  ) throws(Failure) -> Result?
  /// `fsync(2)`.
  func fsync(_ fd: Int32) throws(SystemCallError)
  /// Asks the system to start writing `length` bytes at `offset` of the file to disk now,
  /// without waiting (`sync_file_range` with `SYNC_FILE_RANGE_WRITE`); a hint, never an error.
  func startWriteback(_ fd: Int32, offset: Int64, length: Int64)
  /// `fchmod(2)`.
  func fchmod(_ fd: Int32, mode: mode_t) throws(SystemCallError)
  /// `fchown(2)`.
  func fchown(_ fd: Int32, owner: uid_t, group: gid_t) throws(SystemCallError)
  /// `ftruncate(2)`.
  func ftruncate(_ fd: Int32, length: Int64) throws(SystemCallError)
  /// `close(2)`.
  func close(_ fd: Int32) throws(SystemCallError)
  /// `fstat(2)`.
  func fstat(_ fd: Int32) throws(SystemCallError) -> FileStatus
  /// `stat(2)` (follows symbolic links).
  func stat(_ path: String) throws(SystemCallError) -> FileStatus
  /// `lstat(2)` (does not follow symbolic links).
  func lstat(_ path: String) throws(SystemCallError) -> FileStatus
  /// `readlink(2)`.
  func readlink(_ path: String) throws(SystemCallError) -> String
  /// `rename(2)`.
  func rename(_ from: String, _ to: String) throws(SystemCallError)
  /// `link(2)`.
  func link(_ from: String, _ to: String) throws(SystemCallError)
  /// `unlink(2)`.
  func unlink(_ path: String) throws(SystemCallError)
  /// `mkdir(2)`.
  func mkdir(_ path: String, mode: mode_t) throws(SystemCallError)
  /// The names in a directory, without "." and "..".
  func listDirectory(_ path: String) throws(SystemCallError) -> [String]
  /// `flock(2)`.
  func flock(_ fd: Int32, operation: Int32) throws(SystemCallError)
  /// Whether a process with `pid` exists (`kill(pid, 0)` not failing with ESRCH).
  func processExists(_ pid: Int32) -> Bool
}

extension FileSystem {
  /// `readAll` into an array: the store decodes from it without another copy.
  ///
  /// File systems that only implement `readAll` get it through a copy of the `Data`.
  public func readAllBytes(_ fd: Int32, limit: Int) throws(SystemCallError) -> [UInt8] {
    [UInt8](try readAll(fd, limit: limit))
  }

  /// No mapping, for file systems that do not offer it: the file is read.
  public func withLeasedMapping<Result, Failure: Error>(
    _ fd: Int32, size: Int, _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
  ) throws(Failure) -> Result? { nil }

  /// No early writeback, for file systems that do not offer it: `fsync` does all the work.
  public func startWriteback(_ fd: Int32, offset: Int64, length: Int64) {}

  /// `fchown(2)` on the real file system, for file systems written before the store kept owners.
  public func fchown(_ fd: Int32, owner: uid_t, group: gid_t) throws(SystemCallError) {
    if Glibc.fchown(fd, owner, group) != 0 { throw SystemCallError(errno, call: "fchown") }
  }
}

/// The real file system, through Glibc.
public struct SystemFileSystem: FileSystem {
  /// Creates the real file system.
  public init() {}

  /// `open` on the real file system.
  public func open(_ path: String, flags: Int32, mode: mode_t) throws(SystemCallError) -> Int32 {
    while true {
      let fd = Glibc.open(path, flags | O_CLOEXEC, mode)
      if fd >= 0 { return fd }
      if errno != EINTR { throw SystemCallError(errno, call: "open") }
    }
  }

  /// `write` on the real file system.
  public func write(_ fd: Int32, _ data: Data) throws(SystemCallError) {
    var failure: Int32 = 0
    data.withUnsafeBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      var offset = 0
      while offset < buffer.count {
        let written = Glibc.write(fd, base + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          failure = errno
          return
        }
        if written == 0 {
          failure = EIO
          return
        }
        offset += written
      }
    }
    if failure != 0 { throw SystemCallError(failure, call: "write") }
  }

  /// `readAllBytes` on the real file system: one buffer of the file's size, filled by `read`.
  public func readAllBytes(_ fd: Int32, limit: Int) throws(SystemCallError) -> [UInt8] {
    var status = Glibc.stat()
    var expected = 0
    if Glibc.fstat(fd, &status) == 0, status.st_size > 0, (status.st_mode & S_IFMT) == S_IFREG {
      expected = Int(min(Int64(status.st_size), Int64(limit)))
    }
    // One byte more than expected, so that a file that grew is noticed without a second buffer.
    // The expected part is read straight into uninitialised memory (no zero-filling first).
    var failure: Int32 = 0
    var result = [UInt8](unsafeUninitializedCapacity: expected + 1) { buffer, initialized in
      guard let base = buffer.baseAddress else { return }
      // A 100,000-item file (12 MB) is then read in 5–9 ms instead of 16–19.
      HugePages.prefer(UnsafeMutableRawBufferPointer(buffer))
      if expected >= Self.splitReadBytes, ItemSlices.threads > 1 {
        (initialized, failure) = Self.readInHalves(fd, into: base, count: expected)
        if failure != 0 { return }
      }
      while initialized < buffer.count {
        let read = Glibc.read(fd, base + initialized, buffer.count - initialized)
        if read < 0 {
          if errno == EINTR || errno == EAGAIN { continue }
          failure = errno
          return
        }
        if read == 0 { return }
        initialized += read
      }
    }
    if failure != 0 { throw SystemCallError(failure, call: "read") }
    if result.count <= expected { return result }
    // The file grew while being read: go on in chunks.
    var count = result.count
    while count <= limit {
      if count == result.count {
        result.append(contentsOf: repeatElement(0, count: max(result.count, 1 << 16)))
      }
      let room = min(result.count - count, limit + 1 - count)
      let read = result.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, room) }
      if read < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        throw SystemCallError(errno, call: "read")
      }
      if read == 0 { break }
      count += read
    }
    result.removeLast(result.count - count)
    return result
  }

  /// Files from this size on are read in two halves at once, each on its own core: the pages
  /// of the new buffer are faulted in and filled twice as fast (a 28 MB file: 9.6–11.4 ms
  /// instead of 12.3–16, medians of 15, with single reads of up to 120 ms when one core had to
  /// wait for every page).
  static let splitReadBytes = 4 << 20

  /// Reads the first `count` bytes of `fd` into `base`, the second half on a thread of its own;
  /// how many bytes from the start were read in one piece (less than `count` when the file
  /// ended sooner), and the error, if any. The file position is left after those bytes.
  static func readInHalves(_ fd: Int32, into base: UnsafeMutablePointer<UInt8>, count: Int)
    -> (read: Int, error: Int32)
  {
    let half = count / 2
    let address = Int(bitPattern: base)
    let second = ThreadedWork {
      preadFully(fd, UnsafeMutablePointer(bitPattern: address + half), count - half, at: half)
    }
    let first = preadFully(fd, base, half, at: 0)
    let rest = second.result()
    if first.error != 0 { return (0, first.error) }
    if rest.error != 0 { return (0, rest.error) }
    // A file that ended in the first half: only that much is the file's start.
    let read = first.read < half ? first.read : half + rest.read
    guard lseek(fd, off_t(read), SEEK_SET) == off_t(read) else { return (0, errno) }
    return (read, 0)
  }

  /// `pread` until `count` bytes at `offset` are in `base` or the file ends; the bytes read and
  /// the error, if any.
  private static func preadFully(
    _ fd: Int32, _ base: UnsafeMutablePointer<UInt8>?, _ count: Int, at offset: Int
  ) -> (read: Int, error: Int32) {
    guard let base else { return (0, EFAULT) }
    var done = 0
    while done < count {
      let read = pread(fd, base + done, count - done, off_t(offset + done))
      if read < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        return (done, errno)
      }
      if read == 0 { break }
      done += read
    }
    return (done, 0)
  }

  /// `readAll` on the real file system.
  public func readAll(_ fd: Int32, limit: Int) throws(SystemCallError) -> Data {
    var result = Data()
    // Room for the whole file up front, so that a big file is not copied while it grows.
    var status = Glibc.stat()
    if Glibc.fstat(fd, &status) == 0, status.st_size > 0, (status.st_mode & S_IFMT) == S_IFREG {
      result.reserveCapacity(Int(min(Int64(status.st_size), Int64(limit))) + 1)
    }
    let chunkSize = 1 << 16
    var chunk = [UInt8](repeating: 0, count: chunkSize)
    while result.count <= limit {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, chunkSize) }
      if count < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        throw SystemCallError(errno, call: "read")
      }
      if count == 0 { break }
      result.append(contentsOf: chunk[0..<count])
    }
    return result
  }

  /// `fsync` on the real file system.
  public func fsync(_ fd: Int32) throws(SystemCallError) {
    while Glibc.fsync(fd) != 0 {
      if errno != EINTR { throw SystemCallError(errno, call: "fsync") }
    }
  }

  /// `sync_file_range(2)` on the real file system (Linux only; looked up once by name, as the C
  /// library's header hides it from Swift); elsewhere nothing.
  public func startWriteback(_ fd: Int32, offset: Int64, length: Int64) {
    _ = EarlyWriteback.function?(fd, offset, length, EarlyWriteback.write)
  }

  /// `mmap` under a read lease on the real file system (Linux only); elsewhere nil.
  public func withLeasedMapping<Result, Failure: Error>(
    _ fd: Int32, size: Int, _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
  ) throws(Failure) -> Result? {
    try LeasedMapping.run(fd, size: size, body)
  }

  /// `fchmod` on the real file system.
  public func fchmod(_ fd: Int32, mode: mode_t) throws(SystemCallError) {
    if Glibc.fchmod(fd, mode) != 0 { throw SystemCallError(errno, call: "fchmod") }
  }

  /// `fchown` on the real file system.
  public func fchown(_ fd: Int32, owner: uid_t, group: gid_t) throws(SystemCallError) {
    if Glibc.fchown(fd, owner, group) != 0 { throw SystemCallError(errno, call: "fchown") }
  }

  /// `ftruncate` on the real file system.
  public func ftruncate(_ fd: Int32, length: Int64) throws(SystemCallError) {
    if Glibc.ftruncate(fd, off_t(length)) != 0 {
      throw SystemCallError(errno, call: "ftruncate")
    }
  }

  /// `close` on the real file system.
  public func close(_ fd: Int32) throws(SystemCallError) {
    // On Linux the descriptor is released even when close reports an error: never retry.
    if Glibc.close(fd) != 0 && errno != EINTR { throw SystemCallError(errno, call: "close") }
  }

  /// `fstat` on the real file system.
  public func fstat(_ fd: Int32) throws(SystemCallError) -> FileStatus {
    var record = Glibc.stat()
    if Glibc.fstat(fd, &record) != 0 { throw SystemCallError(errno, call: "fstat") }
    return FileStatus(record)
  }

  /// `stat` on the real file system.
  public func stat(_ path: String) throws(SystemCallError) -> FileStatus {
    var record = Glibc.stat()
    if callStat(path, &record) != 0 { throw SystemCallError(errno, call: "stat") }
    return FileStatus(record)
  }

  /// `lstat` on the real file system.
  public func lstat(_ path: String) throws(SystemCallError) -> FileStatus {
    var record = Glibc.stat()
    if Glibc.lstat(path, &record) != 0 { throw SystemCallError(errno, call: "lstat") }
    return FileStatus(record)
  }

  /// `readlink` on the real file system.
  public func readlink(_ path: String) throws(SystemCallError) -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = Glibc.readlink(path, &buffer, Int(PATH_MAX))
    if count < 0 { throw SystemCallError(errno, call: "readlink") }
    return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// `rename` on the real file system.
  public func rename(_ from: String, _ to: String) throws(SystemCallError) {
    if Glibc.rename(from, to) != 0 { throw SystemCallError(errno, call: "rename") }
  }

  /// `link` on the real file system.
  public func link(_ from: String, _ to: String) throws(SystemCallError) {
    if Glibc.link(from, to) != 0 { throw SystemCallError(errno, call: "link") }
  }

  /// `unlink` on the real file system.
  public func unlink(_ path: String) throws(SystemCallError) {
    if Glibc.unlink(path) != 0 { throw SystemCallError(errno, call: "unlink") }
  }

  /// `mkdir` on the real file system.
  public func mkdir(_ path: String, mode: mode_t) throws(SystemCallError) {
    if Glibc.mkdir(path, mode) != 0 { throw SystemCallError(errno, call: "mkdir") }
  }

  /// `listDirectory` on the real file system.
  public func listDirectory(_ path: String) throws(SystemCallError) -> [String] {
    guard let directory = opendir(path) else { throw SystemCallError(errno, call: "opendir") }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafePointer(to: entry.pointee.d_name) {
        $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }

  /// `flock` on the real file system.
  public func flock(_ fd: Int32, operation: Int32) throws(SystemCallError) {
    while callFlock(fd, operation) != 0 {
      if errno != EINTR { throw SystemCallError(errno, call: "flock") }
    }
  }

  /// `processExists` on the real file system.
  public func processExists(_ pid: Int32) -> Bool {
    Glibc.kill(pid, 0) == 0 || errno != ESRCH
  }
}

// File-scope wrappers: inside `SystemFileSystem` the names `stat` and `flock` mean its methods.
private func callStat(_ path: String, _ record: inout stat) -> Int32 { stat(path, &record) }
private func callFlock(_ fd: Int32, _ operation: Int32) -> Int32 { flock(fd, operation) }

/// The C library's `sync_file_range`, found by name at first use.
enum EarlyWriteback {
  typealias Function = @convention(c) (Int32, Int64, Int64, UInt32) -> Int32
  /// `SYNC_FILE_RANGE_WRITE`: start writing the range's dirty pages, do not wait.
  static let write: UInt32 = 2
  static let function: Function? = {
    #if os(Linux)
      guard let symbol = dlsym(nil, "sync_file_range") else { return nil }
      return unsafeBitCast(symbol, to: Function.self)
    #else
      return nil
    #endif
  }()
}
