import Foundation
import Testing

@testable import ChecklistsCore

@Suite struct DatesFormatterTests {
  typealias F = DatesFixture
  let berlin = DueDateFormatter(timeZone: F.berlin)

  @Test func fullForm() {
    #expect(berlin.full(F.local(F.berlin, 2026, 12, 24, 18, 0)) == "Thu 24 Dec 2026, 18:00")
    #expect(berlin.full(F.local(F.berlin, 2027, 1, 5, 7, 5, 59)) == "Tue 5 Jan 2027, 07:05")
    #expect(berlin.full(F.local(F.berlin, 2028, 2, 29, 0, 0)) == "Tue 29 Feb 2028, 00:00")
    let newYork = DueDateFormatter(timeZone: F.newYork)
    #expect(newYork.full(F.utc(2026, 12, 24, 23, 0)) == "Thu 24 Dec 2026, 18:00")
    #expect(berlin.full(F.utc(2026, 12, 24, 23, 0)) == "Fri 25 Dec 2026, 00:00")
  }

  /// A year before 1 (a damaged file's date) is written with its sign before the zeros: the
  /// year 2 BC (-1) showed as "00-1".
  @Test func yearsBeforeOneKeepTheirSign() {
    let twoBC = Date(timeIntervalSinceReferenceDate: -63_148_636_800)
    let utc = DueDateFormatter(timeZone: .utc)
    #expect(utc.full(twoBC) == "Fri 26 Nov -0001, 00:00")
    #expect(
      DateStamp.string(twoBC, timeZone: .utc, format: "yyyy-MM-dd HH:mm") == "-0001-11-26 00:00")
    #expect(WallComponents.padded(-12, 2) == "-12")
    #expect(WallComponents.padded(7, 2) == "07")
  }

  @Test func fullFormAcrossClockChanges() {
    #expect(berlin.full(F.utc(2026, 3, 29, 0, 59)) == "Sun 29 Mar 2026, 01:59")
    #expect(berlin.full(F.utc(2026, 3, 29, 1, 0)) == "Sun 29 Mar 2026, 03:00")
    #expect(berlin.full(F.utc(2026, 10, 25, 0, 30)) == "Sun 25 Oct 2026, 02:30")
    #expect(berlin.full(F.utc(2026, 10, 25, 1, 30)) == "Sun 25 Oct 2026, 02:30")
  }

  /// Dates shown in a list on Wednesday 16 December 2026 at 14:20 in Berlin.
  static let relativeTable: [(Date, String)] = [
    (F.berlinNow, "now"),
    (F.berlinNow.addingTimeInterval(30), "now"),
    (F.berlinNow.addingTimeInterval(-29), "now"),
    (F.berlinNow.addingTimeInterval(31), "in 1 min"),
    (F.berlinNow.addingTimeInterval(-30), "1 min ago"),
    (F.berlinNow.addingTimeInterval(60), "in 1 min"),
    (F.berlinNow.addingTimeInterval(2 * 60 + 58), "in 3 min"),
    (F.berlinNow.addingTimeInterval(-94), "2 min ago"),
    (F.berlinNow.addingTimeInterval(25 * 60), "in 25 min"),
    (F.berlinNow.addingTimeInterval(25 * 60 + 29), "in 25 min"),
    (F.berlinNow.addingTimeInterval(25 * 60 + 31), "in 26 min"),
    (F.berlinNow.addingTimeInterval(-25 * 60), "25 min ago"),
    (F.berlinNow.addingTimeInterval(59 * 60 + 29), "in 59 min"),
    (F.berlinNow.addingTimeInterval(-(59 * 60 + 29)), "59 min ago"),
    (F.local(F.berlin, 2026, 12, 16, 18, 0), "today 18:00"),
    (F.local(F.berlin, 2026, 12, 16, 9, 0), "today 09:00"),
    (F.local(F.berlin, 2026, 12, 17, 9, 0), "tomorrow 09:00"),
    (F.local(F.berlin, 2026, 12, 17, 0, 0), "tomorrow 00:00"),
    (F.local(F.berlin, 2026, 12, 15, 18, 0), "yesterday 18:00"),
    (F.local(F.berlin, 2026, 12, 18, 17, 0), "Fri 17:00"),
    (F.local(F.berlin, 2026, 12, 22, 17, 0), "Tue 17:00"),
    (F.local(F.berlin, 2026, 12, 23, 17, 0), "Wed 23 Dec 17:00"),
    (F.local(F.berlin, 2026, 12, 24, 18, 0), "Thu 24 Dec 18:00"),
    (F.local(F.berlin, 2026, 12, 14, 18, 0), "Mon 14 Dec 18:00"),
    (F.local(F.berlin, 2026, 1, 1, 9, 0), "Thu 1 Jan 09:00"),
    (F.local(F.berlin, 2027, 12, 24, 18, 0), "24 Dec 2027 18:00"),
    (F.local(F.berlin, 2025, 3, 5, 9, 0), "5 Mar 2025 09:00"),
  ]

  @Test(arguments: relativeTable)
  func relativeForm(date: Date, expected: String) {
    #expect(berlin.relative(date, now: F.berlinNow) == expected)
  }

  /// Two items on one far day read apart (their times); a narrow row takes a shorter form,
  /// the weekday going before the time.
  @Test func farDatesKeepTheirTimeAndNarrowFormsDropTheWeekdayFirst() {
    let morning = F.local(F.berlin, 2026, 12, 24, 8, 0)
    let evening = F.local(F.berlin, 2026, 12, 24, 20, 0)
    #expect(
      berlin.relative(morning, now: F.berlinNow) != berlin.relative(evening, now: F.berlinNow))
    #expect(
      berlin.relativeForms(evening, now: F.berlinNow)
        == ["Thu 24 Dec 20:00", "24 Dec 20:00", "Thu 24 Dec"])
    #expect(
      berlin.relativeForms(F.local(F.berlin, 2027, 12, 24, 18, 0), now: F.berlinNow)
        == ["24 Dec 2027 18:00", "24 Dec 2027"])
    #expect(
      berlin.relativeForms(F.local(F.berlin, 2026, 12, 17, 9, 0), now: F.berlinNow) == [
        "tomorrow 09:00"
      ])
  }

  @Test func minutesWinOverMidnight() {
    let lateEvening = F.local(F.berlin, 2026, 12, 16, 23, 50)
    let soon = F.local(F.berlin, 2026, 12, 17, 0, 20)
    #expect(berlin.relative(soon, now: lateEvening) == "in 30 min")
    #expect(berlin.relative(lateEvening, now: soon) == "30 min ago")
  }

  /// Every change of the relative text falls exactly on an instant `nextChange` names, and the
  /// text holds between two of them (walking second by second around a due date).
  @Test func nextChangeNamesEveryInstantTheTextChanges() {
    let due = F.berlinNow.addingTimeInterval(3 * 3600 + 17.25)
    let end = due.addingTimeInterval(2 * 3600)
    var from = due.addingTimeInterval(-2 * 3600)
    var steps = 0
    while from < end {
      let change = berlin.nextChange(of: due, after: from)
      #expect(change > from)
      let text = berlin.relative(due, now: from)
      let overdue = due <= from
      var instant = from.addingTimeInterval(1)
      while instant < change && instant < end {
        #expect(berlin.relative(due, now: instant) == text, "changed at \(instant)")
        #expect((due <= instant) == overdue)
        instant = instant.addingTimeInterval(1)
      }
      if change < end {
        #expect(berlin.relative(due, now: change) != text || (due <= change) != overdue)
      }
      from = change
      steps += 1
    }
    // 60 steps ahead (the hour mark first), the due instant, 60 behind, then midnight.
    #expect(steps == 122)
  }

  @Test func nextChangeOfAnIdleRow() {
    // Due at 06:42:55, looked at from 06:40:00: "in 3 min" until 06:40:25 (2 min 30 s left).
    let due = F.local(F.berlin, 2026, 12, 16, 6, 42, 55)
    let now = F.local(F.berlin, 2026, 12, 16, 6, 40, 0)
    #expect(berlin.relative(due, now: now) == "in 3 min")
    #expect(berlin.nextChange(of: due, after: now) == F.local(F.berlin, 2026, 12, 16, 6, 40, 25))
    // 06:44:29 is 94 s after: no longer "now".
    #expect(berlin.relative(due, now: F.local(F.berlin, 2026, 12, 16, 6, 44, 29)) == "2 min ago")
    // Far away, the next change is the next midnight.
    let later = F.local(F.berlin, 2026, 12, 20, 9, 0)
    #expect(berlin.nextChange(of: later, after: now) == F.local(F.berlin, 2026, 12, 17, 0, 0))
  }

  @Test func relativeAcrossTheNewYear() {
    let newYearsEve = F.local(F.berlin, 2026, 12, 31, 15, 0)
    #expect(
      berlin.relative(F.local(F.berlin, 2027, 1, 1, 9, 0), now: newYearsEve) == "tomorrow 09:00")
    #expect(berlin.relative(F.local(F.berlin, 2027, 1, 5, 9, 0), now: newYearsEve) == "Tue 09:00")
    #expect(
      berlin.relative(F.local(F.berlin, 2027, 1, 10, 9, 0), now: newYearsEve) == "10 Jan 2027 09:00"
    )
    let newYearsDay = F.local(F.berlin, 2027, 1, 1, 15, 0)
    #expect(berlin.relative(newYearsEve, now: newYearsDay) == "yesterday 15:00")
    #expect(
      berlin.relative(F.local(F.berlin, 2026, 12, 20, 9, 0), now: newYearsDay)
        == "20 Dec 2026 09:00")
  }

  @Test func relativeOnAClockChangeDay() {
    // 23 hours from Saturday 10:00 CET is Sunday 10:00 CEST: tomorrow, by the wall clock.
    let saturday = F.local(F.berlin, 2026, 3, 28, 10, 0)
    #expect(berlin.relative(F.utc(2026, 3, 29, 8, 0), now: saturday) == "tomorrow 10:00")
    #expect(berlin.relative(F.utc(2026, 3, 29, 1, 0), now: saturday) == "tomorrow 03:00")
  }

  @Test func parsedTextReadsBackTheSame() throws {
    let parser = DueDateParser(timeZone: F.berlin)
    let date = try parser.parse("2026-12-24 18:00", now: F.berlinNow)
    #expect(berlin.full(date) == "Thu 24 Dec 2026, 18:00")
    #expect(
      berlin.relative(try parser.parse("fri 17:00", now: F.berlinNow), now: F.berlinNow)
        == "Fri 17:00")
  }
}
