import Foundation

/// Shows due dates: in full in the item form, relative when near in lists.
///
/// Output is English and fixed (like the `en_US_POSIX` locale, Gregorian, 24-hour clock)
/// whatever the user's locale, in the calendar's time zone. No `DateFormatter` is involved: the
/// text is built from wall-clock numbers, so formatting a row costs one time zone offset lookup
/// and a few small strings, cheap enough for every visible row on every keystroke.
public struct DueDateFormatter: Sendable {
  /// The calendar (with its time zone) dates are shown in.
  public var calendar: Calendar

  /// Creates a formatter; the default is the user's calendar in the local time zone.
  public init(calendar: Calendar = .current) {
    self.calendar = calendar
  }

  private static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
  private static let monthNames = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  /// The full form, e.g. "Thu 24 Dec 2026, 18:00".
  public func full(_ date: Date) -> String {
    let parts = WallParts(date, clock: ZonedWallClock(timeZone: calendar.timeZone))
    return "\(parts.weekdayName) \(parts.dayMonth) \(parts.yearText), \(parts.timeText)"
  }

  /// The short form for a list row, relative to `now`.
  ///
  /// - less than a minute away either way: "now"
  /// - less than an hour ahead or ago: "in 25 min", "25 min ago"
  /// - today, tomorrow, yesterday: "today 18:00", "tomorrow 09:00", "yesterday 18:00"
  /// - 2 to 6 days ahead: "Fri 17:00"
  /// - otherwise "Fri 24 Dec" in the same year as `now`, else "24 Dec 2027".
  public func relative(_ date: Date, now: Date) -> String {
    let seconds = date.timeIntervalSince(now)
    if abs(seconds) < 60 { return "now" }
    if abs(seconds) < 3600 {
      let minutes = Int(abs(seconds) / 60)
      return seconds > 0 ? "in \(minutes) min" : "\(minutes) min ago"
    }
    let clock = ZonedWallClock(timeZone: calendar.timeZone)
    let parts = WallParts(date, clock: clock)
    let today = clock.day(of: now)
    switch parts.days - today {
    case 0: return "today \(parts.timeText)"
    case 1: return "tomorrow \(parts.timeText)"
    case -1: return "yesterday \(parts.timeText)"
    case 2...6: return "\(parts.weekdayName) \(parts.timeText)"
    default:
      if parts.year == GregorianDays.date(days: today).year {
        return "\(parts.weekdayName) \(parts.dayMonth)"
      }
      return "\(parts.dayMonth) \(parts.yearText)"
    }
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
    var yearText: String { year >= 1000 ? String(year) : Self.padded(year, width: 4) }
    var timeText: String { Self.padded(hour, width: 2) + ":" + Self.padded(minute, width: 2) }

    static func padded(_ value: Int, width: Int) -> String {
      let text = String(value)
      return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
  }
}
