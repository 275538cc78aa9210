import ChecklistsTestSupport
import Foundation
import Testing

@testable import ChecklistsCore

/// An iOS-like VTODO: LF line ends, a folded foreign line, an alarm, CATEGORIES, an RRULE,
/// RELATED-TO and an X- property with parameters.
let iosLikeTask = """
  BEGIN:VCALENDAR
  VERSION:2.0
  PRODID:-//Apple Inc.//iOS 18.1//EN
  CALSCALE:GREGORIAN
  BEGIN:VTODO
  UID:7A1C9E2F-0D4B-4C83-9F1A-2B3C4D5E6F70
  DTSTAMP:20261130T101500Z
  CREATED:20261130T101400Z
  LAST-MODIFIED:20261130T101500Z
  SEQUENCE:3
  SUMMARY:Buy milk\\, eggs\\; bread
  STATUS:NEEDS-ACTION
  DUE;TZID=Europe/Paris:20261224T180000
  CATEGORIES:Shopping,Home
  RRULE:FREQ=WEEKLY;BYDAY=SA
  RELATED-TO;RELTYPE=PARENT:1234-PARENT
  X-APPLE-SORT-ORDER:7
  X-FOREIGN;X-PARAM="a;b:c":a long value that goes on and on and on past the seventy-five octet li
   mit of a line
  BEGIN:VALARM
  X-WR-ALARMUID:0B8F2C2E-1111-2222-3333-444455556666
  UID:0B8F2C2E-1111-2222-3333-444455556666
  TRIGGER;VALUE=DATE-TIME:20261224T170000Z
  ACTION:DISPLAY
  DESCRIPTION:Reminder
  X-APPLE-DEFAULT-ALARM:FALSE
  END:VALARM
  BEGIN:VALARM
  ACTION:EMAIL
  TRIGGER:-PT1H
  DESCRIPTION:mail me
  SUMMARY:x
  ATTENDEE:mailto:a@example.com
  END:VALARM
  END:VTODO
  END:VCALENDAR

  """

/// The unfolded content lines of iCalendar text.
func unfoldedLines(_ text: String) -> [String] {
  ICalendar.unfoldedLines(text).map { ICalendar.unfold($0.1) }
}

@Suite("Sync: iCalendar text and the VTODO mapping")
struct SyncICalendarTests {
  let paris = DatesFixture.zone("Europe/Paris")
  let utc = ZoneRules.utc

  @Test func textEscapingRoundTrips() {
    let text = "a,b;c\\d\nline two: ok"
    let escaped = ICalendar.escapeText(text)
    #expect(escaped == "a\\,b\\;c\\\\d\\nline two: ok")
    #expect(ICalendar.unescapeText(escaped) == text)
    #expect(ICalendar.unescapeText("x\\Ny") == "x\ny")
  }

  @Test func foldingKeepsLinesWithin75OctetsAndNeverSplitsACharacter() throws {
    let long = "SUMMARY:" + String(repeating: "ä😀x", count: 40)
    let folded = ICalendar.fold(long)
    for line in folded.components(separatedBy: "\r\n") {
      #expect(line.utf8.count <= 75)
      #expect(String(bytes: Array(line.utf8), encoding: .utf8) != nil)
    }
    #expect(ICalendar.unfold(folded) == long)
    let parsed = try ICalendar.parse("BEGIN:VCALENDAR\r\n\(folded)\r\nEND:VCALENDAR\r\n")
    #expect(parsed[0].property("SUMMARY")?.value == String(repeating: "ä😀x", count: 40))
  }

  @Test func foreignLinesAreWrittenBackByteForByteAfterAnEdit() throws {
    var calendar = try #require(ICalendar.parse(iosLikeTask).first)
    let todo = try #require(TaskMapping.task(in: calendar))
    var fields = TaskMapping.fields(of: todo, timeZone: paris)
    #expect(fields.text == "Buy milk, eggs; bread")
    #expect(!fields.checked && fields.remind && fields.sortOrder == 7)
    #expect(fields.due == TaskFields.seconds(Date(timeIntervalSince1970: 1_798_131_600)))
    fields.text = "Buy oat milk"
    fields.checked = true
    let changed = TaskMapping.patch(
      calendar: &calendar, to: fields, now: Date(timeIntervalSince1970: 1_796_130_000),
      timeZone: paris)
    #expect(changed)
    let written = ICalendar.serialize([calendar])
    let lines = unfoldedLines(written)
    // Everything not ours is there unchanged, in order, with its own folding.
    for kept in [
      "CALSCALE:GREGORIAN", "CATEGORIES:Shopping,Home", "RRULE:FREQ=WEEKLY;BYDAY=SA",
      "RELATED-TO;RELTYPE=PARENT:1234-PARENT", "DUE;TZID=Europe/Paris:20261224T180000",
      "X-WR-ALARMUID:0B8F2C2E-1111-2222-3333-444455556666", "X-APPLE-DEFAULT-ALARM:FALSE",
      "TRIGGER;VALUE=DATE-TIME:20261224T170000Z", "ATTENDEE:mailto:a@example.com",
      "TRIGGER:-PT1H", "PRODID:-//Apple Inc.//iOS 18.1//EN", "CREATED:20261130T101400Z",
    ] {
      #expect(lines.contains(kept), "lost \(kept)")
    }
    #expect(
      written.contains(
        "X-FOREIGN;X-PARAM=\"a;b:c\":a long value that goes on and on and on past the "
          + "seventy-five octet li\r\n mit of a line\r\n"))
    #expect(lines.contains("SUMMARY:Buy oat milk"))
    #expect(lines.contains("STATUS:COMPLETED"))
    #expect(lines.contains("PERCENT-COMPLETE:100"))
    #expect(lines.contains("COMPLETED:20261201T130000Z"))
    #expect(lines.contains("SEQUENCE:4"))
    #expect(lines.contains("DTSTAMP:20261201T130000Z"))
    #expect(lines.contains("LAST-MODIFIED:20261201T130000Z"))
    #expect(written.components(separatedBy: "BEGIN:VALARM").count == 3)
    #expect(
      !written.contains("\n\n")
        && !written.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
  }

  @Test func uncheckingSetsNeedsActionRemovesCompletedAndZeroesThePercentage() throws {
    let text = """
      BEGIN:VCALENDAR\r
      BEGIN:VTODO\r
      UID:x\r
      SUMMARY:Done thing\r
      PERCENT-COMPLETE:100\r
      COMPLETED:20261101T100000Z\r
      END:VTODO\r
      END:VCALENDAR\r

      """
    var calendar = try #require(ICalendar.parse(text).first)
    var fields = TaskMapping.fields(of: try #require(TaskMapping.task(in: calendar)), timeZone: utc)
    #expect(fields.checked)
    fields.checked = false
    _ = TaskMapping.patch(calendar: &calendar, to: fields, now: Date(), timeZone: utc)
    let lines = unfoldedLines(ICalendar.serialize([calendar]))
    #expect(lines.contains("STATUS:NEEDS-ACTION"))
    #expect(!lines.contains { $0.hasPrefix("COMPLETED") })
    #expect(lines.contains("PERCENT-COMPLETE:0"))
    #expect(lines.contains("VERSION:2.0") && lines.contains("PRODID:\(TaskMapping.productID)"))
    #expect(lines.contains("SEQUENCE:1"))
  }

  @Test func anyOneOfTheThreeMarksDone() throws {
    for line in ["STATUS:COMPLETED", "COMPLETED:20261101T100000Z", "PERCENT-COMPLETE:100"] {
      let text = "BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:a\n\(line)\nEND:VTODO\nEND:VCALENDAR\n"
      let todo = try #require(TaskTestSupport.todo(text))
      #expect(TaskMapping.fields(of: todo, timeZone: utc).checked, "\(line)")
    }
  }

  @Test func aDayStaysADayAndIsNeverTurnedInto2359Z() throws {
    let text = """
      BEGIN:VCALENDAR
      BEGIN:VTODO
      UID:day
      SUMMARY:Taxes
      DUE;VALUE=DATE:20261215
      END:VTODO
      END:VCALENDAR

      """
    var calendar = try #require(ICalendar.parse(text).first)
    var fields = TaskMapping.fields(
      of: try #require(TaskMapping.task(in: calendar)), timeZone: paris)
    #expect(fields.dueIsDay)
    let item = fields.makeItem(itemID: 5, defaultDate: Date())
    #expect(item.hasDueDate)
    var calendarUTC = Calendar(identifier: .gregorian)
    calendarUTC.timeZone = DatesFixture.foundationZone(paris)
    #expect(
      calendarUTC.dateComponents([.hour, .minute], from: item.dueDate)
        == DateComponents(hour: 0, minute: 0))
    // Moved to another day (still a day): written as a day.
    fields.due = (fields.due ?? 0) + 86_400
    fields.text = "Taxes!"
    _ = TaskMapping.patch(calendar: &calendar, to: fields, now: Date(), timeZone: paris)
    #expect(unfoldedLines(ICalendar.serialize([calendar])).contains("DUE;VALUE=DATE:20261216"))
    // Only the text changed: the DUE line is untouched.
    var other = try #require(ICalendar.parse(text).first)
    var same = TaskMapping.fields(of: try #require(TaskMapping.task(in: other)), timeZone: paris)
    same.text = "Other"
    _ = TaskMapping.patch(calendar: &other, to: same, now: Date(), timeZone: paris)
    #expect(unfoldedLines(ICalendar.serialize([other])).contains("DUE;VALUE=DATE:20261215"))
  }

  @Test func remindMeAddsMovesAndRemovesOnlyItsOwnAlarm() throws {
    var calendar = try #require(ICalendar.parse(iosLikeTask).first)
    var fields = TaskMapping.fields(
      of: try #require(TaskMapping.task(in: calendar)), timeZone: paris)
    fields.due = (fields.due ?? 0) + 3600
    _ = TaskMapping.patch(calendar: &calendar, to: fields, now: Date(), timeZone: paris)
    var lines = unfoldedLines(ICalendar.serialize([calendar]))
    #expect(lines.contains("TRIGGER;VALUE=DATE-TIME:20261224T180000Z"))
    #expect(lines.contains("DUE;TZID=Europe/Paris:20261224T190000"))
    #expect(lines.contains("X-WR-ALARMUID:0B8F2C2E-1111-2222-3333-444455556666"))
    fields.remind = false
    _ = TaskMapping.patch(calendar: &calendar, to: fields, now: Date(), timeZone: paris)
    lines = unfoldedLines(ICalendar.serialize([calendar]))
    #expect(!lines.contains { $0.hasPrefix("TRIGGER;VALUE=DATE-TIME") })
    #expect(lines.contains("TRIGGER:-PT1H"), "the foreign e-mail alarm stays")
    fields.remind = true
    _ = TaskMapping.patch(calendar: &calendar, to: fields, now: Date(), timeZone: paris)
    let alarm = try #require(
      TaskMapping.task(in: calendar)?.components.first { TaskDueReading.isAbsolute($0) })
    #expect(alarm.property("ACTION")?.value == "DISPLAY")
    #expect(alarm.property("DESCRIPTION") != nil)
    #expect(alarm.property("TRIGGER")?.contentLine == "TRIGGER;VALUE=DATE-TIME:20261224T180000Z")
  }

  /// Our alarm says the item's text, so a rename renames it; one the phone worded stays.
  @Test func aRenameRenamesOurAlarmsTextOnly() throws {
    let fields = TaskFields(
      text: "Pay rent", checked: false, due: 1_800_000_000, remind: true, itemID: 42)
    var calendar = TaskMapping.newCalendar(
      uid: "U-1", fields: fields, now: Date(timeIntervalSince1970: 1_796_130_000), timeZone: utc)
    var renamed = fields
    renamed.text = "Pay the rent, now"
    #expect(TaskMapping.patch(calendar: &calendar, to: renamed, now: Date(), timeZone: utc))
    let alarm = try #require(
      TaskMapping.task(in: calendar)?.components.first { TaskDueReading.isAbsolute($0) })
    #expect(alarm.property("DESCRIPTION")?.value == "Pay the rent\\, now")
    // Worded by the phone ("Reminder"): kept.
    var phone = try #require(ICalendar.parse(iosLikeTask).first)
    var phoneFields = TaskMapping.fields(
      of: try #require(TaskMapping.task(in: phone)), timeZone: paris)
    phoneFields.text = "Something else"
    _ = TaskMapping.patch(calendar: &phone, to: phoneFields, now: Date(), timeZone: paris)
    let after = TaskMapping.task(in: phone)?.components.first { $0.name == "VALARM" }?
      .property("DESCRIPTION")?.value
    #expect(after == "Reminder")
  }

  @Test func newTasksHaveEveryRequiredProperty() throws {
    let fields = TaskFields(
      text: "Call Ann, then Bob", checked: false, due: 1_800_000_000, remind: true, sortOrder: 3,
      itemID: 42)
    let calendar = TaskMapping.newCalendar(
      uid: "U-1", fields: fields, now: Date(timeIntervalSince1970: 1_796_130_000), timeZone: utc)
    let text = ICalendar.serialize([calendar])
    let reparsed = try #require(ICalendar.parse(text).first)
    #expect(reparsed.property("VERSION")?.value == "2.0")
    #expect(reparsed.property("PRODID") != nil)
    let todo = try #require(TaskMapping.task(in: reparsed))
    #expect(todo.property("UID")?.value == "U-1")
    #expect(todo.property("DTSTAMP")?.value == "20261201T130000Z")
    var back = TaskMapping.fields(of: todo, timeZone: utc)
    #expect(back.itemID == 42 && back.sortOrder == 3)
    back.dueIsDay = false
    #expect(back == fields)
  }

  @Test func malformedFilesAreErrorsWithALine() {
    let cases: [(String, String)] = [
      ("BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:a\nEND:VCALENDAR\n", "closes"),
      ("BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:a\n", "has no END"),
      // Inside a component such lines are kept as unreadable ones; outside, they are errors.
      ("no colon here\nBEGIN:VCALENDAR\nEND:VCALENDAR\n", "not a property name"),
      ("SUMMARY;X=\"open:x\nBEGIN:VCALENDAR\nEND:VCALENDAR\n", "unclosed quote"),
      ("UID:a\n", "outside"),
      ("", "no BEGIN:VCALENDAR"),
    ]
    for (text, fragment) in cases {
      do {
        _ = try ICalendar.parse(text)
        Issue.record("parsed: \(text)")
      } catch {
        #expect(error.description.contains(fragment), "\(error) for \(text)")
      }
    }
    #expect(throws: ICSError.self) { try ICalendar.parse(Data([0x42, 0xFF, 0xFE])) }
  }

  @Test func stateTextRoundTrips() throws {
    let item = ChecklistItem(
      text: "tab\there\nand \\ backslash", checked: true,
      dueDate: Date(timeIntervalSince1970: 1_800_000_000.123_456), shouldRemind: true,
      hasDueDate: true, itemID: 9)
    let state = SyncState(
      dataFile: FileFingerprint(inode: 1, size: 2, modified: 3),
      collections: [
        SyncState.Collection(
          folder: "f1", deleted: false, name: "Name\twith tab", icon: "Folder",
          items: [
            SyncState.Item(
              item: item, href: "a b.ics", uid: "u\\1",
              fingerprint: FileFingerprint(inode: 4, size: 5, modified: 6),
              fields: TaskFields(text: "other", checked: true, due: 7, dueIsDay: true))
          ]),
        SyncState.Collection(folder: "f2", deleted: true, name: "Gone", icon: "No Icon", items: []),
      ])
    let text = state.encoded(dataFilePath: "/x", vdir: "/y")
    #expect(SyncState.decode(Array(text.utf8)) == state)
    #expect(SyncState.decode(Array("garbage\n".utf8)) == nil)
  }
}

/// Small helpers for the sync tests.
enum TaskTestSupport {
  static func todo(_ text: String) -> ICSComponent? {
    (try? ICalendar.parse(text))?.first.flatMap { TaskMapping.task(in: $0) }
  }
}
