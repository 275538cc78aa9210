import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// A vdir as one sync pass found it: its folders (collections) and item files.
///
/// Follows vdirsyncer's `vdir` format: one folder per collection, one `.ics` file per item,
/// metadata in files without an extension (`displayname`, `color`); `*.tmp` files, files without
/// an extension and folders starting with a dot are ignored. A file name is not a UID.
public struct VdirSnapshot: Sendable {
  /// One item file.
  public struct ItemFile: Sendable {
    /// The file's name in its folder.
    public var href: String
    /// The file's fingerprint when listed.
    public var fingerprint: FileFingerprint
  }

  /// One collection folder.
  public struct Folder: Sendable {
    /// The folder's name.
    public var name: String
    /// The `displayname` file's text, if any.
    public var displayName: String?
    /// Our icon file's text, if any.
    public var icon: String?
    /// The `.ics` files, by name.
    public var items: [ItemFile]
    /// The folder's own fingerprint (its modification time changes with its listing).
    public var fingerprint: FileFingerprint?
    /// The metadata files found (`displayname`, the icon) and their fingerprints.
    public var metadata: [ItemFile] = []
  }

  /// Whether the vdir's folder exists.
  public var exists: Bool
  /// The vdir folder's own fingerprint, taken before it was listed.
  public var fingerprint: FileFingerprint?
  /// The collections, by folder name.
  public var folders: [Folder]

  /// How many item files the vdir holds.
  public var itemFileCount: Int { folders.reduce(0) { $0 + $1.items.count } }
}

/// Reading and writing a vdir's files.
public enum Vdir {
  /// The metadata file (no extension, so vdir readers skip it) that keeps a list's icon.
  public static let iconFile = "checklists-icon"
  /// The extension of item files.
  public static let itemExtension = ".ics"

  /// Lists the vdir's folders and item files with `stat`, reading only the small metadata files.
  public static func scan(_ root: String) -> VdirSnapshot {
    // Each folder is `stat`ed before it is listed, so a change made while it is listed leaves
    // a newer modification time than the one recorded (the fast first look relies on it).
    let rootFingerprint = FileFingerprint.of(root)
    guard let names = directoryEntries(root) else {
      return VdirSnapshot(exists: false, fingerprint: nil, folders: [])
    }
    var folders: [VdirSnapshot.Folder] = []
    for name in names.sorted() where !name.hasPrefix(".") {
      let path = root + "/" + name
      var record = stat()
      guard stat(path, &record) == 0, record.st_mode & S_IFMT == S_IFDIR,
        let entries = directoryEntries(path)
      else { continue }
      var items: [VdirSnapshot.ItemFile] = []
      items.reserveCapacity(entries.count)
      var displayName: String?
      var icon: String?
      var metadata: [VdirSnapshot.ItemFile] = []
      let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
      defer { if fd >= 0 { close(fd) } }
      for entry in entries where !entry.hasPrefix(".") {
        if entry.hasSuffix(itemExtension) {
          var itemRecord = stat()
          guard fd >= 0, fstatat(fd, entry, &itemRecord, 0) == 0,
            itemRecord.st_mode & S_IFMT == S_IFREG
          else { continue }
          items.append(VdirSnapshot.ItemFile(href: entry, fingerprint: FileFingerprint(itemRecord)))
        } else if entry == "displayname" || entry == iconFile {
          var metadataRecord = stat()
          if fd >= 0, fstatat(fd, entry, &metadataRecord, 0) == 0 {
            metadata.append(
              VdirSnapshot.ItemFile(href: entry, fingerprint: FileFingerprint(metadataRecord)))
          }
          let text = readMetadata(path + "/" + entry)
          if entry == iconFile { icon = text } else { displayName = text }
        }
      }
      folders.append(
        VdirSnapshot.Folder(
          name: name, displayName: displayName, icon: icon, items: items,
          fingerprint: FileFingerprint(record), metadata: metadata))
    }
    return VdirSnapshot(exists: true, fingerprint: rootFingerprint, folders: folders)
  }

  /// The names in a folder (without `.` and `..`); nil when it cannot be listed.
  static func directoryEntries(_ path: String) -> [String]? {
    guard let directory = opendir(path) else { return nil }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafePointer(to: entry.pointee.d_name) {
        $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }

  /// A metadata file's text without its final line break.
  static func readMetadata(_ path: String) -> String? {
    guard let data = FileManager.default.contents(atPath: path),
      var text = String(data: data, encoding: .utf8)
    else { return nil }
    while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
    return text
  }

  /// Reads a whole file.
  static func read(_ path: String) throws(SystemCallError) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw SystemCallError(errno, call: "open") }
    defer { close(fd) }
    var record = stat()
    var capacity = 16_384
    if fstat(fd, &record) == 0 && record.st_size > 0 { capacity = Int(record.st_size) + 1 }
    var bytes = [UInt8](repeating: 0, count: capacity)
    var filled = 0
    while true {
      if filled == bytes.count { bytes += [UInt8](repeating: 0, count: bytes.count) }
      let count = bytes.withUnsafeMutableBytes {
        Glibc.read(fd, $0.baseAddress?.advanced(by: filled), $0.count - filled)
      }
      if count < 0 {
        if errno == EINTR { continue }
        throw SystemCallError(errno, call: "read")
      }
      if count == 0 { break }
      filled += count
    }
    bytes.removeLast(bytes.count - filled)
    return bytes
  }

  /// Writes a file atomically: a temporary file in the same folder (`.NAME.RANDOM.tmp`, which
  /// vdir readers ignore), then `rename`. Returns the new file's fingerprint.
  @discardableResult
  static func writeAtomically(_ bytes: [UInt8], to path: String) throws(SystemCallError)
    -> FileFingerprint
  {
    let folder = PathText.folder(of: path)
    let name = PathText.name(of: path)
    let temporary =
      folder + "/." + name + "." + String(UInt32.random(in: 0...UInt32.max), radix: 36)
      + ".tmp"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw SystemCallError(errno, call: "open") }
    var written = 0
    while written < bytes.count {
      let count = bytes.withUnsafeBytes {
        write(fd, $0.baseAddress?.advanced(by: written), bytes.count - written)
      }
      if count < 0 {
        if errno == EINTR { continue }
        let code = errno
        close(fd)
        unlink(temporary)
        throw SystemCallError(code, call: "write")
      }
      written += count
    }
    var record = stat()
    let statted = fstat(fd, &record)
    close(fd)
    guard rename(temporary, path) == 0 else {
      let code = errno
      unlink(temporary)
      throw SystemCallError(code, call: "rename")
    }
    if statted != 0 {
      guard let fingerprint = FileFingerprint.of(path) else {
        throw SystemCallError(errno, call: "stat")
      }
      return fingerprint
    }
    return FileFingerprint(record)
  }

  /// Creates a folder and its parents.
  static func createFolder(_ path: String) throws(SystemCallError) {
    var record = stat()
    if stat(path, &record) == 0 { return }
    let parent = PathText.folder(of: path)
    if !parent.isEmpty && parent != path { try createFolder(parent) }
    guard mkdir(path, 0o755) == 0 || errno == EEXIST else {
      throw SystemCallError(errno, call: "mkdir")
    }
  }

  /// Flushes a folder's entries (after renames in it) to the disk.
  static func syncFolder(_ path: String) {
    let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { return }
    fsync(fd)
    close(fd)
  }

  /// A new random UID (also the new file's name): upper-case hex with dashes, safe in a URL.
  static func newUID() -> String { UUID().uuidString }

  /// A new collection folder name: a random lower-case id, stable once made.
  static func newFolderName() -> String { UUID().uuidString.lowercased() }
}
