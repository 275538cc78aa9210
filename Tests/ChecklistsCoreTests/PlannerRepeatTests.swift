import Foundation
import Testing

@testable import ChecklistsCore

@Suite("Planner: repeat rules and their date arithmetic")
struct PlannerRepeatTests {
  typealias F = DatesFixture
  let berlin = RepeatSchedule(timeZone: F.berlin)
  let newYork = RepeatSchedule(timeZone: F.newYork)

  @Test(arguments: [
    ("daily", "daily"), ("Weekly", "weekly"), ("weekdays", "weekdays"), ("monthly", "monthly"),
    ("YEARLY", "yearly"), ("every day", "daily"), ("every week", "weekly"),
    ("every weekday", "weekdays"), ("every 3 days", "every 3 days"),
    ("  every   2   weeks ", "every 2 weeks"), ("every 1 days", "daily"),
    ("every 6 months", "every 6 months"), ("every 2 years", "every 2 years"),
    ("every 999 days", "every 999 days"),
  ])
  func rulesAreReadAndWrittenBack(input: String, text: String) throws {
    let rule = try #require(RepeatRule(parsing: input))
    #expect(rule.text == text)
    #expect(RepeatRule(parsing: rule.text) == rule)
  }

  @Test(arguments: [
    "", "never", "every", "every 0 days", "every 1000 days", "every -2 weeks", "every days",
    "every 2 weekdays", "every two weeks", "fortnightly", "every 3 hours", "every ３ days",
  ])
  func nonsenseIsRefused(input: String) {
    #expect(RepeatRule(parsing: input) == nil)
  }

  /// The next `count` due dates after `start`, feeding each step what the last one kept.
  func series(
    _ schedule: RepeatSchedule, _ rule: RepeatRule, from start: Date, count: Int
  ) -> [Date] {
    var item = ChecklistItem(text: "x", dueDate: start, hasDueDate: true, itemID: 1)
    item.repeatRule = rule
    var dates: [Date] = []
    for _ in 0..<count {
      guard let next = schedule.advanced(item) else { break }
      dates.append(next.dueDate)
      item = next
    }
    return dates
  }

  @Test func dailyWeeklyAndEveryNKeepTheWallClockTime() throws {
    let start = F.local(F.berlin, 2026, 12, 30, 18, 15)
    #expect(
      series(berlin, .daily, from: start, count: 3) == [
        F.local(F.berlin, 2026, 12, 31, 18, 15), F.local(F.berlin, 2027, 1, 1, 18, 15),
        F.local(F.berlin, 2027, 1, 2, 18, 15),
      ])
    let everyThree = try #require(RepeatRule(.daily, interval: 3))
    #expect(
      series(berlin, everyThree, from: start, count: 1) == [F.local(F.berlin, 2027, 1, 2, 18, 15)])
    let fortnightly = try #require(RepeatRule(.weekly, interval: 2))
    #expect(
      series(berlin, fortnightly, from: start, count: 2) == [
        F.local(F.berlin, 2027, 1, 13, 18, 15), F.local(F.berlin, 2027, 1, 27, 18, 15),
      ])
  }

  @Test func weekdaysSkipTheWeekend() {
    // Thursday 3 December 2026, 08:00.
    let thursday = F.local(F.newYork, 2026, 12, 3, 8, 0)
    #expect(
      series(newYork, .weekdays, from: thursday, count: 3) == [
        F.local(F.newYork, 2026, 12, 4, 8, 0), F.local(F.newYork, 2026, 12, 7, 8, 0),
        F.local(F.newYork, 2026, 12, 8, 8, 0),
      ])
    // An item due on a Saturday goes to Monday.
    let saturday = F.local(F.newYork, 2026, 12, 5, 8, 0)
    #expect(
      series(newYork, .weekdays, from: saturday, count: 1) == [
        F.local(F.newYork, 2026, 12, 7, 8, 0)
      ])
  }

  @Test func weeklyStaysAtNineAcrossTheAutumnChangeInBothZones() {
    // Berlin goes back on 25 October 2026, New York on 1 November 2026.
    let berlinStart = F.local(F.berlin, 2026, 10, 22, 9, 0)
    let berlinNext = series(berlin, .weekly, from: berlinStart, count: 1)
    #expect(berlinNext == [F.local(F.berlin, 2026, 10, 29, 9, 0)])
    #expect(
      berlinNext.first?.timeIntervalSince(berlinStart).rounded() == TimeInterval(7 * 86_400 + 3600))
    let newYorkStart = F.local(F.newYork, 2026, 10, 29, 9, 0)
    let newYorkNext = series(newYork, .weekly, from: newYorkStart, count: 1)
    #expect(newYorkNext == [F.local(F.newYork, 2026, 11, 5, 9, 0)])
    #expect(
      newYorkNext.first?.timeIntervalSince(newYorkStart).rounded()
        == TimeInterval(7 * 86_400 + 3600))
  }

  @Test func weeklyStaysAtNineAcrossTheSpringChangeInBothZones() {
    // Berlin goes forward on 29 March 2026, New York on 8 March 2026.
    let berlinStart = F.local(F.berlin, 2026, 3, 26, 9, 0)
    #expect(
      series(berlin, .weekly, from: berlinStart, count: 1) == [F.local(F.berlin, 2026, 4, 2, 9, 0)]
    )
    let newYorkStart = F.local(F.newYork, 2026, 3, 5, 9, 0)
    #expect(
      series(newYork, .weekly, from: newYorkStart, count: 1) == [
        F.local(F.newYork, 2026, 3, 12, 9, 0)
      ])
  }

  @Test func aTimeTheClocksSkipFallsAtTheJumpAndTheSeriesKeepsItsTime() throws {
    // 02:30 does not exist on 29 March 2026 in Berlin (02:00 → 03:00, 01:00 UTC).
    let start = F.local(F.berlin, 2026, 3, 28, 2, 30)
    let dates = series(berlin, .daily, from: start, count: 2)
    #expect(dates == [F.utc(2026, 3, 29, 1, 0), F.local(F.berlin, 2026, 3, 30, 2, 30)])
    #expect(
      DueDateFormatter(timeZone: F.berlin).full(dates[0]) == "Sun 29 Mar 2026, 03:00")
    // New York: 8 March 2026, 02:00 → 03:00 (07:00 UTC).
    let newYorkDates = series(
      newYork, .weekly, from: F.local(F.newYork, 2026, 3, 1, 2, 30), count: 2)
    #expect(newYorkDates == [F.utc(2026, 3, 8, 7, 0), F.local(F.newYork, 2026, 3, 15, 2, 30)])
  }

  /// Apia skipped 30 December 2011 whole (23:59:59 on the 29th, then 00:00 on the 31st): a
  /// 10:00 series falls on the jump and is back at 10:00 the next time, on its own weekday.
  @Test func aSeriesKeepsItsTimeAndWeekdayAcrossADayTheClocksSkipWhole() {
    let apia = RepeatSchedule(timeZone: F.zone("Pacific/Apia"))
    let jump = F.utc(2011, 12, 30, 10, 0)  // 31 December 00:00 at +14
    let daily = series(apia, .daily, from: F.local(apia.timeZone, 2011, 12, 28, 10, 0), count: 4)
    #expect(
      daily == [
        F.local(apia.timeZone, 2011, 12, 29, 10, 0), jump,
        F.local(apia.timeZone, 2011, 12, 31, 10, 0), F.local(apia.timeZone, 2012, 1, 1, 10, 0),
      ])
    // Friday 23 December, then Friday 30 (skipped: the jump), then Friday 6 January.
    let weekly = series(apia, .weekly, from: F.local(apia.timeZone, 2011, 12, 23, 10, 0), count: 3)
    #expect(
      weekly == [
        jump, F.local(apia.timeZone, 2012, 1, 6, 10, 0), F.local(apia.timeZone, 2012, 1, 13, 10, 0),
      ])
  }

  @Test func theKeptTimeIsForgottenWhenTheDueDateWasEditedSince() {
    // The series kept 02:30, but the user has since moved the item to 03:00 on another day.
    var item = ChecklistItem(
      text: "x", dueDate: F.local(F.berlin, 2026, 4, 10, 3, 0), hasDueDate: true, itemID: 1)
    item.repeatRule = .daily
    item.unknownFields[.repeatMinute] = .integer(150)
    #expect(berlin.advanced(item)?.dueDate == F.local(F.berlin, 2026, 4, 11, 3, 0))
  }

  @Test func aTimeShownTwiceMeansTheFirst() {
    // 01:30 happens twice on 1 November 2026 in New York; the first is 05:30 UTC (EDT).
    let start = F.local(F.newYork, 2026, 10, 31, 1, 30)
    #expect(series(newYork, .daily, from: start, count: 1) == [F.utc(2026, 11, 1, 5, 30)])
  }

  @Test func monthlyClampsToTheMonthsEndAndKeepsItsDay() {
    let start = F.local(F.berlin, 2026, 1, 31, 9, 0)
    #expect(
      series(berlin, .monthly, from: start, count: 5) == [
        F.local(F.berlin, 2026, 2, 28, 9, 0), F.local(F.berlin, 2026, 3, 31, 9, 0),
        F.local(F.berlin, 2026, 4, 30, 9, 0), F.local(F.berlin, 2026, 5, 31, 9, 0),
        F.local(F.berlin, 2026, 6, 30, 9, 0),
      ])
    // In a leap year, February has its 29th.
    let leap = F.local(F.newYork, 2028, 1, 31, 9, 0)
    #expect(
      series(newYork, .monthly, from: leap, count: 2) == [
        F.local(F.newYork, 2028, 2, 29, 9, 0), F.local(F.newYork, 2028, 3, 31, 9, 0),
      ])
    // Every 2 months from 31 December: 28 Feb, 30 Apr, 30 Jun, 31 Aug.
    let everyOther = RepeatRule(.monthly, interval: 2) ?? .monthly
    #expect(
      series(berlin, everyOther, from: F.local(F.berlin, 2026, 12, 31, 7, 0), count: 4) == [
        F.local(F.berlin, 2027, 2, 28, 7, 0), F.local(F.berlin, 2027, 4, 30, 7, 0),
        F.local(F.berlin, 2027, 6, 30, 7, 0), F.local(F.berlin, 2027, 8, 31, 7, 0),
      ])
  }

  @Test func monthlyCrossesTheYearAndKeepsTheTimeAcrossDST() {
    let start = F.local(F.berlin, 2026, 12, 15, 9, 0)
    #expect(
      series(berlin, .monthly, from: start, count: 1) == [F.local(F.berlin, 2027, 1, 15, 9, 0)])
    let spring = F.local(F.newYork, 2026, 2, 15, 9, 0)
    #expect(
      series(newYork, .monthly, from: spring, count: 1) == [F.local(F.newYork, 2026, 3, 15, 9, 0)])
  }

  @Test func aDueDateEditedByHandStartsTheSeriesAfresh() {
    // The series kept day 31, but the item was moved to 15 March since.
    var item = ChecklistItem(
      text: "x", dueDate: F.local(F.berlin, 2026, 3, 15, 9, 0), hasDueDate: true, itemID: 1)
    item.repeatRule = .monthly
    item.unknownFields[.repeatDay] = .integer(31)
    #expect(berlin.advanced(item)?.dueDate == F.local(F.berlin, 2026, 4, 15, 9, 0))
  }

  @Test func aDueDateSetByHandForgetsTheKeptDayAndTime() {
    var item = ChecklistItem(
      text: "x", dueDate: F.local(F.berlin, 2026, 2, 28, 9, 0), hasDueDate: true, itemID: 1)
    item.repeatRule = .monthly
    item.unknownFields[.repeatDay] = .integer(31)
    item.unknownFields[.repeatMinute] = .integer(150)
    // The user means "the 30th": the series must not jump back to the 31st.
    item.setDueDateByHand(F.local(F.berlin, 2026, 4, 30, 9, 0))
    #expect(item.unknownFields.keys.sorted() == [.repeatRule])
    #expect(berlin.advanced(item)?.dueDate == F.local(F.berlin, 2026, 5, 30, 9, 0))
  }

  @Test func yearlyLeapDayFallsOnThe28thAndReturns() {
    let start = F.local(F.berlin, 2028, 2, 29, 8, 0)
    #expect(
      series(berlin, .yearly, from: start, count: 4) == [
        F.local(F.berlin, 2029, 2, 28, 8, 0), F.local(F.berlin, 2030, 2, 28, 8, 0),
        F.local(F.berlin, 2031, 2, 28, 8, 0), F.local(F.berlin, 2032, 2, 29, 8, 0),
      ])
    let plain = F.local(F.newYork, 2026, 7, 4, 12, 0)
    #expect(
      series(newYork, .yearly, from: plain, count: 1) == [F.local(F.newYork, 2027, 7, 4, 12, 0)])
  }

  @Test func theKeptDayIsWrittenOnlyWhileClamped() throws {
    var item = ChecklistItem(
      text: "x", dueDate: F.local(F.berlin, 2026, 1, 31, 9, 0), hasDueDate: true, itemID: 1)
    item.repeatRule = .monthly
    let february = try #require(berlin.advanced(item))
    #expect(february.unknownFields[.repeatDay] == .integer(31))
    let march = try #require(berlin.advanced(february))
    #expect(march.unknownFields[.repeatDay] == nil)
    #expect(march.unknownFields.keys.sorted() == [.repeatRule])
  }

  @Test func checkingARepeatingItemMovesItOnUncheckedAndUndoRestoresIt() throws {
    let due = F.local(F.berlin, 2026, 12, 1, 9, 0)
    var item = ChecklistItem(text: "Water plants", dueDate: due, hasDueDate: true, itemID: 4)
    item.repeatRule = .weekly
    var model = DataModel(lists: [Checklist(name: "Home", items: [item])])
    let before = model
    let id = model.lists[0].id
    let check = try #require(model.checkItem(listID: id, at: 0, schedule: berlin))
    #expect(check.nextDueDate == F.local(F.berlin, 2026, 12, 8, 9, 0))
    let formatter = DueDateFormatter(timeZone: F.berlin)
    #expect(check.statusText(formatter: formatter, now: due) == "Next: Tue 8 Dec")
    #expect(applying(&model, check.change))
    #expect(!model.lists[0].items[0].checked)
    #expect(model.lists[0].items[0].dueDate == F.local(F.berlin, 2026, 12, 8, 9, 0))
    #expect(model.lists[0].uncheckedCount == 1)
    #expect(applying(&model, check.change.inverse))
    #expect(model == before)
  }

  @Test func checkingWithoutADueDateOrRuleJustChecks() throws {
    var undated = ChecklistItem(text: "Someday", itemID: 1)
    undated.repeatRule = .daily
    let plain = ChecklistItem(text: "Once", dueDate: Date(), hasDueDate: true, itemID: 2)
    let model = DataModel(lists: [Checklist(name: "L", items: [undated, plain])])
    let id = model.lists[0].id
    for index in 0..<2 {
      let check = try #require(model.checkItem(listID: id, at: index, schedule: berlin))
      #expect(check.nextDueDate == nil)
      #expect(check.statusText(formatter: DueDateFormatter(), now: Date()) == nil)
      guard case .replaceItem(_, _, let old, let new) = check.change else {
        Issue.record("not a replace")
        return
      }
      #expect(new.checked && !old.checked)
    }
    #expect(model.checkItem(listID: id, at: 2, schedule: berlin) == nil)
  }

  @Test func unknownRuleTextIsKeptAndReadsAsNoRule() {
    var item = ChecklistItem(text: "x", itemID: 1, unknownFields: [.repeatRule: .string("hourly")])
    #expect(item.repeatRule == nil)
    #expect(item.unknownFields[.repeatRule] == .string("hourly"))
    item.repeatRule = .yearly
    #expect(item.unknownFields[.repeatRule] == .string("yearly"))
    item.repeatRule = nil
    #expect(item.unknownFields.isEmpty)
  }

  @Test func dayTextSaysTheYearOnlyWhenItDiffers() {
    let formatter = DueDateFormatter(timeZone: F.newYork)
    let now = F.local(F.newYork, 2026, 12, 1, 12, 0)
    #expect(formatter.day(F.local(F.newYork, 2026, 12, 8, 9, 0), now: now) == "Tue 8 Dec")
    #expect(formatter.day(F.local(F.newYork, 2027, 12, 8, 9, 0), now: now) == "Wed 8 Dec 2027")
  }
}
