import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// A photo file read for attaching: its bytes and format.
public struct PhotoSource: Sendable {
  /// The file's path as given.
  public var path: String
  /// The whole file.
  public var bytes: [UInt8]
  /// The format its first bytes say.
  public var format: PhotoFormat

  /// Creates a source from bytes already read (for tests and the picker's preview).
  public init(path: String, bytes: [UInt8], format: PhotoFormat) {
    self.path = path
    self.bytes = bytes
    self.format = format
  }
}

/// What a sweep removed.
public struct PhotoSweepResult: Equatable, Sendable {
  /// The photos removed, sorted.
  public var removed: [PhotoName] = []
  /// Whether the data file had to be read (some photo was not referenced by the caller's model).
  public var readDataFile = false

  /// Creates an empty result.
  public init() {}
}

/// The photos of one data file: copies named `Photo-<id>.<ext>` in a `Photos` folder beside it.
///
/// - Attaching copies the file as given (atomically: temporary file, fsync, rename, fsync of the
///   folder) under a new random id; the item stores the name (`ChecklistItem.photo`).
/// - A photo is never removed when it leaves an item. `sweep` removes the copies that nothing
///   uses any more: no item of the data file (or of its `.bak`) and no running checklists that
///   may still write it back (a `PhotoHold`: the app holds every photo of its session, for
///   undo, and a command holds everything while it runs). The CLI sweeps after its save, the app
///   when it exits.
/// - Nothing is read, written or removed through a symbolic link: the Photos folder must be a
///   real folder and photos are opened with `O_NOFOLLOW`.
public struct PhotoLibrary: Sendable {
  /// The largest photo file accepted: 100 MB.
  public static let maximumFileSize: Int64 = 100_000_000
  /// The name of the folder beside the data file.
  public static let folderName = "Photos"

  /// The data file (the real file: a symbolic link to it already followed).
  public let dataFile: String
  /// The Photos folder beside it.
  public let folder: String
  /// How long a sweep waits for another writer's lock on the data file.
  public var lockTimeout: TimeInterval = ChecklistsStore.lockWait
  let fileSystem: any FileSystem

  /// The photos of the data file at `dataFile`, a real path (e.g. `ChecklistsStore.resolvedPath`).
  public init(dataFile: String, fileSystem: any FileSystem = SystemFileSystem()) {
    self.dataFile = dataFile
    self.folder = PathText.folder(of: dataFile) + "/" + Self.folderName
    self.fileSystem = fileSystem
  }

  /// The absolute path of a photo's copy.
  public func path(of name: PhotoName) -> String { folder + "/" + name.fileName }

  /// Whether the Photos folder exists (as anything): without it there is no photo to keep safe.
  public var folderExists: Bool { (try? fileSystem.lstat(folder)) != nil }

  // MARK: - Reading

  /// Reads a file the user chose to attach (a symbolic link to it is followed: it is the
  /// user's own file): a regular file of at most 100 MB that starts like a JPEG, PNG, WebP or
  /// GIF image.
  public static func readSource(
    _ path: String, fileSystem: any FileSystem = SystemFileSystem()
  ) throws(PhotoError) -> PhotoSource {
    let bytes = try readRegularFile(path, followLinks: true, fileSystem: fileSystem)
    guard let format = PhotoFormat.sniff(bytes) else { throw PhotoError(.notAnImage, path: path) }
    return PhotoSource(path: path, bytes: bytes, format: format)
  }

  /// Reads a photo's copy: a regular file in the Photos folder, never through a symbolic link.
  public func read(_ name: PhotoName) throws(PhotoError) -> [UInt8] {
    try checkFolder(mustExist: true, name: name)
    return try Self.readRegularFile(path(of: name), followLinks: false, fileSystem: fileSystem)
  }

  /// The status of a photo's copy (not following a symbolic link), e.g. for the thumbnail key.
  public func status(of name: PhotoName) throws(PhotoError) -> FileStatus {
    try checkFolder(mustExist: true, name: name)
    let path = path(of: name)
    let status: FileStatus
    do {
      status = try fileSystem.lstat(path)
    } catch {
      throw error.code == ENOENT
        ? PhotoError(.missing, path: path) : PhotoError(.systemCall, path: path, cause: error)
    }
    switch status.kind {
    case .regular: return status
    case .symbolicLink: throw PhotoError(.symbolicLink, path: path)
    default: throw PhotoError(.notRegularFile, path: path)
    }
  }

  private static func readRegularFile(
    _ path: String, followLinks: Bool, fileSystem: any FileSystem
  ) throws(PhotoError) -> [UInt8] {
    let flags = O_RDONLY | O_NONBLOCK | (followLinks ? 0 : O_NOFOLLOW)
    let fd: Int32
    do {
      fd = try fileSystem.open(path, flags: flags, mode: 0)
    } catch {
      if error.code == ELOOP && !followLinks { throw PhotoError(.symbolicLink, path: path) }
      if error.code == ENOENT && !followLinks { throw PhotoError(.missing, path: path) }
      throw PhotoError(.systemCall, path: path, cause: error)
    }
    defer { try? fileSystem.close(fd) }
    do {
      let status = try fileSystem.fstat(fd)
      guard status.kind == .regular else { throw PhotoError(.notRegularFile, path: path) }
      guard status.size <= maximumFileSize else {
        throw PhotoError(.tooLarge(bytes: status.size), path: path)
      }
      let bytes = try fileSystem.readAllBytes(fd, limit: Int(maximumFileSize))
      guard bytes.count <= maximumFileSize else {
        throw PhotoError(.tooLarge(bytes: Int64(bytes.count)), path: path)
      }
      return bytes
    } catch let error as PhotoError {
      throw error
    } catch let error as SystemCallError {
      throw PhotoError(.systemCall, path: path, cause: error)
    } catch {
      throw PhotoError(.systemCall, path: path)
    }
  }

  /// Refuses a Photos folder that is a symbolic link or not a folder; creates it when asked.
  private func checkFolder(mustExist: Bool, name: PhotoName? = nil) throws(PhotoError) {
    do {
      let status = try fileSystem.lstat(folder)
      switch status.kind {
      case .directory: return
      case .symbolicLink: throw PhotoError(.symbolicLink, path: folder)
      default: throw PhotoError(.notRegularFile, path: folder, detail: "not a folder")
      }
    } catch let error as PhotoError {
      throw error
    } catch let error as SystemCallError {
      guard error.code == ENOENT else { throw PhotoError(.systemCall, path: folder, cause: error) }
      if mustExist { throw PhotoError(.missing, path: name.map(path(of:)) ?? folder) }
    } catch {
      throw PhotoError(.systemCall, path: folder)
    }
    do {
      try AtomicFileWriter(fileSystem: fileSystem).createFolders(folder)
    } catch {
      throw PhotoError(.systemCall, path: folder, cause: error)
    }
  }

  // MARK: - Storing

  /// Stores a copy of `source` under a new name, held by `hold` before the file appears (so no
  /// sweep can take it before the item that uses it is saved); returns the name.
  public func store(_ source: PhotoSource, hold: PhotoHold) throws(PhotoError) -> PhotoName {
    try checkFolder(mustExist: false)
    var name = PhotoName.random(format: source.format)
    while (try? fileSystem.lstat(path(of: name))) != nil {
      name = PhotoName.random(format: source.format)
    }
    try hold.add([name])
    do {
      try AtomicFileWriter(fileSystem: fileSystem).write(
        Data(source.bytes), to: path(of: name), keepBackup: false)
    } catch {
      throw PhotoError(.systemCall, path: path(of: name), cause: error.cause)
    }
    return name
  }

  // MARK: - Sweeping

  /// Removes the photo copies nothing uses any more, and temporary files left by processes that
  /// no longer run.
  ///
  /// A copy stays when `knownReferences` has it (the caller's saved model: the common case,
  /// answered without reading anything), when a running checklists holds it (`PhotoHold`), or
  /// when the data file or its `.bak` refers to it. The data file is read under its lock, so a
  /// save cannot come between reading it and removing; when it cannot be read, nothing is
  /// removed.
  @discardableResult
  public func sweep(knownReferences: Set<PhotoName> = []) throws(PhotoError) -> PhotoSweepResult {
    var result = PhotoSweepResult()
    let names: [String]
    do {
      guard try fileSystem.lstat(folder).kind == .directory else { return result }
      names = try fileSystem.listDirectory(folder)
    } catch {
      if error.code == ENOENT { return result }
      throw PhotoError(.systemCall, path: folder, cause: error)
    }
    removeStaleTemporaryFiles(names)
    // The listing comes before the holds are read: a photo is held before its file is written,
    // so any file listed here whose writer still needs it is in a hold read below.
    var candidates = Set(names.compactMap(PhotoName.init(fileName:))).subtracting(knownReferences)
    if candidates.isEmpty { return result }
    guard let held = PhotoHold.liveHolds(in: folder, fileSystem: fileSystem) else { return result }
    candidates.subtract(held)
    if candidates.isEmpty { return result }
    let lock: DataFileLock
    do {
      lock = try DataFileLock.acquire(
        dataFile: dataFile, shownPath: dataFile, fileSystem: fileSystem, wait: lockTimeout)
    } catch {
      throw PhotoError(.dataFileUnreadable, path: dataFile, detail: error.message)
    }
    defer { lock.release() }
    result.readDataFile = true
    candidates.subtract(try referencedPhotos(dataFile, required: true))
    candidates.subtract((try? referencedPhotos(dataFile + ".bak", required: false)) ?? [])
    for name in candidates.sorted() {
      do {
        try fileSystem.unlink(path(of: name))
        result.removed.append(name)
      } catch {
        if error.code != ENOENT {
          throw PhotoError(.systemCall, path: path(of: name), cause: error)
        }
      }
    }
    return result
  }

  /// The photos a data file refers to; an empty set when it does not exist.
  private func referencedPhotos(_ path: String, required: Bool) throws(PhotoError)
    -> Set<PhotoName>
  {
    let bytes: [UInt8]
    do {
      let fd = try fileSystem.open(path, flags: O_RDONLY | O_NONBLOCK, mode: 0)
      defer { try? fileSystem.close(fd) }
      guard try fileSystem.fstat(fd).kind == .regular else {
        throw PhotoError(.dataFileUnreadable, path: path, detail: "not a regular file")
      }
      bytes = try fileSystem.readAllBytes(fd, limit: Int(ChecklistsStore.sizeLimit))
    } catch let error as PhotoError {
      throw error
    } catch let error as SystemCallError {
      if error.code == ENOENT { return [] }
      throw PhotoError(.dataFileUnreadable, path: path, detail: error.description)
    } catch {
      throw PhotoError(.dataFileUnreadable, path: path)
    }
    do {
      return DataModel.photoNames(in: try ChecklistsFileCoding.decode(bytes: bytes).lists)
    } catch {
      throw PhotoError(.dataFileUnreadable, path: path, detail: error.message)
    }
  }

  /// Removes `.Photo-….tmp-<pid>-<n>` files of processes that no longer run.
  private func removeStaleTemporaryFiles(_ names: [String]) {
    for name in names where name.hasPrefix(".Photo-") {
      guard let range = TextMatching.firstRange(of: ".tmp-", in: name) else { continue }
      let rest = name[range.upperBound...]
      guard let dash = rest.firstIndex(of: "-"), let pid = Int32(rest[..<dash]) else { continue }
      if pid != getpid() && !fileSystem.processExists(pid) {
        try? fileSystem.unlink(folder + "/" + name)
      }
    }
  }
}
