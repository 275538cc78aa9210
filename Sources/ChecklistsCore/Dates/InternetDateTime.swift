import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Reads and writes RFC 3339 date-times (`2026-11-30T11:00:00Z`, `2026-11-30T12:00:00.250+01:00`),
/// as `ISO8601DateFormatter` with `.withInternetDateTime` (and optional fractional seconds) does,
/// without it: white space around is ignored, the offset is `Z` or `±hh:mm` / `±hhmm`, and a
/// day past the month's end rolls over into the next month.
///
/// Dates are in the proleptic Gregorian calendar, as in the plist (Foundation's formatter turns
/// dates before 15 October 1582 into Julian ones). A year outside 1–9999 is written as ISO 8601's
/// expanded year, a sign and at least five digits (`+10000-12-31T23:59:00Z`), which `parse`
/// reads back.
public enum InternetDateTime {
  /// `date` in UTC to the second (rounded down), e.g. `2026-11-30T11:00:00Z`; nil when it is
  /// not finite or more than 31 million years away (a damaged file), which no year of nine
  /// digits holds.
  public static func string(_ date: Date) -> String? {
    let seconds = date.timeIntervalSince1970
    guard seconds.isFinite, abs(seconds) < 1e15 else { return nil }
    let whole = Int(seconds.rounded(.down))
    let days = whole >= 0 ? whole / 86_400 : (whole - 86_399) / 86_400
    let secondOfDay = whole - days * 86_400
    let (year, month, day) = GregorianDays.date(days: days)
    let yearText: String
    if (1...9999).contains(year) {
      yearText = WallComponents.padded(year, 4)
    } else {
      yearText = (year < 0 ? "-" : "+") + WallComponents.padded(abs(year), 5)
    }
    return yearText + "-" + WallComponents.padded(month, 2) + "-" + WallComponents.padded(day, 2)
      + "T" + WallComponents.padded(secondOfDay / 3600, 2) + ":"
      + WallComponents.padded(secondOfDay / 60 % 60, 2) + ":"
      + WallComponents.padded(secondOfDay % 60, 2) + "Z"
  }

  /// The instant `text` names, or nil when it is not an RFC 3339 date-time (or one with an
  /// expanded year, as `string` writes).
  public static func parse(_ text: String) -> Date? {
    let bytes = Array(text.trimmingWhitespace().utf8)
    var index = 0
    func number(_ width: Int) -> Int? {
      guard index + width <= bytes.count else { return nil }
      var value = 0
      for byte in bytes[index..<(index + width)] {
        guard byte >= 0x30, byte <= 0x39 else { return nil }
        value = value * 10 + Int(byte - 0x30)
      }
      index += width
      return value
    }
    func take(_ character: Character) -> Bool {
      guard index < bytes.count, let ascii = character.asciiValue, bytes[index] == ascii
      else { return false }
      index += 1
      return true
    }
    // An expanded year: a sign, then five digits or more.
    var expandedSign = 0
    if take("+") {
      expandedSign = 1
    } else if take("-") {
      expandedSign = -1
    }
    var yearDigits = 4
    if expandedSign != 0 {
      var end = index
      while end < bytes.count, bytes[end] >= 0x30, bytes[end] <= 0x39 { end += 1 }
      yearDigits = end - index
      guard (5...9).contains(yearDigits) else { return nil }
    }
    guard let unsignedYear = number(yearDigits), take("-"), let month = number(2), take("-"),
      let day = number(2), take("T"), let hour = number(2), take(":"), let minute = number(2),
      take(":"), let second = number(2), (1...12).contains(month), (1...31).contains(day),
      hour < 24, minute < 60, second < 60
    else { return nil }
    var fraction = 0.0
    if take(".") {
      var scale = 0.1
      let start = index
      while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
        fraction += Double(bytes[index] - 0x30) * scale
        scale /= 10
        index += 1
      }
      guard index > start else { return nil }
    }
    var offset = 0
    if !take("Z") {
      let sign: Int
      if take("+") {
        sign = 1
      } else if take("-") {
        sign = -1
      } else {
        return nil
      }
      guard let hours = number(2) else { return nil }
      _ = take(":")
      guard let minutes = number(2), hours < 24, minutes < 60 else { return nil }
      offset = sign * (hours * 3600 + minutes * 60)
    }
    guard index == bytes.count else { return nil }
    let year = expandedSign < 0 ? -unsignedYear : unsignedYear
    let days = GregorianDays.days(year: year, month: month, day: day)
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
    return Date(timeIntervalSince1970: Double(seconds) + fraction)
  }
}
