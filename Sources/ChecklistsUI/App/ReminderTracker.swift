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
  /// Nothing fires before this; nil when no reminder is armed. Until the scheduler is built,
  /// the moment it was made for, so that the driver's first tick builds it.
  private(set) var nextDue: Date?

  /// Reminders of `model` armed after `now`; the scheduler is built at the first use. What
  /// fired before (`firedKeys` of the tracker this one replaces) does not fire again, even for
  /// an item that comes back (kept by a form after it was deleted elsewhere, an undo).
  init(model: DataModel, now: Date, firedBefore: Set<ReminderKey> = []) {
    state = .pending(model: model, since: now)
    self.firedBefore = firedBefore
    nextDue = now
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
      firedBefore = []
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
        listName: model.list(withID: reminder.listID)?.name ?? "")
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
    // `r` jumps to it only from the lists, not from a form, the help or a question.
    if stack.allowsReminderJump && form == nil && !isTypingFilter {
      text += " \(glyphs.dash) r shows it"
    }
    status = StatusMessage(text: text, isError: false)
    return options.bellEnabled ? [.bell] : []
  }
}
