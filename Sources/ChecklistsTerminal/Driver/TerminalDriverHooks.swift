import ChecklistsCore
import ChecklistsUI
import FoundationEssentials

/// What the driver calls to keep the user's data safe; the store supplies these.
public struct TerminalDriverHooks<Program: TerminalProgram> {
  /// Saves the model (Ctrl-S, focus lost, quit, suspend, signals) and says how it went.
  public var save: (DataModel) -> SaveOutcome
  /// Writes the model somewhere safe after a failed save on the way out; the path, or nil.
  public var rescue: (DataModel) -> String?
  /// Keeps the UI state (list on screen, sort modes) on every way out and on suspend.
  public var persistState: (Program) -> Void
  /// Writes the lists to a file the user named after a failed save at quit; the path written,
  /// or the error's message.
  public var saveCopy: (DataModel, String) -> Result<String, StoreError>
  /// Merges changes made elsewhere to the file into the lists, with a line for the status
  /// line; lists nil when the file did not change but there is something to say (a sync
  /// problem); nil when there is neither.
  public var refresh: (DataModel) -> (lists: MergedLists?, message: String)?
  /// Makes what wakes the loop when the file may have changed; nil (no folder yet, no inotify):
  /// the file is checked every 2 s, and the driver asks again at each check.
  public var makeWatcher: () -> FileWatcher?
  /// Decodes and draws a photo, given the terminal's answers to `graphicsQuery` (empty when
  /// it was not asked or did not answer in time); called on a worker thread, never on the key
  /// path.
  public var loadPhoto: @Sendable (PhotoRequest, _ answers: [UInt8]) -> PhotoPicture
  /// What to ask the terminal once, before the first photo is drawn (which images it shows);
  /// nil: nothing to ask. It must end with the device attributes request (`ESC [ c`), which
  /// every terminal answers last.
  public var graphicsQuery: [UInt8]?
  /// Adds a line to the conflicts log (what a form did with an item changed elsewhere).
  public var logConflict: (String) -> Void
  /// Reminders rang on the status line: what to write to the terminal besides (a terminal
  /// notification while the app is out of sight, see `TerminalNotification`), often nothing.
  public var remindersFired: (FiredReminders, DataModel) -> [UInt8]
  /// A reminder was snoozed in the app: records the snooze where the reminder service sees it.
  public var snoozeReminder: (_ key: String, _ until: Date, DataModel) -> Void

  /// Creates the hooks.
  public init(
    save: @escaping (DataModel) -> SaveOutcome,
    rescue: @escaping (DataModel) -> String?,
    persistState: @escaping (Program) -> Void,
    saveCopy: @escaping (DataModel, String) -> Result<String, StoreError> = { _, path in
      .failure(StoreError(.invalidPath, path: path, detail: "saving elsewhere is not available"))
    },
    refresh: @escaping (DataModel) -> (lists: MergedLists?, message: String)? = { _ in nil },
    makeWatcher: @escaping () -> FileWatcher? = { nil },
    loadPhoto: @escaping @Sendable (PhotoRequest, _ answers: [UInt8]) -> PhotoPicture = { _, _ in
      .text("photos are not shown here", isError: true)
    },
    graphicsQuery: [UInt8]? = nil,
    logConflict: @escaping (String) -> Void = { _ in },
    remindersFired: @escaping (FiredReminders, DataModel) -> [UInt8] = { _, _ in [] },
    snoozeReminder: @escaping (_ key: String, _ until: Date, DataModel) -> Void = { _, _, _ in }
  ) {
    self.remindersFired = remindersFired
    self.snoozeReminder = snoozeReminder
    self.logConflict = logConflict
    self.loadPhoto = loadPhoto
    self.graphicsQuery = graphicsQuery
    self.save = save
    self.rescue = rescue
    self.persistState = persistState
    self.saveCopy = saveCopy
    self.refresh = refresh
    self.makeWatcher = makeWatcher
  }
}

/// How the full-screen session ended: the exit status and what to print to stderr.
public struct TerminalExit: Equatable, Sendable {
  /// 0 when everything was saved, 1 when a save failed.
  public var status: Int32
  /// A line for standard error (printed after the terminal is restored), or nil.
  public var message: String?

  /// Creates an exit report.
  public init(status: Int32, message: String?) {
    self.status = status
    self.message = message
  }
}

/// Why the session is ending.
enum ExitReason: Equatable {
  /// The program asked to quit.
  case quit
  /// SIGTERM, SIGINT or SIGHUP arrived.
  case signal(Int32)
  /// The terminal went away (hangup, input closed).
  case terminalGone
}
