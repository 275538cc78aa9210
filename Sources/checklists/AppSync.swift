import ChecklistsCore
import ChecklistsUI
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The app's side of sync: when a vdir is configured (`$CHECKLISTS_VDIR`, or `set vdir` in the
/// config file), a pass at start, after each save, and whenever the vdir's folders change. A
/// pass writes the data file like any other program; the app's own watcher then merges it onto
/// the screen.
final class AppSync {
  let location: DataFileLocation
  let vdir: String
  /// The app's watcher, which also watches the vdir's folders.
  var watcher: FileWatcher?
  /// A line for the status line that has not been shown yet.
  private(set) var pendingMessage: String?
  /// What the pending line is about, to tell a problem that stays from a new one: the skipped
  /// file or refusal (the summary beside it changes with every pass), else the whole line (a
  /// conflict is new at each pass that finds one).
  private var pendingKey: String?

  /// Nil when no vdir is configured.
  init?(location: DataFileLocation, environment: [String: String], config: ConfigFile) {
    guard let vdir = VdirSync.vdirPath(option: nil, environment: environment, config: config)
    else { return nil }
    self.location = location
    self.vdir = vdir
  }

  /// After a save: what the save wrote goes to the vdir (what the pass brought comes back
  /// through the watcher); a problem is told with the save's line.
  func afterSave(_ outcome: inout SaveOutcome) {
    guard outcome.succeeded else { return }
    run()
    if let message = takeMessage() { outcome.message += "; " + message }
  }

  /// Before a look at the data file: the vdir may have changed, and a pass writes its changes
  /// to the file, which the look then merges. What the pass has to say is said now, with or
  /// without a change to the file (once: a problem that stays is not said again at every look).
  func beforeLook() -> String? {
    run()
    return takeMessage(repeating: false)
  }

  /// Runs one pass; keeps a message when it needs the user (conflicts, skipped files, refused
  /// deletions) or failed.
  func run() {
    do throws(SyncError) {
      let outcome = try VdirSync.run(location: location, vdir: vdir, options: SyncOptions())
      let report = outcome.report
      if report.needsUser {
        // The problem first, its file named within the vdir: a narrow status line cuts the
        // summary, not the file.
        var message = "Sync: "
        if let problem = report.problems.first {
          message += problem.replacing(vdir + "/", with: "") + "; "
        }
        pendingMessage = message + report.summary
        pendingKey =
          report.merge.conflicts.isEmpty
          ? report.problems.first ?? report.refused ?? pendingMessage : pendingMessage
      }
    } catch {
      // A vdir that is not there is never made here: the message says how to make it.
      pendingMessage =
        error.kind == .missingVdir
        ? "Sync: " + error.message
        : "Sync with \(location.display(vdir)) failed: \(error.message)"
      pendingKey = pendingMessage
    }
    watchFolders()
  }

  /// What the message last taken was about, so that a problem that stays is said once.
  private var lastTold: String?

  /// The message kept by the last passes, once; not `repeating`, nil when it is the one told
  /// last (a pass without a message forgets that). A message told `repeating` (with a save)
  /// counts as told: the look at the file that follows the save does not say it again over the
  /// save's line.
  func takeMessage(repeating: Bool = true) -> String? {
    let key = pendingKey
    defer {
      pendingMessage = nil
      pendingKey = nil
    }
    guard let message = pendingMessage else {
      lastTold = nil
      return nil
    }
    defer { lastTold = key }
    if repeating { return message }
    return key == lastTold ? nil : message
  }

  /// Watches the vdir and each of its folders (new folders are added at each pass).
  func watchFolders() {
    guard let watcher else { return }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: vdir)) ?? []
    watcher.watch(folders: [vdir] + names.filter { !$0.hasPrefix(".") }.map { vdir + "/" + $0 })
  }
}
