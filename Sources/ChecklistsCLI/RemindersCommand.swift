import ChecklistsCore
import ChecklistsDesktop
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// `reminders`: the reminder service in the foreground.
enum RemindersCommand {
  static let reminders = CommandSpec(
    name: "reminders", positionals: [],
    summary: "Deliver reminders as desktop notifications, with Done and Snooze (a service).",
    details: """
      Runs in the foreground until stopped: sleeps until the next reminder of the file,
      wakes when the file changes, and shows each reminder (Remind Me on, unchecked) on
      the desktop through the session bus's notification server: "Reminder", the item
      and its list, with Done (checks the item; a repeating one moves on) and Snooze
      (10 minutes). Reminders that came due while it was not running are delivered at
      start, once; more than 5 at once become one notification. Each reminder is
      delivered once, also with due --notify or another service on the same file.
      Without a session bus or notification server it says so once and keeps waiting.
      """
  ) { _, context throws(CLIError) in
    guard let timer = WallClockTimer.make() else {
      throw .failure("cannot make a wall-clock timer (timerfd) for the reminder service")
    }
    return ReminderService(context: context, timer: timer).run()
  }
}
