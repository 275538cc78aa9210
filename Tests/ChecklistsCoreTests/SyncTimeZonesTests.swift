import Foundation
import Testing

@testable import ChecklistsCore

/// A calendar holding one VTIMEZONE made of `body`.
private func zones(_ tzid: String, _ body: String) throws -> ICalendarZones {
  let text = "BEGIN:VCALENDAR\nBEGIN:VTIMEZONE\nTZID:\(tzid)\n\(body)END:VTIMEZONE\nEND:VCALENDAR\n"
  return ICalendarZones(calendar: try #require(ICalendar.parse(text).first))
}

/// The instants (every 25 hours from `from` to `to`, both years' 1 January, so that each hour of
/// the day comes round) where two zones' offsets differ; the first five.
private func differences(_ a: ZoneRules, _ b: ZoneRules, from: Int, to: Int) -> [Int64] {
  let start = Int64(GregorianDays.days(year: from, month: 1, day: 1)) * 86_400
  let end = Int64(GregorianDays.days(year: to, month: 1, day: 1)) * 86_400
  var result: [Int64] = []
  var instant = start
  while instant < end && result.count < 5 {
    if a.secondsFromGMT(at: instant) != b.secondsFromGMT(at: instant) { result.append(instant) }
    instant += 25 * 3600
  }
  return result
}

@Suite("Sync: the zones a calendar file's TZIDs name")
struct SyncTimeZonesTests {
  static let berlinRules = """
    BEGIN:DAYLIGHT
    TZOFFSETFROM:+0100
    TZOFFSETTO:+0200
    DTSTART:19810329T020000
    RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3
    END:DAYLIGHT
    BEGIN:STANDARD
    TZOFFSETFROM:+0200
    TZOFFSETTO:+0100
    DTSTART:19961027T030000
    RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10
    END:STANDARD

    """

  /// Thunderbird's zone for Berlin says what the database says, up to 2100 and past it (the
  /// POSIX rule the two yearly rules make).
  @Test func aVTimezoneWithYearlyRulesIsTheDatabasesZone() throws {
    let defined = try #require(
      try zones("/mozilla.org/20050126_1/Europe/Berlin", Self.berlinRules)
        .rules(forTZID: "/mozilla.org/20050126_1/Europe/Berlin"))
    #expect(defined.databaseName == nil, "the file's own definition, not the database's")
    #expect(differences(defined, DatesFixture.berlin, from: 1997, to: 2160).isEmpty)
  }

  /// Outlook's rules start in 1601 and have no DTSTART on a rule day; Sydney's daylight time
  /// spans the new year; the old form `BYMONTHDAY=8,…,14;BYDAY=SU` is the second Sunday.
  @Test func outlookSouthernAndOldFormRulesAreTheDatabasesToo() throws {
    let outlook = try #require(
      try zones(
        "W. Europe Standard Time",
        """
        BEGIN:STANDARD
        DTSTART:16011028T030000
        RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10
        TZOFFSETFROM:+0200
        TZOFFSETTO:+0100
        END:STANDARD
        BEGIN:DAYLIGHT
        DTSTART:16010325T020000
        RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3
        TZOFFSETFROM:+0100
        TZOFFSETTO:+0200
        END:DAYLIGHT

        """
      ).rules(forTZID: "W. Europe Standard Time"))
    #expect(differences(outlook, DatesFixture.berlin, from: 1997, to: 2160).isEmpty)
    let sydney = try #require(
      try zones(
        "Sydney",
        """
        BEGIN:STANDARD
        DTSTART:20080406T030000
        RRULE:FREQ=YEARLY;BYMONTH=4;BYDAY=1SU
        TZOFFSETFROM:+1100
        TZOFFSETTO:+1000
        END:STANDARD
        BEGIN:DAYLIGHT
        DTSTART:20081005T020000
        RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=1SU
        TZOFFSETFROM:+1000
        TZOFFSETTO:+1100
        END:DAYLIGHT

        """
      ).rules(forTZID: "Sydney"))
    #expect(
      differences(sydney, DatesFixture.zone("Australia/Sydney"), from: 2009, to: 2160).isEmpty)
    let newYork = try #require(
      try zones(
        "US-Eastern",
        """
        BEGIN:DAYLIGHT
        DTSTART:20070311T020000
        RRULE:FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=8,9,10,11,12,13,14;BYDAY=SU
        TZOFFSETFROM:-0500
        TZOFFSETTO:-0400
        END:DAYLIGHT
        BEGIN:STANDARD
        DTSTART:20071104T020000
        RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU
        TZOFFSETFROM:-0400
        TZOFFSETTO:-0500
        END:STANDARD

        """
      ).rules(forTZID: "US-Eastern"))
    #expect(differences(newYork, DatesFixture.newYork, from: 2008, to: 2160).isEmpty)
  }

  /// Rules that end (UNTIL), dates listed one by one (RDATE) and a fixed offset.
  @Test func untilRdatesAndFixedOffsetsAreFollowed() throws {
    let calendar = try zones(
      "Custom",
      """
      BEGIN:DAYLIGHT
      DTSTART:20200329T020000
      RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3;UNTIL=20210328T010000Z
      TZOFFSETFROM:+0100
      TZOFFSETTO:+0200
      END:DAYLIGHT
      BEGIN:STANDARD
      DTSTART:20201025T030000
      RDATE:20211031T030000
      TZOFFSETFROM:+0200
      TZOFFSETTO:+0100
      END:STANDARD

      """)
    let custom = try #require(calendar.rules(forTZID: "Custom"))
    // 2020 and 2021 summers, no more after the rule's end.
    let summer2021 = Int64(GregorianDays.days(year: 2021, month: 7, day: 1)) * 86_400
    let summer2022 = Int64(GregorianDays.days(year: 2022, month: 7, day: 1)) * 86_400
    #expect(custom.secondsFromGMT(at: summer2021) == 7200)
    #expect(custom.secondsFromGMT(at: summer2022) == 3600)
    let fixed = try #require(
      try zones(
        "/softwarestudio.org/Olson_20011030_5/Africa/Douala",
        "BEGIN:STANDARD\nTZOFFSETFROM:+0100\nTZOFFSETTO:+0100\nDTSTART:19700101T000000\nEND:STANDARD\n"
      ).rules(forTZID: "/softwarestudio.org/Olson_20011030_5/Africa/Douala"))
    #expect(fixed.secondsFromGMT(at: summer2022) == 3600)
    // Fixed days (no POSIX rule can say them): listed year by year.
    let fixedDays = try #require(
      try zones(
        "Days",
        """
        BEGIN:DAYLIGHT
        DTSTART:20200322T000000
        RRULE:FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=22
        TZOFFSETFROM:+0330
        TZOFFSETTO:+0430
        END:DAYLIGHT
        BEGIN:STANDARD
        DTSTART:20200922T000000
        RRULE:FREQ=YEARLY;BYMONTH=9;BYMONTHDAY=22
        TZOFFSETFROM:+0430
        TZOFFSETTO:+0330
        END:STANDARD

        """
      ).rules(forTZID: "Days"))
    let day = { (year: Int, month: Int, date: Int) in
      Int64(GregorianDays.days(year: year, month: month, day: date)) * 86_400
    }
    #expect(fixedDays.secondsFromGMT(at: day(2050, 3, 21)) == 12_600)
    #expect(fixedDays.secondsFromGMT(at: day(2050, 3, 23)) == 16_200)
    #expect(fixedDays.secondsFromGMT(at: day(2099, 9, 23)) == 12_600)
  }

  /// Without a VTIMEZONE: a database name, a vendor's name that ends in one, a Windows name (any
  /// case); anything else is nil (read as floating time).
  @Test func namesWithoutAVTimezoneResolveThroughTheDatabaseAndTheWindowsNames() {
    let none = ICalendarZones.none
    #expect(none.rules(forTZID: "Europe/Berlin")?.databaseName == "Europe/Berlin")
    #expect(
      none.rules(forTZID: "/mozilla.org/20070129_1/America/New_York")?.databaseName
        == "America/New_York")
    #expect(
      none.rules(forTZID: "/softwarestudio.org/Olson_20011030_5/Africa/Douala")?.databaseName
        == "Africa/Douala")
    #expect(none.rules(forTZID: "W. Europe Standard Time")?.databaseName == "Europe/Berlin")
    #expect(
      none.rules(forTZID: "aus eastern standard time")?.databaseName == "Australia/Sydney")
    #expect(none.rules(forTZID: "Tokyo Standard Time")?.databaseName == "Asia/Tokyo")
    #expect(none.rules(forTZID: "Nowhere Standard Time") == nil)
    #expect(none.rules(forTZID: "/vendor/1/NotAZone") == nil)
  }

  /// Every zone the Windows names map to is in this system's database.
  @Test func everyWindowsNameMapsToAZoneOfTheDatabase() {
    let missing = WindowsZoneNames.databaseNames.filter { (try? ZoneRules.named($0)) == nil }
    #expect(missing.isEmpty, "\(missing.sorted())")
    #expect(WindowsZoneNames.databaseNames.count > 100)
  }

  /// A TZID the file defines beats the database, even when it is a database name: the file
  /// says what the producer meant.
  @Test func theFilesDefinitionComesFirst() throws {
    let calendar = try zones(
      "Europe/Berlin",
      "BEGIN:STANDARD\nTZOFFSETFROM:+0300\nTZOFFSETTO:+0300\nDTSTART:19700101T000000\nEND:STANDARD\n"
    )
    let property = ICSProperty(
      name: "DUE", parameters: [("TZID", "Europe/Berlin")], value: "20260110T120000")
    let read = try #require(ICalendarDate.parse(property, timeZone: .utc, zones: calendar))
    #expect(TaskFields.seconds(read.date) == 1_768_046_400 - 3 * 3600)
  }
}
