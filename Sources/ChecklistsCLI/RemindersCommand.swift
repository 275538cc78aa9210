import ChecklistsCore
import ChecklistsDesktop
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// `reminders`: the reminder service in the foreground.
enum RemindersCommand {
  static let reminders = CommandSpec(
    name: "reminders", positionals: [], flags: [.install, .uninstall],
    summary: "Deliver reminders as desktop notifications, with Done and Snooze (a service).",
    details: """
      Runs in the foreground until stopped: sleeps until the next reminder of the file,
      wakes when the file changes, and shows each reminder (Remind Me on, unchecked) on
      the desktop through the session bus's notification server: "Reminder", the item
      and its list, with Done (checks the item; a repeating one moves on) and Snooze
      (10 minutes). Reminders that came due while it was not running are delivered at
      start, once; more than 5 at once become one notification. Each reminder is
      delivered once, also with due --notify; a second service for the same file stops at
      once.
      Without a session bus or notification server it says so once and keeps waiting.
      --install writes the systemd user unit checklists-reminders.service (in
      $XDG_CONFIG_HOME/systemd/user) for this file and enables and starts it where
      systemctl --user works; elsewhere it prints the line that starts the service from
      a shell profile. --uninstall stops it and removes the unit.
      """
  ) { arguments, context throws(CLIError) in
    if arguments.has(.install) && arguments.has(.uninstall) {
      throw .usage("--install and --uninstall cannot go together")
    }
    if arguments.has(.install) { return try ReminderUnitInstaller.install(context: context) }
    if arguments.has(.uninstall) { return try ReminderUnitInstaller.uninstall(context: context) }
    // One service a file: a second one (a shell profile's line run in every login shell, or
    // the unit and a manual start) stops here. The lock is held until the process ends.
    let lock: DataFileLock
    do throws(StoreError) {
      lock = try DataFileLock.acquire(
        dataFile: context.location.dataFile + ".reminders", shownPath: context.location.displayPath,
        wait: 0.5)
    } catch {
      if case .locked(let pid) = error.kind {
        throw .failure(
          "the reminder service already runs for \(context.location.displayPath)"
            + (pid.map { " (pid \($0))" } ?? ""))
      }
      throw .failure(error.message)
    }
    defer { lock.release() }
    guard let timer = WallClockTimer.make() else {
      throw .failure("cannot make a wall-clock timer (timerfd) for the reminder service")
    }
    return ReminderService(context: context, timer: timer).run()
  }
}
