import Foundation
import Testing

@testable import ChecklistsCore

/// Early reminders: the lead time (`ReminderLead`), its key in the file (`remindBefore`), and
/// the reminder time due − lead in the app's scheduler, the service's agenda, `due --notify`'s
/// query and the delivered-record key.
@Suite struct ReminderLeadTests {
  static let now = DatesFixture.utc(2026, 12, 16, 12, 0)

  static func item(_ minutes: Double, lead: Int, id: Int = 1) -> ChecklistItem {
    var item = ChecklistItem(
      text: "Call", dueDate: now.addingTimeInterval(minutes * 60), shouldRemind: true,
      itemID: id)
    item.reminderLead = ReminderLead(minutes: lead)
    return item
  }

  @Test func readsTheUsualForms() {
    #expect(ReminderLead(parsing: "15m")?.minutes == 15)
    #expect(ReminderLead(parsing: " 15 min ")?.minutes == 15)
    #expect(ReminderLead(parsing: "1H")?.minutes == 60)
    #expect(ReminderLead(parsing: "2 hours")?.minutes == 120)
    #expect(ReminderLead(parsing: "1d")?.minutes == 1440)
    #expect(ReminderLead(parsing: "0")?.isNone == true)
    #expect(ReminderLead(parsing: "0m")?.isNone == true)
    #expect(ReminderLead(parsing: "365d")?.minutes == 365 * 1440)
    for bad in ["", "15", "m", "-15m", "1.5h", "15x", "366d", "99999999m", "1w"] {
      #expect(ReminderLead(parsing: bad) == nil, "\(bad)")
    }
  }

  @Test func writesTheLargestWholeUnit() {
    #expect(ReminderLead(minutes: 0).text == "0")
    #expect(ReminderLead(minutes: 90).text == "90m")
    #expect(ReminderLead(minutes: 120).text == "2h")
    #expect(ReminderLead(minutes: 2880).text == "2d")
    #expect(ReminderLead(minutes: 15).phrase == "15 min before")
    #expect(ReminderLead(minutes: 60).phrase == "1 h before")
    #expect(ReminderLead(minutes: 1440).phrase == "1 day before")
    #expect(ReminderLead(minutes: 4320).phrase == "3 days before")
    #expect(ReminderLead.none.phrase == "at the due time")
    for lead in ReminderLead.choices { #expect(ReminderLead(parsing: lead.text) == lead) }
  }

  @Test(arguments: [PlistFormat.binary, .xml])
  func storedAsAnExtraKeyInMinutesOnlyWhenNotZero(format: PlistFormat) throws {
    var early = Self.item(60, lead: 15)
    var plain = Self.item(60, lead: 0, id: 2)
    #expect(plain.unknownFields.isEmpty)
    plain.reminderLead = .none
    #expect(plain.unknownFields.isEmpty)
    let lists = [Checklist(name: "Home", items: [early, plain])]
    let data = try ChecklistsFileCoding.encode(lists, format: format).data
    let decoded = try ChecklistsFileCoding.decode(data).lists
    #expect(decoded == lists)
    #expect(decoded[0].items[0].reminderLead.minutes == 15)
    let foreign = try PropertyListSerialization.propertyList(from: data, format: nil)
    let items = (foreign as? [[String: Any]])?.first?["items"] as? [[String: Any]]
    #expect(items?[0]["remindBefore"] as? Int == 15)
    #expect(items?[1]["remindBefore"] == nil)
    // Back to the due time removes the key.
    early.reminderLead = .none
    #expect(early.unknownFields[.remindBefore] == nil)
  }

  @Test func aValueThisVersionCannotUseReadsAsAtTheDueTime() {
    var item = Self.item(60, lead: 0)
    item.unknownFields[.remindBefore] = .string("15m")
    #expect(item.reminderLead.isNone)
    item.unknownFields[.remindBefore] = .integer(-5)
    #expect(item.reminderLead.isNone)
    #expect(item.reminderDate == item.dueDate)
  }

  @Test func theRecordKeyNamesTheLeadTimeAndKeepsOldKeysForNone() {
    let due = Self.now.addingTimeInterval(3600)
    let seconds = Int(due.timeIntervalSince1970)
    #expect(DeliveredReminders.key(Self.item(60, lead: 0)) == "1@\(seconds)")
    #expect(DeliveredReminders.key(Self.item(60, lead: 15)) == "1@\(seconds)-15m")
    #expect(DeliveredReminders.key(Self.item(60, lead: 1440)) == "1@\(seconds)-1d")
    #expect(ReminderKey(Self.item(60, lead: 15)) != ReminderKey(Self.item(60, lead: 30)))
    #expect(ReminderKey(Self.item(60, lead: 15)).fireDate == due.addingTimeInterval(-900))
  }

  @Test func theAgendaDeliversAtDueLessLeadAndWakesThen() {
    // Due in 20 minutes, 30 minutes early: already due. Due in an hour, 15 minutes early:
    // next in 45 minutes.
    let model = DataModel(lists: [
      Checklist(
        name: "Home", items: [Self.item(20, lead: 30, id: 1), Self.item(60, lead: 15, id: 2)])
    ])
    let agenda = ReminderAgenda(model: model, record: DeliveredReminders(), now: Self.now)
    #expect(agenda.due.map(\.itemID) == [1])
    #expect(agenda.due.first?.reminderDate == Self.now.addingTimeInterval(-600))
    #expect(agenda.due.first?.dueDate == Self.now.addingTimeInterval(1200))
    #expect(agenda.next == Self.now.addingTimeInterval(45 * 60))
  }

  @Test func aNewLeadTimeIsANewReminder() throws {
    var model = DataModel(lists: [Checklist(name: "Home", items: [Self.item(10, lead: 15)])])
    var record = DeliveredReminders()
    for reminder in ReminderAgenda(model: model, record: record, now: Self.now).due {
      record.insert(key: reminder.key)
    }
    #expect(record.keys.count == 1)
    #expect(ReminderAgenda(model: model, record: record, now: Self.now).due.isEmpty)
    var changed = model.lists[0].items[0]
    changed.reminderLead = ReminderLead(minutes: 30)
    model.apply(try #require(model.replaceItem(listID: model.lists[0].id, at: 0, with: changed)))
    #expect(ReminderAgenda(model: model, record: record, now: Self.now).due.count == 1)
    record.prune(keeping: model)
    #expect(record.keys.isEmpty)
  }

  @Test func theAppsSchedulerRingsAtDueLessLead() {
    let model = DataModel(lists: [Checklist(name: "Home", items: [Self.item(60, lead: 15)])])
    var scheduler = ReminderScheduler(model: model, now: Self.now)
    #expect(scheduler.nextWakeUp(after: Self.now) == Self.now.addingTimeInterval(45 * 60))
    #expect(scheduler.fire(now: Self.now.addingTimeInterval(44 * 60)).isEmpty)
    #expect(scheduler.fire(now: Self.now.addingTimeInterval(45 * 60)).count == 1)
    #expect(scheduler.fire(now: Self.now.addingTimeInterval(60 * 60)).isEmpty)
    // Already past its early time at launch (due in 10 minutes, 15 early): counts as fired.
    let late = DataModel(lists: [Checklist(name: "Home", items: [Self.item(10, lead: 15)])])
    var atLaunch = ReminderScheduler(model: late, now: Self.now)
    #expect(atLaunch.fire(now: Self.now.addingTimeInterval(600)).isEmpty)
  }

  @Test func dueNotifyTakesWhatRemindsEarlyBeforeItIsDue() {
    var unreminded = Self.item(10, lead: 0, id: 3)
    unreminded.shouldRemind = false
    let model = DataModel(lists: [
      Checklist(
        name: "Home",
        items: [Self.item(30, lead: 60, id: 1), Self.item(10, lead: 0, id: 2), unreminded])
    ])
    #expect(DueItems.query(model, now: Self.now).isEmpty)
    #expect(DueItems.reminding(model, now: Self.now).map(\.item.itemID) == [1])
    #expect(
      DueItems.reminding(model, now: Self.now, within: 900).map(\.item.itemID) == [1, 2])
  }
}
