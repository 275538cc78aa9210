import ChecklistsCore
import ChecklistsDesktop
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The reminder service (`checklists reminders`): sleeps until the next reminder of the data
/// file, delivers it as a desktop notification with Done and Snooze, and acts on those.
///
/// It never polls. It waits in `poll` on a wall-clock timer armed for the next reminder (a
/// timerfd on the real-time clock: a time passed during a suspend fires at wake-up), on inotify
/// watches of the data file and the state file (a change made anywhere is read at once), and on
/// its one bus connection (the server sends Done and Snooze to the connection that showed the
/// notification). What came due while it was not running is delivered at start, once; more than
/// `summaryThreshold` at once become one notification.
final class ReminderService {
  /// More reminders at once than this become one summary notification.
  static let summaryThreshold = 5
  /// How long Snooze puts a reminder off.
  static let snoozeSeconds: TimeInterval = 600
  /// How long to wait before trying an unreachable session bus again (a bus that is there but
  /// has no notification server tells us when one starts).
  static let busRetrySeconds: TimeInterval = 30
  /// The notification's application name.
  static let appName = "checklists"

  private let context: CommandContext
  private let snoozeSeconds: TimeInterval
  private let timer: WallClockTimer
  /// The watches of the data file and the state file (a missing folder has none yet).
  private var watchers: [FileWatcher] = []
  private var watchedPaths: [String] = []
  private var bus: NotificationBus?
  /// The notifications on screen that have actions, by the server's id.
  private var shown: [UInt32: DesktopReminder] = [:]
  /// The last problem said about the bus, so each is said once.
  private var lastProblem: String?
  /// The last load warnings printed, so a lasting one is not repeated at every wake.
  private var lastWarnings: [String] = []
  /// When to try the bus again, while reminders wait for it.
  private var retryAt: Date?
  /// The next reminder's time last said in the log, so that each is said once.
  private var lastNext: Date??

  init(context: CommandContext, timer: WallClockTimer) {
    self.context = context
    self.timer = timer
    // For tests: a short snooze (undocumented, like CHECKLISTS_NOW).
    snoozeSeconds =
      context.environment["CHECKLISTS_SNOOZE_SECONDS"].flatMap { Double($0) }.flatMap {
        $0 > 0 ? $0 : nil
      } ?? Self.snoozeSeconds
  }

  /// Runs until the process is stopped (a signal ends it: every write is atomic).
  func run() -> Int32 {
    let output = context.output
    output.line("checklists reminders: delivering the reminders of \(context.location.displayPath)")
    connectBus()
    while true {
      let now = Date()
      var next: Date?
      if !openWatchers() {
        // A folder that does not exist yet (no file saved so far) cannot be watched: look again.
        next = now.addingTimeInterval(Self.busRetrySeconds)
      }
      if let (store, load) = read() {
        let due = deliverDue(store: store, load: load, now: now)
        if let due { next = min(next ?? due, due) }
        announce(next: due)
      }
      if let retryAt { next = min(next ?? retryAt, retryAt) }
      timer.arm(at: next.map { DateLimits.secondsSince1970($0) })
      wait()
    }
  }

  // MARK: Reading the file

  /// The file and its state now; nil (said once) when it cannot be read.
  private func read() -> (ChecklistsStore, LoadResult)? {
    do throws(StoreError) {
      let (store, load) = try ChecklistsStore.open(
        location: context.location, timeZone: context.timeZone)
      let warnings = load.warnings.filter { $0 != load.saveWarning }
      if warnings != lastWarnings {
        for warning in warnings { context.output.error("warning: \(warning)") }
        lastWarnings = warnings
      }
      return (store, load)
    } catch {
      let message = error.message
      if [message] != lastWarnings { context.output.error(message) }
      lastWarnings = [message]
      return nil
    }
  }

  /// Watches the data file and the state file where not done yet; false while one cannot be.
  private func openWatchers() -> Bool {
    var complete = true
    for path in [context.location.dataFile, context.location.stateFile]
    where !watchedPaths.contains(path) {
      if let watcher = FileWatcher.open(path: path) {
        watchers.append(watcher)
        watchedPaths.append(path)
      } else {
        complete = false
      }
    }
    return complete
  }

  // MARK: Delivering

  /// Delivers what is due at `now`; returns when the next reminder comes.
  private func deliverDue(store: ChecklistsStore, load: LoadResult, now: Date) -> Date? {
    let record = ReminderRecord(store: store, loaded: load.state)
    let agenda = ReminderAgenda(
      model: load.model, record: DeliveredReminders(store.currentState() ?? load.state), now: now)
    guard !agenda.due.isEmpty else { return agenda.next }
    // After a failure, nothing is tried again before its time (or a server starting): the
    // claim and give-back write the state file, whose watch would wake the loop at once.
    if let retryAt, now < retryAt { return agenda.next }
    guard let bus = connectBus() else {
      retryAt = now.addingTimeInterval(Self.busRetrySeconds)
      return agenda.next
    }
    let claimed: [DesktopReminder]
    do throws(StoreError) {
      claimed = try record.claim(agenda.due, model: load.model, now: now)
    } catch {
      context.output.error(error.message)
      retryAt = now.addingTimeInterval(Self.busRetrySeconds)
      return agenda.next
    }
    retryAt = nil
    let unsent = send(claimed, on: bus)
    if !unsent.isEmpty {
      try? record.release(unsent, model: load.model, now: now)
      retryAt = now.addingTimeInterval(Self.busRetrySeconds)
    }
    return agenda.next
  }

  /// Says in the log when the next reminder comes, when that changed (a user reading the
  /// journal sees that a new or moved reminder was noticed).
  private func announce(next: Date?) {
    guard lastNext != .some(next) else { return }
    lastNext = .some(next)
    context.output.line(
      next.map { "next reminder: " + context.dueDateFormatter.full($0) } ?? "no reminder ahead")
  }

  /// Sends the reminders, one summary for many; returns the ones that could not be sent.
  private func send(_ reminders: [DesktopReminder], on bus: NotificationBus) -> [DesktopReminder] {
    guard !reminders.isEmpty else { return [] }
    do throws(NotificationBusError) {
      if reminders.count > Self.summaryThreshold {
        let body = NotificationText.summaryBody(reminders)
        _ = try bus.notify(
          appName: Self.appName,
          summary: "\(reminders.count) reminders while you were away", body: body,
          actions: [], expireTimeout: 0)
        recovered()
        context.output.line("delivered \(reminders.count) reminders as one notification")
        for reminder in reminders {
          context.output.line(
            "delivered \(context.output.shown(reminder.listName)): "
              + "\(context.output.shown(reminder.text)) (in the summary)")
        }
      } else {
        for (index, reminder) in reminders.enumerated() {
          let id: UInt32
          do throws(NotificationBusError) {
            id = try bus.notify(
              appName: Self.appName, summary: "Reminder",
              body: NotificationText.body(reminder),
              actions: [(key: "done", label: "Done"), (key: "snooze", label: "Snooze")],
              expireTimeout: 0)
          } catch {
            problem(error.message + "; reminders wait until one starts")
            return Array(reminders[index...])
          }
          recovered()
          shown[id] = reminder
          context.output.line(
            "delivered \(context.output.shown(reminder.listName)): "
              + "\(context.output.shown(reminder.text)) (notification \(id))")
        }
      }
      return []
    } catch {
      problem(error.message + "; reminders wait until one starts")
      return reminders
    }
  }

  /// Says that delivering works again after a problem was said.
  private func recovered() {
    guard lastProblem != nil else { return }
    context.output.error("notifications are delivered again")
    lastProblem = nil
  }

  /// The bus connection, made when there is none; a failure is said once.
  @discardableResult private func connectBus() -> NotificationBus? {
    if let bus { return bus }
    guard let address = NotificationBus.sessionAddress(environment: context.environment) else {
      problem(
        "no session bus (DBUS_SESSION_BUS_ADDRESS is not set and $XDG_RUNTIME_DIR/bus does not "
          + "exist); reminders wait until one is reachable")
      return nil
    }
    do throws(NotificationBusError) {
      let connected = try NotificationBus.connect(address: address)
      bus = connected
      return connected
    } catch {
      problem(error.message + "; reminders wait until it is reachable")
      return nil
    }
  }

  private func problem(_ message: String) {
    guard message != lastProblem else { return }
    lastProblem = message
    context.output.error(message)
  }

  // MARK: Waiting and acting

  /// Waits for the timer, a file change or a bus signal, and handles what came.
  private func wait() {
    var fds = [pollfd(fd: timer.descriptor, events: Int16(POLLIN), revents: 0)]
    fds += watchers.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
    if let bus { fds.append(pollfd(fd: bus.descriptor, events: Int16(POLLIN), revents: 0)) }
    // Signals the bus connection already holds (read during a call) are handled first.
    if !handleBusEvents() {
      let ready = poll(&fds, nfds_t(fds.count), -1)
      guard ready > 0 else { return }
    }
    if fds[0].revents != 0 { timer.drain() }
    for (index, watcher) in watchers.enumerated() where fds[index + 1].revents != 0 {
      _ = watcher.drain()
    }
    handleBusEvents()
  }

  /// Acts on every signal received; true when there was one.
  @discardableResult private func handleBusEvents() -> Bool {
    var handled = false
    while let bus, let event = bus.nextEvent() {
      handled = true
      switch event {
      case .action(let id, let key):
        guard let reminder = shown.removeValue(forKey: id) else { continue }
        if key == "done" { done(reminder) } else if key == "snooze" { snooze(reminder) }
      case .closed(let id, let dismissed):
        // Dismissed here: dismissed on the phone too, at the next sync.
        if let reminder = shown.removeValue(forKey: id), dismissed { acknowledge(reminder) }
      case .disconnected:
        self.bus = nil
        shown = [:]
        problem("the session bus went away; reminders wait until it is reachable")
        retryAt = Date().addingTimeInterval(Self.busRetrySeconds)
      case .serverStarted:
        // Deliver what waited, now: the loop reads the agenda again.
        retryAt = nil
      }
    }
    return handled
  }

  /// Done: checks the item through the merging save (a repeating item moves on).
  private func done(_ reminder: DesktopReminder) {
    let output = context.output
    do throws(CLIError) {
      let (store, load) = try storeCall {
        try ChecklistsStore.open(location: context.location, timeZone: context.timeZone)
      }
      var model = load.model
      guard let (list, index) = Self.find(reminder, in: model) else {
        output.line(
          "Done: \"\(output.shown(reminder.text))\" was changed or removed since; left as it is")
        return
      }
      let check = model.checkItem(
        listID: list.id, at: index, schedule: RepeatSchedule(timeZone: context.timeZone))
      if let check { model.apply(check.change) }
      let status = try context.save(model, store: store, state: load.state)
      guard status == 0 else { return }
      acknowledge(reminder)
      let text = output.shown(reminder.text)
      let listName = output.shown(list.name)
      if let next = check?.nextDueDate {
        output.line(
          PlannerCommands.doneText(
            item: text, list: listName, next: next, formatter: context.dueDateFormatter))
      } else {
        output.line("Checked \"\(text)\" in \(listName).")
      }
    } catch {
      output.error("Done: " + error.message)
    }
  }

  /// Records a reminder done or dismissed here: the next sync marks its alarm `ACKNOWLEDGED`.
  private func acknowledge(_ reminder: DesktopReminder) {
    guard let (store, load) = read() else { return }
    do throws(StoreError) {
      try ReminderRecord(store: store, loaded: load.state).update(model: load.model) {
        $0.acknowledge(key: reminder.key, at: Date())
      }
    } catch {
      context.output.error(error.message)
    }
  }

  /// Snooze: the reminder comes again after `snoozeSeconds`.
  private func snooze(_ reminder: DesktopReminder) {
    let output = context.output
    guard let (store, load) = read() else { return }
    guard Self.find(reminder, in: load.model) != nil else { return }
    let until = Date().addingTimeInterval(snoozeSeconds)
    do throws(StoreError) {
      try ReminderRecord(store: store, loaded: load.state).update(model: load.model) {
        $0.snooze(key: reminder.key, until: until)
      }
      output.line(
        "Snoozed \"\(output.shown(reminder.text))\" until "
          + context.dueDateFormatter.full(until))
    } catch {
      output.error("Snooze: " + error.message)
    }
  }

  /// The list and index of the reminder's item, if it is still the same reminder.
  private static func find(_ reminder: DesktopReminder, in model: DataModel) -> (
    Checklist, Int
  )? {
    for list in model.lists {
      if let index = list.items.firstIndex(where: {
        $0.hasArmedReminder && DeliveredReminders.key($0) == reminder.key
      }) {
        return (list, index)
      }
    }
    return nil
  }
}

/// The text of the reminder notifications. The body may hold markup (servers that show it read
/// `&`, `<` and `>` as markup), so those are written as entities; control characters from the
/// file become spaces.
enum NotificationText {
  /// "Pay rent\nHome": the item and its list.
  static func body(_ reminder: DesktopReminder) -> String {
    escaped(reminder.text) + "\n" + escaped(reminder.listName)
  }

  /// One line a reminder, "Home: Pay rent", at most 20 (then "and 7 more").
  static func summaryBody(_ reminders: [DesktopReminder]) -> String {
    let limit = 20
    var lines = reminders.prefix(limit).map { escaped($0.listName) + ": " + escaped($0.text) }
    if reminders.count > limit { lines.append("and \(reminders.count - limit) more") }
    return lines.joined(separator: "\n")
  }

  static func escaped(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      default:
        if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
          result += " "
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result
  }
}
