import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// What opening the store found.
public struct LoadResult: Sendable {
  /// The lists (on a first run, the one list named "List").
  public var model: DataModel
  /// The remembered state (defaults when missing or damaged).
  public var state: ChecklistsState
  /// Things to tell the user that did not stop the load (damaged state, no lock…).
  public var warnings: [String]
  /// Whether there was no data file: the app opens the new list named "List".
  public var isFirstRun: Bool
  /// The state exactly as the state file held it; nil when there was none to use, so that
  /// the state must be written even if `state` does not change.
  public var storedState: ChecklistsState?
}

/// How a save ended.
public enum StoreSaveOutcome: Equatable, Sendable {
  /// The file was replaced with the model.
  case saved
  /// The model was the one last loaded or saved; nothing was written.
  case unchanged
  /// The file had been deleted by someone else; it was written again.
  case recreated
  /// The file had been changed by someone else; the model went to `copy` instead.
  case conflictCopy(dataFile: String, copy: String)
}

/// The result of `ChecklistsStore.save`.
public struct SaveResult: Equatable, Sendable {
  /// How the save ended.
  public var outcome: StoreSaveOutcome
  /// Why the file was written in another format than before (e.g. binary for control
  /// characters XML cannot hold); nil when the format stayed.
  public var formatNote: String?
  /// A sentence for the user when the outcome needs one (recreated, conflict copy, format note).
  public var message: String?
}

/// Loads and saves one `Checklists.plist` safely: a lock against a second instance, atomic
/// replacement with a `.bak`, detection of changes made by others, and a state file beside it.
public final class ChecklistsStore {
  /// The largest data file the store reads.
  public static let sizeLimit: Int64 = 1 << 30

  /// Where the files are.
  public let location: DataFileLocation
  /// The file actually read and written: the data file, or the target of its symbolic link.
  public let resolvedPath: String
  /// The format the next save writes (the format the file was read in; XML for a new file).
  public private(set) var format: PlistFormat
  /// Whether the file is still the old keyed archive it was read as, until the first save.
  private var convertingKeyedArchive = false

  private let fileSystem: any FileSystem
  private let clock: @Sendable () -> Date
  private let timeZone: TimeZone
  private var lock: DataFileLock?
  private var savedModel: DataModel?
  private var diskFingerprint: DiskFingerprint?
  private var lastConflict: (model: DataModel, result: SaveResult)?

  private init(
    location: DataFileLocation, resolvedPath: String, fileSystem: any FileSystem,
    clock: @escaping @Sendable () -> Date, timeZone: TimeZone
  ) {
    self.location = location
    self.resolvedPath = resolvedPath
    self.fileSystem = fileSystem
    self.clock = clock
    self.timeZone = timeZone
    self.format = .xml
  }

  deinit { lock?.release() }

  // MARK: - Opening

  /// Opens the data file: takes the lock (when `lock`), removes stale temporary files, reads
  /// and decodes the file and the state.
  ///
  /// A file that cannot be read or decoded is never replaced: the error says why. No data file
  /// means a first run: the model gets one list named "List".
  public static func open(
    location: DataFileLocation,
    lock: Bool,
    fileSystem: any FileSystem = SystemFileSystem(),
    clock: @escaping @Sendable () -> Date = { Date() },
    timeZone: TimeZone = .current
  ) throws(StoreError) -> (store: ChecklistsStore, load: LoadResult) {
    let resolved = try resolveLinks(location.dataFile, location: location, fileSystem: fileSystem)
    let store = ChecklistsStore(
      location: location, resolvedPath: resolved, fileSystem: fileSystem, clock: clock,
      timeZone: timeZone)
    var warnings: [String] = []
    // Refuse what is not a regular file before the lock file is made beside it (no
    // `/dev/zero.lock`, no `fifo.lock`); the read checks again once the file is open.
    if let status = try? fileSystem.stat(resolved) { try store.checkReadable(status) }
    if lock {
      do {
        store.lock = try DataFileLock.acquire(
          dataFile: resolved, shownPath: location.displayPath, fileSystem: fileSystem)
      } catch {
        // Nobody can write a read-only folder, so reading it unlocked is safe.
        guard case .lockFailed = error.kind, let code = error.cause?.code,
          code == EROFS || code == EACCES
        else { throw error }
        warnings.append("\(error.message); changes cannot be saved")
      }
    }
    store.removeStaleTemporaryFiles(besides: resolved)
    store.removeStaleTemporaryFiles(besides: location.stateFile)
    let document = try store.readDocument()
    let (state, stateWarning, stateStored) = StateFile(location: location, fileSystem: fileSystem)
      .load()
    if let stateWarning { warnings.append(stateWarning) }
    var loadedState = state
    let model: DataModel
    let isFirstRun: Bool
    if let document {
      model = DataModel(lists: document.lists, nextItemID: state.nextItemID)
      store.format = document.format
      store.convertingKeyedArchive = document.isKeyedArchive
      store.savedModel = model
      isFirstRun = false
    } else {
      var fresh = DataModel(nextItemID: state.nextItemID)
      fresh.apply(fresh.insertList(fresh.makeList(name: "List")))
      model = fresh
      loadedState.checklistIndex = 0
      isFirstRun = true
    }
    loadedState.firstTime = false
    loadedState.nextItemID = model.nextItemID
    return (
      store,
      LoadResult(
        model: model, state: loadedState, warnings: warnings, isFirstRun: isFirstRun,
        storedState: stateStored ? state : nil)
    )
  }

  /// Releases the lock; the store should not be used afterwards.
  public func close() {
    lock?.release()
    lock = nil
  }

  // MARK: - Saving

  /// Saves `model` unless it is the one last loaded or saved.
  ///
  /// When someone else changed the file since, the file is left alone and the model goes to
  /// `Checklists.conflict-YYYYMMDD-HHMMSS.plist` beside it. On failure the old file is intact,
  /// no temporary file remains and the error names the step and the cause.
  @discardableResult
  public func save(_ model: DataModel) throws(StoreError) -> SaveResult {
    if let savedModel, savedModel == model {
      return SaveResult(outcome: .unchanged, formatNote: nil, message: nil)
    }
    if let lastConflict, lastConflict.model == model { return lastConflict.result }
    let encoded = try encode(model)
    let change = detectForeignChange()
    if change == .modified {
      let copy = try writeSibling(encoded.data, kind: "conflict")
      let result = SaveResult(
        outcome: .conflictCopy(dataFile: location.dataFile, copy: copy),
        formatNote: encoded.formatNote,
        message:
          "\(location.displayPath) was changed by another program; your lists were saved to "
          + "\(location.display(copy)) instead")
      lastConflict = (model, result)
      return result
    }
    do {
      try AtomicFileWriter(fileSystem: fileSystem).write(
        encoded.data, to: resolvedPath, keepBackup: true)
    } catch {
      if error.step == .syncingFolder { recordSaved(model, encoded) }
      throw StoreError(
        .saveFailed(step: error.step), path: resolvedPath, shownPath: location.displayPath,
        cause: error.cause)
    }
    recordSaved(model, encoded)
    var messages: [String] = []
    if change == .deleted {
      messages.append("\(location.displayPath) had been deleted by another program; saved it again")
    }
    if let note = encoded.formatNote { messages.append(note) }
    if convertingKeyedArchive {
      // Said once: the first save of a keyed archive; the writer kept the original as .bak.
      convertingKeyedArchive = false
      messages.append(
        "converted from the old archive format; the original is in \(location.displayPath).bak")
    }
    return SaveResult(
      outcome: change == .deleted ? .recreated : .saved, formatNote: encoded.formatNote,
      message: messages.isEmpty ? nil : messages.joined(separator: "; "))
  }

  /// Saves the state file atomically.
  public func saveState(_ state: ChecklistsState) throws(StoreError) {
    try StateFile(location: location, fileSystem: fileSystem).save(state)
  }

  /// Writes `model` as `Checklists.rescue-YYYYMMDD-HHMMSS.plist` next to the file, else in
  /// `$TMPDIR` or `/tmp`, and returns its path: for when the app must exit unsaved.
  public func writeRescueCopy(
    _ model: DataModel,
    fallbackFolders: [String] = ChecklistsStore.defaultRescueFolders()
  ) throws(StoreError) -> String {
    let encoded = try encode(model)
    var lastError: StoreError?
    let folders = [(resolvedPath as NSString).deletingLastPathComponent] + fallbackFolders
    for folder in folders {
      do {
        return try writeSibling(encoded.data, kind: "rescue", folder: folder)
      } catch {
        lastError = error
      }
    }
    throw StoreError(
      .rescueFailed, path: resolvedPath, shownPath: location.displayPath,
      cause: lastError?.cause)
  }

  /// `$TMPDIR` (when set) and `/tmp`.
  public static func defaultRescueFolders() -> [String] {
    var folders: [String] = []
    if let temporary = ProcessInfo.processInfo.environment["TMPDIR"], !temporary.isEmpty {
      folders.append(temporary)
    }
    if !folders.contains("/tmp") { folders.append("/tmp") }
    return folders
  }

  // MARK: - Private

  private func encode(_ model: DataModel) throws(StoreError) -> EncodedChecklists {
    do {
      return try ChecklistsFileCoding.encode(model.lists, format: format)
    } catch {
      throw StoreError(
        .encodingFailed, path: resolvedPath, shownPath: location.displayPath, formatError: error)
    }
  }

  private func recordSaved(_ model: DataModel, _ encoded: EncodedChecklists) {
    savedModel = model
    format = encoded.format
    lastConflict = nil
    if let status = try? fileSystem.stat(resolvedPath) {
      diskFingerprint = DiskFingerprint(status: status, content: encoded.data)
    } else {
      diskFingerprint = nil
    }
  }

  private enum ForeignChange { case none, deleted, modified }

  /// Whether the file on disk is still the one last loaded or saved.
  private func detectForeignChange() -> ForeignChange {
    let status: FileStatus
    do {
      status = try fileSystem.stat(resolvedPath)
    } catch {
      if error.code == ENOENT { return diskFingerprint == nil ? .none : .deleted }
      return .none  // The write reports what is wrong.
    }
    guard let expected = diskFingerprint else { return .modified }
    if expected.matches(status) { return .none }
    guard status.kind == .regular, status.size == expected.size,
      let data = try? readFile(resolvedPath, status: status)
    else { return .modified }
    return data.withUnsafeBytes { ContentHash.of($0) } == expected.contentHash ? .none : .modified
  }

  /// Writes next to the file (or in `folder`) under a fresh `<stem>.<kind>-<stamp><ext>` name.
  private func writeSibling(_ data: Data, kind: String, folder: String? = nil) throws(StoreError)
    -> String
  {
    let folder = folder ?? (resolvedPath as NSString).deletingLastPathComponent
    let name = (location.dataFile as NSString).lastPathComponent
    let stem = (name as NSString).deletingPathExtension
    let ext = (name as NSString).pathExtension
    let stamp = Self.stamp(clock(), timeZone: timeZone)
    var path = ""
    for attempt in 1...1000 {
      let suffix = attempt == 1 ? "" : "-\(attempt)"
      path = "\(folder)/\(stem).\(kind)-\(stamp)\(suffix)\(ext.isEmpty ? "" : "." + ext)"
      if (try? fileSystem.lstat(path)) == nil { break }
    }
    do {
      try AtomicFileWriter(fileSystem: fileSystem).write(data, to: path, keepBackup: false)
    } catch {
      throw StoreError(
        .saveFailed(step: error.step), path: path, shownPath: location.display(path),
        cause: error.cause)
    }
    return path
  }

  static func stamp(_ date: Date, timeZone: TimeZone) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = timeZone
    formatter.dateFormat = "yyyyMMdd-HHmmss"
    return formatter.string(from: date)
  }

  /// Reads and decodes the file; nil when there is none.
  private func readDocument() throws(StoreError) -> ChecklistsDocument? {
    let status: FileStatus
    do {
      status = try fileSystem.stat(resolvedPath)
    } catch {
      if error.code == ENOENT { return nil }
      throw StoreError(
        .unreadable, path: resolvedPath, shownPath: location.displayPath, cause: error)
    }
    try checkReadable(status)
    // The file's bytes, read once into an array the decoder reads from without copying.
    let data: [UInt8]
    let openedStatus: FileStatus
    do {
      let fd = try fileSystem.open(resolvedPath, flags: O_RDONLY | O_NONBLOCK, mode: 0)
      defer { try? fileSystem.close(fd) }
      openedStatus = try fileSystem.fstat(fd)
      try checkReadable(openedStatus)
      data = try fileSystem.readAllBytes(fd, limit: Int(Self.sizeLimit))
      if data.count > Self.sizeLimit {
        throw StoreError(
          .tooLarge, path: resolvedPath, shownPath: location.displayPath,
          detail: "it grew past 1 GiB while being read")
      }
    } catch let error as StoreError {
      throw error
    } catch let error as SystemCallError {
      throw StoreError(
        .unreadable, path: resolvedPath, shownPath: location.displayPath, cause: error)
    } catch {
      throw StoreError(.unreadable, path: resolvedPath, shownPath: location.displayPath)
    }
    let contentHash = data.withUnsafeBytes { ContentHash.of($0) }
    let document: ChecklistsDocument
    do {
      document = try ChecklistsFileCoding.decode(bytes: data)
    } catch {
      throw StoreError(
        .invalidContent, path: resolvedPath, shownPath: location.fileName, formatError: error)
    }
    diskFingerprint = DiskFingerprint(status: openedStatus, contentHash: contentHash)
    return document
  }

  private func checkReadable(_ status: FileStatus) throws(StoreError) {
    guard status.kind == .regular else {
      throw StoreError(
        .notRegularFile, path: resolvedPath, shownPath: location.displayPath,
        detail: Self.describe(status.kind))
    }
    guard status.size <= Self.sizeLimit else {
      throw StoreError(
        .tooLarge, path: resolvedPath, shownPath: location.displayPath,
        detail: "\(status.size) bytes; the limit is 1 GiB")
    }
  }

  private func readFile(_ path: String, status: FileStatus) throws(SystemCallError) -> [UInt8] {
    let fd = try fileSystem.open(path, flags: O_RDONLY | O_NONBLOCK, mode: 0)
    defer { try? fileSystem.close(fd) }
    return try fileSystem.readAllBytes(fd, limit: Int(Self.sizeLimit))
  }

  private static func describe(_ kind: FileStatus.Kind) -> String {
    switch kind {
    case .regular: return "a regular file"
    case .directory: return "a folder"
    case .fifo: return "a FIFO (named pipe)"
    case .characterDevice: return "a character device"
    case .blockDevice: return "a block device"
    case .socket: return "a socket"
    case .symbolicLink: return "a symbolic link"
    case .other: return "not a file"
    }
  }

  /// Removes `.<name>.tmp-<pid>-<n>` files beside `path` left by a process that no longer runs.
  private func removeStaleTemporaryFiles(besides path: String) {
    let folder = (path as NSString).deletingLastPathComponent
    let prefix = AtomicFileWriter.temporaryPrefix(for: (path as NSString).lastPathComponent)
    guard let names = try? fileSystem.listDirectory(folder) else { return }
    for name in names where name.hasPrefix(prefix) {
      let rest = name.dropFirst(prefix.count)
      guard let dash = rest.firstIndex(of: "-"), let pid = Int32(rest[..<dash]) else { continue }
      if pid != getpid() && !fileSystem.processExists(pid) {
        try? fileSystem.unlink(folder + "/" + name)
      }
    }
  }

  /// Follows symbolic links so that the link stays and its target is replaced.
  private static func resolveLinks(
    _ path: String, location: DataFileLocation, fileSystem: any FileSystem
  ) throws(StoreError) -> String {
    var current = path
    for _ in 0..<40 {
      let status: FileStatus
      do {
        status = try fileSystem.lstat(current)
      } catch {
        if error.code == ENOENT { return current }
        throw StoreError(
          .unreadable, path: current, shownPath: location.display(current), cause: error)
      }
      guard status.kind == .symbolicLink else { return current }
      let target: String
      do {
        target = try fileSystem.readlink(current)
      } catch {
        throw StoreError(
          .unreadable, path: current, shownPath: location.display(current), cause: error)
      }
      let folder = (current as NSString).deletingLastPathComponent
      current = normalize(target.hasPrefix("/") ? target : folder + "/" + target)
    }
    throw StoreError(
      .unreadable, path: path, shownPath: location.display(path),
      cause: SystemCallError(ELOOP, call: "readlink"))
  }

  private static func normalize(_ path: String) -> String {
    var parts: [Substring] = []
    for part in path.split(separator: "/") {
      if part == "." { continue }
      if part == ".." {
        if !parts.isEmpty { parts.removeLast() }
        continue
      }
      parts.append(part)
    }
    return "/" + parts.joined(separator: "/")
  }
}

/// A file's identity and content hash at load or save, to notice changes made by others.
///
/// A save first compares (device, inode, size, modification time in ns): when all match, the
/// file is taken as unchanged without reading it. Otherwise a file of the same size is read and
/// its `ContentHash` compared (a touch or a copy of the same bytes is not a change). The one
/// blind spot: another program rewriting the file in place with the same size within the same
/// nanosecond of modification time (or restoring the time), which ordinary editors and sync
/// tools do not do.
struct DiskFingerprint: Equatable {
  var device: UInt64
  var inode: UInt64
  var size: Int64
  var modificationNanoseconds: Int64
  var changeNanoseconds: Int64
  var contentHash: UInt64

  init(status: FileStatus, content: Data) {
    self.init(status: status, contentHash: ContentHash.of(content))
  }

  init(status: FileStatus, contentHash: UInt64) {
    device = status.device
    inode = status.inode
    size = status.size
    modificationNanoseconds = status.modificationNanoseconds
    changeNanoseconds = status.changeNanoseconds
    self.contentHash = contentHash
  }

  func matches(_ status: FileStatus) -> Bool {
    status.device == device && status.inode == inode && status.size == size
      && status.modificationNanoseconds == modificationNanoseconds
      && status.changeNanoseconds == changeNanoseconds
  }
}
