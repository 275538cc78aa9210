import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The shared record of delivered reminders in the state file, changed only under the data
/// file's lock (`DataFileLock`, held for milliseconds) and onto the state file as it is then: so
/// the reminder service, `due --notify` and a second service on the same file never deliver a
/// reminder twice, and what the app or another command wrote to the state meanwhile stays.
public struct ReminderRecord {
  let store: ChecklistsStore
  /// The state as loaded, used when the state file is missing or damaged.
  let loaded: ChecklistsState

  /// The record of `store`'s data file; `loaded` stands in for a missing or damaged state file.
  public init(store: ChecklistsStore, loaded: ChecklistsState) {
    self.store = store
    self.loaded = loaded
  }

  /// Runs `change` on the record as the state file holds it now, under the lock, and saves the
  /// result when it changed; returns what `change` returned.
  public func update<T>(
    model: DataModel, _ change: (inout DeliveredReminders) -> T
  ) throws(StoreError) -> T {
    let lock = try DataFileLock.acquire(
      dataFile: store.resolvedPath, shownPath: store.location.displayPath, wait: 5)
    defer { lock.release() }
    var state = store.currentState() ?? loaded
    let before = DeliveredReminders(state)
    var record = before
    let result = change(&record)
    record.prune(keeping: model)
    guard record != before else { return result }
    record.store(in: &state)
    try store.saveState(state)
    return result
  }

  /// Claims the reminders not delivered yet (and the snoozed ones whose time came): they are
  /// recorded as delivered before they are sent, so no other process sends them too. Returns
  /// the ones this process is to send; `release` gives back the ones it could not.
  public func claim(_ reminders: [DesktopReminder], model: DataModel, now: Date) throws(StoreError)
    -> [DesktopReminder]
  {
    try update(model: model) { record in
      let claimed = reminders.filter { reminder in
        if reminder.snoozed {
          return record.snoozedUntil(key: reminder.key).map { $0 <= now } ?? false
        }
        return !record.contains(key: reminder.key)
      }
      for reminder in claimed {
        record.insert(key: reminder.key)
        record.endSnooze(key: reminder.key)
      }
      return claimed
    }
  }

  /// Claims the reminders of `keys` not delivered yet, as `claim` does; returns those claimed.
  public func claim(keys: [String], model: DataModel) throws(StoreError) -> [String] {
    try update(model: model) { record in
      let claimed = keys.filter { !record.contains(key: $0) }
      for key in claimed { record.insert(key: key) }
      return claimed
    }
  }

  /// Gives back claimed reminders that could not be sent: the next try (here or elsewhere)
  /// sends them. A snoozed one comes again at once.
  public func release(_ reminders: [DesktopReminder], model: DataModel, now: Date)
    throws(StoreError)
  {
    try update(model: model) { record in
      for reminder in reminders {
        if reminder.snoozed {
          record.snooze(key: reminder.key, until: now)
        } else {
          record.remove(key: reminder.key)
        }
      }
    }
  }
}
