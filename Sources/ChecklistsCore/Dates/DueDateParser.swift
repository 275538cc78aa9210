import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Reads what a user types for a due date ("2026-12-24 18:00", "tomorrow 9am", "+2h", …).
///
/// All input is read as wall-clock time in the parser's time zone; dates are ISO (Gregorian).
/// Input is case-insensitive and extra spaces are ignored.
///
/// Accepted forms:
/// - `now`; `+30m`, `+2h`, `+2 h`, `+30 min`, `in 2 hours` (that many minutes or hours from
///   now, as elapsed time); `+3d`, `+1w`, `in 3 days` (that many days or weeks later at the
///   same wall-clock time, across clock changes).
/// - A date: `2026-12-24`, `today`, `tomorrow`, `yesterday`, or a weekday, short or long (`fri`,
///   `friday`, also `tues`, `thur`, `thurs`): the coming one, today while the time given is still
///   ahead. `next fri` is the Friday of next week (weeks start on Monday), `next week` its
///   Monday, `next month` the first of next month.
/// - A time: `18:00`, `9:30`, `9am`, `9:30pm` (`12am` is midnight, `12pm` noon), `noon`, `eod`
///   (23:59, the end of the day).
/// - A date and a time, in either order: `tomorrow 9am`, `fri 17:00`, `2026-12-24 18:00`.
///
/// A date without a time means 09:00 that day (the app's default reminder hour), even when that
/// is already past, as with `today` typed in the afternoon. A time without a date means today
/// if that time is still ahead of `now` (either of the two on the day clocks go back), else
/// tomorrow. A wall time that does not exist because
/// the clocks go forward means the next valid time (02:30 on the spring-forward day in Berlin
/// is 03:00); a wall time shown twice because the clocks go back means the first one.
public struct DueDateParser: Sendable {
  /// The time zone the input is read in.
  public var timeZone: ZoneRules

  /// Creates a parser for a time zone; the default is the local one.
  public init(timeZone: ZoneRules = .current) {
    self.timeZone = timeZone
  }

  /// The hour a date typed without a time means.
  public static let defaultHour = 9

  /// The examples an error message suggests.
  static let examples = "try 2026-12-24 18:00, tomorrow 9am, fri, +2h"

  /// The date `text` means, relative to `now`.
  public func parse(_ text: String, now: Date) throws(DueDateParseError) -> Date {
    let tokens = Self.tokens(of: text)
    let shown = text.trimmingWhitespace()
    let clock = ZonedWallClock(timeZone: timeZone)
    guard !tokens.isEmpty else {
      throw DueDateParseError("no due date given; \(Self.examples)")
    }
    if tokens.count == 1 {
      if tokens[0] == "now" { return now }
      if tokens[0].hasPrefix("+") { return try offset(tokens[0], from: now, clock: clock) }
    }
    var day: DayWord?
    var time: (hour: Int, minute: Int)?
    for token in tokens {
      if let parsedTime = try Self.time(token) {
        guard time == nil else {
          throw DueDateParseError("cannot read \"\(shown)\": give one date and one time at most")
        }
        time = parsedTime
      } else if let parsedDay = try Self.day(token, today: clock.day(of: now)) {
        guard day == nil else {
          throw DueDateParseError("cannot read \"\(shown)\": give one date and one time at most")
        }
        day = parsedDay
      } else if token == "next" {
        throw DueDateParseError(
          "cannot read \"next\": say what comes next, e.g. next fri, next week, next month")
      } else if token == "in" {
        throw DueDateParseError(
          "cannot read \"in\": give a number and a unit after it, e.g. in 30 min, in 2 hours")
      } else {
        let what = tokens.count == 1 ? shown : token
        throw DueDateParseError("cannot read \"\(what)\" as a date; \(Self.examples)")
      }
    }
    if let day {
      let (hour, minute) = time ?? (Self.defaultHour, 0)
      switch day {
      case .day(let number):
        return clock.date(days: number, hour: hour, minute: minute)
      case .weekdayFrom(let today):
        // Today's weekday means today while that time is still ahead, else a week later.
        let date = clock.date(days: today, hour: hour, minute: minute)
        return date > now ? date : clock.date(days: today + 7, hour: hour, minute: minute)
      }
    }
    guard let time else {
      throw DueDateParseError("cannot read \"\(shown)\" as a date; \(Self.examples)")
    }
    let today = clock.day(of: now)
    let wallToday =
      Double(today) * ZonedWallClock.secondsPerDay + Double(time.hour * 3600 + time.minute * 60)
    // On the day clocks go back, the second of two equal times may still be ahead.
    if let ahead = clock.occurrences(wallSeconds: wallToday).first(where: { $0 > now }) {
      return ahead
    }
    let candidate = clock.date(wallSeconds: wallToday)
    if candidate > now { return candidate }
    return clock.date(days: today + 1, hour: time.hour, minute: time.minute)
  }

  /// The length of a window typed as `30m`, `2h`, `3d` or `1w` (a leading `+` is allowed), or
  /// nil when `text` is not one. A day is 24 hours here.
  public static func parseDuration(_ text: String) -> TimeInterval? {
    guard
      let (amount, unit) = try? amountAndUnit(
        text.trimmingWhitespace().lowercased())
    else { return nil }
    return Double(amount) * unit.seconds
  }

  // MARK: - Tokens

  /// The lower-cased words of `text`, joined where several words make one: a lone "am"/"pm"
  /// to the number before it, a lone "+" (and "in" before a number) to what follows, a unit
  /// to the "+2" before it (`+2 h`, `in 2 hours` are `+2h`, `+2hours`), and "next" to the word
  /// after it (`next fri`).
  static func tokens(of text: String) -> [String] {
    let words = text.lowercased().split(whereSeparator: { $0.isWhitespace }).map(String.init)
    var tokens: [String] = []
    for (index, word) in words.enumerated() {
      let last = tokens.last
      let next = index + 1 < words.count ? words[index + 1] : nil
      if word == "am" || word == "pm", let last, last.last.map({ $0.isNumber }) == true {
        tokens[tokens.count - 1] = last + word
      } else if last == "+" {
        tokens[tokens.count - 1] = "+" + word
      } else if let last, isBareOffset(last), word.allSatisfy({ $0.isLetter }) {
        tokens[tokens.count - 1] = last + word
      } else if last == "next" {
        tokens[tokens.count - 1] = "next " + word
      } else if word == "in", let next, next.first.map({ $0.isASCII && $0.isNumber }) == true {
        tokens.append("+")
      } else {
        tokens.append(word)
      }
    }
    return tokens
  }

  /// Whether `token` is a `+` and digits with no unit yet (`+2` of `+2 h`).
  private static func isBareOffset(_ token: String) -> Bool {
    token.count > 1 && token.hasPrefix("+")
      && token.dropFirst().allSatisfy { $0.isASCII && $0.isNumber }
  }

  // MARK: - Offsets

  /// A unit of a relative offset or window.
  enum Unit {
    case minutes, hours, days, weeks

    /// The unit's length in seconds (a day is 24 hours).
    var seconds: TimeInterval {
      switch self {
      case .minutes: return 60
      case .hours: return 3600
      case .days: return 86_400
      case .weeks: return 604_800
      }
    }
  }

  /// The number and unit of `+30m`, `2h`, …
  static func amountAndUnit(_ token: String) throws(DueDateParseError) -> (Int, Unit) {
    var body = Substring(token)
    if body.hasPrefix("+") { body = body.dropFirst() }
    let digits = body.prefix(while: { $0.isASCII && $0.isNumber })
    let unitText = body.dropFirst(digits.count)
    guard !digits.isEmpty else {
      throw DueDateParseError(
        "cannot read \"\(token)\": put a number after +, e.g. +30m, +2h, +3d, +1w")
    }
    guard digits.count <= 6, let amount = Int(digits) else {
      throw DueDateParseError("cannot read \"\(token)\": \(digits) is too far ahead")
    }
    let unit: Unit
    switch unitText {
    case "m", "min", "mins", "minute", "minutes": unit = .minutes
    case "h", "hr", "hrs", "hour", "hours": unit = .hours
    case "d", "day", "days": unit = .days
    case "w", "wk", "wks", "week", "weeks": unit = .weeks
    default:
      throw DueDateParseError(
        "cannot read \"\(token)\": use m, h, d or w after the number, e.g. +30m, +2h, +3d, +1w")
    }
    return (amount, unit)
  }

  /// `now` moved by `+30m`, `+2h` (elapsed time) or `+3d`, `+1w` (same wall time, later days).
  private func offset(_ token: String, from now: Date, clock: ZonedWallClock)
    throws(DueDateParseError)
    -> Date
  {
    let (amount, unit) = try Self.amountAndUnit(token)
    let date: Date
    switch unit {
    case .minutes, .hours:
      date = now.addingTimeInterval(Double(amount) * unit.seconds)
    case .days, .weeks:
      let days = Double(unit == .weeks ? amount * 7 : amount)
      date = clock.date(
        wallSeconds: clock.wallSeconds(of: now) + days * ZonedWallClock.secondsPerDay)
    }
    // As far as a typed date goes: the file and iCalendar write years up to 9999.
    guard DateLimits.isInWritableYears(date) else {
      throw DueDateParseError("cannot read \"\(token)\": that is after the year 9999")
    }
    return date
  }

  // MARK: - Dates

  /// Weekday words and their number (0 is Sunday).
  static let weekdays: [String: Int] = [
    "sun": 0, "sunday": 0, "mon": 1, "monday": 1, "tue": 2, "tues": 2, "tuesday": 2,
    "wed": 3, "wednesday": 3, "thu": 4, "thur": 4, "thurs": 4, "thursday": 4,
    "fri": 5, "friday": 5, "sat": 6, "saturday": 6,
  ]

  /// A day a word names: a day number, or today's weekday (today while the time given is still
  /// ahead, else a week later; `resolve` needs the time).
  enum DayWord: Equatable {
    case day(Int)
    case weekdayFrom(today: Int)
  }

  /// The day `token` names, nil when it is not a date, or an error when it is a broken one.
  static func day(_ token: String, today: Int) throws(DueDateParseError) -> DayWord? {
    switch token {
    case "today": return .day(today)
    case "tomorrow": return .day(today + 1)
    case "yesterday": return .day(today - 1)
    default: break
    }
    // Weeks start on Monday (ISO 8601), as dates are written year-month-day.
    let mondayOfNextWeek = today + 7 - (GregorianDays.weekday(days: today) + 6) % 7
    if let weekday = weekdays[token] {
      let ahead = (weekday - GregorianDays.weekday(days: today) + 7) % 7
      return ahead == 0 ? .weekdayFrom(today: today) : .day(today + ahead)
    }
    if token.hasPrefix("next ") {
      let word = String(token.dropFirst("next ".count))
      if let weekday = weekdays[word] {
        return .day(mondayOfNextWeek + (weekday + 6) % 7)
      }
      switch word {
      case "week": return .day(mondayOfNextWeek)
      case "month":
        let (year, month, _) = GregorianDays.date(days: today)
        return .day(
          GregorianDays.days(
            year: month == 12 ? year + 1 : year, month: month == 12 ? 1 : month + 1, day: 1))
      default:
        throw DueDateParseError(
          "cannot read \"\(token)\": after next give a weekday, week or month, e.g. next fri")
      }
    }
    let parts = token.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count <= 2, parts[2].count <= 2,
      parts.allSatisfy({
        !$0.isEmpty && $0.count <= 4 && $0.allSatisfy { $0.isASCII && $0.isNumber }
      }),
      let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
    else { return nil }
    guard year >= 1 else {
      throw DueDateParseError("cannot read \"\(token)\": year 0 does not exist")
    }
    guard (1...12).contains(month) else {
      throw DueDateParseError("cannot read \"\(token)\": month \(month) does not exist")
    }
    let length = GregorianDays.daysInMonth(year: year, month: month)
    guard (1...length).contains(day) else {
      let monthName = GregorianDays.monthNames[month - 1]
      throw DueDateParseError(
        "cannot read \"\(token)\": \(monthName) \(year) has \(length) days, not \(day)")
    }
    return .day(GregorianDays.days(year: year, month: month, day: day))
  }

  // MARK: - Times

  /// The hour and minute `token` names, nil when it is not a time, or an error when it is a
  /// broken one.
  static func time(_ token: String) throws(DueDateParseError) -> (hour: Int, minute: Int)? {
    switch token {
    case "noon": return (12, 0)
    // The end of the day: its last minute.
    case "eod": return (23, 59)
    default: break
    }
    var body = Substring(token)
    var meridiem: String?
    if body.hasSuffix("am") || body.hasSuffix("pm") {
      meridiem = String(body.suffix(2))
      body = body.dropLast(2)
    }
    let parts = body.split(separator: ":", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count),
      parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
      parts[0].count <= 2
    else { return nil }
    guard parts.count == 2 || meridiem != nil else { return nil }
    if parts.count == 2 && parts[1].count != 2 {
      throw DueDateParseError("cannot read \"\(token)\": write minutes with two digits, e.g. 9:05")
    }
    guard let hour = Int(parts[0]), let minute = parts.count == 2 ? Int(parts[1]) : 0 else {
      return nil
    }
    guard minute < 60 else {
      throw DueDateParseError("cannot read \"\(token)\": minute \(minute) does not exist")
    }
    guard let meridiem else {
      guard hour < 24 else {
        throw DueDateParseError("cannot read \"\(token)\": hour \(hour) does not exist")
      }
      return (hour, minute)
    }
    guard (1...12).contains(hour) else {
      throw DueDateParseError(
        "cannot read \"\(token)\": with am or pm the hour goes from 1 to 12")
    }
    return (hour % 12 + (meridiem == "pm" ? 12 : 0), minute)
  }
}
