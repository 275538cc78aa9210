import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// A DATE or DATE-TIME value of iCalendar and how it was written.
public struct ICalendarDate: Equatable, Sendable {
  /// How the value was written.
  public enum Form: Equatable, Sendable {
    /// `…Z`: UTC.
    case utc
    /// With a `TZID` parameter, in that zone.
    case zoned(String)
    /// No zone: the wall clock wherever the reader is.
    case floating
    /// `VALUE=DATE`: a day, without a time.
    case dateOnly
  }

  /// The instant (for a day, its start in the reader's zone).
  public var date: Date
  /// How it was written.
  public var form: Form

  /// Creates a value.
  public init(date: Date, form: Form) {
    self.date = date
    self.form = form
  }

  /// Reads a DTSTART/DUE/COMPLETED/TRIGGER-like property; nil when its value is not a date.
  ///
  /// A `TZID` is resolved through `zones` (the file's `VTIMEZONE`s, the database, Windows zone
  /// names); one nothing knows is read as floating time. A time skipped by a clock change is read
  /// with the offset before the change (RFC 5545).
  public static func parse(
    _ property: ICSProperty, timeZone: ZoneRules, zones: ICalendarZones = .none
  ) -> ICalendarDate? {
    let value = property.value.trimmingSpaces()
    let isDate = property.parameter("VALUE")?.uppercased() == "DATE" || value.utf8.count == 8
    let digits = Array(value.utf8)
    func number(_ from: Int, _ count: Int) -> Int? {
      guard from + count <= digits.count else { return nil }
      var result = 0
      for byte in digits[from..<from + count] {
        guard byte >= 48 && byte <= 57 else { return nil }
        result = result * 10 + Int(byte - 48)
      }
      return result
    }
    guard let year = number(0, 4), let month = number(4, 2), let day = number(6, 2),
      (1...12).contains(month), (1...31).contains(day)
    else { return nil }
    // Days past the month's end roll over into the next month, as in Foundation's lenient
    // calendar arithmetic.
    let days = GregorianDays.days(year: year, month: month, day: day)
    if isDate {
      guard digits.count == 8 else { return nil }
      let date = ZonedWallClock(timeZone: timeZone).dateWithOffsetBeforeGap(
        wallSeconds: Double(days) * ZonedWallClock.secondsPerDay)
      return ICalendarDate(date: date, form: .dateOnly)
    }
    guard digits.count >= 15, digits[8] == UInt8(ascii: "T"), let hour = number(9, 2),
      let minute = number(11, 2), let second = number(13, 2), hour < 24, minute < 60,
      second <= 60
    else { return nil }
    let wall =
      Double(days) * ZonedWallClock.secondsPerDay + Double(hour * 3600 + minute * 60 + second)
    let zone: ZoneRules
    let form: Form
    if digits.count == 16 && digits[15] == UInt8(ascii: "Z") {
      zone = .utc
      form = .utc
    } else if digits.count == 15 {
      if let zoneName = property.parameter("TZID") {
        zone = zones.rules(forTZID: zoneName) ?? timeZone
        form = .zoned(zoneName)
      } else {
        zone = timeZone
        form = .floating
      }
    } else {
      return nil
    }
    let date = ZonedWallClock(timeZone: zone).dateWithOffsetBeforeGap(wallSeconds: wall)
    return ICalendarDate(date: date, form: form)
  }

  /// `20261201T091500Z`: the instant in UTC, to the second.
  public static func utcString(_ date: Date) -> String {
    var seconds = time_t(DateLimits.wholeSecondsSince1970(date))
    var parts = tm()
    gmtime_r(&seconds, &parts)
    return digits(Int(parts.tm_year) + 1900, 4) + digits(Int(parts.tm_mon) + 1, 2)
      + digits(Int(parts.tm_mday), 2) + "T" + digits(Int(parts.tm_hour), 2)
      + digits(Int(parts.tm_min), 2) + digits(Int(parts.tm_sec), 2) + "Z"
  }

  /// `20261201T091500` (no `Z`): the wall clock of `date` in `timeZone`.
  public static func localString(_ date: Date, timeZone: ZoneRules) -> String {
    let parts = ZonedWallClock(timeZone: timeZone).components(of: date)
    return digits(parts.year, 4) + digits(parts.month, 2) + digits(parts.day, 2) + "T"
      + digits(parts.hour, 2) + digits(parts.minute, 2) + digits(parts.second, 2)
  }

  /// `20261201`: the day of `date` in `timeZone`.
  public static func dayString(_ date: Date, timeZone: ZoneRules) -> String {
    let parts = ZonedWallClock(timeZone: timeZone).components(of: date)
    return digits(parts.year, 4) + digits(parts.month, 2) + digits(parts.day, 2)
  }

  /// Whether `date` is the start of its day in `timeZone` (a day written as `VALUE=DATE`).
  public static func isStartOfDay(_ date: Date, timeZone: ZoneRules) -> Bool {
    let clock = ZonedWallClock(timeZone: timeZone)
    return clock.date(days: clock.day(of: date), hour: 0, minute: 0) == date
  }

  private static func digits(_ value: Int, _ count: Int) -> String {
    WallComponents.padded(value, count)
  }
}
