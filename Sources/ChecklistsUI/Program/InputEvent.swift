import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// A key as the terminal layer decodes it.
public enum Key: Hashable, Sendable {
  /// A printable character (never a control character).
  case character(Character)
  /// A control chord, e.g. `.control("s")` for Ctrl-S; always a lowercase letter.
  case control(Character)
  case enter, escape, tab, backTab, backspace, delete
  case up, down, left, right, home, end, pageUp, pageDown
  /// F1…F12.
  case function(Int)
}

/// A mouse report, where the terminal sends them.
public struct MouseEvent: Hashable, Sendable {
  /// What happened.
  public enum Kind: Hashable, Sendable {
    case press, wheelUp, wheelDown
  }

  /// What happened.
  public var kind: Kind
  /// Where, 0-based.
  public var position: GridPosition

  /// Creates a mouse event.
  public init(kind: Kind, position: GridPosition) {
    self.kind = kind
    self.position = position
  }
}

/// How a save the program asked for ended, reported back by the driver.
public struct SaveOutcome: Equatable, Sendable {
  /// Whether the data is now safely on disk (in the file, or in a conflict copy the message
  /// names); false when the save failed.
  public var succeeded: Bool
  /// What to show on the status line, e.g. "Saved" or "Save failed: … (No space left on device)".
  public var message: String
  /// The lists as saved when changes made elsewhere were merged in: shown from now on.
  public var merged: MergedLists?

  /// Creates an outcome.
  public init(succeeded: Bool, message: String, merged: MergedLists? = nil) {
    self.succeeded = succeeded
    self.message = message
    self.merged = merged
  }
}

/// Lists merged with changes made elsewhere, for the app to show instead of its own.
public struct MergedLists: Equatable, Sendable {
  /// The merged lists; lists the app had keep their run-time ids.
  public var model: DataModel
  /// Items of ours that got a new `itemID` (old to new).
  public var renumbered: [Int: Int]
  /// Whether the file now holds exactly these lists (nothing is left to save).
  public var matchesFile: Bool
  /// What the merge took in and kept, told on the status line (with the counts of earlier
  /// merges not yet read) before the event's message.
  public var report: MergeReport
  /// The conflict log's name, for the status line.
  public var logName: String?

  /// Creates merged lists.
  public init(
    model: DataModel, renumbered: [Int: Int] = [:], matchesFile: Bool,
    report: MergeReport = MergeReport(), logName: String? = nil
  ) {
    self.model = model
    self.renumbered = renumbered
    self.matchesFile = matchesFile
    self.report = report
    self.logName = logName
  }
}

/// Everything the UI state machine reacts to.
public enum InputEvent: Equatable, Sendable {
  case key(Key)
  /// Text that arrived as a bracketed paste.
  case paste(String)
  case mouse(MouseEvent)
  /// The terminal has a new size.
  case resize(width: Int, height: Int)
  /// The terminal window lost focus (`CSI O`).
  case focusLost
  /// The terminal window got focus back (`CSI I`).
  case focusGained
  /// Time passed (reminders may be due); the driver sends it at `nextWakeUp`.
  case tick
  /// A save the program asked for ended.
  case saveFinished(SaveOutcome)
  /// Something the user should read on the status line (e.g. a warning from loading).
  case notice(String)
  /// Changes made elsewhere to the file were merged into the lists: the status line tells the
  /// merge's report (added to those of earlier merges still on it), then `message`.
  case mergedFromElsewhere(MergedLists, message: String)
  /// Quitting could not save (the reason): the app asks what to do instead of exiting.
  case quitSaveFailed(String)
  /// A photo asked for with `Effect.loadPhoto` was decoded (on a worker thread) and drawn.
  case photoLoaded(PhotoRequest, PhotoPicture)
  /// A file chosen for the item form was read whole (`Effect.work`): why it cannot be
  /// attached, or nil when it can.
  case photoChecked(path: String, problem: String?)
}

/// Work the driver runs on a worker thread, off the key path; its event comes back when done.
public struct BackgroundWork: Equatable, Sendable {
  /// What the work is (e.g. "check /a/b.jpg"): two works of one name are the same work.
  public var name: String
  /// The work itself; its result is the event handled when it is done.
  public var run: @Sendable () -> InputEvent

  /// Creates a piece of work.
  public init(name: String, run: @escaping @Sendable () -> InputEvent) {
    self.name = name
    self.run = run
  }

  public static func == (lhs: BackgroundWork, rhs: BackgroundWork) -> Bool {
    lhs.name == rhs.name
  }
}

/// What the state machine asks the driver to do.
public enum Effect: Equatable, Sendable {
  /// Save `dataModel` now (Ctrl-S, focus lost); the driver answers with `.saveFinished`.
  case save
  /// Save if dirty, restore the terminal and exit.
  case quit
  /// Save if dirty, restore the terminal and stop (Ctrl-Z); redraw on resume.
  case suspend
  /// Ring the terminal bell once.
  case bell
  /// Write the lists to this file instead (after a failed save at quit), then exit.
  case saveCopyAndQuit(path: String)
  /// Exit without saving again: the lists go to a rescue copy, which the exit names.
  case quitWithRescueCopy
  /// Decode and draw a photo off the key path; the driver answers with `.photoLoaded`.
  case loadPhoto(PhotoRequest)
  /// Run this work off the key path; the driver handles its event when it is done.
  case work(BackgroundWork)
  /// Add a line to the conflicts log beside the data file: what Done did with an item changed
  /// elsewhere while its form was open (moved to another list), as a merge logs its conflicts.
  case logConflict(String)
  /// Reminders rang on the status line: the driver may also send them out as a terminal
  /// notification, when the app is out of sight and nothing else delivered them.
  case remindersFired(FiredReminders)
  /// A reminder was snoozed here: record it in the shared record of delivered reminders, so
  /// the reminder service delivers it again at `until` too.
  case snoozeReminder(key: String, until: Date)
}

/// Reminders that rang at one moment, as the status line showed them.
public struct FiredReminders: Equatable, Sendable {
  /// One reminder: the item's text and its list's name.
  public struct Line: Equatable, Sendable {
    public var text: String
    public var listName: String

    /// Creates a line.
    public init(text: String, listName: String) {
      self.text = text
      self.listName = listName
    }
  }

  /// Their keys in the shared record of delivered reminders (`DeliveredReminders.key`).
  public var keys: [String]
  /// What each says, in the order of `keys`.
  public var lines: [Line]
  /// Whether the terminal said its window lost the focus (and has not got it back).
  public var focusLost: Bool

  /// Creates the report.
  public init(keys: [String], lines: [Line], focusLost: Bool) {
    self.keys = keys
    self.lines = lines
    self.focusLost = focusLost
  }
}
