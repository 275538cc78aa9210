import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Dates as fixed numeric text in a given time zone: the one place these formats are written.
public enum DateStamp {
  /// "2026-12-24 18:00": dates in the plain output of the commands.
  public static let minutes = "yyyy-MM-dd HH:mm"
  /// "2026-12-24 18:00:05": times in the conflict log.
  public static let seconds = "yyyy-MM-dd HH:mm:ss"
  /// "20261224-180005": times in file names.
  public static let fileName = "yyyyMMdd-HHmmss"

  /// `date` in `timeZone` as `format`: `yyyy`, `MM`, `dd`, `HH`, `mm` and `ss` are replaced by
  /// the zero-padded year, month, day, hour (00–23), minute and second; other characters stay.
  public static func string(_ date: Date, timeZone: ZoneRules, format: String) -> String {
    let parts = ZonedWallClock(timeZone: timeZone).components(of: date)
    var result = ""
    var rest = Substring(format)
    let fields: [(String, Int, Int)] = [
      ("yyyy", parts.year, 4), ("MM", parts.month, 2), ("dd", parts.day, 2),
      ("HH", parts.hour, 2), ("mm", parts.minute, 2), ("ss", parts.second, 2),
    ]
    next: while let first = rest.first {
      for (pattern, value, width) in fields where rest.hasPrefix(pattern) {
        result += WallComponents.padded(value, width)
        rest = rest.dropFirst(pattern.count)
        continue next
      }
      result.append(first)
      rest = rest.dropFirst()
    }
    return result
  }
}
