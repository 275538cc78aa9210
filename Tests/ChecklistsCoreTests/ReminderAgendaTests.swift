import Foundation
import Testing

@testable import ChecklistsCore

/// What the reminder service delivers and when it wakes (`ReminderAgenda`), and the shared
/// record of delivered and snoozed reminders (`DeliveredReminders`).
@Suite struct ReminderAgendaTests {
  static let now = DatesFixture.utc(2026, 12, 16, 12, 0)

  static func item(
    _ text: String, _ minutes: Double, remind: Bool = true, checked: Bool = false, id: Int
  ) -> ChecklistItem {
    ChecklistItem(
      text: text, checked: checked, dueDate: now.addingTimeInterval(minutes * 60),
      shouldRemind: remind, itemID: id)
  }

  static func model() -> DataModel {
    DataModel(lists: [
      Checklist(
        name: "Work",
        items: [
          item("report", -120, id: 1), item("later", 30, id: 2),
          item("no", -5, remind: false, id: 3),
        ]),
      Checklist(
        name: "Home",
        items: [
          item("dishes", -120, id: 4), item("done", -10, checked: true, id: 5),
          item("soon", 10, id: 6),
        ]),
    ])
  }

  @Test func deliversWhatCameDueHoweverOldInTimeThenListOrder() {
    let agenda = ReminderAgenda(model: Self.model(), record: DeliveredReminders(), now: Self.now)
    // Lists sort by name: Home before Work.
    #expect(agenda.due.map(\.text) == ["dishes", "report"])
    #expect(agenda.due.map(\.listName) == ["Home", "Work"])
    #expect(agenda.next == Self.now.addingTimeInterval(600))
  }

  @Test func aDeliveredReminderIsNotDeliveredAgainUntilItsDateChanges() throws {
    var model = Self.model()
    var record = DeliveredReminders()
    for reminder in ReminderAgenda(model: model, record: record, now: Self.now).due {
      record.insert(key: reminder.key)
    }
    #expect(ReminderAgenda(model: model, record: record, now: Self.now).due.isEmpty)
    // A new due date is a new reminder.
    var moved = model.lists[1].items[0]
    moved.dueDate = Self.now.addingTimeInterval(-60)
    let change = try #require(model.replaceItem(listID: model.lists[1].id, at: 0, with: moved))
    model.apply(change)
    #expect(
      ReminderAgenda(model: model, record: record, now: Self.now).due.map(\.text) == ["report"])
  }

  @Test func aSnoozedReminderComesBackAtItsTime() {
    let model = Self.model()
    var record = DeliveredReminders()
    let report = DeliveredReminders.key(model.lists[1].items[0])
    record.insert(key: DeliveredReminders.key(model.lists[0].items[0]))
    record.snooze(key: report, until: Self.now.addingTimeInterval(300))
    let before = ReminderAgenda(model: model, record: record, now: Self.now)
    #expect(before.due.isEmpty)
    #expect(before.next == Self.now.addingTimeInterval(300))
    let after = ReminderAgenda(model: model, record: record, now: Self.now.addingTimeInterval(300))
    #expect(after.due.map(\.text) == ["report"])
    #expect(after.due.first?.snoozed == true)
  }

  @Test func pruningDropsKeysAndSnoozesThatCanNeverFireAgain() {
    let model = Self.model()
    var record = DeliveredReminders()
    record.insert(key: "1@\(Int(Self.now.timeIntervalSince1970) - 7200)")
    record.insert(key: "1@12345")
    record.insert(key: "5@\(Int(Self.now.timeIntervalSince1970) - 600)")
    record.snooze(key: "99@1", until: Self.now)
    record.prune(keeping: model)
    #expect(record.keys == ["1@\(Int(Self.now.timeIntervalSince1970) - 7200)"])
    #expect(record.snoozed.isEmpty)
  }
}
