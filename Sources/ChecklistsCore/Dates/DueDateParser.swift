import Foundation

/// Why a typed due date could not be read.
public struct DueDateParseError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What to show the user.
  public var message: String

  /// Creates an error.
  public init(_ message: String) { self.message = message }

  /// The message.
  public var description: String { message }
}

/// Reads what a user types for a due date ("2026-12-24 18:00", "tomorrow 9am", "+2h", …).
public struct DueDateParser: Sendable {
  /// The calendar (with its time zone) the input is read in.
  public var calendar: Calendar

  /// Creates a parser for a calendar; the default is the user's, in the local time zone.
  public init(calendar: Calendar = .current) {
    self.calendar = calendar
  }

  /// The date `text` means, relative to `now`.
  public func parse(_ text: String, now: Date) throws(DueDateParseError) -> Date {
    // Placeholder: the full grammar replaces it.
    let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
    if trimmed == "today" || trimmed == "now" { return now }
    throw DueDateParseError("cannot read \"\(text)\" as a date")
  }
}
