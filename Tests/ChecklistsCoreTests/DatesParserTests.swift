import Foundation
import Testing

@testable import ChecklistsCore

@Suite struct DatesParserTests {
  typealias F = DatesFixture
  let berlin = DueDateParser(timeZone: F.berlin)
  let newYork = DueDateParser(timeZone: F.newYork)

  /// Input typed on Wednesday 16 December 2026 at 14:20 in Berlin, and what it means.
  static let berlinTable: [(String, Date)] = [
    ("2026-12-24 18:00", F.local(F.berlin, 2026, 12, 24, 18, 0)),
    ("2026-12-24", F.local(F.berlin, 2026, 12, 24, 9, 0)),
    ("2028-02-29", F.local(F.berlin, 2028, 2, 29, 9, 0)),
    ("2027-1-5 7:05", F.local(F.berlin, 2027, 1, 5, 7, 5)),
    ("18:00", F.local(F.berlin, 2026, 12, 16, 18, 0)),
    ("14:21", F.local(F.berlin, 2026, 12, 16, 14, 21)),
    ("14:20", F.local(F.berlin, 2026, 12, 17, 14, 20)),
    ("9am", F.local(F.berlin, 2026, 12, 17, 9, 0)),
    ("9:30pm", F.local(F.berlin, 2026, 12, 16, 21, 30)),
    ("12am", F.local(F.berlin, 2026, 12, 17, 0, 0)),
    ("12pm", F.local(F.berlin, 2026, 12, 17, 12, 0)),
    ("12:45pm", F.local(F.berlin, 2026, 12, 17, 12, 45)),
    ("today", F.local(F.berlin, 2026, 12, 16, 9, 0)),
    ("tomorrow", F.local(F.berlin, 2026, 12, 17, 9, 0)),
    ("tomorrow 9am", F.local(F.berlin, 2026, 12, 17, 9, 0)),
    ("yesterday", F.local(F.berlin, 2026, 12, 15, 9, 0)),
    ("yesterday 18:00", F.local(F.berlin, 2026, 12, 15, 18, 0)),
    ("today 18:00", F.local(F.berlin, 2026, 12, 16, 18, 0)),
    ("today 8:00", F.local(F.berlin, 2026, 12, 16, 8, 0)),
    ("18:00 tomorrow", F.local(F.berlin, 2026, 12, 17, 18, 0)),
    ("fri 17:00", F.local(F.berlin, 2026, 12, 18, 17, 0)),
    ("friday", F.local(F.berlin, 2026, 12, 18, 9, 0)),
    ("thu", F.local(F.berlin, 2026, 12, 17, 9, 0)),
    ("Thursday", F.local(F.berlin, 2026, 12, 17, 9, 0)),
    ("sun", F.local(F.berlin, 2026, 12, 20, 9, 0)),
    ("tue", F.local(F.berlin, 2026, 12, 22, 9, 0)),
    ("wed", F.local(F.berlin, 2026, 12, 23, 9, 0)),
    ("wednesday 8am", F.local(F.berlin, 2026, 12, 23, 8, 0)),
    ("+30m", F.local(F.berlin, 2026, 12, 16, 14, 50)),
    ("+2h", F.local(F.berlin, 2026, 12, 16, 16, 20)),
    ("+3d", F.local(F.berlin, 2026, 12, 19, 14, 20)),
    ("+1w", F.local(F.berlin, 2026, 12, 23, 14, 20)),
    ("+ 2h", F.local(F.berlin, 2026, 12, 16, 16, 20)),
    ("now", F.berlinNow),
    ("  TOMORROW   9 AM ", F.local(F.berlin, 2026, 12, 17, 9, 0)),
    ("Fri\t5:00PM", F.local(F.berlin, 2026, 12, 18, 17, 0)),
    ("NOW", F.berlinNow),
    ("+2 h", F.local(F.berlin, 2026, 12, 16, 16, 20)),
    ("+30 min", F.local(F.berlin, 2026, 12, 16, 14, 50)),
    ("+ 2 hours", F.local(F.berlin, 2026, 12, 16, 16, 20)),
    ("in 2 hours", F.local(F.berlin, 2026, 12, 16, 16, 20)),
    ("in 30 min", F.local(F.berlin, 2026, 12, 16, 14, 50)),
    ("in 1 minute", F.local(F.berlin, 2026, 12, 16, 14, 21)),
    ("in 2h", F.local(F.berlin, 2026, 12, 16, 16, 20)),
    ("in 3 days", F.local(F.berlin, 2026, 12, 19, 14, 20)),
    ("in 1 week", F.local(F.berlin, 2026, 12, 23, 14, 20)),
    ("tomorrow noon", F.local(F.berlin, 2026, 12, 17, 12, 0)),
    ("noon", F.local(F.berlin, 2026, 12, 17, 12, 0)),
    ("eod", F.local(F.berlin, 2026, 12, 16, 23, 59)),
    ("fri eod", F.local(F.berlin, 2026, 12, 18, 23, 59)),
    ("next thu", F.local(F.berlin, 2026, 12, 24, 9, 0)),
    ("next fri 17:00", F.local(F.berlin, 2026, 12, 25, 17, 0)),
    ("next wed", F.local(F.berlin, 2026, 12, 23, 9, 0)),
    ("next sunday", F.local(F.berlin, 2026, 12, 27, 9, 0)),
    ("Next  Monday", F.local(F.berlin, 2026, 12, 21, 9, 0)),
    ("next week", F.local(F.berlin, 2026, 12, 21, 9, 0)),
    ("next week 18:00", F.local(F.berlin, 2026, 12, 21, 18, 0)),
    ("next month", F.local(F.berlin, 2027, 1, 1, 9, 0)),
    ("8am next month", F.local(F.berlin, 2027, 1, 1, 8, 0)),
  ]

  @Test(arguments: berlinTable)
  func readsEachForm(input: String, expected: Date) throws {
    #expect(try berlin.parse(input, now: F.berlinNow) == expected)
  }

  /// Input typed on 16 December 2026 at 14:20 in Berlin, and the error shown.
  static let invalidTable: [(String, String)] = [
    ("2026-13-40", "cannot read \"2026-13-40\": month 13 does not exist"),
    ("2026-00-10", "cannot read \"2026-00-10\": month 0 does not exist"),
    ("2026-02-30", "cannot read \"2026-02-30\": February 2026 has 28 days, not 30"),
    ("2027-04-31 9am", "cannot read \"2027-04-31\": April 2027 has 30 days, not 31"),
    ("0000-01-01", "cannot read \"0000-01-01\": year 0 does not exist"),
    ("xyz", "cannot read \"xyz\" as a date; try 2026-12-24 18:00, tomorrow 9am, fri, +2h"),
    ("  xyz  ", "cannot read \"xyz\" as a date; try 2026-12-24 18:00, tomorrow 9am, fri, +2h"),
    ("9", "cannot read \"9\" as a date; try 2026-12-24 18:00, tomorrow 9am, fri, +2h"),
    ("fri xyz", "cannot read \"xyz\" as a date; try 2026-12-24 18:00, tomorrow 9am, fri, +2h"),
    ("", "no due date given; try 2026-12-24 18:00, tomorrow 9am, fri, +2h"),
    ("   ", "no due date given; try 2026-12-24 18:00, tomorrow 9am, fri, +2h"),
    ("25:00", "cannot read \"25:00\": hour 25 does not exist"),
    ("18:75", "cannot read \"18:75\": minute 75 does not exist"),
    ("9:5", "cannot read \"9:5\": write minutes with two digits, e.g. 9:05"),
    ("13pm", "cannot read \"13pm\": with am or pm the hour goes from 1 to 12"),
    ("0am", "cannot read \"0am\": with am or pm the hour goes from 1 to 12"),
    ("today tomorrow", "cannot read \"today tomorrow\": give one date and one time at most"),
    (" today  tomorrow\n", "cannot read \"today  tomorrow\": give one date and one time at most"),
    (
      "2026-012-01",
      "cannot read \"2026-012-01\" as a date; try 2026-12-24 18:00, tomorrow 9am, fri, +2h"
    ),
    ("next", "cannot read \"next\": say what comes next, e.g. next fri, next week, next month"),
    (
      "next year",
      "cannot read \"next year\": after next give a weekday, week or month, e.g. next fri"
    ),
    ("in", "cannot read \"in\": give a number and a unit after it, e.g. in 30 min, in 2 hours"),
    (
      "in soon",
      "cannot read \"in\": give a number and a unit after it, e.g. in 30 min, in 2 hours"
    ),
    ("in 2", "cannot read \"+2\": use m, h, d or w after the number, e.g. +30m, +2h, +3d, +1w"),
    (
      "+2 years",
      "cannot read \"+2years\": use m, h, d or w after the number, e.g. +30m, +2h, +3d, +1w"
    ),
    ("9am 10am", "cannot read \"9am 10am\": give one date and one time at most"),
    ("+3y", "cannot read \"+3y\": use m, h, d or w after the number, e.g. +30m, +2h, +3d, +1w"),
    ("+m", "cannot read \"+m\": put a number after +, e.g. +30m, +2h, +3d, +1w"),
    ("+9999999d", "cannot read \"+9999999d\": 9999999 is too far ahead"),
    ("+999999w", "cannot read \"+999999w\": that is after the year 9999"),
    ("+2h tomorrow", "cannot read \"+2h\" as a date; try 2026-12-24 18:00, tomorrow 9am, fri, +2h"),
  ]

  @Test(arguments: invalidTable)
  func rejectsWithAHelpfulMessage(input: String, message: String) {
    #expect(throws: DueDateParseError(message)) {
      try berlin.parse(input, now: F.berlinNow)
    }
  }

  @Test func sameInputMeansTheWallTimeOfEachTimeZone() throws {
    let now = F.utc(2026, 12, 16, 13, 20)
    #expect(try newYork.parse("2026-12-24 18:00", now: now) == F.utc(2026, 12, 24, 23, 0))
    #expect(try berlin.parse("2026-12-24 18:00", now: now) == F.utc(2026, 12, 24, 17, 0))
    // 08:20 in New York: 9am is still ahead there, passed in Berlin (14:20).
    #expect(try newYork.parse("9am", now: now) == F.utc(2026, 12, 16, 14, 0))
    #expect(try berlin.parse("9am", now: now) == F.utc(2026, 12, 17, 8, 0))
  }

  // MARK: - Clock changes

  @Test func berlinSpringForward() throws {
    let saturday = F.local(F.berlin, 2026, 3, 28, 10, 0)  // 09:00 UTC, CET
    // Days keep the wall time: one day later is 10:00 CEST, only 23 hours later.
    let plusDay = try berlin.parse("+1d", now: saturday)
    #expect(plusDay == F.utc(2026, 3, 29, 8, 0))
    #expect(plusDay.timeIntervalSince(saturday) == 23 * 3600)
    #expect(try berlin.parse("tomorrow 10:00", now: saturday) == plusDay)
    // Hours are elapsed time: 01:30 CET + 2h is 04:30 CEST.
    let early = F.utc(2026, 3, 29, 0, 30)
    #expect(try berlin.parse("+2h", now: early) == F.utc(2026, 3, 29, 2, 30))
    // 02:00–02:59 do not exist that day: they mean 03:00 CEST, the next valid time.
    #expect(try berlin.parse("tomorrow 2:30", now: saturday) == F.utc(2026, 3, 29, 1, 0))
    #expect(try berlin.parse("2026-03-29 02:00", now: saturday) == F.utc(2026, 3, 29, 1, 0))
    #expect(try berlin.parse("2026-03-29 01:59", now: saturday) == F.utc(2026, 3, 29, 0, 59))
    #expect(try berlin.parse("2026-03-29 03:00", now: saturday) == F.utc(2026, 3, 29, 1, 0))
    // A time alone that falls in the gap later today.
    #expect(try berlin.parse("2:15", now: F.utc(2026, 3, 29, 0, 10)) == F.utc(2026, 3, 29, 1, 0))
  }

  @Test func berlinFallBack() throws {
    let saturday = F.local(F.berlin, 2026, 10, 24, 10, 0)  // 08:00 UTC, CEST
    let plusDay = try berlin.parse("+1d", now: saturday)
    #expect(plusDay == F.utc(2026, 10, 25, 9, 0))
    #expect(plusDay.timeIntervalSince(saturday) == 25 * 3600)
    // 02:30 happens twice: the first (CEST) one is meant.
    #expect(try berlin.parse("2026-10-25 02:30", now: saturday) == F.utc(2026, 10, 25, 0, 30))
    #expect(try berlin.parse("2026-10-25 03:00", now: saturday) == F.utc(2026, 10, 25, 2, 0))
    let tuesday = F.local(F.berlin, 2026, 10, 20, 12, 0)
    #expect(try berlin.parse("+1w", now: tuesday) == F.utc(2026, 10, 27, 11, 0))
  }

  @Test func newYorkSpringForward() throws {
    let saturdayEvening = F.local(F.newYork, 2026, 3, 7, 21, 0)  // 02:00 UTC on the 8th, EST
    #expect(try newYork.parse("9am", now: saturdayEvening) == F.utc(2026, 3, 8, 13, 0))
    #expect(try newYork.parse("+1d", now: saturdayEvening) == F.utc(2026, 3, 9, 1, 0))
    #expect(try newYork.parse("2026-03-08 02:30", now: saturdayEvening) == F.utc(2026, 3, 8, 7, 0))
    #expect(try newYork.parse("sun 1:59am", now: saturdayEvening) == F.utc(2026, 3, 8, 6, 59))
  }

  @Test func newYorkFallBack() throws {
    let saturday = F.local(F.newYork, 2026, 10, 31, 9, 0)  // 13:00 UTC, EDT
    #expect(try newYork.parse("+1d", now: saturday) == F.utc(2026, 11, 1, 14, 0))
    #expect(try newYork.parse("2026-11-01 01:30", now: saturday) == F.utc(2026, 11, 1, 5, 30))
    #expect(try newYork.parse("tomorrow 2am", now: saturday) == F.utc(2026, 11, 1, 7, 0))
    // At 01:45 EDT the first 01:30 has passed but the second (EST) one is still ahead.
    let duringFirstHour = F.utc(2026, 11, 1, 5, 45)
    #expect(try newYork.parse("1:30", now: duringFirstHour) == F.utc(2026, 11, 1, 6, 30))
    #expect(try newYork.parse("1:50", now: duringFirstHour) == F.utc(2026, 11, 1, 5, 50))
    #expect(try newYork.parse("today 1:30", now: duringFirstHour) == F.utc(2026, 11, 1, 5, 30))
  }

  // MARK: - Ends of months and years

  @Test func endOfYear() throws {
    let newYearsEve = F.local(F.berlin, 2026, 12, 31, 15, 0)  // a Thursday
    #expect(try berlin.parse("tomorrow", now: newYearsEve) == F.local(F.berlin, 2027, 1, 1, 9, 0))
    #expect(try berlin.parse("+1d", now: newYearsEve) == F.local(F.berlin, 2027, 1, 1, 15, 0))
    #expect(try berlin.parse("fri", now: newYearsEve) == F.local(F.berlin, 2027, 1, 1, 9, 0))
    #expect(try berlin.parse("9am", now: newYearsEve) == F.local(F.berlin, 2027, 1, 1, 9, 0))
    #expect(try berlin.parse("thu", now: newYearsEve) == F.local(F.berlin, 2027, 1, 7, 9, 0))
  }

  @Test func endOfMonth() throws {
    let january = F.local(F.berlin, 2026, 1, 28, 10, 0)
    #expect(try berlin.parse("+1w", now: january) == F.local(F.berlin, 2026, 2, 4, 10, 0))
    let leapDayEve = F.local(F.berlin, 2028, 2, 28, 10, 0)
    #expect(try berlin.parse("tomorrow", now: leapDayEve) == F.local(F.berlin, 2028, 2, 29, 9, 0))
    let april = F.local(F.newYork, 2026, 4, 30, 23, 30)
    #expect(try newYork.parse("tomorrow 8am", now: april) == F.local(F.newYork, 2026, 5, 1, 8, 0))
  }

  @Test func weekdayIsTheComingOne() throws {
    let sunday = F.local(F.berlin, 2026, 12, 20, 8, 0)
    let expected = [
      ("sun", 20), ("mon", 21), ("tue", 22), ("wed", 23), ("thu", 24), ("fri", 25), ("sat", 26),
    ]
    for (name, day) in expected {
      #expect(try berlin.parse(name, now: sunday) == F.local(F.berlin, 2026, 12, day, 9, 0))
    }
    // Sunday ends the week: next week's days are the coming ones, but for Sunday itself.
    for (name, day) in expected {
      let nextWeek = name == "sun" ? 27 : day
      #expect(
        try berlin.parse("next " + name, now: sunday)
          == F.local(F.berlin, 2026, 12, nextWeek, 9, 0))
    }
    #expect(try berlin.parse("next week", now: sunday) == F.local(F.berlin, 2026, 12, 21, 9, 0))
  }

  /// Today's weekday means today while the time is still ahead (as Reminders and taskwarrior
  /// read it), else a week later; `next` is always next week's.
  @Test func todaysWeekdayIsTodayWhileItsTimeIsAhead() throws {
    let thursday = F.local(F.berlin, 2026, 12, 17, 17, 8)
    #expect(try berlin.parse("thu 7pm", now: thursday) == F.local(F.berlin, 2026, 12, 17, 19, 0))
    #expect(
      try berlin.parse("thursday 17:09", now: thursday) == F.local(F.berlin, 2026, 12, 17, 17, 9))
    #expect(try berlin.parse("thu 17:08", now: thursday) == F.local(F.berlin, 2026, 12, 24, 17, 8))
    #expect(try berlin.parse("thu 5pm", now: thursday) == F.local(F.berlin, 2026, 12, 24, 17, 0))
    #expect(try berlin.parse("thu", now: thursday) == F.local(F.berlin, 2026, 12, 24, 9, 0))
    #expect(
      try berlin.parse("next thu 7pm", now: thursday) == F.local(F.berlin, 2026, 12, 24, 19, 0))
    #expect(try berlin.parse("thu eod", now: thursday) == F.local(F.berlin, 2026, 12, 17, 23, 59))
    let morning = F.local(F.berlin, 2026, 12, 17, 8, 0)
    #expect(try berlin.parse("thu", now: morning) == F.local(F.berlin, 2026, 12, 17, 9, 0))
    #expect(try berlin.parse("next thu", now: morning) == F.local(F.berlin, 2026, 12, 24, 9, 0))
    #expect(try berlin.parse("next week", now: morning) == F.local(F.berlin, 2026, 12, 21, 9, 0))
    // The last month of a year and a Monday.
    let monday = F.local(F.berlin, 2026, 12, 28, 10, 0)
    #expect(try berlin.parse("next week", now: monday) == F.local(F.berlin, 2027, 1, 4, 9, 0))
    #expect(try berlin.parse("next mon", now: monday) == F.local(F.berlin, 2027, 1, 4, 9, 0))
    #expect(try berlin.parse("next month", now: monday) == F.local(F.berlin, 2027, 1, 1, 9, 0))
    let january = F.local(F.berlin, 2027, 1, 31, 10, 0)
    #expect(try berlin.parse("next month", now: january) == F.local(F.berlin, 2027, 2, 1, 9, 0))
  }

  // MARK: - Durations

  @Test func durations() {
    #expect(DueDateParser.parseDuration("30m") == 1800)
    #expect(DueDateParser.parseDuration("2h") == 7200)
    #expect(DueDateParser.parseDuration("3d") == 259_200)
    #expect(DueDateParser.parseDuration("1w") == 604_800)
    #expect(DueDateParser.parseDuration(" +2H ") == 7200)
    #expect(DueDateParser.parseDuration("0m") == 0)
    #expect(DueDateParser.parseDuration("2") == nil)
    #expect(DueDateParser.parseDuration("2y") == nil)
    #expect(DueDateParser.parseDuration("h") == nil)
    #expect(DueDateParser.parseDuration("") == nil)
    #expect(DueDateParser.parseDuration("-2h") == nil)
  }
}
