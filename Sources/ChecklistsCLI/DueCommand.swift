import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// `due`: the unchecked items with a due date that are due, reminders optionally sent to the
/// desktop.
enum DueCommand {
  /// A line of `due` and `today`: list, item, due date, how long ago or ahead, and the repeat
  /// rule of a repeating item.
  static func dueLine(listName: String, item: ChecklistItem, context: CommandContext) -> String {
    let formatter = context.dueDateFormatter
    let output = context.output
    let when = formatter.full(item.dueDate)
    let age = ElapsedTime.phrase(item.dueDate, now: context.now, formatter: formatter)
    let repeats = item.repeatRule.map { ", repeats \($0.text)" } ?? ""
    return "\(output.shown(listName))  \(output.shown(item.text))  \(when) (\(age)\(repeats))"
  }

  /// The exit status of a failure (a usage error is 2): 1 means "nothing is due".
  static let failureStatus: Int32 = 3

  static let due = CommandSpec(
    name: "due", positionals: [], valueOptions: [(.within, "DURATION")],
    flags: [.json, .notify],
    summary: "Show unchecked items due now (or within DURATION), oldest first.",
    details: """
      Each line: list, item, due date (and how long ago or ahead). An item has a due date
      when one was given (in the app, add --due, edit --due, import) or Remind Me is on.
      DURATION is a number with m, h, d or w (30m, 2h, 3d, 1w); a day is 24 hours.
      --notify also sends each due item with Remind Me on to the desktop with notify-send,
      once per item and due date (changing an item's due date sends it again); for cron:
        */5 * * * * checklists due --notify >/dev/null
      Exits 0 when something is due, 1 when nothing is, 2 on a usage error, 3 when the
      file cannot be read.
      """,
    failureStatus: failureStatus
  ) { arguments, context throws(CLIError) in
    var window: TimeInterval = 0
    if let text = arguments.value(.within) {
      guard let parsed = DueDateParser.parseDuration(text) else {
        throw .usage("--within takes a duration like 30m, 2h, 3d, 1w, not \"\(text)\"")
      }
      window = parsed
    }
    let (store, load) = try context.openToShow()
    let found = DueItems.query(load.model, now: context.now, within: window)
    if arguments.has(.json) {
      context.output.write(try JSONOutput.encode(found.map { DueRow($0, now: context.now) }))
    } else {
      for due in found {
        context.output.line(dueLine(listName: due.listName, item: due.item, context: context))
      }
    }
    // Desktop notifications go out even while the app is open (it rings its bell on its own
    // screen, which may not be in view); each item is notified once.
    if arguments.has(.notify) {
      let reminding = DueItems.reminding(load.model, now: context.now, within: window)
      notify(reminding, store: store, load: load, context: context)
    }
    return found.isEmpty ? 1 : 0
  }

  /// Sends each listed item with Remind Me on that was not delivered yet (by an earlier run or
  /// the reminder service), claiming it in the shared record first so that no other process
  /// sends it too; one that could not be sent is given back, and the next run tries again.
  static func notify(
    _ found: [DueItem], store: ChecklistsStore, load: LoadResult, context: CommandContext
  ) {
    let sender = DesktopNotifier(environment: context.environment, output: context.output)
    let record = ReminderRecord(store: store, loaded: load.state)
    let delivered = DeliveredReminders(store.currentState() ?? load.state)
    let formatter = context.dueDateFormatter
    for due in found where due.item.hasArmedReminder && !delivered.contains(due.item) {
      let reminder = DesktopReminder(
        key: DeliveredReminders.key(due.item), itemID: due.item.itemID,
        dueDate: due.item.dueDate, reminderDate: due.item.reminderDate, text: due.item.text,
        listName: due.listName, snoozed: false)
      do throws(StoreError) {
        guard sender.executable != nil else {
          // Said once, and only when there is something to send.
          sender.sayMissing()
          return
        }
        guard
          try !record.claim([reminder], model: load.model, now: context.now).isEmpty
        else { continue }
        let when = formatter.relative(due.item.dueDate, now: context.now)
        guard sender.send(title: due.listName, body: "\(due.item.text) — due \(when)") else {
          try record.release([reminder], model: load.model, now: context.now)
          return
        }
      } catch {
        context.output.error("warning: \(error.message)")
        return
      }
    }
    // Keys of items deleted, checked or given another date leave the record (a claim above
    // already did so).
    var pruned = delivered
    pruned.prune(keeping: load.model)
    if pruned != delivered {
      do throws(StoreError) {
        try record.update(model: load.model) { _ in }
      } catch {
        context.output.error("warning: \(error.message)")
      }
    }
  }

  /// A row of `due --json`.
  struct DueRow: Codable {
    var list: String
    var text: String
    var dueDate: Date
    var itemID: Int
    var overdue: Bool

    init(_ due: DueItem, now: Date) {
      list = due.listName
      text = due.item.text
      dueDate = due.item.dueDate
      itemID = due.item.itemID
      overdue = due.item.dueDate < now
    }
  }
}

/// How far a due date is from now, as plain elapsed time to the nearest hour or day, as the
/// list rows round minutes: "now", "25 min ago", "2 h ago", "3 d ago", "in 2 h".
///
/// `due` prints it after the full date, so unlike the list rows' relative form it never repeats
/// the clock time.
enum ElapsedTime {
  static func phrase(_ date: Date, now: Date, formatter: DueDateFormatter) -> String {
    // Within `DateLimits`: a due date from a damaged file can be any finite number.
    let seconds = DateLimits.secondsSince1970(date) - DateLimits.secondsSince1970(now)
    let magnitude = abs(seconds)
    // Under an hour the app's own relative form already reads "25 min ago" or "now".
    if magnitude < 3570 { return formatter.relative(date, now: now) }
    let amount =
      magnitude < 47.5 * 3600
      ? "\(max(Int((magnitude / 3600).rounded()), 1)) h"
      : "\(Int((magnitude / 86_400).rounded())) d"
    return seconds > 0 ? "in \(amount)" : "\(amount) ago"
  }
}

/// Sends desktop notifications with `notify-send` found on `PATH`.
struct DesktopNotifier {
  /// The `notify-send` executable, or nil when there is none on `PATH`.
  let executable: String?
  let output: CLIOutput
  /// How long one `notify-send` may take before it is stopped (no desktop bus can hang it).
  static let timeout: TimeInterval = 10

  init(environment: [String: String], output: CLIOutput) {
    self.output = output
    executable = SpawnedProcess.find("notify-send", path: environment["PATH"])
  }

  /// Says that `notify-send` is missing.
  func sayMissing() {
    output.error("notify-send not found; install libnotify-bin to get desktop notifications")
  }

  /// Sends one notification; false when it could not be sent (the reason is on stderr), so
  /// the caller stops and the next run tries again.
  ///
  /// Without `notify-send` the first call says so; a run with nothing to send says nothing,
  /// so a cron job mails no complaint every few minutes while nothing is due.
  func send(title: String, body: String) -> Bool {
    guard let executable else {
      sayMissing()
      return false
    }
    switch SpawnedProcess.run(
      executable, ["--app-name=checklists", title, body], timeout: Self.timeout)
    {
    case .exited(0):
      break
    case .exited(let status):
      output.error("notify-send failed (exit status \(status))")
      return false
    case .signalled(let signal):
      output.error("notify-send failed (signal \(signal))")
      return false
    case .timedOut:
      output.error("notify-send did not finish within \(Int(Self.timeout)) s; stopped it")
      return false
    case .notStarted(let code):
      output.error("could not run \(executable): \(String(cString: strerror(code)))")
      return false
    }
    return true
  }
}
