import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// One reminder: an item at one due date and lead time. Editing the date or the lead time
/// makes a new key, which re-arms it.
public struct ReminderKey: Hashable, Sendable {
  /// The item's `itemID`.
  public var itemID: Int
  /// The due date the reminder is for.
  public var dueDate: Date
  /// How long before the due date it comes.
  public var lead: ReminderLead

  /// Creates a key.
  public init(itemID: Int, dueDate: Date, lead: ReminderLead = .none) {
    self.itemID = itemID
    self.dueDate = dueDate
    self.lead = lead
  }

  /// The key of an item's reminder at its current due date and lead time.
  public init(_ item: ChecklistItem) {
    self.init(itemID: item.itemID, dueDate: item.dueDate, lead: item.reminderLead)
  }

  /// When the reminder comes: the due date less the lead time.
  public var fireDate: Date { lead.reminderDate(dueDate: dueDate) }
}

/// A reminder that is due: what a bell or notification shows.
public struct Reminder: Equatable, Sendable {
  /// Which item and due date.
  public var key: ReminderKey
  /// The run-time id of the item's list (look its name up with `DataModel.list(withID:)`).
  public var listID: Checklist.ID
  /// The item's text.
  public var text: String

  /// Creates a reminder.
  public init(key: ReminderKey, listID: Checklist.ID, text: String) {
    self.key = key
    self.listID = listID
    self.text = text
  }
}

extension ChecklistItem {
  /// Whether the item has a reminder that can still fire: unchecked with "remind me" on.
  public var hasArmedReminder: Bool { shouldRemind && !checked }
}
