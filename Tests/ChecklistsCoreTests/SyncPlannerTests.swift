import ChecklistsTestSupport
import Foundation
import Testing

@testable import ChecklistsCore

/// A phone task due at `due` (a DUE line's value part, e.g. `:20261203T090000Z`) with `rrule`
/// and more lines.
func repeatingPhoneTask(due: String, rrule: String, extra: String = "") -> String {
  """
  BEGIN:VCALENDAR\r
  VERSION:2.0\r
  PRODID:-//Apple Inc.//iOS 18.1//EN\r
  BEGIN:VTODO\r
  UID:R-1\r
  DTSTAMP:20261130T101500Z\r
  SUMMARY:Water plants\r
  STATUS:NEEDS-ACTION\r
  DTSTART\(due)\r
  DUE\(due)\r
  RRULE:\(rrule)\r
  \(extra)END:VTODO\r
  END:VCALENDAR\r

  """
}

@Suite("Sync: notes as DESCRIPTION, repeat rules as RRULE")
struct SyncPlannerTests {
  let berlin = DatesFixture.zone("Europe/Berlin")
  let newYork = DatesFixture.zone("America/New_York")
  let utc = ZoneRules.utc

  /// An instant from a wall time in `zone`.
  func date(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 9, in zone: ZoneRules) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = DatesFixture.foundationZone(zone)
    return calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour))!
  }

  func repeating(
    _ rule: RepeatRule, due: Date, keptDay: Int? = nil, note: String = ""
  ) -> ChecklistItem {
    var item = ChecklistItem(text: "Water plants", dueDate: due, hasDueDate: true, itemID: 7)
    item.repeatRule = rule
    item.repeatAnchorDay = keptDay
    item.note = note
    return item
  }

  /// The VTODO our item becomes, written and read back.
  func written(_ item: ChecklistItem, zone: ZoneRules) throws -> ICSComponent {
    let calendar = TaskMapping.newCalendar(
      uid: "U", fields: TaskFields(item, timeZone: zone), now: Date(), timeZone: zone)
    let reparsed = try #require(try ICalendar.parse(ICalendar.serialize([calendar])).first)
    return try #require(TaskMapping.task(in: reparsed))
  }

  @Test func everyRuleIsWrittenAsTheRRULEWithItsOccurrencesAndReadBack() throws {
    let cases: [(RepeatRule, Date, Int?, String)] = [
      (.daily, date(2026, 12, 3, in: berlin), nil, "FREQ=DAILY"),
      (
        RepeatRule(.daily, interval: 3)!, date(2026, 12, 3, in: berlin), nil,
        "FREQ=DAILY;INTERVAL=3"
      ),
      (.weekdays, date(2026, 12, 3, in: berlin), nil, "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"),
      (.weekly, date(2026, 12, 3, in: berlin), nil, "FREQ=WEEKLY"),
      (
        RepeatRule(.weekly, interval: 2)!, date(2026, 12, 3, in: berlin), nil,
        "FREQ=WEEKLY;INTERVAL=2"
      ),
      (.monthly, date(2026, 12, 15, in: berlin), nil, "FREQ=MONTHLY"),
      (.monthly, date(2027, 1, 28, in: berlin), nil, "FREQ=MONTHLY"),
      (.monthly, date(2027, 1, 31, in: berlin), nil, "FREQ=MONTHLY;BYMONTHDAY=-1"),
      // 31 January moved to 28 February: the series keeps the 31st, the month's last day.
      (.monthly, date(2027, 2, 28, in: berlin), 31, "FREQ=MONTHLY;BYMONTHDAY=-1"),
      (.monthly, date(2027, 4, 30, in: berlin), 31, "FREQ=MONTHLY;BYMONTHDAY=-1"),
      (
        .monthly, date(2027, 1, 30, in: berlin), nil, "FREQ=MONTHLY;BYMONTHDAY=28,29,30;BYSETPOS=-1"
      ),
      (.monthly, date(2027, 2, 28, in: berlin), 30, "FREQ=MONTHLY;BYMONTHDAY=28,29,30;BYSETPOS=-1"),
      (.monthly, date(2027, 3, 29, in: berlin), nil, "FREQ=MONTHLY;BYMONTHDAY=28,29;BYSETPOS=-1"),
      (
        RepeatRule(.monthly, interval: 6)!, date(2027, 8, 31, in: berlin), nil,
        "FREQ=MONTHLY;INTERVAL=6;BYMONTHDAY=-1"
      ),
      (.yearly, date(2026, 12, 3, in: berlin), nil, "FREQ=YEARLY"),
      (
        .yearly, date(2028, 2, 29, in: berlin), nil,
        "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1"
      ),
      (
        .yearly, date(2029, 2, 28, in: berlin), 29,
        "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1"
      ),
      (
        RepeatRule(.yearly, interval: 2)!, date(2027, 1, 31, in: berlin), nil,
        "FREQ=YEARLY;INTERVAL=2"
      ),
    ]
    for (rule, due, keptDay, rrule) in cases {
      let item = repeating(rule, due: due, keptDay: keptDay)
      let todo = try written(item, zone: berlin)
      #expect(todo.property("RRULE")?.value == rrule, "\(rule) on \(due)")
      // A timed repeat is written on the local wall clock, with a DTSTART as iOS writes it.
      #expect(todo.property("DUE")?.parameter("TZID") == "Europe/Berlin")
      #expect(
        todo.property("DTSTART")?.contentLine
          == todo.property("DUE")?.contentLine.replacingOccurrences(of: "DUE", with: "DTSTART"))
      let fields = TaskMapping.fields(of: todo, timeZone: berlin)
      #expect(fields.repeatRule == rule && fields.repeatDay == keptDay, "\(rrule)")
      #expect(fields.sameContent(as: TaskFields(item, timeZone: berlin)), "\(rrule)")
      let back = fields.makeItem(itemID: 7, defaultDate: Date())
      #expect(back.repeatRule == rule && back.repeatAnchorDay == keptDay, "\(rrule)")
      // The phone's next occurrence (the RRULE's) is ours.
      let ours = RepeatSchedule(timeZone: berlin).next(after: due, rule: rule, keptDay: keptDay)
      let moved = TaskFields(
        repeating(rule, due: ours.date, keptDay: ours.keptDay), timeZone: berlin)
      #expect(moved.repeatRule == rule)
      let nextRRULE = TaskRecurrence.value(
        rule: rule, due: ours.date, keptDay: moved.repeatDay, timeZone: berlin)
      #expect(nextRRULE == rrule, "the series says the same after a step: \(rrule)")
    }
  }

  @Test func aRepeatCountsOnlyWithADueDateAndAStaleKeptDayIsNotWritten() throws {
    var undated = repeating(.weekly, due: date(2026, 12, 3, in: utc))
    undated.hasDueDate = false
    #expect(TaskFields(undated, timeZone: utc).repeatRule == nil)
    let todo = try written(undated, zone: utc)
    #expect(todo.property("RRULE") == nil && todo.property("DTSTART") == nil)
    // A kept 31st that no longer explains the due date (the 15th) counts for nothing.
    let stale = repeating(.monthly, due: date(2027, 3, 15, in: utc), keptDay: 31)
    #expect(TaskFields(stale, timeZone: utc).repeatDay == nil)
    #expect(try written(stale, zone: utc).property("RRULE")?.value == "FREQ=MONTHLY")
    // In UTC the due date stays in UTC (nothing to gain from a TZID).
    #expect(try written(stale, zone: utc).property("DUE")?.contentLine.hasSuffix("Z") == true)
  }

  @Test func aPhoneRuleIsReadOnlyWhenOneOfOursSaysExactlyTheSame() throws {
    let thursday = ":20261203T090000Z"
    let cases: [(String, String, RepeatRule?, Int?)] = [
      (thursday, "FREQ=DAILY", .daily, nil),
      (thursday, "freq=daily;interval=2", RepeatRule(.daily, interval: 2), nil),
      (thursday, "FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR", .weekdays, nil),
      (thursday, "FREQ=WEEKLY;BYDAY=FR,MO,TU,WE,TH;WKST=SU", .weekdays, nil),
      (thursday, "FREQ=WEEKLY;INTERVAL=1;BYDAY=TH", .weekly, nil),
      (thursday, "FREQ=WEEKLY;INTERVAL=3;WKST=MO", RepeatRule(.weekly, interval: 3), nil),
      (thursday, "FREQ=MONTHLY", .monthly, nil),
      (thursday, "FREQ=MONTHLY;BYMONTHDAY=3", .monthly, nil),
      (thursday, "FREQ=YEARLY", .yearly, nil),
      (thursday, "FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=3", .yearly, nil),
      (":20270430T090000Z", "FREQ=MONTHLY;BYMONTHDAY=-1", .monthly, 31),
      (":20270430T090000Z", "FREQ=YEARLY;BYMONTH=4;BYMONTHDAY=-1", .yearly, nil),
      (":20270228T090000Z", "FREQ=MONTHLY;BYMONTHDAY=29,28;BYSETPOS=-1", .monthly, 29),
      (":20270228T090000Z", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1", .yearly, 29),
      (";VALUE=DATE:20261203", "FREQ=WEEKLY", .weekly, nil),
      // What no rule of ours says: kept, read as no repeat.
      (thursday, "FREQ=WEEKLY;BYDAY=SA", nil, nil),
      (thursday, "FREQ=WEEKLY;BYDAY=MO,WE", nil, nil),
      (thursday, "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TU,WE,TH,FR", nil, nil),
      (thursday, "FREQ=MONTHLY;BYDAY=1TH", nil, nil),
      (thursday, "FREQ=MONTHLY;BYMONTHDAY=3,17", nil, nil),
      (thursday, "FREQ=DAILY;COUNT=5", nil, nil),
      (thursday, "FREQ=DAILY;UNTIL=20270101T000000Z", nil, nil),
      (thursday, "FREQ=DAILY;INTERVAL=0", nil, nil),
      (thursday, "FREQ=DAILY;INTERVAL=1000", nil, nil),
      (thursday, "FREQ=DAILY;FREQ=WEEKLY", nil, nil),
      (thursday, "FREQ=HOURLY", nil, nil),
      (thursday, "FREQ=YEARLY;BYMONTHDAY=3", nil, nil),
      (thursday, "FREQ=YEARLY;BYMONTH=1", nil, nil),
      (thursday, "FREQ=MONTHLY;BYMONTHDAY=-1", nil, nil),
      (thursday, "INTERVAL=2", nil, nil),
      // From the 31st RFC 5545 skips the short months; ours would not.
      (":20270131T090000Z", "FREQ=MONTHLY", nil, nil),
      (":20280229T090000Z", "FREQ=YEARLY", nil, nil),
      (":20270430T090000Z", "FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=1", nil, nil),
    ]
    for (due, rrule, rule, keptDay) in cases {
      let todo = try #require(TaskTestSupport.todo(repeatingPhoneTask(due: due, rrule: rrule)))
      let fields = TaskMapping.fields(of: todo, timeZone: utc)
      #expect(fields.repeatRule == rule && fields.repeatDay == keptDay, "\(rrule) due\(due)")
    }
    // Exceptions, extra dates, two rules or a series that starts on another day: not ours.
    for extra in [
      "EXDATE:20261210T090000Z\r\n", "RDATE:20261211T090000Z\r\n", "RRULE:FREQ=DAILY\r\n",
    ] {
      let text = repeatingPhoneTask(due: thursday, rrule: "FREQ=WEEKLY", extra: extra)
      let todo = try #require(TaskTestSupport.todo(text))
      #expect(TaskMapping.fields(of: todo, timeZone: utc).repeatRule == nil, "\(extra)")
    }
    let otherStart = repeatingPhoneTask(due: thursday, rrule: "FREQ=WEEKLY")
      .replacingOccurrences(of: "DTSTART:20261203", with: "DTSTART:20261202")
    let todo = try #require(TaskTestSupport.todo(otherStart))
    #expect(TaskMapping.fields(of: todo, timeZone: utc).repeatRule == nil)
    // Without a due date nothing repeats here.
    let undated = try #require(
      TaskTestSupport.todo(phoneTask(uid: "u", summary: "x", extra: "RRULE:FREQ=DAILY\r\n")))
    #expect(TaskMapping.fields(of: undated, timeZone: utc).repeatRule == nil)
  }

  @Test func aRuleWeCannotExpressStaysByteForByteUntilARuleIsSetHere() throws {
    let foreign =
      "FREQ=MONTHLY;BYDAY=2TU;UNTIL=20271231T235959Z;X-SOMETHING-LONG=abcdefghijklmnopqrstuvwxyz"
    let text = repeatingPhoneTask(
      due: ":20261208T090000Z", rrule: foreign, extra: "EXDATE:20270112T090000Z\r\n"
    ).replacingOccurrences(of: "RRULE:" + foreign, with: ICalendar.fold("RRULE:" + foreign))
    #expect(text.contains("\r\n "), "the foreign rule is folded")
    var calendar = try #require(ICalendar.parse(text).first)
    var fields = TaskMapping.fields(
      of: try #require(TaskMapping.task(in: calendar)), timeZone: berlin)
    #expect(fields.repeatRule == nil)
    // The text, the note and the due date change: the rule and its dates stay as they were.
    fields.text = "Water all plants"
    fields.note = "The big one too"
    fields.due = (fields.due ?? 0) + 3600
    #expect(TaskMapping.patch(calendar: &calendar, to: fields, now: Date(), timeZone: berlin))
    let patched = ICalendar.serialize([calendar])
    #expect(patched.contains(ICalendar.fold("RRULE:" + foreign) + "\r\n"))
    #expect(patched.contains("EXDATE:20270112T090000Z\r\n"))
    #expect(
      unfoldedLines(patched).contains("DUE:20261208T100000Z"), "no TZID: nothing repeats here")
    #expect(
      unfoldedLines(patched).contains("DTSTART:20261208T100000Z"),
      "the start moves with the due date")
    // A rule set here replaces it, with the dates that belonged to it.
    fields.repeatRule = .weekly
    #expect(TaskMapping.patch(calendar: &calendar, to: fields, now: Date(), timeZone: berlin))
    let lines = unfoldedLines(ICalendar.serialize([calendar]))
    #expect(lines.filter { $0.hasPrefix("RRULE") } == ["RRULE:FREQ=WEEKLY"])
    #expect(!lines.contains { $0.hasPrefix("EXDATE") })
    #expect(lines.contains("DUE;TZID=Europe/Berlin:20261208T110000"))
    #expect(lines.contains("DTSTART;TZID=Europe/Berlin:20261208T110000"))
    #expect(
      TaskMapping.fields(of: try #require(TaskMapping.task(in: calendar)), timeZone: berlin)
        .repeatRule == .weekly)
    // Removed here: our RRULE goes; the start stays a plain start.
    fields.repeatRule = nil
    #expect(TaskMapping.patch(calendar: &calendar, to: fields, now: Date(), timeZone: berlin))
    #expect(!unfoldedLines(ICalendar.serialize([calendar])).contains { $0.hasPrefix("RRULE") })
  }

  @Test func aPhoneRuleOnAUTCDueDateIsWrittenOnTheLocalClockWhenTheItemIsWritten() throws {
    var calendar = try #require(
      ICalendar.parse(repeatingPhoneTask(due: ":20261203T080000Z", rrule: "FREQ=DAILY")).first)
    var fields = TaskMapping.fields(
      of: try #require(TaskMapping.task(in: calendar)), timeZone: berlin)
    #expect(fields.repeatRule == .daily)
    fields.text = "Water the plants"
    #expect(TaskMapping.patch(calendar: &calendar, to: fields, now: Date(), timeZone: berlin))
    let lines = unfoldedLines(ICalendar.serialize([calendar]))
    #expect(lines.contains("DUE;TZID=Europe/Berlin:20261203T090000"))
    #expect(lines.contains("DTSTART;TZID=Europe/Berlin:20261203T090000"))
    #expect(lines.contains("RRULE:FREQ=DAILY"))
    let again = TaskMapping.fields(
      of: try #require(TaskMapping.task(in: calendar)), timeZone: berlin)
    #expect(again.sameContent(as: fields))
  }

  /// 02:30 comes twice in Berlin on 25 October 2026; iCalendar reads a zoned 02:30 as the
  /// first (00:30 UTC), so the second (01:30 UTC) is written in UTC and reads back the same.
  @Test func aRepeatDueInTheSecondOfTwoEqualHoursIsWrittenInUTC() throws {
    let second = DatesFixture.utc(2026, 10, 25, 1, 30)
    let todo = try written(repeating(.daily, due: second), zone: berlin)
    #expect(todo.property("DUE")?.value == "20261025T013000Z")
    #expect(todo.property("DUE")?.parameter("TZID") == nil)
    #expect(TaskMapping.fields(of: todo, timeZone: berlin).due == TaskFields.seconds(second))
    // The first of the two stays on the local clock.
    let first = DatesFixture.utc(2026, 10, 25, 0, 30)
    let firstTodo = try written(repeating(.daily, due: first), zone: berlin)
    #expect(firstTodo.property("DUE")?.value == "20261025T023000")
    #expect(firstTodo.property("DUE")?.parameter("TZID") == "Europe/Berlin")
  }

  @Test func aNoteIsTheTasksOwnDescriptionEscapedAndFolded() throws {
    let note =
      "Ask for: oat, soy; almond\\rice\nSecond line — with ünïcödé 😀 "
      + String(repeating: "and a long tail that must be folded ", count: 4) + "\n\nlast"
    var calendar = try #require(ICalendar.parse(iosLikeTask).first)
    var fields = TaskMapping.fields(
      of: try #require(TaskMapping.task(in: calendar)), timeZone: paris)
    #expect(fields.note == "", "the alarm's DESCRIPTION is not the note")
    fields.note = note
    #expect(TaskMapping.patch(calendar: &calendar, to: fields, now: Date(), timeZone: paris))
    let text = ICalendar.serialize([calendar])
    let folded = try #require(
      ICalendar.unfoldedLines(text).map(\.1).first { $0.hasPrefix("DESCRIPTION:Ask") })
    let physical = folded.components(separatedBy: "\r\n")
    #expect(physical.count > 2 && physical.allSatisfy { $0.utf8.count <= 75 })
    let reparsed = try #require(try ICalendar.parse(text).first)
    let todo = try #require(TaskMapping.task(in: reparsed))
    let description = try #require(todo.property("DESCRIPTION"))
    #expect(description.value.hasPrefix("Ask for: oat\\, soy\\; almond\\\\rice\\nSecond line"))
    #expect(TaskMapping.fields(of: todo, timeZone: paris).note == note)
    let alarms = todo.components.filter { $0.name == "VALARM" }
    #expect(alarms.map { $0.property("DESCRIPTION")?.value } == ["Reminder", "mail me"])
    // Removed: only the task's DESCRIPTION goes, with an HTML copy of the old note.
    var withHTML = try #require(
      ICalendar.parse(
        text.replacingOccurrences(
          of: "SEQUENCE:", with: "X-ALT-DESC;FMTTYPE=text/html:<p>old</p>\r\nSEQUENCE:")
      ).first)
    fields.note = ""
    #expect(TaskMapping.patch(calendar: &withHTML, to: fields, now: Date(), timeZone: paris))
    let lines = unfoldedLines(ICalendar.serialize([withHTML]))
    #expect(
      lines.filter { $0.hasPrefix("DESCRIPTION") } == [
        "DESCRIPTION:Reminder", "DESCRIPTION:mail me",
      ])
    #expect(!lines.contains { $0.hasPrefix("X-ALT-DESC") })
    // A carriage return of ours is not a difference the vdir can hold.
    var item = ChecklistItem(text: "x", itemID: 1)
    item.note = "a\r\nb"
    #expect(TaskFields(item, timeZone: paris).note == "a\nb")
  }

  let paris = DatesFixture.zone("Europe/Paris")

  @Test func theStateKeepsNotesRepeatsAndReadsTheOldFormat() throws {
    var item = ChecklistItem(
      text: "Plants", dueDate: Date(timeIntervalSince1970: 1_800_000_000), hasDueDate: true,
      itemID: 3)
    item.note = "water\tthem\nall"
    item.repeatRule = RepeatRule(.monthly, interval: 2)
    item.repeatAnchorDay = 31
    let fields = TaskFields(
      text: "Plants", due: 1_800_000_000, note: "other\\note", repeatRule: .weekdays, repeatDay: 30)
    var record = SyncState.Item(
      item: item, href: "p.ics", uid: "u",
      fingerprint: FileFingerprint(inode: 1, size: 2, modified: 3), fields: fields)
    record.pending = .rewrite(previous: TaskFields(text: "Old", note: "n", repeatRule: .daily))
    let state = SyncState(collections: [
      SyncState.Collection(folder: "f", deleted: false, name: "L", icon: "No Icon", items: [record])
    ])
    let text = state.encoded(dataFilePath: "/x", vdir: "/y")
    #expect(SyncState.decode(Array(text.utf8)) == state)
    // A state from before notes and repeats were synced: the file is read again.
    var old = ""
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let parts = line.split(separator: "\t", omittingEmptySubsequences: false)
      if parts.first == "item" {
        old += parts.prefix(19).joined(separator: "\t") + "\n"
      } else if parts.first == "prev" {
        old += parts.prefix(8).joined(separator: "\t") + "\n"
      } else if !line.isEmpty {
        old += line + "\n"
      }
    }
    let decoded = try #require(SyncState.decode(Array(old.utf8)))
    let oldRecord = try #require(decoded.collections.first?.items.first)
    #expect(oldRecord.item.note == "" && oldRecord.item.repeatRule == nil)
    #expect(oldRecord.fingerprint == SyncState.unwritten)
    #expect(oldRecord.pending == .rewrite(previous: TaskFields(text: "Old")))
  }
}

extension SyncFixture {
  /// Changes the first item called `text` through the store.
  func editItem(_ text: String, _ change: (inout ChecklistItem) -> Void) throws {
    try edit { model in
      for list in model.lists {
        guard let index = list.items.firstIndex(where: { $0.text == text }) else { continue }
        var item = list.items[index]
        change(&item)
        model.apply(model.replaceItem(listID: list.id, at: index, with: item)!)
        return
      }
      Issue.record("no item \(text)")
    }
  }

  /// The data file's item called `text`.
  func item(_ text: String) throws -> ChecklistItem? {
    let (_, load) = try ChecklistsStore.open(location: location)
    return load.model.lists.flatMap(\.items).first { $0.text == text }
  }

  /// The unfolded lines of the vdir file whose SUMMARY is `text`.
  func lines(_ text: String) -> [String] {
    unfoldedLines(files()[file(summary: text) ?? ""] ?? "")
  }
}

@Suite("Sync: notes and repeats between a data file and a vdir")
struct SyncPlannerEngineTests {
  /// Thursday 3 December 2026, 09:00 UTC.
  let due = Date(timeIntervalSince1970: 1_796_288_400)

  @Test func aNoteAndARepeatMadeOnEitherSideReachTheOther() throws {
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    try fixture.editItem("Milk") {
      $0.setDueDateByHand(due)
      $0.hasDueDate = true
      $0.note = "Oat, if they have it;\nelse soy"
      $0.repeatRule = .weekly
    }
    try fixture.sync()
    var lines = fixture.lines("Milk")
    #expect(lines.contains("DESCRIPTION:Oat\\, if they have it\\;\\nelse soy"))
    #expect(lines.contains("RRULE:FREQ=WEEKLY"))
    #expect(lines.contains("DUE:20261203T090000Z") && lines.contains("DTSTART:20261203T090000Z"))
    // The phone changes both.
    let milk = try #require(fixture.file(summary: "Milk"))
    try fixture.replace(in: milk, "RRULE:FREQ=WEEKLY", with: "RRULE:FREQ=DAILY;INTERVAL=2")
    try fixture.replace(
      in: milk, "DESCRIPTION:Oat\\, if they have it\\;\\nelse soy", with: "DESCRIPTION:Any")
    let report = try fixture.sync()
    #expect(report.changedFromVdir == 1 && report.changedHere == 0, "\(report.summary)")
    var item = try #require(try fixture.item("Milk"))
    #expect(item.note == "Any" && item.repeatRule == RepeatRule(.daily, interval: 2))
    #expect(try fixture.sync().isNothing)
    // Removed here: the DESCRIPTION and the RRULE go, the rest stays.
    try fixture.editItem("Milk") {
      $0.note = ""
      $0.repeatRule = nil
    }
    #expect(try fixture.sync().changedHere == 1)
    lines = fixture.lines("Milk")
    #expect(!lines.contains { $0.hasPrefix("DESCRIPTION") || $0.hasPrefix("RRULE") })
    #expect(lines.contains("DUE:20261203T090000Z"))
    item = try #require(try fixture.item("Milk"))
    #expect(item.note == "" && item.repeatRule == nil)
  }

  @Test func notesEditedOnBothSidesMergeLikeEveryOtherField() throws {
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    try fixture.editItem("Milk") { $0.note = "two litres" }
    try fixture.sync()
    let milk = try #require(fixture.file(summary: "Milk"))
    // A note here, the text on the phone: both kept.
    try fixture.replace(in: milk, "SUMMARY:Milk", with: "SUMMARY:Whole milk")
    try fixture.editItem("Milk") { $0.note = "three litres" }
    var report = try fixture.sync()
    #expect(report.merge.conflicts.isEmpty && report.changedFromVdir == 1, "\(report.summary)")
    var item = try #require(try fixture.item("Whole milk"))
    #expect(item.note == "three litres")
    #expect(fixture.lines("Whole milk").contains("DESCRIPTION:three litres"))
    // The note on both sides: ours kept, the conflict reported.
    try fixture.replace(in: milk, "DESCRIPTION:three litres", with: "DESCRIPTION:one litre")
    try fixture.editItem("Whole milk") { $0.note = "four litres" }
    report = try fixture.sync()
    #expect(report.merge.conflicts.map(\.field) == ["note"], "\(report.summary)")
    item = try #require(try fixture.item("Whole milk"))
    #expect(item.note == "four litres")
    #expect(fixture.lines("Whole milk").contains("DESCRIPTION:four litres"))
    // Only the phone's note changes: taken here.
    try fixture.replace(in: milk, "DESCRIPTION:four litres", with: "DESCRIPTION:five")
    report = try fixture.sync()
    #expect(report.changedFromVdir == 1 && report.merge.conflicts.isEmpty)
    #expect(try fixture.item("Whole milk")?.note == "five")
  }

  @Test func checkingARepeatingItemHereSendsTheNextDueDateStillToDo() throws {
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    // Monthly from 31 January: 28 February, keeping the 31st for March.
    let january = Date(timeIntervalSince1970: 1_801_386_000)  // 2027-01-31 09:00 UTC
    try fixture.editItem("Milk") {
      $0.setDueDateByHand(january)
      $0.hasDueDate = true
      $0.repeatRule = .monthly
    }
    try fixture.sync()
    #expect(fixture.lines("Milk").contains("RRULE:FREQ=MONTHLY;BYMONTHDAY=-1"))
    try fixture.edit { model in
      let list = model.lists.first { $0.name == "Groceries" }!
      let check = model.checkItem(
        listID: list.id, at: 0, schedule: RepeatSchedule(timeZone: ZoneRules.utc))!
      model.apply(check.change)
    }
    let report = try fixture.sync()
    #expect(report.changedHere == 1, "\(report.summary)")
    let lines = fixture.lines("Milk")
    #expect(lines.contains("DUE:20270228T090000Z") && lines.contains("DTSTART:20270228T090000Z"))
    #expect(lines.contains("STATUS:NEEDS-ACTION") && !lines.contains { $0.hasPrefix("COMPLETED") })
    #expect(lines.contains("RRULE:FREQ=MONTHLY;BYMONTHDAY=-1"))
    #expect(try fixture.sync().isNothing)
    // The phone moves it on the same way (to the month's last day): the 31st is still kept.
    let milk = try #require(fixture.file(summary: "Milk"))
    try fixture.replace(in: milk, "DUE:20270228T090000Z", with: "DUE:20270331T090000Z")
    try fixture.replace(in: milk, "DTSTART:20270228T090000Z", with: "DTSTART:20270331T090000Z")
    #expect(try fixture.sync().changedFromVdir == 1)
    let item = try #require(try fixture.item("Milk"))
    #expect(item.repeatRule == .monthly && item.dueDate.timeIntervalSince1970 == 1_806_483_600)
    #expect(
      RepeatSchedule(timeZone: ZoneRules.utc).advanced(item)?.dueDate
        == Date(timeIntervalSince1970: 1_809_075_600), "30 April")
  }

  @Test func aPhoneRuleWeCannotExpressSurvivesEditsHereUntilARuleIsSetHere() throws {
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    try fixture.sync()
    let folder = try #require(fixture.folder(named: "Groceries"))
    let foreign = "RRULE:FREQ=MONTHLY;BYDAY=2TU\r\n"
    try fixture.write(
      folder + "/tuesday.ics",
      phoneTask(
        uid: "tue@phone", summary: "Bins",
        extra: "DUE:20261208T070000Z\r\nDESCRIPTION:Blue one\\, then green\r\n" + foreign))
    #expect(try fixture.sync().newFromVdir == 1)
    var item = try #require(try fixture.item("Bins"))
    #expect(item.repeatRule == nil && item.note == "Blue one, then green" && item.hasDueDate)
    try fixture.editItem("Bins") {
      $0.text = "Bins out"
      $0.note = "Blue one"
    }
    try fixture.sync()
    let text = try #require(fixture.files()[folder + "/tuesday.ics"])
    #expect(text.contains(foreign) && text.contains("SUMMARY:Bins out"))
    #expect(unfoldedLines(text).contains("DESCRIPTION:Blue one"))
    #expect(try fixture.sync().isNothing)
    try fixture.editItem("Bins out") { $0.repeatRule = RepeatRule(.weekly, interval: 2) }
    try fixture.sync()
    let lines = fixture.lines("Bins out")
    #expect(lines.filter { $0.hasPrefix("RRULE") } == ["RRULE:FREQ=WEEKLY;INTERVAL=2"])
    #expect(lines.contains("DTSTART:20261208T070000Z"))
    item = try #require(try fixture.item("Bins out"))
    #expect(item.repeatRule == RepeatRule(.weekly, interval: 2))
    #expect(try fixture.sync().isNothing)
  }

  @Test func aPhoneRuleThatANewDueDateMakesExpressibleIsStillNotRemoved() throws {
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    try fixture.sync()
    let folder = try #require(fixture.folder(named: "Groceries"))
    try fixture.write(
      folder + "/sat.ics",
      phoneTask(
        uid: "sat@phone", summary: "Market",
        extra: "DUE:20261203T090000Z\r\nRRULE:FREQ=WEEKLY;BYDAY=SA\r\n"))
    try fixture.sync()
    #expect(try fixture.item("Market")?.repeatRule == nil)
    // Moved here to Saturday 5 December: the phone's rule now reads as weekly.
    try fixture.editItem("Market") { $0.setDueDateByHand(due.addingTimeInterval(2 * 86_400)) }
    #expect(try fixture.sync().changedHere == 1)
    // Another change makes the next pass look at every item: Market's file is not touched.
    try fixture.editItem("Milk") { $0.text = "Milk!" }
    #expect(try fixture.sync().changedHere == 1)
    let lines = unfoldedLines(try #require(fixture.files()[folder + "/sat.ics"]))
    #expect(lines.contains("RRULE:FREQ=WEEKLY;BYDAY=SA") && lines.contains("DUE:20261205T090000Z"))
  }

  @Test func aStateFromBeforeNotesWereSyncedTakesThePhonesNoteInsteadOfErasingIt() throws {
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    try fixture.sync()
    // The phone wrote a note and a rule that the older version recorded without reading them.
    let milk = try #require(fixture.file(summary: "Milk"))
    try fixture.replace(
      in: milk, "SUMMARY:Milk",
      with: "SUMMARY:Milk\r\nDESCRIPTION:From the phone\r\nDUE:20261203T090000Z\r\nRRULE:FREQ=DAILY"
    )
    let print = try #require(FileFingerprint.of(fixture.vdir + "/" + milk))
    let href = (milk as NSString).lastPathComponent
    var old = ""
    let state = try String(contentsOfFile: fixture.statePath, encoding: .utf8)
    for line in state.split(separator: "\n") {
      var parts = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      if parts.first == "item" {
        parts = Array(parts.prefix(19))
        if parts[6] == href {
          (parts[8], parts[9], parts[10]) = ("\(print.inode)", "\(print.size)", "\(print.modified)")
        }
      }
      old += parts.joined(separator: "\t") + "\n"
    }
    try old.write(toFile: fixture.statePath, atomically: true, encoding: .utf8)
    try? FileManager.default.removeItem(atPath: SyncIndex.path(statePath: fixture.statePath))
    // Text changed here, so the file is written: the note is taken in first, not erased.
    try fixture.editItem("Milk") { $0.text = "Milk!" }
    try fixture.sync()
    let item = try #require(try fixture.item("Milk!"))
    #expect(item.note == "From the phone" && item.repeatRule == .daily)
    let lines = fixture.lines("Milk!")
    #expect(lines.contains("DESCRIPTION:From the phone") && lines.contains("RRULE:FREQ=DAILY"))
    #expect(try fixture.sync().isNothing)
  }

  @Test func aNoteOrRepeatChangedOnEitherSideIsFoundPastTheIndex() throws {
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    try fixture.editItem("Dishes") { $0.note = "aaaa" }
    try fixture.sync()
    try fixture.settleAndRecordIndex()
    try fixture.editItem("Dishes") { $0.repeatRule = .daily }
    #expect(!fixture.indexSaysUnchanged)
    #expect(try fixture.sync().changedHere == 1)
    #expect(fixture.lines("Dishes").contains("RRULE:FREQ=DAILY"))
    try fixture.settleAndRecordIndex()
    let dishes = try #require(fixture.file(summary: "Dishes"))
    try fixture.rewriteInPlace(dishes, "DESCRIPTION:aaaa", with: "DESCRIPTION:bbbb")
    #expect(!fixture.indexSaysUnchanged)
    #expect(try fixture.sync().changedFromVdir == 1)
    #expect(try fixture.item("Dishes")?.note == "bbbb")
  }

  /// UTC under any of its names, and fixed GMT offsets, are written as UTC; a real zone keeps
  /// its name.
  @Test(arguments: [
    ("Etc/UTC", false), ("UTC", false), ("Etc/Universal", false), ("Zulu", false),
    ("Etc/GMT", false), ("Etc/GMT+5", false), ("GMT0", false), ("Europe/Berlin", true),
    ("America/New_York", true), ("Asia/Kathmandu", true),
  ])
  func repeatsAreWrittenInAZoneOnlyWhenItIsOne(name: String, keepsZone: Bool) throws {
    let zone = try ZoneRules.named(name)
    #expect((TaskMapping.zoneForRepeats(zone) != nil) == keepsZone)
  }
}
