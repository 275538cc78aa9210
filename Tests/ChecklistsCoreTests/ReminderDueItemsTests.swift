import Foundation
import Testing

@testable import ChecklistsCore

@Suite struct ReminderDueItemsTests {
  static let now = DatesFixture.utc(2026, 12, 16, 12, 0)

  /// Two lists ("Home", "Work") with items due `minutes` after `now`.
  static func model() -> DataModel {
    func item(
      _ text: String, _ minutes: Double, remind: Bool = true, checked: Bool = false, id: Int
    )
      -> ChecklistItem
    {
      ChecklistItem(
        text: text, checked: checked, dueDate: now.addingTimeInterval(minutes * 60),
        shouldRemind: remind, itemID: id)
    }
    let work = Checklist(
      name: "Work",
      items: [
        item("report", -120, id: 1), item("same time work", -30, id: 2),
        item("next week", 7 * 24 * 60, id: 3),
      ])
    let home = Checklist(
      name: "Home",
      items: [
        item("dishes", -30, id: 4), item("done", -300, checked: true, id: 5),
        item("no bell", -300, remind: false, id: 6), item("in an hour", 60, id: 7),
        item("right now", 0, id: 8),
      ])
    return DataModel(lists: [work, home])
  }

  @Test func overdueOldestFirst() {
    let due = DueItems.query(Self.model(), now: Self.now)
    #expect(due.map(\.item.text) == ["report", "dishes", "same time work", "right now"])
    // Lists are sorted by name: Home is 0, Work is 1; equal dates keep list order.
    #expect(due.map(\.listName) == ["Work", "Home", "Work", "Home"])
    #expect(due.map(\.listIndex) == [1, 0, 1, 0])
    #expect(due.map(\.itemIndex) == [0, 0, 1, 4])
  }

  @Test func windowReachesAhead() {
    let model = Self.model()
    let withinHour = DueItems.query(model, now: Self.now, within: 3600)
    #expect(withinHour.last?.item.text == "in an hour")
    #expect(withinHour.count == 5)
    let justShort = DueItems.query(model, now: Self.now, within: 3599)
    #expect(justShort.count == 4)
    let week = DueItems.query(
      model, now: Self.now, within: DueDateParser.parseDuration("1w") ?? 0)
    #expect(week.map(\.item.itemID) == [1, 4, 2, 8, 7, 3])
    #expect(DueItems.query(model, now: Self.now, within: -3600).count == 4)
  }

  @Test func emptyModel() {
    #expect(DueItems.query(DataModel(), now: Self.now, within: 86_400).isEmpty)
  }
}
