import Foundation
import Testing

@testable import ChecklistsCore

/// RFC 3339 date-times (`CHECKLISTS_NOW`, imported due dates) read as Foundation's
/// `ISO8601DateFormatter` read them, with and without fractional seconds.
@Suite struct DatesInternetDateTimeTests {
  static let inputs = [
    "2026-11-30T11:00:00Z", "2026-11-30T11:00:00+01:00", "2026-11-30T11:00:00+0100",
    "2026-11-30T11:00:00.250Z", "2026-11-30T11:00:00.5+05:45", "2026-11-30T11:00:00-00:30",
    " 2026-11-30T11:00:00Z\n", "2026-02-30T11:00:00Z", "2028-02-29T23:59:59-12:00",
    "1969-12-31T23:59:59Z", "1900-01-01T00:00:00Z", "2100-12-31T23:59:59.999Z",
    "2026-11-30 11:00:00Z", "2026-11-30T11:00Z", "2026-11-30T11:00:00", "2026-11-30T25:00:00Z",
    "20261130T110000Z", "2026-13-01T00:00:00Z", "2026-00-10T00:00:00Z", "2026-11-00T00:00:00Z",
    "2026-11-32T00:00:00Z", "2026-11-30T11:60:00Z", "2026-11-30T11:00:60Z",
    "2026-11-30T11:00:00.Z", "", "now",
  ]

  /// Foundation takes a one-digit offset hour and ignores anything after `Z`; we refuse both,
  /// so a mistyped date is an error rather than a guess.
  @Test func laxFormsFoundationTakesAreRefused() {
    #expect(ISO8601DateFormatter().date(from: "2026-11-30T11:00:00Zjunk") != nil)
    #expect(InternetDateTime.parse("2026-11-30T11:00:00Zjunk") == nil)
    #expect(InternetDateTime.parse("2026-11-30T11:00:00+1") == nil)
  }

  @Test(arguments: inputs)
  func readsAsISO8601DateFormatterDoes(text: String) {
    let plain = ISO8601DateFormatter()
    let fractional = ISO8601DateFormatter()
    fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    let expected = plain.date(from: text) ?? fractional.date(from: text)
    let ours = InternetDateTime.parse(text)
    #expect(
      ours?.timeIntervalSince1970 == expected?.timeIntervalSince1970,
      "\"\(text)\": ours \(String(describing: ours)), Foundation \(String(describing: expected))")
  }

  /// Written dates are proleptic Gregorian, as the plist's, and read back to the second, in
  /// every year a due date can take; years past 9999 (or before 1) use the expanded form.
  @Test(arguments: [
    ("0001-01-01T00:00:00Z", -62_135_596_800.0), ("1500-06-01T09:00:00Z", -14_818_690_800),
    ("1582-10-10T00:00:00Z", -12_219_724_800), ("1970-01-01T00:00:00Z", 0),
    ("2026-12-02T21:05:07Z", 1_796_245_507.75), ("9999-12-31T23:59:00Z", 253_402_300_740),
    ("+10000-12-31T23:59:00Z", 253_433_923_140), ("-00001-12-31T00:00:00Z", -62_167_305_600),
  ])
  func writesWhatItReads(text: String, seconds: Double) throws {
    let date = Date(timeIntervalSince1970: seconds)
    #expect(InternetDateTime.string(date) == text)
    let read = try #require(InternetDateTime.parse(text))
    #expect(read.timeIntervalSince1970 == seconds.rounded(.down))
    if seconds >= -12_219_292_800, seconds < 253_402_300_800 {
      // From 15 October 1582 to the end of 9999, as Foundation writes them.
      #expect(ISO8601DateFormatter().string(from: date) == text)
    }
  }

  @Test func expandedYearsNeedASignAndFiveDigits() {
    #expect(InternetDateTime.string(Date(timeIntervalSince1970: 1e16)) == nil)
    #expect(InternetDateTime.string(Date(timeIntervalSince1970: .nan)) == nil)
    #expect(InternetDateTime.parse("10000-01-01T00:00:00Z") == nil)
    #expect(InternetDateTime.parse("+2026-01-01T00:00:00Z") == nil)
    #expect(InternetDateTime.parse("+1234567890-01-01T00:00:00Z") == nil)
    #expect(
      InternetDateTime.parse("+02026-01-01T00:00:00Z")
        == InternetDateTime.parse("2026-01-01T00:00:00Z"))
  }
}
