import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Proleptic Gregorian day arithmetic on plain numbers: day 0 is 1970-01-01.
///
/// Wall-clock arithmetic ("the same time three days later") is done on local wall seconds, which
/// have no daylight saving time, and only then turned into an instant by `ZonedWallClock`.
enum GregorianDays {
  /// The day number of a Gregorian date (day 0 is 1970-01-01).
  static func days(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let shiftedMonth = month > 2 ? month - 3 : month + 9
    let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The Gregorian date of a day number.
  static func date(days: Int) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra =
      (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    return (era * 400 + yearOfEra + (month <= 2 ? 1 : 0), month, day)
  }

  /// The weekday of a day number: 0 is Sunday, 6 is Saturday.
  static func weekday(days: Int) -> Int {
    let remainder = (days + 4) % 7
    return remainder < 0 ? remainder + 7 : remainder
  }

  /// Whether `year` has a 29 February.
  static func isLeapYear(_ year: Int) -> Bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
  }

  /// How many days `month` (1–12) of `year` has.
  static func daysInMonth(year: Int, month: Int) -> Int {
    switch month {
    case 2: return isLeapYear(year) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// English month names, January first.
  static let monthNames = [
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
  ]
}

/// A wall date and time to the second.
struct WallComponents: Equatable, Sendable {
  var year: Int
  var month: Int
  var day: Int
  var hour: Int
  var minute: Int
  var second: Int

  /// `value` as decimal digits, zero-padded to `width`.
  static func padded(_ value: Int, _ width: Int) -> String {
    // The sign goes before the zeros: the year 2 BC (-1) is "-0001", not "00-1".
    guard value < 0 else { return TextMatching.zeroPadded(String(value), to: width) }
    return "-" + TextMatching.zeroPadded(String(value.magnitude), to: width)
  }
}

/// Converts between instants and local wall-clock time in one time zone.
///
/// A wall time is counted in "wall seconds": seconds since 1970-01-01 00:00 as the clock on the
/// wall shows it, so a day is always 86,400 wall seconds even when the clocks change.
struct ZonedWallClock: Sendable {
  /// The time zone of the wall clock.
  let timeZone: ZoneRules

  /// Seconds in a day of wall time.
  static let secondsPerDay = 86_400.0

  /// The wall seconds `date` shows in the time zone (`date` taken within `DateLimits`).
  func wallSeconds(of date: Date) -> Double {
    let seconds = DateLimits.secondsSince1970(date)
    return seconds + Double(timeZone.secondsFromGMT(atSeconds: seconds))
  }

  /// The day number (see `GregorianDays`) of the wall date at `date`.
  func day(of date: Date) -> Int {
    Int((wallSeconds(of: date) / Self.secondsPerDay).rounded(.down))
  }

  /// The wall date and time `date` shows, to the whole second (fractions dropped).
  func components(of date: Date) -> WallComponents {
    let wall = Int64(wallSeconds(of: date).rounded(.down))
    let days = wall >= 0 ? wall / 86_400 : (wall - 86_399) / 86_400
    let second = Int(wall - days * 86_400)
    let civil = GregorianDays.date(days: Int(days))
    return WallComponents(
      year: civil.year, month: civil.month, day: civil.day, hour: second / 3600,
      minute: second % 3600 / 60, second: second % 60)
  }

  /// The instant a wall time means.
  ///
  /// A time shown twice (clocks going back) means the first, earlier one. A time never shown
  /// (the gap when clocks go forward) means the next valid time: the instant the clocks jump,
  /// e.g. 02:30 on a day clocks go from 02:00 to 03:00 means 03:00.
  func date(wallSeconds wall: Double) -> Date {
    if let earliest = timeZone.instants(showing: wall).first { return earliest }
    let offsets = timeZone.candidateOffsets(wallSeconds: wall)
    // In a gap: find the first second after the jump by bisection.
    let largest = offsets.max() ?? 0
    let smallest = offsets.min() ?? 0
    var before = (wall - Double(largest)).rounded(.down)
    var after = (wall - Double(smallest)).rounded(.up)
    let offsetBefore = offset(at: before)
    while after - before > 1 {
      let middle = ((before + after) / 2).rounded(.down)
      // Far from 1970 a double has no whole second between two neighbours.
      guard middle > before, middle < after else { break }
      if offset(at: middle) == offsetBefore { before = middle } else { after = middle }
    }
    return Date(timeIntervalSince1970: after)
  }

  /// Every instant the clock shows `wall`, earliest first: none in a gap, two in an overlap.
  func occurrences(wallSeconds wall: Double) -> [Date] {
    timeZone.instants(showing: wall)
  }

  /// The instant a wall time means as iCalendar reads it (RFC 5545 §3.3.5): a time shown twice
  /// means the first one; a time never shown is read with the offset before the gap, so 02:30
  /// on a day clocks go from 02:00 to 03:00 means 03:30.
  func dateWithOffsetBeforeGap(wallSeconds wall: Double) -> Date {
    if let earliest = timeZone.instants(showing: wall).first { return earliest }
    let largest = timeZone.candidateOffsets(wallSeconds: wall).max() ?? 0
    let offsetBefore = offset(at: (wall - Double(largest)).rounded(.down))
    return Date(timeIntervalSince1970: wall - Double(offsetBefore))
  }

  /// The instant of a wall date and time.
  func date(days: Int, hour: Int, minute: Int) -> Date {
    date(wallSeconds: Double(days) * Self.secondsPerDay + Double(hour * 3600 + minute * 60))
  }

  private func offset(at instant: Double) -> Int {
    timeZone.secondsFromGMT(atSeconds: instant)
  }
}

/// Day arithmetic on the wall clock of a zone.
extension ZoneRules {
  /// The first instant of the day after `date`'s wall day (its midnight, or the instant the
  /// clocks jump when they skip midnight).
  public func startOfNextDay(after date: Date) -> Date {
    let clock = ZonedWallClock(timeZone: self)
    return clock.date(days: clock.day(of: date) + 1, hour: 0, minute: 0)
  }

  /// `date` moved `days` days on the wall clock, keeping its wall time: a time the clocks skip
  /// that day is read with the offset before the gap (02:30 becomes 03:30), and of a time shown
  /// twice the one nearer to `date` is taken (the first going forward, the second going back).
  public func date(byAddingDays days: Int, to date: Date) -> Date {
    let clock = ZonedWallClock(timeZone: self)
    let wall = clock.wallSeconds(of: date) + Double(days) * ZonedWallClock.secondsPerDay
    let shown = instants(showing: wall)
    if days < 0, let last = shown.last { return last }
    return clock.dateWithOffsetBeforeGap(wallSeconds: wall)
  }
}
