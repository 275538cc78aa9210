import Foundation

/// The due date a new item starts with, the same in the app's form and in `checklists add`.
public enum DefaultDueDate {
  /// `now` rounded up to the next whole hour in `calendar` (`now` itself when on the hour).
  public static func nextWholeHour(after now: Date, calendar: Calendar = .current) -> Date {
    guard let hourStart = calendar.dateInterval(of: .hour, for: now)?.start else { return now }
    if hourStart == now { return now }
    return calendar.date(byAdding: .hour, value: 1, to: hourStart) ?? now
  }
}
