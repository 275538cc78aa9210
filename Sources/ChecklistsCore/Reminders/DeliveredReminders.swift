import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The reminders already delivered to the desktop, shared by the reminder service, `due
/// --notify` and the app through the state file (`notified`, as "itemID@dueDateEpoch", "-15m" after it for an early reminder), and the
/// snoozed ones (`snoozed`: the same key, and when it comes again).
///
/// A reminder is one item at one due date and lead time: giving the item a new date or lead
/// time makes a new key, which is
/// delivered again. Keys of items that were deleted, checked, or given another date can never
/// match again and are dropped (`prune`), so the record stays as small as the armed reminders.
public struct DeliveredReminders: Equatable, Sendable {
  /// The delivered keys, oldest first.
  public private(set) var keys: [String]
  /// Snoozed keys and when each comes again (whole seconds since 1970).
  public private(set) var snoozed: [String: Int64]
  /// Keys done or dismissed here and when, for the next sync to mark `ACKNOWLEDGED`.
  public private(set) var acknowledged: [String: Int64]

  /// The record as the state file holds it.
  public init(_ state: ChecklistsState) {
    keys = state.notified
    snoozed = state.snoozed
    acknowledged = state.acknowledged
  }

  /// An empty record.
  public init() {
    keys = []
    snoozed = [:]
    acknowledged = [:]
  }

  /// Records that the reminder `key` was done or dismissed here at `at` (it counts as
  /// delivered, its snooze ends): the next sync marks its alarm `ACKNOWLEDGED`.
  public mutating func acknowledge(key: String, at: Date) {
    insert(key: key)
    endSnooze(key: key)
    acknowledged[key] = Int64(DateLimits.secondsSince1970(at).rounded(.down))
  }

  /// Forgets the acknowledgements a sync pass wrote (or could not write anywhere).
  public mutating func forgetAcknowledged(_ keys: some Sequence<String>) {
    for key in keys { acknowledged[key] = nil }
  }

  /// The key of an item's reminder at its current due date and lead time.
  public static func key(_ item: ChecklistItem) -> String {
    key(itemID: item.itemID, dueDate: item.dueDate, lead: item.reminderLead)
  }

  /// The record's key of a scheduler's reminder key.
  public static func key(_ reminder: ReminderKey) -> String {
    key(itemID: reminder.itemID, dueDate: reminder.dueDate, lead: reminder.lead)
  }

  /// The key of the reminder of item `itemID` due at `dueDate`, `lead` before it:
  /// "itemID@dueDateEpoch", with "-15m" after it for an early reminder (so a key written
  /// before lead times existed still matches a reminder at the due time).
  public static func key(itemID: Int, dueDate: Date, lead: ReminderLead = .none) -> String {
    let base = "\(itemID)@\(DateLimits.wholeSecondsSince1970(dueDate))"
    return lead.isNone ? base : base + "-" + lead.text
  }

  /// Whether the item's reminder at its current due date was delivered.
  public func contains(_ item: ChecklistItem) -> Bool { keys.contains(Self.key(item)) }

  /// Whether the reminder with `key` was delivered.
  public func contains(key: String) -> Bool { keys.contains(key) }

  /// Records the item's reminder as delivered.
  public mutating func insert(_ item: ChecklistItem) { insert(key: Self.key(item)) }

  /// Records `key` as delivered.
  public mutating func insert(key: String) {
    if !keys.contains(key) { keys.append(key) }
  }

  /// Forgets that `key` was delivered (a delivery that failed after it was claimed).
  public mutating func remove(key: String) {
    keys.removeAll { $0 == key }
  }

  /// Snoozes the delivered reminder `key` until `until`: it is delivered again then.
  public mutating func snooze(key: String, until: Date) {
    insert(key: key)
    snoozed[key] = Int64(DateLimits.secondsSince1970(until).rounded(.up))
  }

  /// Ends the snooze of `key` (it came again, or the item was done).
  public mutating func endSnooze(key: String) { snoozed[key] = nil }

  /// When the snoozed reminder `key` comes again, nil when it is not snoozed.
  public func snoozedUntil(key: String) -> Date? {
    snoozed[key].map { Date(timeIntervalSince1970: Double($0)) }
  }

  /// Drops the keys (and snoozes) of reminders that can no longer fire in `model`: items gone,
  /// checked, not reminding, or with another due date.
  public mutating func prune(keeping model: DataModel) {
    var live: Set<String> = []
    for list in model.lists {
      for item in list.items where item.hasArmedReminder { live.insert(Self.key(item)) }
    }
    keys.removeAll { !live.contains($0) }
    snoozed = snoozed.filter { live.contains($0.key) }
    // A reminder done here (its item checked) is still to be acknowledged at the next sync.
    guard !acknowledged.isEmpty else { return }
    var known: Set<String> = []
    for list in model.lists {
      for item in list.items where item.shouldRemind { known.insert(Self.key(item)) }
    }
    acknowledged = acknowledged.filter { known.contains($0.key) }
  }

  /// Writes the record into `state` (its other fields are left as they are).
  public func store(in state: inout ChecklistsState) {
    state.notified = keys
    state.snoozed = snoozed
    state.acknowledged = acknowledged
  }
}
