import ChecklistsCore
import ChecklistsTerminal
import ChecklistsUI
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The app's reminders beyond its own screen: a terminal notification while the app is out of
/// sight, and snoozes recorded where the reminder service sees them.
///
/// A reminder rings on the app's status line in any case. Out of sight (the terminal said its
/// window lost the focus, or the app's tmux window is not the one shown), it also goes out
/// through the terminal (`TerminalNotification`) — unless the reminder service runs for the
/// file (it delivers the reminder to the desktop itself), or the shared record of delivered
/// reminders says someone delivered it already. It is claimed in that record first, so the
/// service started later, `due --notify` and a second app do not deliver it again.
struct AppReminders {
  let store: ChecklistsStore
  let loaded: ChecklistsState
  let environment: [String: String]

  /// How long a tmux query may take before the notification goes without it.
  static let tmuxTimeout: TimeInterval = 2

  /// What to write to the terminal for reminders that just rang; often nothing.
  func fired(_ fired: FiredReminders, model: DataModel) -> [UInt8] {
    guard let kind = TerminalNotification.kind(environment: environment) else { return [] }
    let tmux = environment["TMUX"] != nil ? Tmux(environment: environment) : nil
    if let tmux {
      // Only a passthrough reaches the terminal, and only one of a shown pane, unless
      // `allow-passthrough` is `all`; a session no client shows reaches no terminal at all.
      guard let pane = tmux.paneState, pane.attached else { return [] }
      guard fired.focusLost || !pane.visible else { return [] }
      let passthrough = tmux.passthrough
      guard passthrough == "all" || (passthrough == "on" && pane.visible) else { return [] }
    } else {
      guard fired.focusLost else { return [] }
    }
    if DataFileLock.isHeld(dataFile: store.location.dataFile + ".reminders") { return [] }
    let record = ReminderRecord(store: store, loaded: loaded)
    guard let claimed = try? record.claim(keys: fired.keys, model: model) else { return [] }
    let lines = zip(fired.keys, fired.lines).filter { claimed.contains($0.0) }.map(\.1)
    guard !lines.isEmpty else { return [] }
    let title = lines.count == 1 ? "Reminder" : "\(lines.count) reminders"
    let body = lines.map { "\($0.text) (\($0.listName))" }.joined(separator: "; ")
    return TerminalNotification.sequence(
      title: title, body: body, kind: kind, throughTmux: tmux != nil)
  }

  /// Records a snooze made in the app: the reminder service delivers the reminder again then.
  func snoozed(key: String, until: Date, model: DataModel) {
    _ = try? ReminderRecord(store: store, loaded: loaded).update(model: model) {
      $0.snooze(key: key, until: until)
    }
  }
}

/// The tmux the app runs in, asked through its own client (`TMUX` names the server).
private struct Tmux {
  let executable: String?
  let pane: String?

  init(environment: [String: String]) {
    executable = SpawnedProcess.find("tmux", path: environment["PATH"])
    pane = environment["TMUX_PANE"]
  }

  /// Whether the app's window is the one shown in its session, and whether any client shows
  /// the session; nil when tmux does not answer.
  var paneState: (visible: Bool, attached: Bool)? {
    guard let answer = ask(["display-message", "-p"], "#{window_active} #{session_attached}")
    else { return nil }
    let flags = answer.trimmingWhitespace().split(separator: " ")
    guard flags.count == 2 else { return nil }
    return (flags[0] == "1", flags[1] != "0")
  }

  /// The pane's `allow-passthrough`: "off", "on" (a shown pane) or "all"; nil unknown.
  var passthrough: String? {
    ask(["show-options", "-Apv"], "allow-passthrough")?.trimmingWhitespace()
  }

  private func ask(_ command: [String], _ argument: String) -> String? {
    guard let executable else { return nil }
    let target = pane.map { ["-t", $0] } ?? []
    return SpawnedProcess.output(
      executable, command + target + [argument], timeout: AppReminders.tmuxTimeout)
  }
}
