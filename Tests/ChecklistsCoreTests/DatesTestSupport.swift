import ChecklistsCore
import Foundation

/// Time zones and instants shared by the date and reminder tests.
enum DatesFixture {
  static let berlin = zone("Europe/Berlin")
  static let newYork = zone("America/New_York")

  /// The rules of a zone of the system's database.
  static func zone(_ name: String) -> ZoneRules {
    do {
      return try ZoneRules.named(name)
    } catch {
      fatalError("the test zone \(name) cannot be read: \(error)")
    }
  }

  /// Foundation's zone of the same name: an independent check of ours.
  static func foundationZone(_ zone: ZoneRules) -> TimeZone {
    guard let timeZone = TimeZone(identifier: zone.identifier) else {
      fatalError("Foundation does not know \(zone.identifier)")
    }
    return timeZone
  }

  /// A Gregorian calendar in `zone`, by Foundation.
  static func calendar(_ zone: ZoneRules, locale: String = "en_US_POSIX") -> Calendar {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = foundationZone(zone)
    calendar.locale = Locale(identifier: locale)
    return calendar
  }

  /// The instant of an unambiguous wall time in `timeZone`, computed by Foundation.
  static func local(
    _ timeZone: ZoneRules, _ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0,
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
    local(.utc, year, month, day, hour, minute, second)
  }

  /// Wednesday 16 December 2026, 14:20 in Berlin: the usual `now`.
  static let berlinNow = local(berlin, 2026, 12, 16, 14, 20)
}
