import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The due date a new item starts with, the same in the app's form and in `checklists add`.
public enum DefaultDueDate {
  /// `now` rounded up to the next whole hour of the wall clock in `timeZone` (`now` itself when
  /// on the hour); in a zone whose offset is not whole hours (Kathmandu, +5:45) that is the
  /// local hour, not UTC's.
  ///
  /// It is the first time after `now` that the clock shows a whole hour, which is not always
  /// less than 3,600 seconds on: where clocks move by half an hour (Lord Howe Island) 01:45
  /// goes to 02:00 after the clocks went back from 02:00 to 01:30, and to 03:00 when they skip
  /// from 02:00 to 02:30; at 02:30 before clocks go back from 03:00 to 02:00, it is that 02:00.
  public static func nextWholeHour(after now: Date, timeZone: ZoneRules = .current) -> Date {
    let clock = ZonedWallClock(timeZone: timeZone)
    let wall = clock.wallSeconds(of: now)
    let hour = (wall / 3600).rounded(.down) * 3600
    if hour == wall { return now }
    // Clocks go back by two hours at most, so this hour and the two before can come again;
    // a whole hour is shown within a day in every zone (the bound guards a broken one).
    // Whole hours are whole seconds from 1970 (offsets are whole seconds), so no fraction of
    // `now` can make the result land a hair before the hour.
    var first: Date?
    for step in -2...48 {
      if let first, step > 3 { return first }
      for shown in clock.occurrences(wallSeconds: hour + Double(step) * 3600) where shown > now {
        first = min(first ?? shown, shown)
      }
    }
    return first ?? now.addingTimeInterval(3600)
  }
}
