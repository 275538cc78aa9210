import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// An exclusive `flock` on `<file>.lock`, holding our pid, so that only one checklists reads,
/// merges and writes a file at a time (for milliseconds: no process holds it for a session).
///
/// The kernel releases the lock when the process ends, however it ends, so a lock left by a
/// killed process never blocks. The lock file itself is never removed (removing it would let two
/// processes lock two different files).
public final class DataFileLock: @unchecked Sendable {
  /// The lock file's path.
  public let path: String
  private let fileSystem: any FileSystem
  private let lock = ThreadLock()
  private var descriptor: Int32?

  private init(path: String, fileSystem: any FileSystem, descriptor: Int32) {
    self.path = path
    self.fileSystem = fileSystem
    self.descriptor = descriptor
  }

  /// Takes the lock for the data file at `dataFile` (a real path), waiting up to `wait` seconds
  /// for another writer to finish.
  ///
  /// - Parameter shownPath: the data file as shown in the message when another process has it.
  public static func acquire(
    dataFile: String, shownPath: String, fileSystem: any FileSystem = SystemFileSystem(),
    wait: TimeInterval = 0
  ) throws(StoreError) -> DataFileLock {
    let path = dataFile + ".lock"
    let folder = PathText.folder(of: dataFile)
    do {
      try AtomicFileWriter(fileSystem: fileSystem).createFolders(folder)
    } catch {
      throw StoreError(.lockFailed, path: path, shownPath: shownPath, cause: error)
    }
    let fd: Int32
    do {
      fd = try fileSystem.open(path, flags: O_RDWR | O_CREAT, mode: 0o600)
    } catch {
      throw StoreError(.lockFailed, path: path, shownPath: shownPath, cause: error)
    }
    let deadline = Date().addingTimeInterval(wait)
    do throws(SystemCallError) {
      while true {
        do {
          try fileSystem.flock(fd, operation: LOCK_EX | LOCK_NB)
          break
        } catch {
          guard error.code == EWOULDBLOCK, Date() < deadline else { throw error }
          usleep(2_000)
        }
      }
    } catch {
      let holder = error.code == EWOULDBLOCK ? readPid(fd, fileSystem: fileSystem) : nil
      try? fileSystem.close(fd)
      if error.code == EWOULDBLOCK {
        throw StoreError(.locked(pid: holder), path: dataFile, shownPath: shownPath)
      }
      throw StoreError(.lockFailed, path: path, shownPath: shownPath, cause: error)
    }
    writePid(fd, fileSystem: fileSystem)
    return DataFileLock(path: path, fileSystem: fileSystem, descriptor: fd)
  }

  /// Whether another process holds the lock of `dataFile` now (no lock file: no one does).
  /// Looking takes the lock shared for an instant: an `acquire` at that very instant waits
  /// for it (give it a `wait`).
  public static func isHeld(dataFile: String) -> Bool {
    let fd = open(dataFile + ".lock", O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    if flock(fd, LOCK_SH | LOCK_NB) != 0 { return errno == EWOULDBLOCK }
    flock(fd, LOCK_UN)
    return false
  }

  /// Releases the lock (also done when the lock is deinitialized).
  public func release() {
    lock.lock()
    defer { lock.unlock() }
    guard let fd = descriptor else { return }
    descriptor = nil
    try? fileSystem.flock(fd, operation: LOCK_UN)
    try? fileSystem.close(fd)
  }

  deinit { release() }

  /// Puts our pid in the lock file, for the message another instance shows; failing to is
  /// harmless. A file that already holds it (every save after a process's first) is not
  /// written again: truncating and writing cost the file system a journal entry each.
  private static func writePid(_ fd: Int32, fileSystem: any FileSystem) {
    let line = Data("\(getpid())\n".utf8)
    _ = lseek(fd, 0, SEEK_SET)
    if let held = try? fileSystem.readAll(fd, limit: 64), held == line { return }
    try? fileSystem.ftruncate(fd, length: 0)
    _ = lseek(fd, 0, SEEK_SET)
    try? fileSystem.write(fd, line)
  }

  private static func readPid(_ fd: Int32, fileSystem: any FileSystem) -> Int32? {
    _ = lseek(fd, 0, SEEK_SET)
    guard let data = try? fileSystem.readAll(fd, limit: 64) else { return nil }
    let text = String(decoding: data, as: UTF8.self).trimmingWhitespace()
    return Int32(text)
  }
}
