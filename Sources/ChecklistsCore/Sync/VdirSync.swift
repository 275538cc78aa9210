import Foundation

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
/// repairs the rest without duplicates: the vdir's item files (each by rename), then the data
/// file (through the store: locked, merged with other writers, atomic), then the state. Items
/// carry `X-CHECKLISTS-ITEMID`, which lets the next pass recognise what an interrupted pass
/// wrote.
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
    let home = environment["HOME"] ?? NSHomeDirectory()
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
      stateFolder: (location.stateFile as NSString).deletingLastPathComponent,
      dataFile: location.dataFile, vdir: vdir)
  }

  /// Runs one pass. With `dryRun` nothing is written: the report says what would be done.
  public static func run(
    location: DataFileLocation, vdir: String, options: SyncOptions, dryRun: Bool = false
  ) throws(SyncError) -> SyncOutcome {
    let statePath = self.statePath(location: location, vdir: vdir)
    let lock: DataFileLock
    do {
      lock = try DataFileLock.acquire(
        dataFile: statePath, shownPath: location.display(statePath), wait: lockWait)
    } catch {
      throw SyncError(message: "another sync of this file and vdir is running (\(error.message))")
    }
    defer { lock.release() }
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
    if SyncEngine.isUnchanged(state: state, snapshot: snapshot, dataFile: dataFingerprint) {
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
    let plan = SyncEngine.plan(
      ours: ours, state: state, snapshot: snapshot, root: vdir, options: options)
    if dryRun || plan.report.refused != nil {
      return SyncOutcome(report: plan.report, save: nil, model: nil, warnings: warnings)
    }
    var newState = try SyncEngine.apply(plan, root: vdir)
    var save: SaveResult?
    var model = plan.model
    if plan.modelChanged {
      do {
        let result = try store.save(plan.model)
        save = result
        if case .conflictCopy = result.outcome {
          // The data file does not hold the result: recording it would make the next pass
          // take the file's lists for deletions. The vdir's new files are recognised then.
          return SyncOutcome(report: plan.report, save: result, model: nil, warnings: warnings)
        }
        if let merged = result.merged { model = merged.model }
        var appState = load.state
        appState.nextItemID = max(appState.nextItemID, model.nextItemID)
        try? store.saveState(appState)
      } catch {
        throw SyncError(message: error.message)
      }
    }
    store.appendToLog(plan.report.merge)
    newState.dataFile = FileFingerprint.of(location.dataFile)
    let text = newState.encoded(dataFilePath: location.dataFile, vdir: vdir)
    do {
      try Vdir.createFolder((statePath as NSString).deletingLastPathComponent)
      try Vdir.writeAtomically(Array(text.utf8), to: statePath)
    } catch {
      throw SyncError(message: "writing the sync state \(location.display(statePath)): \(error)")
    }
    return SyncOutcome(report: plan.report, save: save, model: model, warnings: warnings)
  }
}
