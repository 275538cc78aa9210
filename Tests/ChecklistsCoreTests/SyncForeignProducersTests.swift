import ChecklistsTestSupport
import Foundation
import Testing

@testable import ChecklistsCore

/// Tasks as other producers write them (`Tests/Fixtures/foreign-tasks`, see its README), each
/// taken through a first sync (which must leave the file as it is), an edit here and a second
/// sync, with Python's icalendar reading the values before and after.
struct ForeignTaskRig {
  let fixture: SyncFixture
  let name: String
  let original: String
  /// A zone far from every fixture's: a time read as local instead of in its zone is off by
  /// half a day.
  let zone = DatesFixture.zone("Pacific/Kiritimati")
  var path: String { fixture.vdir + "/foreign/" + name }

  /// A data file with the sample lists and a vdir holding the fixture `name` in a list
  /// "Foreign", synced once.
  init(_ name: String) throws {
    fixture = try SyncFixture()
    self.name = name
    let url = BuiltBinary.repositoryRoot + "/Tests/Fixtures/foreign-tasks/" + name
    original = try String(contentsOfFile: url, encoding: .utf8)
    try fixture.write("foreign/displayname", "Foreign\n")
    try fixture.write("foreign/" + name, original)
    let report = try sync()
    #expect(report.newFromVdir == 1 && report.problems.isEmpty, "\(report.problems)")
  }

  func remove() { fixture.remove() }

  @discardableResult
  func sync() throws -> SyncReport {
    try VdirSync.run(
      location: fixture.location, vdir: fixture.vdir,
      options: SyncOptions(timeZone: zone, now: fixture.now)
    ).report
  }

  /// The fixture's item in the data file.
  func item() throws -> ChecklistItem {
    let (_, load) = try ChecklistsStore.open(location: fixture.location)
    let list = try #require(load.model.lists.first { $0.name == "Foreign" })
    return try #require(list.items.first)
  }

  /// Changes the fixture's item here.
  func edit(_ change: (inout ChecklistItem) -> Void) throws {
    try fixture.edit { model in
      for index in model.lists.indices where model.lists[index].name == "Foreign" {
        var item = model.lists[index].items[0]
        change(&item)
        model.lists[index].replaceItem(at: 0, with: item)
      }
    }
  }

  func text() throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

  /// The VTODO's values as Python's icalendar reads them: SUMMARY, DUE, DTSTART, DURATION,
  /// COMPLETED, STATUS, PERCENT-COMPLETE (instants in seconds since 1970) and the alarms'
  /// triggers.
  func python(_ file: String? = nil) throws -> [String: String] {
    let result = try runProcess(
      "/usr/bin/python3", ["-c", Self.oracle, file ?? path], environment: ["PATH": "/usr/bin:/bin"])
    #expect(result.status == 0, "icalendar: \(result.stderr)")
    var values: [String: String] = [:]
    for line in result.stdout.split(separator: "\n") {
      let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
      if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
    }
    return values
  }

  /// Every line of the original whose property is not in `changed` is in the file as it was
  /// (its folding too; the line ends may now be CRLF).
  func expectForeignLinesKept(except changed: Set<String>) throws {
    let now = try text().replacingOccurrences(of: "\r\n", with: "\n")
    for (_, folded) in ICalendar.unfoldedLines(original) {
      let line = ICalendar.unfold(folded)
      let name = String(line.prefix { $0 != ";" && $0 != ":" }).uppercased()
      guard !changed.contains(name) else { continue }
      let kept = folded.replacingOccurrences(of: "\r\n", with: "\n")
      #expect(now.contains(kept + "\n"), "\(name) line lost or changed: \(kept)")
    }
  }

  /// The first sync left the file byte for byte.
  func expectUntouched() throws {
    #expect(try text() == original, "the first sync rewrote a task nobody changed")
  }

  static let oracle = """
    import sys, datetime
    from icalendar import Calendar
    cal = Calendar.from_ical(open(sys.argv[1], 'rb').read())
    def value(v):
        if isinstance(v, datetime.datetime):
            return 'floating' if v.tzinfo is None else str(int(v.timestamp()))
        if isinstance(v, datetime.date): return 'day ' + v.isoformat()
        if isinstance(v, datetime.timedelta): return str(int(v.total_seconds()))
        if isinstance(v, bytes): return v.decode()
        return str(v)
    todo = cal.walk('VTODO')[0]
    for name in ('SUMMARY', 'DUE', 'DTSTART', 'DURATION', 'COMPLETED', 'STATUS',
                 'PERCENT-COMPLETE', 'PERCENT_COMPLETE'):
        if name in todo: print(name + '\\t' + value(todo.decoded(name)))
    print('ALARMS\\t' + ','.join(value(a.decoded('TRIGGER')) for a in todo.walk('VALARM')))
    """
}

@Suite("Sync: tasks written by other producers", .serialized)
struct SyncForeignProducersTests {
  /// A zone that is no database name, defined by the file's VTIMEZONE (Thunderbird's
  /// `/mozilla.org/…`, Evolution's `/softwarestudio.org/…`, Outlook's Windows names): read in that
  /// zone, not as local time; a new due date is written in the same TZID.
  @Test(arguments: [
    "thunderbird-mozilla-tzid.ics", "evolution-softwarestudio-tzid.ics",
    "outlook-windows-tzid.ics", "exchange-windows-tzid-without-vtimezone.ics",
  ])
  func aZoneTheFileDefinesOrAWindowsNameIsReadInThatZone(name: String) throws {
    let rig = try ForeignTaskRig(name)
    defer { rig.remove() }
    try rig.expectUntouched()
    let before = try rig.python()
    let due = try #require(before["DUE"].flatMap { Int64($0) }, "icalendar reads no DUE")
    #expect(try TaskFields.seconds(rig.item().dueDate) == due)
    #expect(try rig.item().hasDueDate)
    #expect(try rig.sync().isNothing)

    try rig.edit {
      $0.text += " (edited)"
      $0.dueDate = $0.dueDate.addingTimeInterval(86_400)
    }
    #expect(try rig.sync().changedHere == 1)
    let after = try rig.python()
    #expect(after["DUE"] == String(due + 86_400))
    #expect(after["SUMMARY"] == (before["SUMMARY"] ?? "") + " (edited)")
    let oldDue = try #require(
      ICalendar.unfoldedLines(rig.original).map { ICalendar.unfold($0.1) }.first {
        $0.hasPrefix("DUE")
      })
    let tzid = String(oldDue.prefix { $0 != ":" })
    #expect(unfoldedLines(try rig.text()).contains { $0.hasPrefix(tzid + ":") }, "same TZID")
    try rig.expectForeignLinesKept(
      except: ["SUMMARY", "DUE", "DTSTART", "DTSTAMP", "LAST-MODIFIED", "SEQUENCE"])
    #expect(try rig.sync().isNothing)
  }

  /// Apple's location reminder: its dummy 1976 alarm is no due date and stays as it is.
  @Test func aLocationAlarmIsNoDueDateAndStays() throws {
    let rig = try ForeignTaskRig("apple-location-reminder.ics")
    defer { rig.remove() }
    try rig.expectUntouched()
    #expect(try !rig.item().hasDueDate && !rig.item().shouldRemind)
    try rig.edit { $0.text = "Take the parcel in, then sign" }
    #expect(try rig.sync().changedHere == 1)
    let after = try rig.python()
    #expect(after["SUMMARY"] == "Take the parcel in, then sign" && after["DUE"] == nil)
    #expect(after["ALARMS"] == "197168145")
    try rig.expectForeignLinesKept(except: ["SUMMARY", "DTSTAMP", "LAST-MODIFIED", "SEQUENCE"])
    #expect(try rig.sync().isNothing)
  }

  /// A task whose one alarm is an absolute display alarm, without DUE: the alarm's time is the
  /// due time with Remind Me on; turning Remind Me off here keeps the due time as DUE.
  @Test func aLoneAbsoluteAlarmStandsForTheDueTimeWithRemindMe() throws {
    let rig = try ForeignTaskRig("apple-alarm-without-due.ics")
    defer { rig.remove() }
    try rig.expectUntouched()
    let alarm = try #require(rig.python()["ALARMS"].flatMap { Int64($0) })
    #expect(try rig.item().hasDueDate && rig.item().shouldRemind)
    #expect(try TaskFields.seconds(rig.item().dueDate) == alarm)
    try rig.edit { $0.text = "Put the bins out tonight" }
    #expect(try rig.sync().changedHere == 1)
    let edited = try rig.python()
    #expect(edited["DUE"] == nil && edited["ALARMS"] == String(alarm))
    try rig.expectForeignLinesKept(except: ["SUMMARY", "DTSTAMP", "LAST-MODIFIED", "SEQUENCE"])
    try rig.edit { $0.shouldRemind = false }
    #expect(try rig.sync().changedHere == 1)
    let after = try rig.python()
    #expect(after["DUE"] == String(alarm) && after["ALARMS"] == "")
    #expect(try rig.item().hasDueDate && !rig.item().shouldRemind)
    #expect(try rig.sync().isNothing)
  }

  /// DTSTART + DURATION: the due time is their sum (RFC 5545); a new due date here replaces
  /// DURATION with DUE (the two never go together).
  @Test func aStartAndDurationTasksDueTimeIsTheirSum() throws {
    let rig = try ForeignTaskRig("kde-start-and-duration.ics")
    defer { rig.remove() }
    try rig.expectUntouched()
    let before = try rig.python()
    let start = try #require(before["DTSTART"].flatMap { Int64($0) })
    let duration = try #require(before["DURATION"].flatMap { Int64($0) })
    #expect(try TaskFields.seconds(rig.item().dueDate) == start + duration)
    #expect(try rig.item().hasDueDate && !rig.item().shouldRemind)
    try rig.edit { $0.dueDate = $0.dueDate.addingTimeInterval(3600) }
    #expect(try rig.sync().changedHere == 1)
    let after = try rig.python()
    #expect(after["DUE"] == String(start + duration + 3600) && after["DURATION"] == nil)
    #expect(after["DTSTART"] == String(start) && after["PERCENT-COMPLETE"] == "0")
    try rig.expectForeignLinesKept(except: ["DURATION", "DTSTAMP", "LAST-MODIFIED", "SEQUENCE"])
    #expect(try rig.sync().isNothing)
  }

  /// Thunderbird's "at start" alarm on a task without DUE is foreign: kept through the first
  /// sync and through a check here.
  @Test func anAlarmAtTheStartOfATaskWithoutDueIsKept() throws {
    let rig = try ForeignTaskRig("thunderbird-alarm-at-start.ics")
    defer { rig.remove() }
    try rig.expectUntouched()
    #expect(try !rig.item().hasDueDate && !rig.item().shouldRemind)
    try rig.edit { $0.checked = true }
    #expect(try rig.sync().changedHere == 1)
    let after = try rig.python()
    #expect(after["STATUS"] == "COMPLETED" && after["ALARMS"] == "0")
    try rig.expectForeignLinesKept(
      except: ["STATUS", "DTSTAMP", "LAST-MODIFIED", "SEQUENCE"])
    #expect(try rig.sync().isNothing)
  }

  /// tasks.org's alarm at the due time, relative to DUE, is Remind Me; a new due day here keeps
  /// it a day and the relative alarm follows it as it is.
  @Test func anAlarmAtTheDueTimeRelativeToDueIsRemindMe() throws {
    let rig = try ForeignTaskRig("tasksorg-alarm-at-due.ics")
    defer { rig.remove() }
    try rig.expectUntouched()
    #expect(try rig.item().hasDueDate && rig.item().shouldRemind)
    try rig.edit {
      $0.text = "Order the cake"
      $0.dueDate = $0.dueDate.addingTimeInterval(86_400)
    }
    #expect(try rig.sync().changedHere == 1)
    let after = try rig.python()
    #expect(after["DUE"] == "day 2026-12-19" && after["ALARMS"] == "0")
    #expect(after["SUMMARY"] == "Order the cake")
    try rig.expectForeignLinesKept(
      except: ["SUMMARY", "DUE", "DTSTAMP", "LAST-MODIFIED", "SEQUENCE"])
    #expect(try rig.sync().isNothing)
  }

  /// Done written as COMPLETED and PERCENT-COMPLETE:100 without STATUS stays so, with its time,
  /// through the first sync and an edit of another field.
  @Test func aCompletionWithoutStatusKeepsItsTimeAndForm() throws {
    let rig = try ForeignTaskRig("nextcloud-completed-without-status.ics")
    defer { rig.remove() }
    try rig.expectUntouched()
    let before = try rig.python()
    #expect(try rig.item().checked)
    try rig.edit { $0.text = "Return the library books today" }
    #expect(try rig.sync().changedHere == 1)
    let after = try rig.python()
    #expect(after["COMPLETED"] == before["COMPLETED"] && after["STATUS"] == nil)
    #expect(after["PERCENT-COMPLETE"] == "100")
    try rig.expectForeignLinesKept(except: ["SUMMARY", "DTSTAMP", "LAST-MODIFIED", "SEQUENCE"])
    #expect(try rig.sync().isNothing)
  }

  /// Synology's `PERCENT_COMPLETE:100` is no valid content line: kept byte for byte as a foreign
  /// line, and the rest of the task is read.
  @Test func anInvalidLineIsKeptAndTheRestOfTheTaskRead() throws {
    let rig = try ForeignTaskRig("synology-percent-underscore.ics")
    defer { rig.remove() }
    try rig.expectUntouched()
    let before = try rig.python()
    #expect(try rig.item().checked && rig.item().hasDueDate)
    #expect(try String(TaskFields.seconds(rig.item().dueDate)) == before["DUE"])
    try rig.edit { $0.checked = false }
    #expect(try rig.sync().changedHere == 1)
    let after = try rig.python()
    #expect(after["STATUS"] == "NEEDS-ACTION" && after["COMPLETED"] == nil)
    #expect(after["PERCENT_COMPLETE"] == "100" && after["DUE"] == before["DUE"])
    try rig.expectForeignLinesKept(
      except: ["STATUS", "COMPLETED", "DTSTAMP", "LAST-MODIFIED", "SEQUENCE"])
    #expect(try rig.sync().isNothing)
  }

  /// Every fixture in one list: a first sync imports them all and writes none of them, and the
  /// next finds nothing to do.
  @Test func aFirstSyncOfManyProducersTasksWritesNoneOfThem() throws {
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    let folder = BuiltBinary.repositoryRoot + "/Tests/Fixtures/foreign-tasks"
    let names = try FileManager.default.contentsOfDirectory(atPath: folder)
      .filter { $0.hasSuffix(".ics") }
    var originals: [String: String] = [:]
    for name in names {
      originals["foreign/" + name] = try String(
        contentsOfFile: folder + "/" + name, encoding: .utf8)
      try fixture.write("foreign/" + name, originals["foreign/" + name] ?? "")
    }
    #expect(names.count >= 10)
    let report = try fixture.sync()
    #expect(report.newFromVdir == names.count && report.problems.isEmpty)
    for (path, text) in fixture.files() where path.hasPrefix("foreign/") {
      #expect(text == originals[path], "\(path) was rewritten")
    }
    #expect(try fixture.sync().isNothing)
  }

  /// A file with no readable VTODO is still skipped, with a word why.
  @Test func onlyAFileWithNoReadableTaskIsSkipped() throws {
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    try fixture.write("foreign/broken.ics", "BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:x\nEND:VCALENDAR\n")
    try fixture.write("foreign/none.ics", "BEGIN:VCALENDAR\nPERCENT_COMPLETE:1\nEND:VCALENDAR\n")
    let report = try fixture.sync()
    #expect(report.problems.count == 2 && report.newFromVdir == 0)
  }

  /// Existing vdirs whose tasks carry our X-CHECKLISTS-ITEMID (written by earlier versions)
  /// keep their items and ids, and are not rewritten.
  @Test func tasksCarryingOurOldItemIDKeepIt() throws {
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    let task = phoneTask(uid: "old@here", summary: "Old", extra: "X-CHECKLISTS-ITEMID:77\r\n")
    try fixture.write("old/displayname", "Old\n")
    try fixture.write("old/old.ics", task)
    #expect(try fixture.sync().newFromVdir == 1)
    let (_, load) = try ChecklistsStore.open(location: fixture.location)
    #expect(load.model.lists.first { $0.name == "Old" }?.items.map(\.itemID) == [77])
    #expect(fixture.files()["old/old.ics"] == task)
    try fixture.edit { model in
      for index in model.lists.indices where model.lists[index].name == "Old" {
        var item = model.lists[index].items[0]
        item.text = "New"
        model.lists[index].replaceItem(at: 0, with: item)
      }
    }
    #expect(try fixture.sync().changedHere == 1)
    let lines = unfoldedLines(try #require(fixture.files()["old/old.ics"]))
    #expect(lines.contains("X-CHECKLISTS-ITEMID:77") && lines.contains("SUMMARY:New"))
    #expect(try fixture.sync().isNothing)
  }
}
