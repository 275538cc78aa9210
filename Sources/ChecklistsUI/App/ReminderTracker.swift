import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Rings reminders through `ReminderScheduler` (which decides what fires: once per item and due
/// date, unchecked items with Remind Me on, nothing already due at launch), while keeping the
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

  private var scheduler: ReminderScheduler
  /// Nothing fires before this; nil when no reminder is armed.
  private(set) var nextDue: Date?

  init(model: DataModel, now: Date) {
    scheduler = ReminderScheduler(model: model, now: now)
    nextDue = scheduler.nextWakeUp(after: now)
  }

  /// Fires the reminders due at `now`; O(1) unless `nextDue` has come.
  mutating func advance(model: DataModel, now: Date) -> [Fired] {
    guard let next = nextDue, next <= now else { return [] }
    let due = scheduler.fire(now: now)
    nextDue = scheduler.nextWakeUp(after: now)
    return due.map { reminder in
      Fired(
        listID: reminder.listID, itemID: reminder.key.itemID, text: reminder.text,
        listName: model.list(withID: reminder.listID)?.name ?? "")
    }
  }

  /// Follows a change applied to the model (edits, undo and redo alike).
  mutating func note(_ change: ModelChange, now: Date) {
    scheduler.apply(change)
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
    if let next = nextDue, next <= item.dueDate { return }
    nextDue = item.dueDate
  }
}

extension ChecklistsApp {
  /// Fires due reminders: a status line message and a bell (unless the bell is off).
  mutating func fireReminders(now: Date) -> [Effect] {
    let fired = reminders.advance(model: dataModel, now: now)
    guard let last = fired.last else { return [] }
    lastReminder = (last.listID, last.itemID)
    var text = "\(glyphs.reminder) Reminder: \(quoted(last.text)) (\(last.listName))"
    if fired.count > 1 { text += " and \(fired.count - 1) more" }
    // `r` jumps to it only from the lists, not from a form, the help or a question.
    if form == nil && help == nil && confirmation == nil && !isTypingFilter {
      text += " \(glyphs.dash) r shows it"
    }
    status = StatusMessage(text: text, isError: false)
    return options.bellEnabled ? [.bell] : []
  }
}
