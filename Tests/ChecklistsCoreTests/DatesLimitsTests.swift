import Foundation
import Testing

@testable import ChecklistsCore

/// A binary file can hold any finite number as a due date: one millions of years away is shown,
/// scheduled, repeated and synced without a crash.
@Suite("Dates: due dates far beyond any calendar")
struct DatesLimitsTests {
  typealias F = DatesFixture

  /// Seconds from 2001 that no integer type holds, either way, and just past what one does.
  static let farAway: [Double] = [1e300, -1e300, 1e19, -1e19, 1e16]

  /// An item due `seconds` from 2001, repeating weekly with a reminder, round-tripped through
  /// the binary file.
  func item(dueAt seconds: Double) throws -> ChecklistItem {
    var item = ChecklistItem(
      text: "Far", dueDate: Date(timeIntervalSinceReferenceDate: seconds), shouldRemind: true,
      hasDueDate: true, itemID: 1)
    item.repeatRule = .weekly
    let encoded = try ChecklistsFileCoding.encode(
      [Checklist(name: "L", items: [item])], format: .binary)
    let read = try ChecklistsFileCoding.decode(encoded.data)
    return try #require(read.lists.first?.items.first)
  }

  @Test(arguments: farAway)
  func isShownScheduledRepeatedAndSyncedWithoutACrash(seconds: Double) throws {
    let item = try item(dueAt: seconds)
    #expect(item.dueDate.timeIntervalSinceReferenceDate == seconds)
    let now = F.berlinNow
    for zone in [F.berlin, ZoneRules.utc, F.zone("Asia/Kathmandu")] {
      let formatter = DueDateFormatter(timeZone: zone)
      #expect(!formatter.full(item.dueDate).isEmpty)
      #expect(!formatter.day(item.dueDate, now: now).isEmpty)
      #expect(!formatter.relative(item.dueDate, now: now).isEmpty)
      let model = DataModel(lists: [Checklist(name: "L", items: [item])], nextItemID: 2)
      let smart = SmartLists(timeZone: zone)
      #expect(smart.scheduled(model, now: now).flatMap(\.rows).count == 1)
      #expect(smart.today(model, now: now).count == (seconds < 0 ? 1 : 0))
      let moved = try #require(RepeatSchedule(timeZone: zone).advanced(item))
      #expect(!moved.checked)
      // iCalendar writes the years 1–9999 only: such a date syncs as no due date.
      let fields = TaskFields(item, timeZone: zone)
      #expect(fields.due == nil)
      #expect(fields.repeatRule == nil)
    }
    #expect(ICalendarDate.utcString(item.dueDate).hasSuffix("Z"))
    #expect(InternetDateTime.string(item.dueDate) == nil)
  }

  @Test func theYearsICalendarWritesAreKeptInSync() {
    let last = F.utc(9999, 12, 31, 23, 59)
    #expect(TaskFields(dated(last), timeZone: .utc).due == TaskFields.seconds(last))
    let first = Date(timeIntervalSince1970: -62_135_596_800)  // 0001-01-01T00:00:00Z
    #expect(TaskFields(dated(first), timeZone: .utc).due == TaskFields.seconds(first))
    #expect(TaskFields(dated(last.addingTimeInterval(60)), timeZone: .utc).due == nil)
    #expect(TaskFields(dated(first.addingTimeInterval(-1)), timeZone: .utc).due == nil)
  }

  func dated(_ date: Date) -> ChecklistItem {
    ChecklistItem(text: "x", dueDate: date, hasDueDate: true, itemID: 1)
  }
}
