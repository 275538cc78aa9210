import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// How a sync pass ended.
public struct SyncOutcome: Sendable {
  /// What it did (or, for a dry run, would do).
  public var report: SyncReport
  /// The data file's save, when the pass wrote it.
  public var save: SaveResult?
  /// The lists the data file holds after the pass (the app shows these).
  public var model: DataModel?
  /// Things worth a line on stderr that did not stop the pass.
  public var warnings: [String] = []
}

/// One two-way sync pass between a data file and a vdir, with its state and lock.
///
/// Order of writes, so that a pass killed anywhere leaves each side whole and the next pass
/// repairs the rest without duplicates or undoing anyone's change: the data file (through the
/// store: locked, merged with other writers, atomic); the state, with every vdir write and
/// deletion to come marked pending; the vdir's files (each by rename); the state again. Items
/// carry `X-CHECKLISTS-ITEMID`, which lets a pass whose state was lost recognise them.
public enum VdirSync {
  /// How long a pass waits for another pass on the same data file and vdir.
  public static let lockWait: TimeInterval = 30

  /// The vdir to use: `--vdir`, else `$CHECKLISTS_VDIR`, else `set vdir = PATH` in the config
  /// file; `~` is the home folder and a relative path is taken from the current folder.
  public static func vdirPath(
    option: String?, environment: [String: String], config: ConfigFile
  ) -> String? {
    let raw =
      option ?? environment["CHECKLISTS_VDIR"].flatMap { $0.isEmpty ? nil : $0 }
      ?? config.value(of: .vdir)
    guard var path = raw, !path.isEmpty else { return nil }
    let home = environment["HOME"] ?? PathText.accountHome()
    if path == "~" {
      path = home
    } else if path.hasPrefix("~/") {
      path = home + path.dropFirst()
    }
    if !path.hasPrefix("/") {
      path = FileManager.default.currentDirectoryPath + "/" + path
    }
    while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
    return path
  }

  /// The state file of a data file and a vdir, in the state folder beside the app's state.
  public static func statePath(location: DataFileLocation, vdir: String) -> String {
    SyncState.path(
      stateFolder: PathText.folder(of: location.stateFile),
      dataFile: location.dataFile, vdir: vdir)
  }

  /// Runs one pass. With `dryRun` nothing is written: the report says what would be done.
  ///
  /// The pass also tells the conflicts `sync-merge` settled for vdirsyncer since the last
  /// pass (and then forgets them, unless it is a dry run).
  public static func run(
    location: DataFileLocation, vdir: String, options: SyncOptions, dryRun: Bool = false
  ) throws(SyncError) -> SyncOutcome {
    if !options.createsVdir { try requireFolder(vdir, location: location) }
    let statePath = self.statePath(location: location, vdir: vdir)
    let lock: DataFileLock
    do {
      lock = try DataFileLock.acquire(
        dataFile: statePath, shownPath: location.display(statePath), wait: lockWait)
    } catch {
      throw SyncError(message: "another sync of this file and vdir is running (\(error.message))")
    }
    defer { lock.release() }
    let settled = MergedConflictsNote.read(statePath: statePath)
    var outcome = try pass(
      location: location, vdir: vdir, statePath: statePath, options: options, dryRun: dryRun)
    if !settled.isEmpty {
      outcome.report.settledByVdirsyncer = settled
      if !dryRun { MergedConflictsNote.remove(statePath: statePath) }
    }
    return outcome
  }

  /// The pass, under the lock.
  private static func pass(
    location: DataFileLocation, vdir: String, statePath: String, options: SyncOptions,
    dryRun: Bool, retries: Int = 2
  ) throws(SyncError) -> SyncOutcome {
    // Reminders done or dismissed here since the last pass are to be marked on their alarms,
    // even when nothing else changed.
    let acknowledged =
      StateFile(location: location, fileSystem: SystemFileSystem()).load().state.acknowledged
    // The fast first look: only fingerprints, no state to read, no folder to list.
    if acknowledged.isEmpty,
      SyncIndex.isUnchanged(statePath: statePath, dataFile: location.dataFile, vdir: vdir)
    {
      return SyncOutcome(report: SyncReport(), save: nil, model: nil, warnings: [])
    }
    var warnings: [String] = []
    var state = SyncState()
    if let bytes = try? Vdir.read(statePath) {
      if let decoded = SyncState.decode(bytes) {
        state = decoded
      } else {
        warnings.append(
          "the sync state \(location.display(statePath)) is damaged; syncing as for the first "
            + "time (items this program wrote are recognised by their X-CHECKLISTS-ITEMID)")
      }
    }
    let snapshot = Vdir.scan(vdir)
    let dataFingerprint = FileFingerprint.of(location.dataFile)
    if acknowledged.isEmpty,
      SyncEngine.isUnchanged(state: state, snapshot: snapshot, dataFile: dataFingerprint)
    {
      if !dryRun {
        SyncIndex.record(
          state: state, statePath: statePath, dataFile: location.dataFile, snapshot: snapshot)
      }
      return SyncOutcome(report: SyncReport(), save: nil, model: nil, warnings: warnings)
    }
    let store: ChecklistsStore
    let load: LoadResult
    do {
      (store, load) = try ChecklistsStore.open(location: location)
    } catch {
      throw SyncError(message: error.message)
    }
    warnings += load.warnings
    // A first run syncs no lists of its own: the app's first "List" is not made here.
    let ours = load.isFirstRun ? DataModel(nextItemID: load.model.nextItemID) : load.model
    // What a pass killed after its save brought in is no change of ours.
    state = IncomingNote.applied(to: state, ours: ours, statePath: statePath)
    var options = options
    options.acknowledgements = Self.acknowledgements(load.state.acknowledged, in: ours)
    var plan = SyncEngine.plan(
      ours: ours, state: state, snapshot: snapshot, root: vdir, options: options)
    // Tasks vdirsyncer met in a conflict before they were recorded (noted by sync-merge).
    let unsure = MergedConflictsNote.unsure(statePath: statePath)
    if !unsure.isEmpty {
      for c in plan.state.collections.indices {
        for i in plan.state.collections[c].items.indices
        where unsure.contains(plan.state.collections[c].items[i].uid) {
          plan.state.collections[c].items[i].unsure = true
        }
      }
    }
    if dryRun || plan.report.refused != nil {
      return SyncOutcome(report: plan.report, save: nil, model: nil, warnings: warnings)
    }
    // Something changed: the index no longer describes both sides (the next pass with nothing
    // to do records it again).
    unlink(SyncIndex.path(statePath: statePath))
    var save: SaveResult?
    var model = plan.model
    if plan.modelChanged {
      IncomingNote.write(merged: plan.model, ours: ours, statePath: statePath)
      do {
        let result = try store.save(plan.model)
        save = result
        if case .conflictCopy = result.outcome {
          // The data file does not hold the result: the vdir and the state are left as they
          // are, and the next pass merges again.
          return SyncOutcome(report: plan.report, save: result, model: nil, warnings: warnings)
        }
        if let merged = result.merged { model = merged.model }
        var appState = load.state
        appState.nextItemID = max(appState.nextItemID, model.nextItemID)
        _ = try? store.saveState(appState, base: load.state)
      } catch {
        throw SyncError(message: error.message)
      }
    }
    store.appendToLog(plan.report.merge)
    // The state is recorded before the vdir is written, with each write marked pending, so a
    // pass killed midway is told apart from changes made elsewhere; then again when done.
    var pending = plan.state
    pending.dataFile = FileFingerprint.of(location.dataFile)
    if !plan.operations.isEmpty {
      try writeState(pending, to: statePath, location: location, vdir: vdir)
    }
    var (done, skipped) = try SyncEngine.applyCounting(plan, root: vdir)
    done.dataFile = pending.dataFile
    // Reminders dismissed on another device count as delivered here.
    AcknowledgedAlarms.record(state: done, model: model, store: store, base: load.state)
    // Those dismissed here are marked now (a write skipped is tried again by the pass below).
    if skipped == 0 && !load.state.acknowledged.isEmpty {
      var marked = load.state
      var record = DeliveredReminders(marked)
      record.forgetAcknowledged(load.state.acknowledged.keys)
      record.store(in: &marked)
      _ = try? store.saveState(marked, base: load.state)
    }
    // A pass that found nothing to do (a first run with no data file yet) writes nothing.
    if done != state { try writeState(done, to: statePath, location: location, vdir: vdir) }
    if !unsure.isEmpty { unlink(MergedConflictsNote.unsurePath(statePath: statePath)) }
    IncomingNote.remove(statePath: statePath)
    var outcome = SyncOutcome(report: plan.report, save: save, model: model, warnings: warnings)
    if skipped > 0 && retries > 0 {
      // A file changed between the reading and the writing (vdirsyncer brought the server's
      // version): merged now, so that our change goes out with the next `vdirsyncer sync`.
      let again = try pass(
        location: location, vdir: vdir, statePath: statePath, options: options, dryRun: false,
        retries: retries - 1)
      outcome.report.add(again.report)
      outcome.save = again.save ?? outcome.save
      outcome.model = again.model ?? outcome.model
      outcome.warnings += again.warnings
    }
    return outcome
  }

  /// The items of `model` whose reminder at their current due date `acknowledged` (the state
  /// file's record of reminders done or dismissed here) holds, with when.
  static func acknowledgements(_ acknowledged: [String: Int64], in model: DataModel) -> [Int: Int64]
  {
    guard !acknowledged.isEmpty else { return [:] }
    var result: [Int: Int64] = [:]
    for list in model.lists {
      for item in list.items where item.shouldRemind {
        if let at = acknowledged[DeliveredReminders.key(item)] { result[item.itemID] = at }
      }
    }
    return result
  }

  /// Throws `missingVdir` when `vdir` is not a folder: a pass never makes one it was not told
  /// to (a mistyped path would fill a new folder with every list).
  static func requireFolder(_ vdir: String, location: DataFileLocation) throws(SyncError) {
    var record = stat()
    let shown = location.display(vdir)
    guard stat(vdir, &record) == 0 else {
      let reason = String(cString: strerror(errno))
      throw SyncError(
        message: "the vdir \(shown) does not exist (\(reason)): check the path (a disk not "
          + "mounted?), or make it with `checklists sync --init`",
        kind: .missingVdir)
    }
    guard record.st_mode & S_IFMT == S_IFDIR else {
      throw SyncError(message: "the vdir \(shown) is not a folder", kind: .missingVdir)
    }
  }

  private static func writeState(
    _ state: SyncState, to path: String, location: DataFileLocation, vdir: String
  ) throws(SyncError) {
    let text = state.encoded(dataFilePath: location.dataFile, vdir: vdir)
    do {
      try Vdir.createFolder(PathText.folder(of: path))
      try Vdir.writeAtomically(Array(text.utf8), to: path)
    } catch {
      throw SyncError(message: "writing the sync state \(location.display(path)): \(error)")
    }
  }
}
