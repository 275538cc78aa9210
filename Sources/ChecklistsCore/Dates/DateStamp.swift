import Foundation

/// Dates as fixed numeric text in a given time zone (POSIX locale): the one place these formats
/// are written.
public enum DateStamp {
  /// "2026-12-24 18:00": dates in the plain output of the commands.
  public static let minutes = "yyyy-MM-dd HH:mm"
  /// "2026-12-24 18:00:05": times in the conflict log.
  public static let seconds = "yyyy-MM-dd HH:mm:ss"
  /// "20261224-180005": times in file names.
  public static let fileName = "yyyyMMdd-HHmmss"

  /// `date` in `timeZone` as `format` (one of the formats above).
  public static func string(_ date: Date, timeZone: TimeZone, format: String) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = timeZone
    formatter.dateFormat = format
    return formatter.string(from: date)
  }
}
