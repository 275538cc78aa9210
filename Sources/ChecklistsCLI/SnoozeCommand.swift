import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// `snooze`: puts off an item's reminder that has come, in the shared record the reminder
/// service reads (it comes again on the desktop then).
enum SnoozeCommand {
  /// How long a snooze lasts without a DURATION.
  static let defaultDuration: TimeInterval = 600

  static let snooze = CommandSpec(
    name: "snooze", positionals: ["LIST", "ITEM"], optionalPositionals: ["DURATION"],
    summary: "Put off an item's reminder that has come: it comes again after DURATION.",
    details: """
      DURATION is a number with m, h, d or w (10m, 2h, 1d); 10 minutes without one. The
      reminder service delivers it again then, on the desktop. Only a reminder whose time
      has come can be snoozed: an unchecked item with Remind Me on, due now or earlier.
      """
  ) { arguments, context throws(CLIError) in
    var duration = defaultDuration
    if arguments.positionals.count > 2 {
      let text = arguments.positionals[2]
      guard let parsed = DueDateParser.parseDuration(text), parsed > 0 else {
        throw .usage("DURATION is a duration like 10m, 2h, 1d, not \"\(text)\"")
      }
      duration = parsed
    }
    let (store, load) = try context.openToShow()
    let list = try ListSelector.find(arguments.positionals[0], in: load.model)
    let index = try ItemSelector.find(arguments.positionals[1], in: list)
    let item = list.items[index]
    let output = context.output
    let named = "\"\(output.shown(item.text))\" in \(output.shown(list.name))"
    guard item.hasArmedReminder else {
      throw .failure(
        "\(named) has no reminder to snooze (\(item.checked ? "it is checked" : "Remind Me is off"))"
      )
    }
    let formatter = context.dueDateFormatter
    guard item.reminderDate <= context.now else {
      throw .failure(
        "the reminder of \(named) has not come yet (\(formatter.full(item.reminderDate))); "
          + "nothing to snooze")
    }
    let until = context.now.addingTimeInterval(duration)
    let key = DeliveredReminders.key(item)
    try storeCall {
      try ReminderRecord(store: store, loaded: load.state).update(model: load.model) {
        $0.snooze(key: key, until: until)
      }
    }
    output.line("Snoozed \(named) until \(formatter.full(until)).")
    return 0
  }
}
