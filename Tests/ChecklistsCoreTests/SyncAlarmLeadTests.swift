import ChecklistsTestSupport
import Foundation
import Testing

@testable import ChecklistsCore

/// A phone task due 3 December 2026 at 09:00 UTC with `alarms` (VALARM blocks, LF ends) and
/// more lines before them.
func phoneTaskWithAlarms(_ alarms: String, extra: String = "") -> String {
  """
  BEGIN:VCALENDAR
  VERSION:2.0
  PRODID:-//Apple Inc.//iOS 18.1//EN
  BEGIN:VTODO
  UID:A-1
  DTSTAMP:20261130T101500Z
  SUMMARY:Dentist
  STATUS:NEEDS-ACTION
  DUE:20261203T090000Z
  \(extra)\(alarms)END:VTODO
  END:VCALENDAR

  """
}

/// Early reminders in sync: our VALARM's trigger is the lead time before DUE (absolute, as iOS
/// writes it, moved with the due date), a phone's relative or absolute alarm before DUE reads
/// as that lead time, foreign alarms stay byte for byte; Python's icalendar reads every file.
@Suite("Sync: early reminders as the VALARM's trigger before DUE")
struct SyncAlarmLeadTests {
  let utc = ZoneRules.utc
  /// 3 December 2026, 09:00 UTC.
  let due: Int64 = 1_796_288_400

  func fields(_ text: String) throws -> TaskFields {
    let calendar = try #require(try ICalendar.parse(text).first)
    return TaskMapping.fields(of: try #require(TaskMapping.task(in: calendar)), timeZone: utc)
  }

  /// The alarm triggers Python's icalendar reads in `text` (seconds since 1970, or offsets).
  func pythonAlarms(_ text: String) throws -> String? {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "alarm-lead-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("task.ics").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    let result = try runProcess(
      "/usr/bin/python3", ["-c", ForeignTaskRig.oracle, path],
      environment: ["PATH": "/usr/bin:/bin"])
    #expect(result.status == 0, "icalendar: \(result.stderr)")
    return result.stdout.split(separator: "\n").first { $0.hasPrefix("ALARMS\t") }
      .map { String($0.dropFirst(7)) }
  }

  @Test func anEarlyReminderIsWrittenAsAnAbsoluteTriggerBeforeDueAndReadBack() throws {
    var item = ChecklistItem(
      text: "Dentist", dueDate: Date(timeIntervalSince1970: TimeInterval(due)),
      shouldRemind: true, hasDueDate: true, itemID: 4)
    item.reminderLead = ReminderLead(minutes: 15)
    let written = TaskFields(item, timeZone: utc)
    #expect(written.lead == 15)
    let calendar = TaskMapping.newCalendar(uid: "U", fields: written, now: Date(), timeZone: utc)
    let text = ICalendar.serialize([calendar])
    #expect(text.contains("TRIGGER;VALUE=DATE-TIME:20261203T084500Z\r\n"))
    #expect(try fields(text).lead == 15)
    #expect(try fields(text).sameContent(as: written))
    #expect(try pythonAlarms(text) == "\(due - 900)")
    // Without Remind Me the lead time is nothing to sync.
    item.shouldRemind = false
    #expect(TaskFields(item, timeZone: utc).lead == 0)
  }

  @Test(arguments: [
    (
      "BEGIN:VALARM\nACTION:DISPLAY\nDESCRIPTION:Reminder\nTRIGGER;RELATED=END:-PT15M\nEND:VALARM\n",
      "", 15
    ),
    (
      "BEGIN:VALARM\nACTION:DISPLAY\nDESCRIPTION:Reminder\nTRIGGER:-PT1H\nEND:VALARM\n",
      "DTSTART:20261203T090000Z\n", 60
    ),
    (
      "BEGIN:VALARM\nACTION:DISPLAY\nDESCRIPTION:Reminder\nTRIGGER:-P1D\nEND:VALARM\n",
      "DTSTART:20261203T090000Z\n", 1440
    ),
    (
      "BEGIN:VALARM\nACTION:DISPLAY\nDESCRIPTION:Reminder\nTRIGGER;VALUE=DATE-TIME:20261203T083000Z\nEND:VALARM\n",
      "", 30
    ),
    (
      "BEGIN:VALARM\nACTION:DISPLAY\nDESCRIPTION:Reminder\nTRIGGER;VALUE=DATE-TIME:20261203T090000Z\nEND:VALARM\n",
      "", 0
    ),
  ])
  func aPhonesAlarmBeforeDueReadsAsThatLeadTime(alarm: String, extra: String, lead: Int) throws {
    let read = try fields(phoneTaskWithAlarms(alarm, extra: extra))
    #expect(read.remind)
    #expect(read.lead == lead)
    #expect(try pythonAlarms(phoneTaskWithAlarms(alarm, extra: extra)) != nil)
  }

  @Test func alarmsThatAreNotAnEarlyReminderStayForeign() throws {
    // Before a start that is not the due time, an email alarm, one after DUE: not ours.
    let foreign = [
      (
        "BEGIN:VALARM\nACTION:DISPLAY\nDESCRIPTION:x\nTRIGGER:-PT15M\nEND:VALARM\n",
        "DTSTART:20261202T090000Z\n"
      ),
      (
        "BEGIN:VALARM\nACTION:EMAIL\nDESCRIPTION:x\nSUMMARY:s\nATTENDEE:mailto:a@example.com\n"
          + "TRIGGER;RELATED=END:-PT15M\nEND:VALARM\n", ""
      ),
      ("BEGIN:VALARM\nACTION:DISPLAY\nDESCRIPTION:x\nTRIGGER;RELATED=END:PT15M\nEND:VALARM\n", ""),
    ]
    for (alarm, extra) in foreign {
      let read = try fields(phoneTaskWithAlarms(alarm, extra: extra))
      #expect(!read.remind, "\(alarm)")
      #expect(read.lead == 0, "\(alarm)")
    }
  }

  @Test func aNewDueDateOrLeadTimeMovesOurTriggerAndLeavesForeignAlarmsByteForByte() throws {
    let email =
      "BEGIN:VALARM\nACTION:EMAIL\nTRIGGER:-PT1H\nDESCRIPTION:mail me\nSUMMARY:x\n"
      + "ATTENDEE:mailto:a@example.com\nEND:VALARM\n"
    let ours =
      "BEGIN:VALARM\nACTION:DISPLAY\nDESCRIPTION:Reminder\n"
      + "TRIGGER;VALUE=DATE-TIME:20261203T084500Z\nEND:VALARM\n"
    var calendar = try #require(try ICalendar.parse(phoneTaskWithAlarms(ours + email)).first)
    var wanted = try fields(phoneTaskWithAlarms(ours + email))
    #expect(wanted.lead == 15)
    // The next occurrence (a repeat, or a new date): a day later, still 15 minutes early.
    wanted.due = due + 86_400
    #expect(TaskMapping.patch(calendar: &calendar, to: wanted, now: Date(), timeZone: utc))
    var text = ICalendar.serialize([calendar])
    #expect(text.contains("TRIGGER;VALUE=DATE-TIME:20261204T084500Z\r\n"))
    #expect(text.contains("ACTION:EMAIL\r\nTRIGGER:-PT1H\r\nDESCRIPTION:mail me\r\n"))
    // A new lead time: an hour early.
    wanted.lead = 60
    #expect(TaskMapping.patch(calendar: &calendar, to: wanted, now: Date(), timeZone: utc))
    text = ICalendar.serialize([calendar])
    #expect(text.contains("TRIGGER;VALUE=DATE-TIME:20261204T080000Z\r\n"))
    #expect(try fields(text).lead == 60)
    #expect(try pythonAlarms(text) == "\(due + 86_400 - 3600),-3600")
  }

  @Test func aPhonesRelativeAlarmGetsANewRelativeOffsetWithItsParameters() throws {
    let relative =
      "BEGIN:VALARM\nACTION:DISPLAY\nDESCRIPTION:Reminder\nTRIGGER;RELATED=END:-PT15M\n"
      + "END:VALARM\n"
    var calendar = try #require(try ICalendar.parse(phoneTaskWithAlarms(relative)).first)
    var wanted = try fields(phoneTaskWithAlarms(relative))
    // A new due date alone: the relative trigger follows DUE by itself.
    wanted.due = due + 3600
    #expect(TaskMapping.patch(calendar: &calendar, to: wanted, now: Date(), timeZone: utc))
    #expect(ICalendar.serialize([calendar]).contains("TRIGGER;RELATED=END:-PT15M\r\n"))
    wanted.lead = 1440
    #expect(TaskMapping.patch(calendar: &calendar, to: wanted, now: Date(), timeZone: utc))
    let text = ICalendar.serialize([calendar])
    #expect(text.contains("TRIGGER;RELATED=END:-P1D\r\n"))
    #expect(try fields(text).lead == 1440)
    #expect(try pythonAlarms(text) == "-86400")
  }

  @Test func theSyncStateKeepsLeadTimesAndReadsTheFormatBeforeThem() throws {
    var item = ChecklistItem(
      text: "Dentist", dueDate: Date(timeIntervalSince1970: 1_800_000_000), shouldRemind: true,
      hasDueDate: true, itemID: 3)
    item.reminderLead = ReminderLead(minutes: 30)
    var record = SyncState.Item(
      item: item, href: "d.ics", uid: "u",
      fingerprint: FileFingerprint(inode: 1, size: 2, modified: 3),
      fields: TaskFields(text: "Dentist", due: 1_800_000_000, remind: true, lead: 15))
    record.pending = .rewrite(previous: TaskFields(text: "Old", remind: true, lead: 5))
    let state = SyncState(collections: [
      SyncState.Collection(folder: "f", deleted: false, name: "L", icon: "No Icon", items: [record])
    ])
    let text = state.encoded(dataFilePath: "/x", vdir: "/y")
    #expect(SyncState.decode(Array(text.utf8)) == state)
    var old = ""
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) where !line.isEmpty {
      let parts = line.split(separator: "\t", omittingEmptySubsequences: false)
      if parts.first == "item" {
        old += parts.prefix(25).joined(separator: "\t") + "\n"
      } else if parts.first == "prev" {
        old += parts.prefix(11).joined(separator: "\t") + "\n"
      } else {
        old += line + "\n"
      }
    }
    let decoded = try #require(SyncState.decode(Array(old.utf8))?.collections.first?.items.first)
    #expect(decoded.item.reminderLead.isNone)
    #expect(decoded.fields.lead == 0)
    #expect(decoded.pending == .rewrite(previous: TaskFields(text: "Old", remind: true)))
  }
}

/// `ACKNOWLEDGED` (RFC 9074) on our alarm: a reminder dismissed on another device counts as
/// delivered here.
@Suite("Sync: reminders acknowledged elsewhere", .serialized)
struct SyncAcknowledgedTests {
  /// 3 December 2026, 09:00 UTC.
  static let due = Date(timeIntervalSince1970: 1_796_288_400)

  static func model() -> DataModel {
    var dentist = ChecklistItem(
      text: "Dentist", dueDate: due, shouldRemind: true, hasDueDate: true, itemID: 1)
    dentist.reminderLead = ReminderLead(minutes: 15)
    let call = ChecklistItem(
      text: "Call", dueDate: due, shouldRemind: true, hasDueDate: true, itemID: 2)
    return DataModel(lists: [Checklist(name: "Home", items: [dentist, call])])
  }

  func notified(_ fixture: SyncFixture) throws -> [String] {
    let (store, _) = try ChecklistsStore.open(location: fixture.location)
    return store.currentState()?.notified ?? []
  }

  @Test func anAlarmAcknowledgedSinceItsTimeIsRecordedAsDelivered() throws {
    let fixture = try SyncFixture(Self.model())
    defer { fixture.remove() }
    try fixture.sync()
    let dentist = try #require(fixture.file(summary: "Dentist"))
    let call = try #require(fixture.file(summary: "Call"))
    // Dismissed on the phone at 08:46, after its early time (08:45); "Call" (due 09:00)
    // acknowledged at 08:59, before its time: an older occurrence's, not this one's.
    try fixture.replace(
      in: dentist, "TRIGGER;VALUE=DATE-TIME:20261203T084500Z\r\n",
      with: "TRIGGER;VALUE=DATE-TIME:20261203T084500Z\r\nACKNOWLEDGED:20261203T084600Z\r\n")
    try fixture.replace(
      in: call, "TRIGGER;VALUE=DATE-TIME:20261203T090000Z\r\n",
      with: "TRIGGER;VALUE=DATE-TIME:20261203T090000Z\r\nACKNOWLEDGED:20261203T085900Z\r\n")
    #expect(try notified(fixture).isEmpty)
    let report = try fixture.sync()
    #expect(report.changedFromVdir == 0, "an acknowledgement is no change to the item")
    #expect(try notified(fixture) == ["1@1796288400-15m"])
    // The record is what every deliverer reads: nothing is due to the desktop now.
    let (store, load) = try ChecklistsStore.open(location: fixture.location)
    let agenda = ReminderAgenda(
      model: load.model, record: DeliveredReminders(store.currentState() ?? load.state),
      now: Self.due)
    #expect(agenda.due.map(\.text) == ["Call"])
    // A second pass writes nothing more.
    try fixture.sync()
    #expect(try notified(fixture) == ["1@1796288400-15m"])
  }

  /// Python's icalendar's reading of each alarm's ACKNOWLEDGED (seconds since 1970, or "-").
  func pythonAcknowledged(_ path: String) throws -> String {
    let script = """
      import sys
      from icalendar import Calendar
      from icalendar.prop import vDatetime
      cal = Calendar.from_ical(open(sys.argv[1], 'rb').read())
      todo = cal.walk('VTODO')[0]
      # icalendar 4 has no type for ACKNOWLEDGED (RFC 9074): read as the DATE-TIME it is.
      def at(a): return str(int(vDatetime.from_ical(str(a['ACKNOWLEDGED'])).timestamp()))
      print(','.join(at(a) if 'ACKNOWLEDGED' in a else '-' for a in todo.walk('VALARM')))
      """
    let result = try runProcess(
      "/usr/bin/python3", ["-c", script, path], environment: ["PATH": "/usr/bin:/bin"])
    #expect(result.status == 0, "icalendar: \(result.stderr)")
    return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Records in the state file that the reminder `key` was done or dismissed here at `at`.
  func acknowledge(_ key: String, at: Date, _ fixture: SyncFixture) throws {
    let (store, load) = try ChecklistsStore.open(location: fixture.location)
    try ReminderRecord(store: store, loaded: load.state).update(model: load.model) {
      $0.acknowledge(key: key, at: at)
    }
  }

  @Test func aReminderDismissedHereIsMarkedAcknowledgedAtTheNextSyncOnly() throws {
    let fixture = try SyncFixture(Self.model())
    defer { fixture.remove() }
    try fixture.sync()
    // Nothing to do: the fast index is recorded, and must not hide the acknowledgement.
    try fixture.sync()
    let dentist = try #require(fixture.file(summary: "Dentist"))
    let call = try #require(fixture.file(summary: "Call"))
    let callBefore = fixture.files()[call]
    // Dismissed on this desktop at 08:46, after its early time (08:45).
    try acknowledge("1@1796288400-15m", at: Self.due.addingTimeInterval(-14 * 60), fixture)
    try fixture.sync()
    let text = try #require(fixture.files()[dentist])
    #expect(unfoldedLines(text).contains("ACKNOWLEDGED:20261203T084600Z"), "\(text)")
    #expect(fixture.files()[call] == callBefore, "another item's file stays byte for byte")
    #expect(try pythonAcknowledged(fixture.vdir + "/" + dentist) == "1796287560")
    // Taken out of the state once written; the reminder stays delivered.
    let (store, _) = try ChecklistsStore.open(location: fixture.location)
    #expect(store.currentState()?.acknowledged == [:])
    #expect(try notified(fixture) == ["1@1796288400-15m"])
    // The next passes write nothing more.
    try fixture.sync()
    try fixture.sync()
    #expect(fixture.files()[dentist] == text)
  }

  @Test func aReminderDoneHereIsCompletedAndAcknowledged() throws {
    let fixture = try SyncFixture(Self.model())
    defer { fixture.remove() }
    try fixture.sync()
    try fixture.edit { model in
      var call = model.lists[0].items[1]
      call.checked = true
      if let change = model.replaceItem(listID: model.lists[0].id, at: 1, with: call) {
        model.apply(change)
      }
    }
    try acknowledge("2@1796288400", at: Self.due.addingTimeInterval(60), fixture)
    try fixture.sync()
    let call = try #require(fixture.file(summary: "Call"))
    let lines = unfoldedLines(try #require(fixture.files()[call]))
    #expect(lines.contains("STATUS:COMPLETED"))
    #expect(lines.contains("ACKNOWLEDGED:20261203T090100Z"))
    #expect(try pythonAcknowledged(fixture.vdir + "/" + call) == "1796288460")
  }

  @Test func anAcknowledgementOfAnOlderDueDateMarksNothing() throws {
    let fixture = try SyncFixture(Self.model())
    defer { fixture.remove() }
    try fixture.sync()
    let before = fixture.files()
    // The key of another due date (the item moved on since): nothing to mark, and forgotten.
    try acknowledge("2@1796200000", at: Self.due, fixture)
    try fixture.sync()
    #expect(fixture.files() == before)
    let (store, _) = try ChecklistsStore.open(location: fixture.location)
    #expect(store.currentState()?.acknowledged ?? [:] == [:])
  }
}
