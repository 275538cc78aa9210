/// A POSIX `TZ` rule (`std offset [dst [offset] [,start[/time],end[/time]]]`), as in `TZ`
/// values like `EST5EDT,M3.2.0,M11.1.0` or `<+0545>-5:45` and in the footer of TZif files.
///
/// Offsets are written west-positive (`EST5` is UTC−5) and stored here east-positive, in
/// seconds. Transition times may be negative or beyond 24 hours (RFC 8536 version 3, up to
/// ±167 hours). A daylight time without rules follows the United States' rules
/// (`M3.2.0,M11.1.0`), as glibc does.
struct PosixZoneRule: Equatable, Sendable {
  /// The day of a transition in a year.
  enum Day: Equatable, Sendable {
    /// `Jn`: day 1–365 of the year, 29 February never counted.
    case julian(Int)
    /// `n`: day 0–365 of the year, 29 February counted.
    case zeroBased(Int)
    /// `Mm.w.d`: weekday `d` (0 is Sunday) of week `w` (1–5, 5 the last) of month `m`.
    case monthWeekDay(month: Int, week: Int, weekday: Int)
  }

  /// A transition: a day and a time of that day on the clock in force before it.
  struct Transition: Equatable, Sendable {
    var day: Day
    /// Seconds after the day's midnight, −167 h to +167 h.
    var time: Int
  }

  /// Daylight saving time: its name, offset and when it starts and ends.
  struct Daylight: Equatable, Sendable {
    var name: String
    var offset: Int
    var start: Transition
    var end: Transition
  }

  /// The standard time's name ("CET", "+0545").
  var standardName: String
  /// The standard time's offset from UTC in seconds, east positive.
  var standardOffset: Int
  /// Daylight saving time, if the rule has one.
  var daylight: Daylight?

  /// The offset from UTC in seconds at `instant` (seconds since 1970 UTC).
  func offset(at instant: Int64) -> Int {
    guard let daylight else { return standardOffset }
    // Far beyond any calendar in use: clamped so that the arithmetic below cannot overflow.
    let instant = min(max(instant, -(1 << 50)), 1 << 50)
    let year = Self.year(of: instant + Int64(standardOffset))
    // The events of three rule years, so that times beyond the year's ends (or a daylight time
    // that lasts all year) still find the one in force.
    var inForce = standardOffset
    var latest = Int64.min
    for ruleYear in (year - 1)...(year + 1) {
      let start = transitionInstant(daylight.start, year: ruleYear, offsetBefore: standardOffset)
      let end = transitionInstant(daylight.end, year: ruleYear, offsetBefore: daylight.offset)
      // At a tie the start wins: a daylight time that ends where the next starts lasts all year.
      if end <= instant && end >= latest {
        latest = end
        inForce = standardOffset
      }
      if start <= instant && start >= latest {
        latest = start
        inForce = daylight.offset
      }
    }
    return inForce
  }

  /// The instant (seconds since 1970 UTC) of `transition` in `year`.
  private func transitionInstant(_ transition: Transition, year: Int, offsetBefore: Int) -> Int64 {
    Int64(Self.dayNumber(of: transition.day, year: year)) * 86_400 + Int64(transition.time)
      - Int64(offsetBefore)
  }

  /// The `GregorianDays` day number of `day` in `year`.
  static func dayNumber(of day: Day, year: Int) -> Int {
    let newYear = GregorianDays.days(year: year, month: 1, day: 1)
    switch day {
    case .julian(let number):
      let leapDay = GregorianDays.isLeapYear(year) && number >= 60 ? 1 : 0
      return newYear + number - 1 + leapDay
    case .zeroBased(let number):
      return newYear + number
    case .monthWeekDay(let month, let week, let weekday):
      let first = GregorianDays.days(year: year, month: month, day: 1)
      let firstMatch = first + (weekday - GregorianDays.weekday(days: first) + 7) % 7
      var result = firstMatch + (week - 1) * 7
      let last = first + GregorianDays.daysInMonth(year: year, month: month) - 1
      while result > last { result -= 7 }
      return result
    }
  }

  /// The Gregorian year of a number of wall seconds since 1970.
  private static func year(of wall: Int64) -> Int {
    let days = wall >= 0 ? wall / 86_400 : (wall - 86_399) / 86_400
    return GregorianDays.date(days: Int(days)).year
  }
}

// MARK: - Parsing

extension PosixZoneRule {
  /// Reads a POSIX `TZ` string; the error says what is wrong where.
  init(parsing text: String) throws(ZoneRulesError) {
    var reader = PosixReader(text: text)
    self = try reader.rule()
  }
}

/// A cursor over the bytes of a POSIX `TZ` string.
private struct PosixReader {
  let text: String
  let bytes: [UInt8]
  var index = 0

  init(text: String) {
    self.text = text
    self.bytes = Array(text.utf8)
  }

  func failure(_ reason: String) -> ZoneRulesError {
    .invalidRule(text, reason: reason)
  }

  var current: UInt8? { index < bytes.count ? bytes[index] : nil }

  mutating func take(_ byte: UInt8) -> Bool {
    guard current == byte else { return false }
    index += 1
    return true
  }

  mutating func rule() throws(ZoneRulesError) -> PosixZoneRule {
    guard !bytes.isEmpty else { throw failure("it is empty") }
    guard bytes.count <= 256 else { throw failure("it is longer than 256 characters") }
    let standardName = try name(role: "standard time")
    guard let standardOffset = try offset() else {
      throw failure("the standard time \"\(standardName)\" has no offset (as in EST5)")
    }
    var rule = PosixZoneRule(
      standardName: standardName, standardOffset: standardOffset, daylight: nil)
    if current == nil { return rule }
    let daylightName = try name(role: "daylight saving time")
    let daylightOffset = try offset() ?? standardOffset + 3600
    var start = PosixZoneRule.Transition(
      day: .monthWeekDay(month: 3, week: 2, weekday: 0), time: 7200)
    var end = PosixZoneRule.Transition(
      day: .monthWeekDay(month: 11, week: 1, weekday: 0), time: 7200)
    if current != nil {
      guard take(UInt8(ascii: ",")) else {
        throw failure("expected \",\" and the start rule at position \(index + 1)")
      }
      start = try transition(role: "start")
      guard take(UInt8(ascii: ",")) else {
        throw failure("expected \",\" and the end rule at position \(index + 1)")
      }
      end = try transition(role: "end")
    }
    guard current == nil else {
      throw failure("unexpected text at position \(index + 1)")
    }
    rule.daylight = PosixZoneRule.Daylight(
      name: daylightName, offset: daylightOffset, start: start, end: end)
    return rule
  }

  /// A zone name: three or more letters, or `<…>` holding letters, digits, `+` and `-`.
  mutating func name(role: String) throws(ZoneRulesError) -> String {
    let start = index
    if take(UInt8(ascii: "<")) {
      while let byte = current, byte != UInt8(ascii: ">") {
        guard Self.isLetter(byte) || Self.isDigit(byte) || byte == 43 || byte == 45 else {
          throw failure("the \(role) name has an invalid character at position \(index + 1)")
        }
        index += 1
      }
      guard take(UInt8(ascii: ">")) else { throw failure("the \(role) name has no closing \">\"") }
      guard index - start - 2 >= 3 else {
        throw failure("the \(role) name is shorter than three characters")
      }
      return String(decoding: bytes[(start + 1)..<(index - 1)], as: UTF8.self)
    }
    while let byte = current, Self.isLetter(byte) { index += 1 }
    guard index - start >= 3 else {
      throw failure("expected a \(role) name of three or more letters at position \(start + 1)")
    }
    return String(decoding: bytes[start..<index], as: UTF8.self)
  }

  /// An offset (`[+-]hh[:mm[:ss]]`, west positive) as seconds east of UTC; nil when none is
  /// there.
  mutating func offset() throws(ZoneRulesError) -> Int? {
    guard let byte = current, Self.isDigit(byte) || byte == 43 || byte == 45 else { return nil }
    let seconds = try clockTime(maximumHours: 24, role: "offset")
    return -seconds
  }

  /// `[+-]h[hh][:mm[:ss]]` as signed seconds.
  mutating func clockTime(maximumHours: Int, role: String) throws(ZoneRulesError) -> Int {
    var sign = 1
    if take(UInt8(ascii: "-")) {
      sign = -1
    } else {
      _ = take(UInt8(ascii: "+"))
    }
    guard let hours = number(maxDigits: 3), hours <= maximumHours else {
      throw failure("the \(role) at position \(index + 1) needs hours from 0 to \(maximumHours)")
    }
    var seconds = hours * 3600
    if take(UInt8(ascii: ":")) {
      guard let minutes = number(maxDigits: 2), minutes < 60 else {
        throw failure("the \(role) needs minutes from 00 to 59 at position \(index + 1)")
      }
      seconds += minutes * 60
      if take(UInt8(ascii: ":")) {
        guard let secs = number(maxDigits: 2), secs < 60 else {
          throw failure("the \(role) needs seconds from 00 to 59 at position \(index + 1)")
        }
        seconds += secs
      }
    }
    return sign * seconds
  }

  /// A transition: `Jn`, `n` or `Mm.w.d`, then optionally `/time`.
  mutating func transition(role: String) throws(ZoneRulesError) -> PosixZoneRule.Transition {
    let day: PosixZoneRule.Day
    if take(UInt8(ascii: "J")) {
      guard let number = number(maxDigits: 3), (1...365).contains(number) else {
        throw failure("the \(role) day Jn needs n from 1 to 365")
      }
      day = .julian(number)
    } else if take(UInt8(ascii: "M")) {
      guard let month = number(maxDigits: 2), (1...12).contains(month),
        take(UInt8(ascii: ".")), let week = number(maxDigits: 1), (1...5).contains(week),
        take(UInt8(ascii: ".")), let weekday = number(maxDigits: 1), (0...6).contains(weekday)
      else {
        throw failure(
          "the \(role) day Mm.w.d needs a month 1–12, a week 1–5 and a weekday 0–6")
      }
      day = .monthWeekDay(month: month, week: week, weekday: weekday)
    } else if let number = number(maxDigits: 3) {
      guard number <= 365 else { throw failure("the \(role) day n needs n from 0 to 365") }
      day = .zeroBased(number)
    } else {
      throw failure("expected the \(role) day (Jn, n or Mm.w.d) at position \(index + 1)")
    }
    var time = 7200
    if take(UInt8(ascii: "/")) {
      time = try clockTime(maximumHours: 167, role: "\(role) time")
    }
    return PosixZoneRule.Transition(day: day, time: time)
  }

  /// A decimal number of 1 to `maxDigits` digits.
  mutating func number(maxDigits: Int) -> Int? {
    var value = 0
    var digits = 0
    while digits < maxDigits, let byte = current, Self.isDigit(byte) {
      value = value * 10 + Int(byte - 48)
      digits += 1
      index += 1
    }
    return digits == 0 ? nil : value
  }

  static func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }

  static func isLetter(_ byte: UInt8) -> Bool {
    (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122)
  }
}
