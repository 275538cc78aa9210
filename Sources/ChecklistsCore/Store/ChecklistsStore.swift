import FoundationEssentials

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
  /// Which of `warnings` says that changes cannot be saved (the folder cannot be written): a
  /// command that only shows the lists leaves it out.
  public var saveWarning: String?
  /// Whether there was no data file: the app opens the new list named "List".
  public var isFirstRun: Bool
}

/// How a save ended.
public enum StoreSaveOutcome: Equatable, Sendable {
  /// The file was replaced with the model.
  case saved
  /// The model was the one last read or written; nothing was written.
  case unchanged
  /// The file had been deleted by someone else; it was written again.
  case recreated
  /// Someone else had changed the file: their changes and ours were merged, and the result
  /// written (or, when it equals the file, left as it is).
  case merged(MergeReport)
  /// The file on disk is not a readable checklists file now (`reason`): the model went to
  /// `copy`, which later saves keep updating until the file can be read again.
  case conflictCopy(dataFile: String, copy: String, reason: String)
}

/// The result of `ChecklistsStore.save`.
public struct SaveResult: Equatable, Sendable {
  /// How the save ended.
  public var outcome: StoreSaveOutcome
  /// Why the file was written in another format than before (e.g. binary for control
  /// characters XML cannot hold); nil when the format stayed.
  public var formatNote: String?
  /// The lists as now saved, when they differ from the model given (changes made elsewhere
  /// were merged in): the caller shows these from now on.
  public var merged: MergeResult?
  /// How the file and the conflict log are named in messages.
  public var names: StoreNames

  /// The status line's sentence, e.g. "Saved", "Saved; 2 changes made elsewhere merged".
  public var statusLine: String {
    var parts: [String] = []
    switch outcome {
    case .saved: parts.append("Saved")
    case .unchanged: parts.append("No changes to save")
    case .recreated:
      parts.append("Saved: \(names.file) had been deleted by another program; it is back")
    case .merged(let report):
      let wrote = merged.map { $0.wroteFile } ?? true
      parts.append(wrote ? "Saved" : "Nothing of yours to save")
      if let summary = report.summary(logName: names.log) { parts.append(summary) }
    case .conflictCopy(_, let copy, let reason):
      // The copy's name comes first so that a narrow status line still shows it.
      parts.append(
        "Saved to \(names.display(copy)): \(names.file) cannot be read now (\(reason))")
    }
    if let formatNote { parts.append(formatNote) }
    return parts.joined(separator: "; ")
  }

  /// A line worth repeating on standard error after the screen is gone, or nil.
  public var exitNotice: String? {
    switch outcome {
    case .saved, .unchanged, .merged: return nil
    case .recreated:
      return "\(names.shownPath) had been deleted by another program; it was saved again"
    case .conflictCopy(_, let copy, let reason):
      return
        "\(names.shownPath) could not be read (\(reason)); your lists were saved to "
        + "\(names.display(copy))"
    }
  }
}

/// How a store's files are named in messages.
public struct StoreNames: Equatable, Sendable {
  /// The data file's name, e.g. `Checklists.plist`.
  public var file: String
  /// The data file as shown (`~/…`).
  public var shownPath: String
  /// The conflict log's name, e.g. `Checklists.plist.conflicts.log`.
  public var log: String
  /// The home folder, to show other paths with `~`.
  var home: String

  /// A path as shown in messages (`~/…`).
  public func display(_ path: String) -> String {
    guard !home.isEmpty, home != "/", path.hasPrefix(home + "/") else { return path }
    return "~" + path.dropFirst(home.count)
  }
}

extension MergeResult {
  /// Whether the save wrote the merged lists (false when they equal the file as it was).
  public var wroteFile: Bool { !model.lists.elementsEqual(theirs.lists) }
}

/// Changes made elsewhere, merged into the lists in memory without saving.
public struct RefreshResult: Sendable {
  /// The merged lists, to show from now on.
  public var merged: MergeResult
  /// Whether they equal the file (nothing of ours is left to save).
  public var matchesFile: Bool
  /// The status line's sentence, e.g. "3 changes made elsewhere merged".
  public var statusLine: String
  /// The conflict log's name, for a status line that tells several merges together.
  public var logName: String
}

/// Loads and saves one `Checklists.plist` among other writers: the app, the CLI, a second
/// terminal, a synced folder.
///
/// - The lock (`flock` on `<file>.lock`) is held only to read, merge and write, so other
///   writers wait milliseconds, never a session.
/// - A save merges, item by item, with what the file holds now (`ModelMerge`): base is what this
///   store last read or wrote. Conflicts keep ours and go to `<file>.conflicts.log`.
/// - `refresh` merges changes made elsewhere into the lists in memory without writing.
/// - Saving is atomic with a `.bak` of the previous version (`AtomicFileWriter`).
public final class ChecklistsStore {
  /// The largest data file the store reads.
  public static let sizeLimit: Int64 = 1 << 30
  /// How long a save waits for another writer's lock, by default.
  public static let lockWait: TimeInterval = 5
  /// How long this store's saves wait for another writer's lock.
  public var lockTimeout: TimeInterval = ChecklistsStore.lockWait

  /// Where the files are.
  public let location: DataFileLocation
  /// The file actually read and written: the data file, or the target of its symbolic link.
  public let resolvedPath: String
  /// The format the next save writes (the format the file was read in; XML for a new file).
  public private(set) var format: PlistFormat
  /// Whether the file is still the old keyed archive it was read as, until the first save.
  private var convertingKeyedArchive = false
  /// Said once, by the save that wrote a keyed archive over in the current format.
  private var archiveNote: String?

  let fileSystem: any FileSystem
  private let clock: @Sendable () -> Date
  private let timeZone: ZoneRules
  /// What this store last read or wrote, with the run-time list ids of the caller's model.
  private var base: DataModel
  /// Whether the file existed when last read or written.
  private var baseExists: Bool
  private var diskFingerprint: DiskFingerprint?
  /// Whether `refresh` already told of the file's deletion (told once until it is written).
  private var deletionReported = false
  /// The conflict copy later saves keep updating while the file cannot be read.
  private var conflictCopyPath: String?
  /// When the file was first found unreadable or gone since it was last read or written; when
  /// it can be read again after that lasted a moment (most likely an older copy put back), what
  /// it lacks is kept, not taken as deleted (`keepsWhatTheFileLacks`).
  private var unreadableSince: Date?
  /// What merges in memory (`refresh`) have for the conflict log: written by the save that
  /// writes the values they kept (a process killed before saving logs nothing the file never
  /// held); dropped when a save finds the lists back to the file's.
  private var unsavedLogEntries = MergeReport()

  private init(
    location: DataFileLocation, resolvedPath: String, fileSystem: any FileSystem,
    clock: @escaping @Sendable () -> Date, timeZone: ZoneRules
  ) {
    self.location = location
    self.resolvedPath = resolvedPath
    self.fileSystem = fileSystem
    self.clock = clock
    self.timeZone = timeZone
    self.format = .xml
    self.base = DataModel()
    self.baseExists = false
  }

  /// How files are named in messages.
  public var names: StoreNames {
    StoreNames(
      file: location.fileName, shownPath: location.displayPath,
      log: PathText.name(of: conflictLogPath), home: location.homeDirectory ?? "")
  }

  /// The conflict log beside the file: `<file>.conflicts.log`.
  public var conflictLogPath: String { resolvedPath + ".conflicts.log" }

  // MARK: - Opening

  /// Opens the data file: removes stale temporary files, reads and decodes the file and the
  /// state. Takes no lock and creates no file.
  ///
  /// A file that cannot be read or decoded is never replaced: the error says why. No data file
  /// means a first run: the model gets one list named "List".
  public static func open(
    location: DataFileLocation,
    fileSystem: any FileSystem = SystemFileSystem(),
    clock: @escaping @Sendable () -> Date = { Date() },
    timeZone: ZoneRules = .current
  ) throws(StoreError) -> (store: ChecklistsStore, load: LoadResult) {
    let resolved = try resolveLinks(location.dataFile, location: location, fileSystem: fileSystem)
    let store = ChecklistsStore(
      location: location, resolvedPath: resolved, fileSystem: fileSystem, clock: clock,
      timeZone: timeZone)
    var warnings: [String] = []
    if let status = try? fileSystem.stat(resolved) { try store.checkReadable(status) }
    let saveWarning = store.readOnlyWarning()
    if let saveWarning { warnings.append(saveWarning) }
    store.removeStaleTemporaryFiles(besides: resolved)
    store.removeStaleTemporaryFiles(besides: location.stateFile)
    let document = try store.readDocument()
    let (state, stateWarning, _) = StateFile(location: location, fileSystem: fileSystem)
      .load()
    if let stateWarning { warnings.append(stateWarning) }
    var loadedState = state
    let model: DataModel
    let isFirstRun: Bool
    if let document {
      model = DataModel(lists: document.lists, nextItemID: state.nextItemID)
      store.format = document.format
      store.base = model
      store.baseExists = true
      store.convertingKeyedArchive = document.isKeyedArchive
      isFirstRun = false
    } else {
      var fresh = DataModel(nextItemID: state.nextItemID)
      fresh.apply(fresh.insertList(fresh.makeList(name: Self.firstListName)))
      model = fresh
      store.base = DataModel(nextItemID: state.nextItemID)
      // By name: a state a command saves now (making the file with other lists) still opens
      // "List" in the app, or All Lists when there is none, never whichever list sorts first.
      loadedState.checklistIndex = 0
      loadedState.checklistName = Self.firstListName
      isFirstRun = true
    }
    loadedState.firstTime = false
    loadedState.nextItemID = model.nextItemID
    return (
      store,
      LoadResult(
        model: model, state: loadedState, warnings: warnings, saveWarning: saveWarning,
        isFirstRun: isFirstRun)
    )
  }

  /// A warning when the file's folder cannot be written (a read-only disk, no permission).
  private func readOnlyWarning() -> String? {
    let folder = PathText.folder(of: resolvedPath)
    var info = statvfs()
    if statvfs(folder, &info) == 0, info.f_flag & UInt(ST_RDONLY) != 0 {
      return "\(location.displayPath): Read-only file system; changes cannot be saved"
    }
    if access(folder, W_OK) != 0, errno == EACCES || errno == EROFS {
      return "\(location.displayPath): \(String(cString: strerror(errno))) writing its folder; "
        + "changes cannot be saved"
    }
    return nil
  }

  /// Kept for callers that end a session; the store holds nothing between saves.
  public func close() {}

  // MARK: - Saving

  /// Saves `held` (the model as the app holds it): under the lock, merges it with the file as
  /// it is now, then replaces the file atomically.
  ///
  /// `held` must descend from what this store last read or wrote (the loaded model, or a
  /// `merged` model this store returned). When the file cannot be read as a checklists file now,
  /// it is left alone and the model goes to one conflict copy beside it. On failure the old file
  /// is intact, no temporary file remains and the error names the step and the cause.
  @discardableResult
  public func save(_ held: DataModel) throws(StoreError) -> SaveResult {
    let model = asWritten(held)
    if baseExists, conflictCopyPath == nil, model == base,
      let status = try? fileSystem.stat(resolvedPath), diskFingerprint?.matches(status) == true
    {
      unsavedLogEntries = MergeReport()
      return result(.unchanged)
    }
    do {
      try AtomicFileWriter(fileSystem: fileSystem).createFolders(
        PathText.folder(of: resolvedPath))
    } catch {
      throw StoreError(
        .saveFailed(step: .creatingFolder), path: resolvedPath, shownPath: location.displayPath,
        cause: error)
    }
    let lock = try DataFileLock.acquire(
      dataFile: resolvedPath, shownPath: location.displayPath, fileSystem: fileSystem,
      wait: lockTimeout)
    defer { lock.release() }
    let change = detectForeignChange()
    switch change {
    case .none:
      if model == base && baseExists && conflictCopyPath == nil {
        unsavedLogEntries = MergeReport()
        return result(.unchanged)
      }
      let encoded = try encode(model)
      try write(encoded, model: model)
      logSaved()
      return result(.saved, formatNote: encoded.formatNote)
    case .deleted:
      let encoded = try encode(model)
      try write(encoded, model: model)
      logSaved()
      return result(.recreated, formatNote: encoded.formatNote)
    case .modified:
      let theirs: ChecklistsDocument?
      do {
        theirs = try readDocument()
      } catch {
        noteUnreadable()
        return try writeConflictCopy(model, reason: error.reasonForCopy)
      }
      guard let theirs else {
        let encoded = try encode(model)
        try write(encoded, model: model)
        logSaved()
        return result(.recreated, formatNote: encoded.formatNote)
      }
      convertingKeyedArchive = theirs.isKeyedArchive
      let keeping = keepsWhatTheFileLacks
      let merged = ModelMerge.merge(
        base: base, ours: model, theirs: theirs.lists, keepingWhatTheirsLacks: keeping)
      // From here the file is trusted again: what a merge kept that it lacks is ours to write.
      unreadableSince = nil
      if !merged.wroteFile {
        base = merged.model
        baseExists = true
        format = theirs.format
        conflictCopyPath = nil
        logSaved(merged.report)
        return result(.merged(merged.report), merged: merged)
      }
      format = theirs.format
      let encoded = try encode(merged.model)
      try write(encoded, model: merged.model)
      logSaved(merged.report)
      return result(
        .merged(merged.report), formatNote: encoded.formatNote,
        merged: merged.model == model ? nil : merged)
    }
  }

  /// `model` as the file holds it once written: an XML plist keeps dates to the second (rounded
  /// down), so a due date made in this session (the next whole hour computed from now, "+2h")
  /// reads back a fraction earlier. Base, the comparisons and the merges use the model as
  /// written, or that fraction would count as a change made elsewhere (and look like a change
  /// of ours to a due date edited elsewhere). Binary files keep dates exactly.
  private func asWritten(_ model: DataModel) -> DataModel {
    guard format == .xml else { return model }
    // Nearly always every date is whole: looked at in place first, without copying items.
    let fractional = model.lists.contains { list in
      list.items.withUnsafeBufferPointer { items in
        items.contains { item in
          let seconds = item.dueDate.timeIntervalSinceReferenceDate
          return seconds.isFinite && seconds.rounded(.down) != seconds
        }
      }
    }
    guard fractional else { return model }
    var lists = model.lists
    var changed = false
    for index in lists.indices {
      var items = lists[index].items
      var listChanged = false
      for item in items.indices {
        let seconds = items[item].dueDate.timeIntervalSinceReferenceDate
        let whole = seconds.rounded(.down)
        if seconds.isFinite && whole != seconds {
          items[item].dueDate = Date(timeIntervalSinceReferenceDate: whole)
          listChanged = true
        }
      }
      if listChanged {
        lists[index].setItems(items)
        changed = true
      }
    }
    return changed ? DataModel(lists: lists, nextItemID: model.nextItemID) : model
  }

  /// Merges changes made elsewhere since the last read or write into `model`, without writing;
  /// nil when the file did not change (or cannot be read now: the next save deals with that).
  public func refresh(_ model: DataModel) -> RefreshResult? {
    let change = detectForeignChange()
    if change == .none {
      // The file is as last read or written: a moment when it could not be read has passed.
      unreadableSince = nil
    }
    if change == .deleted {
      // Gone: if it comes back (an older copy put back), what it lacks is kept.
      noteUnreadable()
      // What is on screen is saved again by the next save; until then the lists are unsaved.
      guard !deletionReported else { return nil }
      deletionReported = true
      return RefreshResult(
        merged: MergeResult(model: model, report: MergeReport(), theirs: DataModel()),
        matchesFile: false,
        statusLine:
          "\(location.fileName) was deleted by another program; Ctrl-S or quitting saves it again",
        logName: names.log)
    }
    guard change == .modified else { return nil }
    let read: ChecklistsDocument?
    do {
      read = try readDocument()
    } catch {
      noteUnreadable()
      return nil
    }
    guard let theirs = read else { return nil }
    convertingKeyedArchive = theirs.isKeyedArchive
    let keeping = keepsWhatTheFileLacks
    let merged = ModelMerge.merge(
      base: base, ours: asWritten(model), theirs: theirs.lists, keepingWhatTheirsLacks: keeping)
    // Nothing is written here. The base is the file as it is, so what the merge kept that the
    // file lacks (or holds older) counts as a change made here: later merges keep it, the next
    // save writes it.
    unreadableSince = nil
    base = merged.theirs
    baseExists = true
    format = theirs.format
    conflictCopyPath = nil
    // Logged once the file holds what the merge kept: now when it already does, else by the
    // save that writes it.
    if merged.wroteFile {
      unsavedLogEntries.add(merged.report)
    } else {
      appendToLog(merged.report)
    }
    let summary =
      merged.report.summary(logName: names.log)
      ?? "\(location.fileName) was changed elsewhere; nothing to merge"
    return RefreshResult(
      merged: merged, matchesFile: !merged.wroteFile, statusLine: summary, logName: names.log)
  }

  /// What this store last read or wrote: before a save, the lists as the command or the app
  /// began from (with the caller's run-time list IDs).
  public var lastModel: DataModel { base }

  /// The state file as it is now, nil when there is none to use (missing or damaged): what
  /// other writers (`due --notify`, the CLI, a sync pass) recorded since this process read it.
  public func currentState() -> ChecklistsState? {
    let (state, _, stored) = StateFile(location: location, fileSystem: fileSystem).load()
    return stored ? state : nil
  }

  /// Saves the state file atomically; `durable: false` leaves out the fsyncs, for a state
  /// whose loss costs only where the app was (see `StateFile.save`).
  ///
  /// This replaces the file whole: a writer that read the state before another one wrote it
  /// uses `saveState(_:base:durable:)`, which merges.
  public func saveState(_ state: ChecklistsState, durable: Bool = true) throws(StoreError) {
    try StateFile(location: location, fileSystem: fileSystem).save(state, durable: durable)
  }

  /// Saves `ours` (the state this process read as `base`, then changed) merged with the state
  /// file as it is now (`ChecklistsState.merged`), read and written under the data file's lock
  /// as a save of the data file is, so that what another writer (the app, `due --notify`, a
  /// command, a sync pass) recorded meanwhile stays. Nothing is written when the file already
  /// holds the result; a result with reminders sent is always durable. Returns the result.
  @discardableResult
  public func saveState(
    _ ours: ChecklistsState, base: ChecklistsState, durable: Bool = true
  ) throws(StoreError) -> ChecklistsState {
    let lock = try DataFileLock.acquire(
      dataFile: resolvedPath, shownPath: location.displayPath, fileSystem: fileSystem,
      wait: lockTimeout)
    defer { lock.release() }
    let file = StateFile(location: location, fileSystem: fileSystem)
    let (current, _, stored) = file.load()
    let merged = stored ? ChecklistsState.merged(base: base, ours: ours, theirs: current) : ours
    if stored && merged == current { return merged }
    try file.save(merged, durable: durable || !merged.notified.isEmpty)
    return merged
  }

  /// Writes `model` as `Checklists.rescue-YYYYMMDD-HHMMSS.plist` (named after the file itself,
  /// the one a symbolic link points to) next to the file, else in
  /// `$TMPDIR` or `/tmp`, and returns its path: for when the app must exit unsaved.
  public func writeRescueCopy(
    _ model: DataModel,
    fallbackFolders: [String] = ChecklistsStore.defaultRescueFolders()
  ) throws(StoreError) -> String {
    let encoded = try encode(model)
    var lastError: StoreError?
    let folders = [PathText.folder(of: resolvedPath)] + fallbackFolders
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

  /// Writes `model` to `path` (a file the user named: `~` is the home folder, a relative path is
  /// taken from the current folder) atomically, without a `.bak`; returns the path written.
  public func writeCopy(_ model: DataModel, to path: String) throws(StoreError) -> String {
    let full = PathText.absolute(
      PathText.expandingTilde(path, home: location.homeDirectory),
      base: FileManager.default.currentDirectoryPath)
    let encoded = try encode(model)
    do {
      try AtomicFileWriter(fileSystem: fileSystem).write(encoded.data, to: full, keepBackup: false)
    } catch {
      throw StoreError(
        .saveFailed(step: error.step), path: full, shownPath: location.display(full),
        cause: error.cause)
    }
    return full
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

  private func result(
    _ outcome: StoreSaveOutcome, formatNote: String? = nil, merged: MergeResult? = nil
  ) -> SaveResult {
    let notes = [formatNote, archiveNote].compactMap { $0 }
    archiveNote = nil
    return SaveResult(
      outcome: outcome, formatNote: notes.isEmpty ? nil : notes.joined(separator: "; "),
      merged: merged, names: names)
  }

  private func write(_ encoded: EncodedChecklists, model: DataModel) throws(StoreError) {
    // A big file's hash is taken on a thread of its own while it is written and synced.
    let contentHash = ContentHash.later(of: encoded.data)
    do {
      try AtomicFileWriter(fileSystem: fileSystem).write(
        encoded.data, to: resolvedPath, keepBackup: true)
    } catch {
      if error.step == .syncingFolder { recordSaved(model, encoded, contentHash.result()) }
      throw StoreError(
        .saveFailed(step: error.step), path: resolvedPath, shownPath: location.displayPath,
        cause: error.cause)
    }
    recordSaved(model, encoded, contentHash.result())
    if convertingKeyedArchive {
      // The writer kept the original archive as .bak.
      convertingKeyedArchive = false
      archiveNote =
        "converted from the old archive format; the original is in \(location.displayPath).bak"
    }
  }

  /// The last resort: the file is not a readable checklists file, so ours goes to one copy.
  private func writeConflictCopy(_ model: DataModel, reason: String) throws(StoreError)
    -> SaveResult
  {
    let encoded = try encode(model)
    let copy: String
    if let existing = conflictCopyPath {
      do {
        try AtomicFileWriter(fileSystem: fileSystem).write(
          encoded.data, to: existing, keepBackup: false)
      } catch {
        throw StoreError(
          .saveFailed(step: error.step), path: existing, shownPath: location.display(existing),
          cause: error.cause)
      }
      copy = existing
    } else {
      copy = try writeSibling(encoded.data, kind: "conflict")
      conflictCopyPath = copy
    }
    return result(
      .conflictCopy(dataFile: location.dataFile, copy: copy, reason: reason),
      formatNote: encoded.formatNote)
  }

  /// Logs, once a save wrote the file, what earlier merges in memory kept and then `report`.
  private func logSaved(_ report: MergeReport = MergeReport()) {
    var entries = unsavedLogEntries
    entries.add(report)
    unsavedLogEntries = MergeReport()
    appendToLog(entries)
  }

  /// Appends what a merge must not lose to the conflict log; a log that cannot be written does
  /// not stop the save (the report is also on the status line).
  func appendToLog(_ report: MergeReport) {
    Self.append(
      report, toLog: conflictLogPath, fileName: location.fileName, now: clock(),
      timeZone: timeZone, fileSystem: fileSystem)
  }

  /// Appends a merge's log entries to the conflict log of the data file at `location` without
  /// opening the file (a merge of two vdir files by `sync-merge`); a log that cannot be written
  /// is skipped (the entries are said on stderr too).
  public static func appendToLog(
    _ report: MergeReport, location: DataFileLocation, now: Date, timeZone: ZoneRules,
    fileSystem: any FileSystem = SystemFileSystem()
  ) {
    let resolved =
      (try? resolveLinks(location.dataFile, location: location, fileSystem: fileSystem))
      ?? location.dataFile
    append(
      report, toLog: resolved + ".conflicts.log", fileName: location.fileName, now: now,
      timeZone: timeZone, fileSystem: fileSystem)
  }

  private static func append(
    _ report: MergeReport, toLog path: String, fileName: String, now: Date, timeZone: ZoneRules,
    fileSystem: any FileSystem
  ) {
    guard report.hasLogEntries else { return }
    let stamp = DateStamp.string(now, timeZone: timeZone, format: DateStamp.seconds)
    appendLines(report.logLines(stamp: stamp, file: fileName), toLog: path, fileSystem: fileSystem)
  }

  /// Appends one line to the conflict log, stamped and naming the file as a merge's lines are
  /// (`2026-11-20 14:03:11 Checklists.plist: list "A", item "B": …`): what the app's form did
  /// with an item changed elsewhere; line breaks in `line` become spaces (names in it are
  /// quoted with `MergeReport.quote`). A log that cannot be written is let be.
  public func appendToConflictLog(_ line: String) {
    let stamp = DateStamp.string(clock(), timeZone: timeZone, format: DateStamp.seconds)
    let flat = String(line.map { $0.isNewline ? " " : $0 })
    Self.appendLines(
      ["\(stamp) \(location.fileName): \(flat)"], toLog: conflictLogPath, fileSystem: fileSystem)
  }

  private static func appendLines(_ lines: [String], toLog path: String, fileSystem: any FileSystem)
  {
    let text = lines.joined(separator: "\n") + "\n"
    guard
      let fd = try? fileSystem.open(path, flags: O_WRONLY | O_CREAT | O_APPEND, mode: 0o600)
    else { return }
    defer { try? fileSystem.close(fd) }
    try? fileSystem.write(fd, Data(text.utf8))
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

  /// Notes that the file cannot be read now (or is gone), from the first time on.
  private func noteUnreadable() {
    if unreadableSince == nil { unreadableSince = clock() }
  }

  /// Whether a merge now keeps what the file lacks: the file could not be read (or was gone)
  /// for a moment at least, or had a conflict copy written meanwhile (a save found it unreadable:
  /// nothing is taken as deleted against lists that went to a copy). A file caught half-written
  /// by a program that writes in place is unreadable only for an instant, and its deletions
  /// still count.
  private var keepsWhatTheFileLacks: Bool {
    guard let since = unreadableSince else { return false }
    return conflictCopyPath != nil || clock().timeIntervalSince(since) >= 1
  }

  private func recordSaved(
    _ model: DataModel, _ encoded: EncodedChecklists, _ contentHash: UInt64
  ) {
    // What was written is the file now: nothing is kept against it any more.
    unreadableSince = nil
    deletionReported = false
    base = model
    baseExists = true
    format = encoded.format
    conflictCopyPath = nil
    if let status = try? fileSystem.stat(resolvedPath) {
      diskFingerprint = DiskFingerprint(status: status, contentHash: contentHash)
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
      if error.code == ENOENT { return baseExists ? .deleted : .none }
      return .none  // The write reports what is wrong.
    }
    guard let expected = diskFingerprint else { return .modified }
    if expected.matches(status) { return .none }
    guard status.kind == .regular, status.size == expected.size,
      let data = try? readFile(resolvedPath, status: status)
    else { return .modified }
    return data.withUnsafeBytes { ContentHash.of($0) } == expected.contentHash ? .none : .modified
  }

  /// Writes next to the file (or in `folder`) under a fresh `<stem>.<kind>-<stamp><ext>` name,
  /// the stem and extension of the file itself (the one a symbolic link points to).
  private func writeSibling(_ data: Data, kind: String, folder: String? = nil) throws(StoreError)
    -> String
  {
    let folder = folder ?? PathText.folder(of: resolvedPath)
    let name = PathText.name(of: resolvedPath)
    let stem = PathText.stem(of: name)
    let ext = PathText.fileExtension(of: name)
    let stamp = DateStamp.string(clock(), timeZone: timeZone, format: DateStamp.fileName)
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

  /// Reads and decodes the file; nil when there is none.
  ///
  /// A big XML file's bytes are given back to the system while it is decoded
  /// (`ReadBytesRelease`); should that decoding fail, the file is read and decoded again
  /// without, so that what is reported comes from intact bytes.
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
    let release = ReadBytesRelease()
    do {
      return try readAndDecode(release: release)
    } catch {
      guard error.kind == .invalidContent, release.releasedAny else { throw error }
      return try readAndDecode(release: nil)
    }
  }

  /// Reads the file once and decodes it (see `readDocument`).
  ///
  /// A big binary file is decoded where it lies in memory, mapped under a read lease
  /// (`LeasedMapping`); a small one, an XML one, or one the system will not lease, is read into
  /// an array.
  private func readAndDecode(release: ReadBytesRelease?) throws(StoreError) -> ChecklistsDocument {
    let fd: Int32
    let openedStatus: FileStatus
    do {
      fd = try fileSystem.open(resolvedPath, flags: O_RDONLY | O_NONBLOCK, mode: 0)
    } catch {
      throw StoreError(
        .unreadable, path: resolvedPath, shownPath: location.displayPath, cause: error)
    }
    defer { try? fileSystem.close(fd) }
    do {
      openedStatus = try fileSystem.fstat(fd)
    } catch {
      throw StoreError(
        .unreadable, path: resolvedPath, shownPath: location.displayPath, cause: error)
    }
    try checkReadable(openedStatus)
    let decoded: (document: ChecklistsDocument, hash: UInt64)
    // XML is read even so: its save writes more than twice a binary file's bytes, and the
    // read buffer it gave back while being decoded is the memory that save then finds ready
    // (mapped, a 100,000-item XML quit took 100–155 ms on the measuring machine, read 78–83).
    let mapped = try fileSystem.withLeasedMapping(fd, size: Int(openedStatus.size)) {
      bytes throws(StoreError) -> (document: ChecklistsDocument, hash: UInt64)? in
      guard bytes.starts(with: "bplist00".utf8) else { return nil }
      return try decode(bytes, release: nil)
    }
    if let mapped, let mapped {
      decoded = mapped
    } else {
      let data: [UInt8]
      do {
        data = try fileSystem.readAllBytes(fd, limit: Int(Self.sizeLimit))
      } catch {
        throw StoreError(
          .unreadable, path: resolvedPath, shownPath: location.displayPath, cause: error)
      }
      if data.count > Self.sizeLimit {
        throw StoreError(
          .tooLarge, path: resolvedPath, shownPath: location.displayPath,
          detail: "it grew past 1 GiB while being read")
      }
      decoded = try data.withUnsafeBufferPointer { bytes throws(StoreError) in
        try decode(bytes, release: release)
      }
    }
    diskFingerprint = DiskFingerprint(status: openedStatus, contentHash: decoded.hash)
    return decoded.document
  }

  /// The document in `bytes` and their content hash; the bytes are read by no one once this
  /// returns.
  private func decode(_ bytes: UnsafeBufferPointer<UInt8>, release: ReadBytesRelease?)
    throws(StoreError) -> (document: ChecklistsDocument, hash: UInt64)
  {
    // A big file's hash is taken on a thread of its own while it is decoded; the bytes are
    // given back only once it is done.
    let contentHash = ContentHash.later(of: bytes, then: release)
    let document: ChecklistsDocument
    do {
      document = try ChecklistsFileCoding.decode(buffer: bytes, release: release)
    } catch {
      throw StoreError(
        .invalidContent, path: resolvedPath, shownPath: location.fileName, formatError: error)
    }
    return (document, contentHash.result())
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

  /// The one list a first run makes, as the iPhone app does.
  static let firstListName = "List"

  /// Removes `.<name>.tmp-<pid>-<n>` files beside `path` left by a process that no longer runs.
  private func removeStaleTemporaryFiles(besides path: String) {
    let folder = PathText.folder(of: path)
    let prefix = AtomicFileWriter.temporaryPrefix(for: PathText.name(of: path))
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
      let folder = PathText.folder(of: current)
      current = PathText.normalized(PathText.absolute(target, base: folder))
    }
    throw StoreError(
      .unreadable, path: path, shownPath: location.display(path),
      cause: SystemCallError(ELOOP, call: "readlink"))
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
