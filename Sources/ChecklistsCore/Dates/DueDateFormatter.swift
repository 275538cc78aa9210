import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Shows due dates: in full in the item form, relative when near in lists.
///
/// Output is English and fixed (like the `en_US_POSIX` locale, Gregorian, 24-hour clock)
/// whatever the user's locale, in the formatter's time zone. No `DateFormatter` is involved: the
/// text is built from wall-clock numbers, so formatting a row costs one time zone offset lookup
/// and a few small strings, cheap enough for every visible row on every keystroke.
public struct DueDateFormatter: Sendable {
  /// The time zone dates are shown in.
  public var timeZone: ZoneRules

  /// Creates a formatter; the default is the local time zone.
  public init(timeZone: ZoneRules = .current) {
    self.timeZone = timeZone
  }

  private static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
  private static let monthNames = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  /// The full form, e.g. "Thu 24 Dec 2026, 18:00".
  public func full(_ date: Date) -> String {
    let parts = WallParts(date, clock: ZonedWallClock(timeZone: timeZone))
    return "\(parts.weekdayName) \(parts.dayMonth) \(parts.yearText), \(parts.timeText)"
  }

  /// The day alone, e.g. "Tue 8 Dec" in the same year as `now`, else "Wed 8 Dec 2027": what
  /// the status line says after a repeating item moved on ("Next: Tue 8 Dec").
  public func day(_ date: Date, now: Date) -> String {
    let clock = ZonedWallClock(timeZone: timeZone)
    let parts = WallParts(date, clock: clock)
    let text = "\(parts.weekdayName) \(parts.dayMonth)"
    if parts.year == GregorianDays.date(days: clock.day(of: now)).year { return text }
    return "\(text) \(parts.yearText)"
  }

  /// The short form for a list row, relative to `now`, rounded as a person would.
  ///
  /// - within half a minute either way: "now"
  /// - up to 59 minutes ahead or ago, to the nearest minute: "in 3 min" with 2 min 58 s to go,
  ///   "2 min ago" 1 min 30 s after
  /// - today, tomorrow, yesterday: "today 18:00", "tomorrow 09:00", "yesterday 18:00"
  /// - 2 to 6 days ahead: "Fri 17:00"
  /// - otherwise "Fri 24 Dec 18:00" in the same year as `now`, else "24 Dec 2027 18:00": two
  ///   items on one day read apart.
  ///
  /// The text changes only at the instants `nextChange(of:after:)` names.
  public func relative(_ date: Date, now: Date) -> String {
    relativeForms(date, now: now)[0]
  }

  /// The forms of `relative(_:now:)`, longest first, for a row too narrow for the first: a
  /// far date drops its weekday before its time ("24 Dec 18:00"), and its time last
  /// ("Fri 24 Dec"). Never empty.
  public func relativeForms(_ date: Date, now: Date) -> [String] {
    let seconds = date.timeIntervalSince(now)
    if let minutes = Self.roundedMinutes(seconds) {
      if minutes == 0 { return ["now"] }
      return [seconds > 0 ? "in \(minutes) min" : "\(minutes) min ago"]
    }
    let clock = ZonedWallClock(timeZone: timeZone)
    let parts = WallParts(date, clock: clock)
    let today = clock.day(of: now)
    switch parts.days - today {
    case 0: return ["today \(parts.timeText)"]
    case 1: return ["tomorrow \(parts.timeText)"]
    case -1: return ["yesterday \(parts.timeText)"]
    case 2...6: return ["\(parts.weekdayName) \(parts.timeText)"]
    default:
      if parts.year == GregorianDays.date(days: today).year {
        return [
          "\(parts.weekdayName) \(parts.dayMonth) \(parts.timeText)",
          "\(parts.dayMonth) \(parts.timeText)", "\(parts.weekdayName) \(parts.dayMonth)",
        ]
      }
      return [
        "\(parts.dayMonth) \(parts.yearText) \(parts.timeText)",
        "\(parts.dayMonth) \(parts.yearText)",
      ]
    }
  }

  /// Minutes to the nearest one (half a minute rounds away from "now"), or nil beyond 59.
  ///
  /// Ahead (`seconds` > 0) the count drops at 30 s, 90 s, … 3570 s before the date; behind, it
  /// grows at 30 s, 90 s, … after it, so each text holds for a whole minute.
  private static func roundedMinutes(_ seconds: TimeInterval) -> Int? {
    let minutes: Double
    if seconds > 0 {
      minutes = ((seconds - 30) / 60).rounded(.up)
    } else {
      minutes = ((-seconds + 30) / 60).rounded(.down)
    }
    guard minutes < 60 else { return nil }
    return max(Int(minutes), 0)
  }

  /// The first instant after `now` at which `relative(date, now:)` reads differently, or
  /// whether the date has passed changes: a minute step near the date, the hour before it,
  /// the date itself, or the next local midnight.
  public func nextChange(of date: Date, after now: Date) -> Date {
    let clock = ZonedWallClock(timeZone: timeZone)
    var next = clock.date(days: clock.day(of: now) + 1, hour: 0, minute: 0)
    func consider(_ candidate: Date) {
      if candidate > now && candidate < next { next = candidate }
    }
    consider(date)
    let seconds = date.timeIntervalSince(now)
    if seconds > 0 {
      // Ahead: the steps fall at date - (60k + 30) s; the next is the largest one still ahead.
      let k = ((seconds - 30) / 60).rounded(.up) - 1
      if k >= 0 && k < 60 { consider(date.addingTimeInterval(-(60 * k + 30))) }
      if k >= 60 { consider(date.addingTimeInterval(-3570)) }
    } else {
      // Behind: the steps fall at date + (60k + 30) s; the next is the first one after now.
      let k = ((-seconds - 30) / 60).rounded(.down) + 1
      if k >= 0 && k < 60 { consider(date.addingTimeInterval(60 * k + 30)) }
    }
    return next
  }

  /// The wall-clock pieces of one date.
  private struct WallParts {
    let days: Int
    let year: Int
    let month: Int
    let day: Int
    let hour: Int
    let minute: Int

    init(_ date: Date, clock: ZonedWallClock) {
      let wall = clock.wallSeconds(of: date)
      let days = Int((wall / ZonedWallClock.secondsPerDay).rounded(.down))
      let secondOfDay = Int((wall - Double(days) * ZonedWallClock.secondsPerDay).rounded(.down))
      let civil = GregorianDays.date(days: days)
      self.days = days
      self.year = civil.year
      self.month = civil.month
      self.day = civil.day
      self.hour = min(secondOfDay / 3600, 23)
      self.minute = secondOfDay % 3600 / 60
    }

    var weekdayName: String { DueDateFormatter.weekdayNames[GregorianDays.weekday(days: days)] }
    var dayMonth: String { "\(day) \(DueDateFormatter.monthNames[month - 1])" }
    var yearText: String { year >= 1000 ? String(year) : WallComponents.padded(year, 4) }
    var timeText: String { WallComponents.padded(hour, 2) + ":" + WallComponents.padded(minute, 2) }
  }
}
