import Foundation

/// Time zones and instants shared by the date and reminder tests.
enum DatesFixture {
  static let berlin = TimeZone(identifier: "Europe/Berlin")!
  static let newYork = TimeZone(identifier: "America/New_York")!

  /// A Gregorian calendar in `timeZone`.
  static func calendar(_ timeZone: TimeZone, locale: String = "en_US_POSIX") -> Calendar {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    calendar.locale = Locale(identifier: locale)
    return calendar
  }

  /// The instant of an unambiguous wall time in `timeZone`, computed by Foundation.
  static func local(
    _ timeZone: TimeZone, _ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0,
    _ minute: Int = 0, _ second: Int = 0
  ) -> Date {
    let components = DateComponents(
      year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    return calendar(timeZone).date(from: components)!
  }

  /// A UTC instant.
  static func utc(
    _ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0
  ) -> Date {
    local(TimeZone(identifier: "UTC")!, year, month, day, hour, minute, second)
  }

  /// Wednesday 16 December 2026, 14:20 in Berlin: the usual `now`.
  static let berlinNow = local(berlin, 2026, 12, 16, 14, 20)
}
