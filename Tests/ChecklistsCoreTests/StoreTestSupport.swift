import Foundation
import Testing

@testable import ChecklistsCore

#if canImport(Glibc)
  import Glibc
#endif

/// A fresh folder under the system's temporary folder, removed by `remove()`.
struct StoreTestFolder {
  let path: String

  init() {
    path = NSTemporaryDirectory() + "checklists-store-test-" + UUID().uuidString
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  func remove() { try? FileManager.default.removeItem(atPath: path) }

  /// A location for `name` inside this folder, with the state beside it.
  func location(_ name: String = "Checklists.plist") -> DataFileLocation {
    DataFileLocation(dataFile: path + "/" + name, stateFile: path + "/state/" + name + ".json")
  }

  /// The names in the folder.
  func names() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
  }

  func bytes(_ name: String) -> Data? { FileManager.default.contents(atPath: path + "/" + name) }

  /// Writes `name` whole, as a new file renamed into place. The file is opened close-on-exec
  /// (Foundation's writes are not), so that a child another test spawns meanwhile does not keep
  /// it open for writing, which would, for one, keep the store from leasing it.
  func write(_ name: String, _ data: Data) {
    let target = path + "/" + name
    let temporary = path + "/.write-" + UUID().uuidString
    let fd = Glibc.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    #expect(fd >= 0)
    guard fd >= 0 else { return }
    let written = data.withUnsafeBytes { bytes in
      guard let base = bytes.baseAddress else { return 0 }
      var offset = 0
      while offset < bytes.count {
        let count = Glibc.write(fd, base + offset, bytes.count - offset)
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { break }
        offset += count
      }
      return offset
    }
    Glibc.close(fd)
    #expect(written == data.count)
    #expect(Glibc.rename(temporary, target) == 0)
  }

  func permissions(_ name: String) -> mode_t? {
    (try? SystemFileSystem().stat(path + "/" + name))?.permissions
  }
}

/// A model of two lists with a few items, fixed dates.
func sampleModel(extraItem: String? = nil) -> DataModel {
  let due = Date(timeIntervalSince1970: 1_800_000_000)
  var groceries = Checklist(name: "Groceries", iconName: "Groceries")
  groceries.insertItem(ChecklistItem(text: "Milk", dueDate: due, itemID: 1))
  groceries.insertItem(ChecklistItem(text: "Eggs", checked: true, dueDate: due, itemID: 2))
  var chores = Checklist(name: "Chores", iconName: "Chores")
  chores.insertItem(ChecklistItem(text: "Dishes", dueDate: due, shouldRemind: true, itemID: 3))
  if let extraItem { chores.insertItem(ChecklistItem(text: extraItem, dueDate: due, itemID: 4)) }
  return DataModel(lists: [groceries, chores])
}

/// The bytes of `model` as the store writes them (XML).
func encodedBytes(_ model: DataModel, format: PlistFormat = .xml) -> Data {
  (try? ChecklistsFileCoding.encode(model.lists, format: format).data) ?? Data()
}

/// A model with one more item in "Chores".
func adding(_ text: String, to model: DataModel) -> DataModel {
  var model = model
  guard let list = model.lists.first(where: { $0.name == "Chores" }) else { return model }
  let item = model.makeItem(text: text, dueDate: Date(timeIntervalSince1970: 1_800_000_000))
  if let change = model.insertItem(item, listID: list.id) { model.apply(change) }
  return model
}

/// A model 2000 items larger (long texts in "Chores"): too big for a small tmpfs.
func bigModel(_ base: DataModel) -> DataModel {
  var model = base
  for index in 0..<2000 { model = adding("A long enough item number \(index)", to: model) }
  return model
}

/// The real file system, with one call made to fail with an `errno` when it matches.
///
/// Calls on descriptors are matched by the path the descriptor was opened with; `rename` and
/// `link` by their destination.
final class FaultyFileSystem: FileSystem, @unchecked Sendable {
  struct Fault {
    var call: String
    var code: Int32
    var matches: @Sendable (String) -> Bool
    /// Fail only the n-th matching call (1-based); nil fails every matching call.
    var occurrence: Int? = nil
  }

  private let real = SystemFileSystem()
  private let lock = NSLock()
  private var paths: [Int32: String] = [:]
  private var fault: Fault?
  private var matchCount = 0
  private(set) var calls: [String] = []
  /// The ranges handed to `startWriteback`, in order.
  private(set) var writebacks: [Range<Int64>] = []
  /// Whether `link` works; without hard links it fails with EPERM, as on some file systems.
  let hardLinks: Bool

  init(fault: Fault? = nil, hardLinks: Bool = true) {
    self.fault = fault
    self.hardLinks = hardLinks
  }

  func setFault(_ newFault: Fault?) {
    lock.lock()
    fault = newFault
    matchCount = 0
    lock.unlock()
  }

  private func check(_ call: String, _ path: String) throws(SystemCallError) {
    lock.lock()
    defer { lock.unlock() }
    calls.append("\(call) \(path)")
    guard let current = fault, current.call == call, current.matches(path) else { return }
    matchCount += 1
    if current.occurrence == nil || current.occurrence == matchCount {
      throw SystemCallError(current.code, call: call)
    }
  }

  private func path(of fd: Int32) -> String {
    lock.lock()
    defer { lock.unlock() }
    return paths[fd] ?? "fd \(fd)"
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
  func startWriteback(_ fd: Int32, offset: Int64, length: Int64) {
    let path = path(of: fd)
    lock.lock()
    calls.append("startWriteback \(path)")
    writebacks.append(offset..<(offset + length))
    lock.unlock()
    real.startWriteback(fd, offset: offset, length: length)
  }
  func readAll(_ fd: Int32, limit: Int) throws(SystemCallError) -> Data {
    try check("read", path(of: fd))
    return try real.readAll(fd, limit: limit)
  }
  /// Recorded as "map <path>", then "mapped <path>" when the system mapped the file; a fault on
  /// "map" refuses the mapping, as the system does when it grants no lease.
  func withLeasedMapping<Result, Failure: Error>(
    _ fd: Int32, size: Int, _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
  ) throws(Failure) -> Result? {
    let path = path(of: fd)
    do {
      try check("map", path)
    } catch {
      return nil
    }
    return try real.withLeasedMapping(fd, size: size) { bytes throws(Failure) in
      lock.lock()
      calls.append("mapped \(path)")
      lock.unlock()
      return try body(bytes)
    }
  }
  func fsync(_ fd: Int32) throws(SystemCallError) {
    try check("fsync", path(of: fd))
    try real.fsync(fd)
  }
  func fchmod(_ fd: Int32, mode: mode_t) throws(SystemCallError) {
    try check("fchmod", path(of: fd))
    try real.fchmod(fd, mode: mode)
  }
  func fchown(_ fd: Int32, owner: uid_t, group: gid_t) throws(SystemCallError) {
    try check("fchown", path(of: fd))
    try real.fchown(fd, owner: owner, group: group)
  }
  func ftruncate(_ fd: Int32, length: Int64) throws(SystemCallError) {
    try check("ftruncate", path(of: fd))
    try real.ftruncate(fd, length: length)
  }
  func close(_ fd: Int32) throws(SystemCallError) {
    let path = path(of: fd)
    lock.lock()
    paths[fd] = nil
    lock.unlock()
    do {
      try check("close", path)
    } catch {
      try? real.close(fd)  // Like Linux: the descriptor is gone even when close fails.
      throw error
    }
    try real.close(fd)
  }
  func fstat(_ fd: Int32) throws(SystemCallError) -> FileStatus {
    try check("fstat", path(of: fd))
    return try real.fstat(fd)
  }
  func stat(_ path: String) throws(SystemCallError) -> FileStatus {
    try check("stat", path)
    return try real.stat(path)
  }
  func lstat(_ path: String) throws(SystemCallError) -> FileStatus {
    try check("lstat", path)
    return try real.lstat(path)
  }
  func readlink(_ path: String) throws(SystemCallError) -> String {
    try check("readlink", path)
    return try real.readlink(path)
  }
  func rename(_ from: String, _ to: String) throws(SystemCallError) {
    try check("rename", to)
    try real.rename(from, to)
  }
  func link(_ from: String, _ to: String) throws(SystemCallError) {
    try check("link", to)
    guard hardLinks else { throw SystemCallError(EPERM, call: "link") }
    try real.link(from, to)
  }
  func unlink(_ path: String) throws(SystemCallError) {
    try check("unlink", path)
    try real.unlink(path)
  }
  func mkdir(_ path: String, mode: mode_t) throws(SystemCallError) {
    try check("mkdir", path)
    try real.mkdir(path, mode: mode)
  }
  func listDirectory(_ path: String) throws(SystemCallError) -> [String] {
    try check("listDirectory", path)
    return try real.listDirectory(path)
  }
  func flock(_ fd: Int32, operation: Int32) throws(SystemCallError) {
    try check("flock", path(of: fd))
    try real.flock(fd, operation: operation)
  }
  func processExists(_ pid: Int32) -> Bool { real.processExists(pid) }
}
