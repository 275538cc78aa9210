import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Rings reminders through `ReminderScheduler` (which decides what fires: once per item, due
/// date and lead time, at the due date less the lead time, unchecked items with Remind Me on, nothing already due at launch), while keeping the
/// cost per key press constant.
///
/// `nextDue` is a lower bound of the next time anything can fire: the scheduler's own queries
/// scan its armed reminders, so they run only when that time has come (a tick, or a change
/// that armed a reminder already due), never on every key.
struct ReminderTracker {
  /// A reminder that fired.
  struct Fired: Equatable {
    var listID: Checklist.ID
    var itemID: Int
    var text: String
    var listName: String
    /// Which reminder (item, due date, lead time): what a snooze puts off.
    var key: ReminderKey
  }

  /// The scheduler, or what to build it from: building it reads every item (6 ms at 100,000
  /// items), so it waits until the first screen is out.
  private enum Scheduler {
    case pending(model: DataModel, since: Date)
    case built(ReminderScheduler)
    /// While the scheduler is being changed (so that it is never copied for that).
    case lent
  }

  private var state: Scheduler
  /// Reminders that fired before this tracker was made (a merge made it again), given to the
  /// scheduler when it is built.
  private var firedBefore: Set<ReminderKey>
  /// Snoozes of the tracker this one replaces, given to the scheduler when it is built.
  private var snoozedBefore: [ReminderKey: Date]
  /// Nothing fires before this; nil when no reminder is armed. Until the scheduler is built,
  /// the moment it was made for, so that the driver's first tick builds it.
  private(set) var nextDue: Date?

  /// Reminders of `model` armed after `now`; the scheduler is built at the first use. What
  /// fired before (`firedKeys` of the tracker this one replaces) does not fire again, even for
  /// an item that comes back (kept by a form after it was deleted elsewhere, an undo).
  init(
    model: DataModel, now: Date, firedBefore: Set<ReminderKey> = [],
    snoozedBefore: [ReminderKey: Date] = [:]
  ) {
    state = .pending(model: model, since: now)
    self.firedBefore = firedBefore
    self.snoozedBefore = snoozedBefore
    nextDue = now
  }

  /// The tracker of `model` after a merge: what fired and what is snoozed here stays so.
  func remade(model: DataModel, now: Date) -> ReminderTracker {
    ReminderTracker(model: model, now: now, firedBefore: firedKeys, snoozedBefore: snoozedKeys)
  }

  /// The snoozed reminders and when each comes again.
  var snoozedKeys: [ReminderKey: Date] {
    switch state {
    case .built(let scheduler): return scheduler.snoozed
    case .pending, .lent: return snoozedBefore
    }
  }

  /// Puts off a reminder that fired: it rings again at `until`.
  mutating func snooze(_ key: ReminderKey, until: Date) {
    withScheduler { $0.snooze(key, until: until) }
    if nextDue.map({ until < $0 }) ?? true { nextDue = until }
  }

  /// The reminders that fired (or were due when the tracker was made).
  var firedKeys: Set<ReminderKey> {
    switch state {
    case .built(let scheduler): return scheduler.firedKeys
    case .pending, .lent: return firedBefore
    }
  }

  /// Runs `body` on the scheduler, built first if it was not.
  private mutating func withScheduler<Result>(_ body: (inout ReminderScheduler) -> Result)
    -> Result
  {
    var scheduler: ReminderScheduler
    switch state {
    case .built(let built):
      scheduler = built
    case .pending(let model, let since):
      scheduler = ReminderScheduler(model: model, now: since)
      scheduler.rememberFired(firedBefore)
      scheduler.rememberSnoozed(snoozedBefore)
      firedBefore = []
      snoozedBefore = [:]
      nextDue = scheduler.nextWakeUp(after: since)
    case .lent:
      preconditionFailure("the reminder scheduler is already being changed")
    }
    state = .lent
    let result = body(&scheduler)
    state = .built(scheduler)
    return result
  }

  /// Fires the reminders due at `now`; O(1) unless `nextDue` has come.
  mutating func advance(model: DataModel, now: Date) -> [Fired] {
    guard let next = nextDue, next <= now else { return [] }
    // Built here at the first use, it fires what came due since it was made for.
    let (due, following) = withScheduler { scheduler in
      (scheduler.fire(now: now), scheduler.nextWakeUp(after: now))
    }
    nextDue = following
    return due.map { reminder in
      Fired(
        listID: reminder.listID, itemID: reminder.key.itemID, text: reminder.text,
        listName: model.list(withID: reminder.listID)?.name ?? "", key: reminder.key)
    }
  }

  /// Follows a change applied to the model (edits, undo and redo alike).
  mutating func note(_ change: ModelChange, now: Date) {
    withScheduler { $0.apply(change) }
    switch change {
    case .insertItem(_, _, let item), .replaceItem(_, _, _, let item):
      consider(item)
    case .insertList(let list):
      for item in list.items { consider(item) }
    case .deleteItem, .deleteList, .editList, .moveItem:
      break
    }
  }

  private mutating func consider(_ item: ChecklistItem) {
    guard item.hasArmedReminder else { return }
    if let next = nextDue, next <= item.reminderDate { return }
    nextDue = item.reminderDate
  }
}

extension ChecklistsApp {
  /// Fires due reminders: a status line message and a bell (unless the bell is off).
  mutating func fireReminders(now: Date) -> [Effect] {
    let fired = session.fireReminders(now: now)
    guard let last = fired.last else { return [] }
    var text = "\(glyphs.reminder) Reminder: \(quoted(last.text)) (\(last.listName))"
    if fired.count > 1 { text += " and \(fired.count - 1) more" }
    // `r` jumps to it and `z` snoozes it only from the lists, not from a form, the help or a
    // question.
    if stack.allowsReminderJump && !isTypingFilter {
      let screen = keyScreen
      let actions = [
        keys.keyName(.lastReminder, on: screen).map { "\($0) shows it" },
        keys.keyName(.snoozeReminder, on: screen).map { "\($0) snoozes it" },
      ].compactMap { $0 }
      if !actions.isEmpty { text += " \(glyphs.dash) " + actions.joined(separator: ", ") }
    }
    status = StatusMessage(text: text, isError: false)
    var effects: [Effect] = options.bellEnabled ? [.bell] : []
    effects.append(
      .remindersFired(
        FiredReminders(
          keys: fired.map { DeliveredReminders.key($0.key) },
          lines: fired.map { FiredReminders.Line(text: $0.text, listName: $0.listName) },
          focusLost: photosHidden)))
    return effects
  }

  /// Puts off the latest reminder (`z` after it rang): it rings again after the snooze, here
  /// and (through the shared record of delivered reminders) from the reminder service.
  mutating func snoozeLastReminder(now: Date) -> [Effect] {
    guard let last = session.lastReminder,
      let item = dataModel.list(withID: last.listID)?.items.first(where: {
        $0.itemID == last.itemID
      }),
      item.hasArmedReminder, ReminderKey(item) == last.key
    else {
      status = StatusMessage(text: "No reminder to snooze", isError: false)
      return []
    }
    let until = now.addingTimeInterval(options.snoozeSeconds)
    session.snoozeLastReminder(until: until)
    status = StatusMessage(
      text: "Snoozed \(quoted(item.text)): it reminds again "
        + formatter.relative(until, now: now),
      isError: false)
    return [.snoozeReminder(key: DeliveredReminders.key(item), until: until)]
  }
}
