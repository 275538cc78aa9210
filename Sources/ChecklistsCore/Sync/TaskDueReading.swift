import FoundationEssentials

/// Where a VTODO's due time comes from and which of its alarms Remind Me stands for.
///
/// The due time is `DUE`; without it, `DTSTART` + `DURATION` (RFC 5545 §3.6.2); without
/// those, the time of the task's one alarm when that alarm is an absolute display alarm (as
/// some producers write a reminder without a due date; it reads as a due time with Remind Me
/// on). An alarm that is no time at all (Apple's location reminders carry a dummy
/// `TRIGGER;VALUE=DATE-TIME:19760401T005545Z` with `X-APPLE-PROXIMITY`) is foreign and never a
/// due time.
struct TaskDueReading {
  /// Where the due time was read from.
  enum Source: Equatable {
    case none
    case due
    case startAndDuration
    case alarm
  }

  /// The due time to the second, nil without one.
  var due: Int64?
  /// `DUE;VALUE=DATE`.
  var dueIsDay = false
  /// Where `due` came from.
  var source = Source.none
  /// `DTSTART`, to the second.
  var start: Int64?
  /// The alarms Remind Me stands for (others are foreign), by their place among the VTODO's
  /// `VALARM`s (0 is the first).
  var ownedAlarms: Set<Int> = []

  /// Reads `todo`.
  init(_ todo: ICSComponent, timeZone: ZoneRules, zones: ICalendarZones) {
    let startValue = todo.property("DTSTART").flatMap {
      ICalendarDate.parse($0, timeZone: timeZone, zones: zones)
    }
    start = startValue.map { TaskFields.seconds($0.date) }
    if let property = todo.property("DUE"),
      let value = ICalendarDate.parse(property, timeZone: timeZone, zones: zones)
    {
      due = TaskFields.seconds(value.date)
      dueIsDay = value.form == .dateOnly
      source = .due
    } else if todo.property("DUE") == nil, let startValue,
      let duration = todo.property("DURATION").flatMap({
        TaskDueReading.duration($0.value)
      })
    {
      let zone = TaskDueReading.zone(of: startValue, timeZone: timeZone, zones: zones)
      due = TaskFields.seconds(
        TaskDueReading.adding(duration, to: startValue.date, zone: zone))
      source = .startAndDuration
    }
    let alarms = todo.entries.indices.filter {
      if case .component(let alarm) = todo.entries[$0] { return alarm.name == "VALARM" }
      return false
    }
    if due == nil, alarms.count == 1, case .component(let alarm) = todo.entries[alarms[0]],
      TaskDueReading.isAbsolute(alarm), !TaskDueReading.isProximity(alarm),
      alarm.property("ACTION")?.value.trimmingSpaces().uppercased() == "DISPLAY",
      let trigger = alarm.property("TRIGGER"),
      let value = ICalendarDate.parse(trigger, timeZone: timeZone, zones: zones)
    {
      due = TaskFields.seconds(value.date)
      source = .alarm
      ownedAlarms = [0]
      return
    }
    guard due != nil else { return }
    for (ordinal, index) in alarms.enumerated() {
      if case .component(let alarm) = todo.entries[index], isOwnedWithDue(alarm) {
        ownedAlarms.insert(ordinal)
      }
    }
  }

  /// The entry indexes in `todo` of the alarms at `ordinals` among its `VALARM`s.
  static func entries(of ordinals: Set<Int>, in todo: ICSComponent) -> [Int] {
    var result: [Int] = []
    var ordinal = 0
    for (index, entry) in todo.entries.enumerated() {
      guard case .component(let alarm) = entry, alarm.name == "VALARM" else { continue }
      if ordinals.contains(ordinal) { result.append(index) }
      ordinal += 1
    }
    return result
  }

  /// Whether an alarm of a task with a due time is the kind Remind Me stands for: at an
  /// absolute time, or at or before the due time itself (a zero or negative offset from `DUE`,
  /// or from a `DTSTART` that is the due time; one before it must be a display alarm: an early
  /// reminder, see `TaskAlarmLead`).
  /// Proximity alarms and every other relative one are foreign.
  private func isOwnedWithDue(_ alarm: ICSComponent) -> Bool {
    guard let trigger = alarm.property("TRIGGER"), !Self.isProximity(alarm) else { return false }
    if Self.isAbsolute(alarm) { return true }
    let value = trigger.value.trimmingSpaces().uppercased()
    let digits = value.filter(\.isNumber)
    guard value.hasPrefix("P") || value.hasPrefix("-P") || value.hasPrefix("+P"),
      !digits.isEmpty,
      digits.allSatisfy({ $0 == "0" })
        || (TaskAlarmLead.isBefore(value)
          && alarm.property("ACTION")?.value.trimmingSpaces().uppercased() == "DISPLAY")
    else { return false }
    if trigger.parameter("RELATED")?.uppercased() == "END" { return true }
    // Relative to the start (the default): at the due time only when the task starts then.
    return start != nil && start == due
  }

  static func isAbsolute(_ alarm: ICSComponent) -> Bool {
    alarm.property("TRIGGER")?.parameter("VALUE")?.uppercased() == "DATE-TIME"
  }

  /// An alarm that fires on arriving or leaving a place (Apple's `X-APPLE-PROXIMITY`, or a
  /// `LOCATION` subcomponent as in the location-based alarm draft).
  static func isProximity(_ alarm: ICSComponent) -> Bool {
    alarm.property("X-APPLE-PROXIMITY") != nil
      || alarm.components.contains { $0.name == "VLOCATION" || $0.name == "X-APPLE-LOCATION" }
  }

  // MARK: - Durations

  /// A DURATION value (RFC 5545 §3.3.6): its nominal days (weeks count seven) and its exact
  /// seconds, both negative for `-P…`; nil when it is not one.
  static func duration(_ text: String) -> (days: Int, seconds: Int)? {
    var value = Substring(text.trimmingSpaces().uppercased())
    var sign = 1
    if value.hasPrefix("-") {
      sign = -1
      value = value.dropFirst()
    } else if value.hasPrefix("+") {
      value = value.dropFirst()
    }
    guard value.hasPrefix("P") else { return nil }
    value = value.dropFirst()
    var days = 0
    var seconds = 0
    var number = ""
    var inTime = false
    var any = false
    for character in value {
      if character.isASCII, character.isNumber {
        number.append(character)
        continue
      }
      if character == "T" {
        guard number.isEmpty, !inTime else { return nil }
        inTime = true
        continue
      }
      guard let amount = Int(number), amount < 1_000_000 else { return nil }
      number = ""
      any = true
      switch (character, inTime) {
      case ("W", false): days += amount * 7
      case ("D", false): days += amount
      case ("H", true): seconds += amount * 3600
      case ("M", true): seconds += amount * 60
      case ("S", true): seconds += amount
      default: return nil
      }
    }
    guard any, number.isEmpty else { return nil }
    return (sign * days, sign * seconds)
  }

  /// `date` plus a duration: the days on the wall clock of `zone`, then the exact seconds.
  static func adding(_ duration: (days: Int, seconds: Int), to date: Date, zone: ZoneRules)
    -> Date
  {
    let moved =
      duration.days == 0
      ? date : zone.date(byAddingDays: duration.days, to: date)
    return moved.addingTimeInterval(TimeInterval(duration.seconds))
  }

  /// The zone whose wall clock a date-time value follows.
  private static func zone(
    of value: ICalendarDate, timeZone: ZoneRules, zones: ICalendarZones
  ) -> ZoneRules {
    switch value.form {
    case .utc: return .utc
    case .zoned(let name): return zones.rules(forTZID: name) ?? timeZone
    case .floating, .dateOnly: return timeZone
    }
  }
}
