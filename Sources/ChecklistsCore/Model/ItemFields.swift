import FoundationEssentials

/// The fields of an item a person edits, as one value: the item form copies an item's fields
/// in with `init(_:)` and writes back only what it changed with `applied(to:since:)`, so a
/// change made elsewhere meanwhile to another field stays; the CLI's JSON reads them too.
///
/// A new editable field is a property here, a line in `init(_:)` and one in
/// `applied(to:since:)` (see docs/architecture.md, "Adding an item field").
public struct ItemFields: Equatable, Sendable {
  /// The item's text.
  public var text: String
  /// The note ("" for none).
  public var note: String
  /// The stored due date (an item without one keeps a date: the file needs one).
  public var dueDate: Date
  /// Whether the due date was given.
  public var hasDueDate: Bool
  /// Remind Me.
  public var remind: Bool
  /// How long before the due date Remind Me reminds.
  public var reminderLead: ReminderLead
  /// How it repeats; nil for never.
  public var repeatRule: RepeatRule?
  /// The photo's name in the Photos folder; nil for none.
  public var photo: PhotoName?
  /// The priority's level. Written back only when changed, so a stored priority of another
  /// number (a phone's `3`) stays as it is until the level is changed.
  public var priority: PriorityLevel
  /// The tags, in order (see `ChecklistItem.tags`).
  public var tags: [String]

  /// The fields of `item`.
  public init(_ item: ChecklistItem) {
    text = item.text
    note = item.note
    dueDate = item.dueDate
    hasDueDate = item.hasDueDate
    remind = item.shouldRemind
    reminderLead = item.reminderLead
    repeatRule = item.repeatRule
    photo = item.photo
    priority = item.priorityLevel
    tags = item.tags
  }

  /// The due date as shown: given, or Remind Me on; nil for none.
  public var shownDueDate: Date? { hasDueDate || remind ? dueDate : nil }

  /// `item` with what these fields say differently from `old` (the fields as they were when
  /// the editing started); fields left as they were keep the item's value, which may have
  /// changed elsewhere meanwhile. The due date, its showing and Remind Me go together; a due
  /// date changed by hand starts a repeating series afresh from it.
  public func applied(to item: ChecklistItem, since old: ItemFields) -> ChecklistItem {
    var item = item
    if text != old.text { item.text = text }
    if shownDueDate != old.shownDueDate || remind != old.remind {
      item.shouldRemind = remind
      if item.dueDate != dueDate { item.setDueDateByHand(dueDate) }
      item.hasDueDate = hasDueDate
    }
    if note != old.note { item.note = note }
    if repeatRule != old.repeatRule { item.repeatRule = repeatRule }
    if reminderLead != old.reminderLead { item.reminderLead = reminderLead }
    if photo != old.photo { item.photo = photo }
    if priority != old.priority { item.priorityLevel = priority }
    if tags != old.tags { item.tags = tags }
    return item
  }
}
