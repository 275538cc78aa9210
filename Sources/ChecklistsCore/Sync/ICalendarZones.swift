import FoundationEssentials
import Synchronization

/// The zones the `TZID`s of one calendar file name.
///
/// A `TZID` is resolved as RFC 5545 (§3.2.19) says, then as other producers need: through the
/// file's own `VTIMEZONE` of that `TZID` (its offsets and rules), then as a name of the time zone
/// database, then as a vendor's prefixed database name (`/mozilla.org/20050126_1/Europe/Berlin`,
/// `/softwarestudio.org/Olson_20011030_5/Africa/Douala`), then as a Windows zone name that
/// Outlook and Exchange write ("W. Europe Standard Time", mapped as CLDR's `windowsZones` does).
public struct ICalendarZones: Sendable {
  /// No `VTIMEZONE`s: names resolve through the database and the Windows names only.
  public static let none = ICalendarZones(definitions: [:])

  /// The zones the file defines, by `TZID`.
  private let definitions: [String: ZoneRules]

  private init(definitions: [String: ZoneRules]) {
    self.definitions = definitions
  }

  /// The zones `calendar`'s `VTIMEZONE` components define (the first of a `TZID` counts).
  public init(calendar: ICSComponent) {
    var found: [String: ZoneRules] = [:]
    for component in calendar.components where component.name == "VTIMEZONE" {
      guard let tzid = component.property("TZID")?.value.trimmingSpaces(), !tzid.isEmpty,
        found[tzid] == nil, let rules = VTimeZoneRules.cachedRules(of: component, tzid: tzid)
      else { continue }
      found[tzid] = rules
    }
    definitions = found
  }

  /// Whether the file defines a zone named `tzid`.
  public func defines(_ tzid: String) -> Bool { definitions[tzid] != nil }

  /// The rules `tzid` names; nil when neither the file, the database nor the Windows names know
  /// it (the time is then read as floating).
  public func rules(forTZID tzid: String) -> ZoneRules? {
    if let defined = definitions[tzid] ?? definitions[tzid.trimmingSpaces()] { return defined }
    return Self.known(tzid)
  }

  /// The zone of the database a `TZID` names without a `VTIMEZONE`: a database name, a vendor's
  /// name that ends in one, or a Windows zone name.
  public static func known(_ tzid: String) -> ZoneRules? {
    let name = tzid.trimmingSpaces()
    guard !name.isEmpty else { return nil }
    if let zone = try? ZoneRules.named(name) { return zone }
    if name.hasPrefix("/") {
      // `/vendor/version/Area/City`: the longest tail that is a database name.
      var parts = name.split(separator: "/")
      while parts.count > 1 {
        parts.removeFirst()
        if let zone = try? ZoneRules.named(parts.joined(separator: "/")) { return zone }
      }
    }
    if let mapped = WindowsZoneNames.databaseName(for: name),
      let zone = try? ZoneRules.named(mapped)
    {
      return zone
    }
    return nil
  }
}

/// A `VTIMEZONE` component's rules (RFC 5545 §3.6.5): each `STANDARD` and `DAYLIGHT`
/// observance starts at its `DTSTART`, at each `RRULE` occurrence and at each `RDATE`, on the wall
/// clock of its `TZOFFSETFROM`, and brings its `TZOFFSETTO`.
///
/// Two open-ended yearly rules of the form "the n-th (or last) weekday of a month" (as every
/// producer writes them) make a POSIX rule for the years after the last start; other yearly
/// rules are listed one by one up to `lastExpandedYear`.
enum VTimeZoneRules {
  /// The last year whose transitions are listed one by one.
  static let lastExpandedYear = 2100

  /// One observance: when it starts and the offsets either side.
  private struct Observance {
    var isDaylight: Bool
    var offsetFrom: Int
    var offsetTo: Int
    /// `DTSTART` as wall seconds since 1970 (on the `TZOFFSETFROM` clock).
    var startWall: Int64
    var rule: [String: String]?
    var dates: [Int64]
  }

  /// The rules of `timezone`, read once for the process: the files of one producer carry the
  /// same `VTIMEZONE` again and again.
  static func cachedRules(of timezone: ICSComponent, tzid: String) -> ZoneRules? {
    let key = ICalendar.serialize([timezone])
    if let known = ReadTimeZones.cache.withLock({ $0[key] }) { return known }
    let rules = rules(of: timezone, tzid: tzid)
    ReadTimeZones.cache.withLock {
      if $0.count >= ReadTimeZones.limit { $0.removeAll() }
      $0[key] = rules
    }
    return rules
  }

  /// The rules of `timezone`, named `tzid`; nil when it has no readable observance.
  static func rules(of timezone: ICSComponent, tzid: String) -> ZoneRules? {
    var observances: [Observance] = []
    for component in timezone.components
    where component.name == "STANDARD" || component.name == "DAYLIGHT" {
      guard let to = component.property("TZOFFSETTO").flatMap({ offset($0.value) }),
        let start = component.property("DTSTART").flatMap({ wallSeconds($0.value) })
      else { continue }
      let from = component.property("TZOFFSETFROM").flatMap { offset($0.value) } ?? to
      var dates: [Int64] = []
      for property in component.properties where property.name == "RDATE" {
        for value in property.value.split(separator: ",") where !value.contains("/") {
          if let wall = wallSeconds(String(value)) { dates.append(wall) }
        }
      }
      let rule = component.property("RRULE").map { ruleParts($0.value) }
      observances.append(
        Observance(
          isDaylight: component.name == "DAYLIGHT", offsetFrom: from, offsetTo: to,
          startWall: start, rule: rule, dates: dates))
    }
    guard !observances.isEmpty else { return nil }
    let rule = footer(observances)
    // With a rule for the years after, the yearly rules are listed only up to the year after
    // the last start, end or listed date of any observance.
    var lastYear = lastExpandedYear
    if rule != nil {
      var latest = observances.map { year(of: $0.startWall) }.max() ?? lastExpandedYear
      for observance in observances {
        for date in observance.dates { latest = max(latest, year(of: date)) }
        if let until = observance.rule?["UNTIL"].flatMap(wallSeconds) {
          latest = max(latest, year(of: until))
        }
      }
      lastYear = min(lastExpandedYear, latest + 1)
    }
    var onsets: [(at: Int64, offset: Int32, before: Int32)] = []
    for observance in observances {
      var walls = [observance.startWall] + observance.dates
      if let rule = observance.rule {
        walls += occurrences(of: rule, observance: observance, lastYear: lastYear)
      }
      for wall in walls {
        onsets.append(
          (
            wall - Int64(observance.offsetFrom), Int32(observance.offsetTo),
            Int32(observance.offsetFrom)
          ))
      }
    }
    onsets.sort { $0.at < $1.at }
    var transitions: [(at: Int64, offset: Int32)] = []
    for onset in onsets {
      if let last = transitions.last, last.at == onset.at {
        transitions[transitions.count - 1] = (onset.at, onset.offset)
      } else {
        transitions.append((onset.at, onset.offset))
      }
    }
    return ZoneRules(
      identifier: tzid, transitions: transitions, initialOffset: onsets[0].before, rule: rule)
  }

  // MARK: - Values

  /// `+0100`, `-0500`, `+053000`: seconds east of UTC.
  static func offset(_ text: String) -> Int? {
    let value = text.trimmingSpaces()
    let bytes = Array(value.utf8)
    guard bytes.count == 5 || bytes.count == 7,
      bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"),
      bytes.dropFirst().allSatisfy({ $0 >= 48 && $0 <= 57 })
    else { return nil }
    func pair(_ at: Int) -> Int { Int(bytes[at] - 48) * 10 + Int(bytes[at + 1] - 48) }
    let seconds = pair(1) * 3600 + pair(3) * 60 + (bytes.count == 7 ? pair(5) : 0)
    return bytes[0] == UInt8(ascii: "-") ? -seconds : seconds
  }

  /// `19701025T030000` (a `Z` is ignored): seconds since 1970-01-01 00:00 on the wall.
  static func wallSeconds(_ text: String) -> Int64? {
    var value = text.trimmingSpaces()
    if value.hasSuffix("Z") || value.hasSuffix("z") { value.removeLast() }
    if value.utf8.count == 8 { value += "T000000" }
    let property = ICSProperty(name: "DTSTART", value: value)
    guard let date = ICalendarDate.parse(property, timeZone: .utc)?.date else { return nil }
    return TaskFields.seconds(date)
  }

  /// `FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU` as a dictionary of upper-case names.
  private static func ruleParts(_ value: String) -> [String: String] {
    var parts: [String: String] = [:]
    for part in value.split(separator: ";") {
      let pair = part.split(separator: "=", maxSplits: 1)
      guard pair.count == 2 else { continue }
      parts[pair[0].trimmingSpaces().uppercased()] = pair[1].trimmingSpaces().uppercased()
    }
    return parts
  }

  private static let weekdays = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]

  /// `-1SU`: (−1, 0); `SU`: (nil, 0).
  private static func byDay(_ text: Substring) -> (ordinal: Int?, weekday: Int)? {
    let code = String(text.suffix(2))
    guard let weekday = weekdays.firstIndex(of: code) else { return nil }
    let prefix = text.dropLast(2)
    if prefix.isEmpty { return (nil, weekday) }
    guard let ordinal = Int(prefix.hasPrefix("+") ? prefix.dropFirst() : prefix), ordinal != 0,
      abs(ordinal) <= 5
    else { return nil }
    return (ordinal, weekday)
  }

  private static func numbers(_ text: String?) -> [Int] {
    (text ?? "").split(separator: ",").compactMap { Int($0) }
  }

  // MARK: - Expanding a rule

  /// The wall times (seconds since 1970) a yearly `RRULE` names, from the observance's start up
  /// to its `UNTIL`, `COUNT` or `lastYear`. Other frequencies name none (a time zone changes
  /// yearly at most).
  private static func occurrences(
    of rule: [String: String], observance: Observance, lastYear: Int
  ) -> [Int64] {
    guard rule["FREQ"] == "YEARLY" else { return [] }
    let interval = max(1, Int(rule["INTERVAL"] ?? "1") ?? 1)
    let startDay = Int(floorDivide(observance.startWall, 86_400))
    let timeOfDay = observance.startWall - Int64(startDay) * 86_400
    let start = GregorianDays.date(days: startDay)
    let months = numbers(rule["BYMONTH"]).filter { (1...12).contains($0) }
    let days = (rule["BYDAY"] ?? "").split(separator: ",").compactMap(byDay)
    let monthDays = numbers(rule["BYMONTHDAY"]).filter { $0 != 0 && abs($0) <= 31 }
    let count = rule["COUNT"].flatMap { Int($0) }
    // UNTIL in UTC (with Z) or on the observance's wall clock.
    let untilWall: Int64? = rule["UNTIL"].flatMap { text -> Int64? in
      guard let wall = wallSeconds(text) else { return nil }
      let isUTC = text.hasSuffix("Z")
      return isUTC ? wall + Int64(observance.offsetFrom) : wall
    }
    var result: [Int64] = []
    var year = start.year
    while year <= lastYear {
      for month in (months.isEmpty ? [start.month] : months.sorted()) {
        let length = GregorianDays.daysInMonth(year: year, month: month)
        let first = GregorianDays.days(year: year, month: month, day: 1)
        var chosen: [Int] = []
        if !days.isEmpty {
          for entry in days {
            let matching = (1...length).filter {
              GregorianDays.weekday(days: first + $0 - 1) == entry.weekday
            }
            if let ordinal = entry.ordinal {
              let index = ordinal > 0 ? ordinal - 1 : matching.count + ordinal
              if matching.indices.contains(index) { chosen.append(matching[index]) }
            } else {
              chosen += matching
            }
          }
          if !monthDays.isEmpty {
            let allowed = Set(monthDays.map { $0 > 0 ? $0 : length + 1 + $0 })
            chosen = chosen.filter { allowed.contains($0) }
          }
        } else if !monthDays.isEmpty {
          chosen = monthDays.map { $0 > 0 ? $0 : length + 1 + $0 }.filter {
            $0 >= 1 && $0 <= length
          }
        } else if start.day <= length {
          chosen = [start.day]
        }
        for day in Set(chosen).sorted() {
          let wall = Int64(first + day - 1) * 86_400 + timeOfDay
          if wall < observance.startWall { continue }
          if let untilWall, wall > untilWall { return result }
          if let count, result.count >= count { return result }
          result.append(wall)
        }
      }
      year += interval
    }
    return result
  }

  /// The year of a wall time.
  private static func year(of wall: Int64) -> Int {
    GregorianDays.date(days: Int(floorDivide(wall, 86_400))).year
  }

  private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
    value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
  }

  // MARK: - Beyond the listed years

  /// The POSIX rule two open-ended yearly observances (a daylight and a standard one, by name or
  /// else by offset) say; nil when they are not exactly two of the form "n-th or last weekday
  /// of a month".
  private static func footer(_ observances: [Observance]) -> PosixZoneRule? {
    let open = observances.filter {
      guard let rule = $0.rule else { return false }
      return rule["FREQ"] == "YEARLY" && rule["UNTIL"] == nil && rule["COUNT"] == nil
    }
    guard open.count == 2, open[0].offsetTo != open[1].offsetTo else { return nil }
    let standard: Observance
    let daylight: Observance
    if open[0].isDaylight != open[1].isDaylight {
      (standard, daylight) = open[0].isDaylight ? (open[1], open[0]) : (open[0], open[1])
    } else {
      (standard, daylight) =
        open[0].offsetTo < open[1].offsetTo ? (open[0], open[1]) : (open[1], open[0])
    }
    guard let start = transition(daylight, clockBefore: standard.offsetTo),
      let end = transition(standard, clockBefore: daylight.offsetTo)
    else { return nil }
    return PosixZoneRule(
      standardName: "STD", standardOffset: standard.offsetTo,
      daylight: PosixZoneRule.Daylight(
        name: "DST", offset: daylight.offsetTo, start: start, end: end))
  }

  /// An observance's yearly start as a POSIX transition (`Mm.w.d/time` on the clock in force
  /// before it).
  private static func transition(_ observance: Observance, clockBefore: Int)
    -> PosixZoneRule.Transition?
  {
    guard let rule = observance.rule else { return nil }
    let months = numbers(rule["BYMONTH"])
    let days = (rule["BYDAY"] ?? "").split(separator: ",").compactMap(byDay)
    let monthDays = numbers(rule["BYMONTHDAY"]).sorted()
    guard months.count == 1, (1...12).contains(months[0]), days.count == 1,
      Int(rule["INTERVAL"] ?? "1") == 1
    else { return nil }
    var week: Int
    if let ordinal = days[0].ordinal {
      guard monthDays.isEmpty, (1...4).contains(ordinal) || ordinal == -1 else { return nil }
      week = ordinal == -1 ? 5 : ordinal
    } else {
      // `BYMONTHDAY=8,9,10,11,12,13,14;BYDAY=SU`: the second Sunday.
      guard monthDays.count == 7, let first = monthDays.first, first % 7 == 1, first <= 22,
        monthDays.last == first + 6
      else { return nil }
      week = first / 7 + 1
    }
    let startDay = floorDivide(observance.startWall, 86_400)
    let timeOfDay = Int(observance.startWall - startDay * 86_400)
    return PosixZoneRule.Transition(
      day: .monthWeekDay(month: months[0], week: week, weekday: days[0].weekday),
      time: timeOfDay - observance.offsetFrom + clockBefore)
  }
}

/// `VTIMEZONE`s already read, by their text, for the process.
private enum ReadTimeZones {
  static let limit = 64
  static let cache = Mutex<[String: ZoneRules?]>([:])
}
