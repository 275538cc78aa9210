import Foundation

/// How the app looks and sounds in this terminal.
public struct AppOptions: Sendable {
  /// Draw ASCII stand-ins (`[x]`, `[groc]`) instead of symbols and emoji.
  public var asciiGlyphs: Bool
  /// Ring the bell when a reminder fires.
  public var bellEnabled: Bool
  /// The calendar and time zone due dates are read and shown in.
  public var calendar: Calendar

  /// Creates options; the defaults are symbols, bell on, the user's calendar.
  public init(asciiGlyphs: Bool = false, bellEnabled: Bool = true, calendar: Calendar = .current) {
    self.asciiGlyphs = asciiGlyphs
    self.bellEnabled = bellEnabled
    self.calendar = calendar
  }
}
