import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// A reminder to deliver to the desktop: which item, in which list, and its key in the record.
public struct DesktopReminder: Equatable, Sendable {
  /// The key in `DeliveredReminders`.
  public var key: String
  /// The item's `itemID`.
  public var itemID: Int
  /// The item's due date.
  public var dueDate: Date
  /// When the reminder comes: the due date less the item's lead time.
  public var reminderDate: Date
  /// The item's text.
  public var text: String
  /// The name of the item's list.
  public var listName: String
  /// Whether it comes again after a snooze.
  public var snoozed: Bool

  /// Creates a reminder.
  public init(
    key: String, itemID: Int, dueDate: Date, reminderDate: Date? = nil, text: String,
    listName: String, snoozed: Bool
  ) {
    self.key = key
    self.itemID = itemID
    self.dueDate = dueDate
    self.reminderDate = reminderDate ?? dueDate
    self.text = text
    self.listName = listName
    self.snoozed = snoozed
  }
}

/// What the reminder service has to do at a moment: the reminders due and not yet delivered
/// (however long ago they came due: nothing is missed while nothing ran), the snoozed ones whose
/// time came, and when the next one comes. Pure: the model, the record and the clock passed in.
public struct ReminderAgenda: Equatable, Sendable {
  /// What to deliver now, oldest first (ties in list and item order).
  public var due: [DesktopReminder]
  /// When the next reminder (or snooze) comes, nil when none is ahead.
  public var next: Date?

  /// The agenda of `model` at `now`, given what `record` says was delivered. Scans every item
  /// once.
  public init(model: DataModel, record: DeliveredReminders, now: Date) {
    var due: [(DesktopReminder, Int, Int)] = []
    var next: Date?
    let nowSeconds = DateLimits.secondsSince1970(now)
    for (listIndex, list) in model.lists.enumerated() {
      for (itemIndex, item) in list.items.enumerated() where item.hasArmedReminder {
        let key = DeliveredReminders.key(item)
        var when: Date?
        var snoozed = false
        if let until = record.snoozedUntil(key: key) {
          when = until
          snoozed = true
        } else if !record.contains(key: key) {
          when = item.reminderDate
        }
        guard let when else { continue }
        if DateLimits.secondsSince1970(when) <= nowSeconds {
          let reminder = DesktopReminder(
            key: key, itemID: item.itemID, dueDate: item.dueDate, reminderDate: item.reminderDate,
            text: item.text,
            listName: list.name, snoozed: snoozed)
          due.append((reminder, listIndex, itemIndex))
        } else if next.map({ when < $0 }) ?? true {
          next = when
        }
      }
    }
    self.due = due.sorted {
      ($0.0.reminderDate, $0.1, $0.2) < ($1.0.reminderDate, $1.1, $1.2)
    }.map(\.0)
    self.next = next
  }
}
