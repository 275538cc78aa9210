import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// One reminder: an item at one due date. Editing the date makes a new key, which re-arms it.
public struct ReminderKey: Hashable, Sendable {
  /// The item's `itemID`.
  public var itemID: Int
  /// The due date the reminder is for.
  public var dueDate: Date

  /// Creates a key.
  public init(itemID: Int, dueDate: Date) {
    self.itemID = itemID
    self.dueDate = dueDate
  }

  /// The key of an item's reminder at its current due date.
  public init(_ item: ChecklistItem) {
    self.init(itemID: item.itemID, dueDate: item.dueDate)
  }
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
