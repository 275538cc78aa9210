import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The due date a new item starts with, the same in the app's form and in `checklists add`.
public enum DefaultDueDate {
  /// `now` rounded up to the next whole hour of the wall clock in `timeZone` (`now` itself when
  /// on the hour); in a zone whose offset is not whole hours (Kathmandu, +5:45) that is the
  /// local hour, not UTC's.
  public static func nextWholeHour(after now: Date, timeZone: ZoneRules = .current) -> Date {
    let wall = ZonedWallClock(timeZone: timeZone).wallSeconds(of: now)
    let intoHour = wall - (wall / 3600).rounded(.down) * 3600
    if intoHour == 0 { return now }
    // A whole hour is a whole number of seconds from the reference date in every zone (offsets
    // are whole seconds); added up in floating point from a `now` with a fraction it could land
    // a hair before it, which XML (whole seconds, rounded down) wrote as 16:59:59.
    return Date(
      timeIntervalSinceReferenceDate: (now.timeIntervalSinceReferenceDate + 3600 - intoHour)
        .rounded())
  }
}
