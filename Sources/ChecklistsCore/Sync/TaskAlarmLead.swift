import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The early reminder in a VTODO: how long before `DUE` our `VALARM` triggers.
///
/// We write an absolute `TRIGGER;VALUE=DATE-TIME` at due − lead (as iOS writes it), moved
/// with the due date and each repeat. A phone's alarm with a relative trigger before the due
/// time (`-PT15M`, `RELATED=END`, or relative to a start that is the due time) or an absolute
/// one before `DUE` reads as that lead time; one relative to the due time is rewritten as a
/// relative one when the lead time changes here, keeping its parameters.
enum TaskAlarmLead {
  /// The lead time, in whole minutes, of the first of our alarms in `todo`; 0 at (or after)
  /// the due time, without a due time or without an alarm of ours.
  static func lead(
    of todo: ICSComponent, reading: TaskDueReading, timeZone: ZoneRules, zones: ICalendarZones
  ) -> Int {
    guard let due = reading.due, reading.source != .alarm,
      let index = TaskDueReading.entries(of: reading.ownedAlarms, in: todo).first,
      case .component(let alarm) = todo.entries[index], let trigger = alarm.property("TRIGGER")
    else { return 0 }
    var seconds: Int64
    if TaskDueReading.isAbsolute(alarm) {
      guard let value = ICalendarDate.parse(trigger, timeZone: timeZone, zones: zones) else {
        return 0
      }
      seconds = due - TaskFields.seconds(value.date)
    } else {
      guard let offset = TaskDueReading.duration(trigger.value) else { return 0 }
      seconds = -(Int64(offset.days) * 86_400 + Int64(offset.seconds))
    }
    guard seconds > 0 else { return 0 }
    // To the nearest minute (a phone's lead time is whole minutes), at most 365 days.
    return Int(min((seconds + 30) / 60, Int64(ReminderLead.maximumMinutes)))
  }

  /// Whether a relative `TRIGGER` value is an offset before the time it is relative to.
  static func isBefore(_ value: String) -> Bool {
    guard let offset = TaskDueReading.duration(value) else { return false }
    return offset.days < 0 || offset.seconds < 0
  }

  /// The `TRIGGER` of our alarm `alarm` for an item due at `due` (seconds) that reminds `lead`
  /// minutes before: absolute at due − lead (a new alarm, or an absolute one), else the
  /// relative offset with the trigger's own parameters.
  static func trigger(for alarm: ICSComponent?, due: Int64, lead: Int) -> ICSProperty {
    if let alarm, !TaskDueReading.isAbsolute(alarm), let old = alarm.property("TRIGGER") {
      return ICSProperty(name: "TRIGGER", parameters: old.parameters, value: duration(lead))
    }
    let date = Date(timeIntervalSince1970: TimeInterval(due - Int64(lead) * 60))
    return ICSProperty(
      name: "TRIGGER", parameters: [("VALUE", "DATE-TIME")], value: ICalendarDate.utcString(date))
  }

  /// `-PT15M`, `-PT2H`, `-P1D`, `PT0S` for a lead time in minutes.
  static func duration(_ lead: Int) -> String {
    if lead <= 0 { return "PT0S" }
    if lead % 1440 == 0 { return "-P\(lead / 1440)D" }
    if lead % 60 == 0 { return "-PT\(lead / 60)H" }
    return "-PT\(lead)M"
  }
}
