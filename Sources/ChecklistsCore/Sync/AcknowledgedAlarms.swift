import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Reminders dismissed on another device: our `VALARM` carries `ACKNOWLEDGED` (RFC 9074, as
/// Apple writes it) at or after the reminder's time (due − lead). Such a reminder counts as
/// delivered here, so the reminder service, `due --notify` and the app do not send it again.
enum AcknowledgedAlarms {
  /// The `ACKNOWLEDGED` time (to the second) of the latest acknowledged alarm among `alarms`
  /// (entry indexes into `todo`), nil when none is.
  static func latest(in todo: ICSComponent, alarms: [Int], timeZone: ZoneRules) -> Int64? {
    var latest: Int64?
    for index in alarms {
      guard case .component(let alarm) = todo.entries[index],
        let property = alarm.property("ACKNOWLEDGED"),
        let value = ICalendarDate.parse(property, timeZone: timeZone, zones: .none)
      else { continue }
      let seconds = TaskFields.seconds(value.date)
      if latest.map({ seconds > $0 }) ?? true { latest = seconds }
    }
    return latest
  }

  /// The record keys (`DeliveredReminders.key`) of the armed reminders of `model` that the
  /// vdir, as `state` last saw it, says were acknowledged since their time came, and for the
  /// due date the item has now.
  static func keys(in state: SyncState, model: DataModel) -> [String] {
    var acknowledged: [Int: (due: Int64?, at: Int64)] = [:]
    for collection in state.collections {
      for entry in collection.items {
        guard let at = entry.fields.acknowledged else { continue }
        acknowledged[entry.item.itemID] = (entry.fields.due, at)
      }
    }
    guard !acknowledged.isEmpty else { return [] }
    var keys: [String] = []
    for list in model.lists {
      for item in list.items where item.hasArmedReminder {
        guard let mark = acknowledged[item.itemID], mark.due == TaskFields.seconds(item.dueDate),
          Double(mark.at) >= DateLimits.secondsSince1970(item.reminderDate).rounded(.down)
        else { continue }
        keys.append(DeliveredReminders.key(item))
      }
    }
    return keys
  }

  /// Records the reminders `state` says were acknowledged elsewhere as delivered in the state
  /// file (merged with what another program wrote there); nothing is written when all are.
  static func record(
    state: SyncState, model: DataModel, store: ChecklistsStore, base: ChecklistsState
  ) {
    let keys = keys(in: state, model: model)
    guard !keys.isEmpty else { return }
    var record = DeliveredReminders(store.currentState() ?? base)
    let before = record
    for key in keys {
      record.insert(key: key)
      record.endSnooze(key: key)
    }
    guard record != before else { return }
    var ours = base
    var delivered = DeliveredReminders(base)
    for key in keys {
      delivered.insert(key: key)
      delivered.endSnooze(key: key)
    }
    delivered.store(in: &ours)
    _ = try? store.saveState(ours, base: base)
  }
}
