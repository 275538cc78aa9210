import Foundation
import Testing

@testable import ChecklistsCore

@Suite struct DatesZonedWallClockTests {
  typealias F = DatesFixture

  @Test func civilDaysAgreeWithFoundation() {
    let utc = F.calendar(ZoneRules.utc)
    var day = GregorianDays.days(year: 1900, month: 1, day: 1)
    let last = GregorianDays.days(year: 2101, month: 1, day: 1)
    var checked = 0
    while day < last {
      let date = Date(timeIntervalSince1970: Double(day) * 86_400)
      let components = utc.dateComponents([.year, .month, .day, .weekday], from: date)
      let civil = GregorianDays.date(days: day)
      #expect(civil.year == components.year)
      #expect(civil.month == components.month)
      #expect(civil.day == components.day)
      #expect(GregorianDays.weekday(days: day) + 1 == components.weekday)
      #expect(GregorianDays.days(year: civil.year, month: civil.month, day: civil.day) == day)
      day += 13
      checked += 1
    }
    #expect(checked > 5000)
  }

  @Test func daysInMonth() {
    #expect(GregorianDays.daysInMonth(year: 2026, month: 2) == 28)
    #expect(GregorianDays.daysInMonth(year: 2028, month: 2) == 29)
    #expect(GregorianDays.daysInMonth(year: 2100, month: 2) == 28)
    #expect(GregorianDays.daysInMonth(year: 2000, month: 2) == 29)
    #expect(GregorianDays.daysInMonth(year: 2026, month: 4) == 30)
    #expect(GregorianDays.daysInMonth(year: 2026, month: 12) == 31)
  }

  @Test(arguments: [F.berlin, F.newYork])
  func wallTimesAgreeWithFoundationOutsideGaps(timeZone: ZoneRules) {
    let clock = ZonedWallClock(timeZone: timeZone)
    let calendar = F.calendar(timeZone)
    let start = GregorianDays.days(year: 2026, month: 1, day: 1)
    for offset in stride(from: 0, to: 365, by: 3) {
      let days = start + offset
      let civil = GregorianDays.date(days: days)
      for hour in [0, 4, 9, 13, 18, 23] {
        let ours = clock.date(days: days, hour: hour, minute: 30)
        let components = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: ours)
        #expect(components.year == civil.year && components.month == civil.month)
        #expect(components.day == civil.day && components.hour == hour && components.minute == 30)
        #expect(clock.day(of: ours) == days)
      }
    }
  }
}
