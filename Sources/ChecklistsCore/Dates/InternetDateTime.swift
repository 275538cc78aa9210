import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Reads RFC 3339 date-times (`2026-11-30T11:00:00Z`, `2026-11-30T12:00:00.250+01:00`), as
/// `ISO8601DateFormatter` with `.withInternetDateTime` (and optional fractional seconds) does,
/// without it: white space around is ignored, the offset is `Z` or `±hh:mm` / `±hhmm`, and a
/// day past the month's end rolls over into the next month.
public enum InternetDateTime {
  /// The instant `text` names, or nil when it is not an RFC 3339 date-time.
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
    guard let year = number(4), take("-"), let month = number(2), take("-"),
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
    let days = GregorianDays.days(year: year, month: month, day: day)
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
    return Date(timeIntervalSince1970: Double(seconds) + fraction)
  }
}
