import Foundation
import Testing

@testable import ChecklistsCore

#if canImport(Glibc)
  import Glibc
#endif

/// A file system without hard links (link fails with EPERM) that fails the `failing`-th call
/// named `call` on a temporary file with `code`; everything else goes to the real file system.
final class NoHardLinkFileSystem: FileSystem, @unchecked Sendable {
  private let real = SystemFileSystem()
  private let lock = NSLock()
  private var paths: [Int32: String] = [:]
  private var counts: [String: Int] = [:]
  private let call: String
  private let code: Int32
  private let failing: Int
  /// Whether the fault is armed.
  var armed = false

  init(failing: Int, call: String, code: Int32) {
    self.failing = failing
    self.call = call
    self.code = code
  }

  private func check(_ name: String, _ path: String) throws(SystemCallError) {
    lock.lock()
    defer { lock.unlock() }
    guard armed, name == call, path.contains(".tmp-") else { return }
    counts[name, default: 0] += 1
    if counts[name] == failing { throw SystemCallError(code, call: name) }
  }

  private func path(of fd: Int32) -> String {
    lock.lock()
    defer { lock.unlock() }
    return paths[fd] ?? ""
  }

  func open(_ path: String, flags: Int32, mode: mode_t) throws(SystemCallError) -> Int32 {
    try check("open", path)
    let fd = try real.open(path, flags: flags, mode: mode)
    lock.lock()
    paths[fd] = path
    lock.unlock()
    return fd
  }
  func write(_ fd: Int32, _ data: Data) throws(SystemCallError) {
    try check("write", path(of: fd))
    try real.write(fd, data)
  }
  func readAll(_ fd: Int32, limit: Int) throws(SystemCallError) -> Data {
    try real.readAll(fd, limit: limit)
  }
  func fsync(_ fd: Int32) throws(SystemCallError) {
    try check("fsync", path(of: fd))
    try real.fsync(fd)
  }
  func fchmod(_ fd: Int32, mode: mode_t) throws(SystemCallError) { try real.fchmod(fd, mode: mode) }
  func fchown(_ fd: Int32, owner: uid_t, group: gid_t) throws(SystemCallError) {
    try real.fchown(fd, owner: owner, group: group)
  }
  func ftruncate(_ fd: Int32, length: Int64) throws(SystemCallError) {
    try real.ftruncate(fd, length: length)
  }
  func close(_ fd: Int32) throws(SystemCallError) { try real.close(fd) }
  func fstat(_ fd: Int32) throws(SystemCallError) -> FileStatus { try real.fstat(fd) }
  func stat(_ path: String) throws(SystemCallError) -> FileStatus { try real.stat(path) }
  func lstat(_ path: String) throws(SystemCallError) -> FileStatus { try real.lstat(path) }
  func readlink(_ path: String) throws(SystemCallError) -> String { try real.readlink(path) }
  func rename(_ from: String, _ to: String) throws(SystemCallError) { try real.rename(from, to) }
  func link(_ from: String, _ to: String) throws(SystemCallError) {
    throw SystemCallError(EPERM, call: "link")
  }
  func unlink(_ path: String) throws(SystemCallError) { try real.unlink(path) }
  func mkdir(_ path: String, mode: mode_t) throws(SystemCallError) {
    try real.mkdir(path, mode: mode)
  }
  func listDirectory(_ path: String) throws(SystemCallError) -> [String] {
    try real.listDirectory(path)
  }
  func flock(_ fd: Int32, operation: Int32) throws(SystemCallError) {
    try real.flock(fd, operation: operation)
  }
  func processExists(_ pid: Int32) -> Bool { real.processExists(pid) }
}

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
    let fileSystem = NoHardLinkFileSystem(failing: 2, call: call, code: code)
    let (store, load) = try ChecklistsStore.open(
      location: location, lock: true, fileSystem: fileSystem)
    defer { store.close() }
    let changed = adding("Laundry", to: load.model)
    fileSystem.armed = true
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
    fileSystem.armed = false
    #expect(try store.save(changed).outcome == .saved)
    #expect(folder.bytes("Checklists.plist") == encodedBytes(changed))
    #expect(folder.bytes("Checklists.plist.bak") == old)
  }
}
