import FoundationEssentials

/// The instants date arithmetic works in. A damaged or hand-made binary file can hold any
/// finite number as a due date; taken as the nearer end of this range, no such date makes a
/// conversion to an integer overflow.
public enum DateLimits {
  /// About 31 million years either side of 1970, in seconds since 1970.
  public static let seconds: ClosedRange<Double> = -1e15...1e15

  /// The first instant of the year 1 and of the year 10000 (UTC), in seconds since 1970.
  static let writableYears: Range<Double> = -62_135_596_800..<253_402_300_800

  /// `date` in seconds since 1970, within `seconds` (the nearer end beyond it; 0 for a date
  /// that is not a number).
  public static func secondsSince1970(_ date: Date) -> Double {
    let value = date.timeIntervalSince1970
    guard !value.isNaN else { return 0 }
    return min(max(value, seconds.lowerBound), seconds.upperBound)
  }

  /// `secondsSince1970(date)` rounded down to a whole second.
  public static func wholeSecondsSince1970(_ date: Date) -> Int64 {
    Int64(secondsSince1970(date).rounded(.down))
  }

  /// Whether `date` lies in the years 1–9999 (UTC), which XML plists and iCalendar can write.
  public static func isInWritableYears(_ date: Date) -> Bool {
    writableYears.contains(date.timeIntervalSince1970)
  }
}
