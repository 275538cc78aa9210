import ChecklistsTestSupport
import Foundation
import Testing

@testable import ChecklistsCore

/// A VTODO as another producer writes it (CRLF ends), with `lines` between SUMMARY and END.
func producerTask(
  uid: String, summary: String, producer: String = "-//Nextcloud Tasks v0.16.1", lines: String
) -> String {
  """
  BEGIN:VCALENDAR\r
  VERSION:2.0\r
  PRODID:\(producer)\r
  BEGIN:VTODO\r
  UID:\(uid)\r
  DTSTAMP:20261130T101500Z\r
  SUMMARY:\(summary)\r
  \(lines)END:VTODO\r
  END:VCALENDAR\r

  """
}

/// Subtasks, priorities and tags in sync: `RELATED-TO;RELTYPE=PARENT`, `PRIORITY` and
/// `CATEGORIES` read from and written to VTODOs as Nextcloud Tasks, tasks.org and Apple write
/// them; foreign lines byte for byte; the sync state and `sync-merge` carry the three fields.
@Suite("Sync: subtasks, priorities and tags as RELATED-TO, PRIORITY and CATEGORIES")
struct SyncOutlineTests {
  let utc = ZoneRules.utc

  func fields(_ text: String) throws -> TaskFields {
    let calendar = try #require(try ICalendar.parse(text).first)
    return TaskMapping.fields(of: try #require(TaskMapping.task(in: calendar)), timeZone: utc)
  }

  /// `text` patched to `change`d fields.
  func patched(_ text: String, _ change: (inout TaskFields) -> Void) throws -> String {
    var calendar = try #require(try ICalendar.parse(text).first)
    var wanted = try fields(text)
    change(&wanted)
    _ = TaskMapping.patch(
      calendar: &calendar, to: wanted, now: Date(timeIntervalSince1970: 1_796_200_000),
      timeZone: utc)
    return ICalendar.serialize([calendar])
  }

  // MARK: - Reading

  /// Nextcloud Tasks: a RELATED-TO without RELTYPE (a parent), PRIORITY 1–9, one CATEGORIES
  /// line with a comma list.
  @Test func nextcloudTasksParentPriorityAndCategoriesAreRead() throws {
    let text = producerTask(
      uid: "nc-2", summary: "Buy paint",
      lines: "RELATED-TO:nc-1\r\nPRIORITY:3\r\nCATEGORIES:Home,DIY\r\n")
    let read = try fields(text)
    #expect(read.parent == "nc-1")
    #expect(read.priority == 3)
    #expect(PriorityLevel(priority: read.priority) == .high)
    #expect(read.tags == ["Home", "DIY"])
  }

  /// tasks.org: RELTYPE=PARENT, several CATEGORIES lines, escaped commas and backslashes in a
  /// name, a repeat (ignoring case) left out.
  @Test func tasksOrgSeveralCategoriesLinesAndEscapesAreRead() throws {
    let text = producerTask(
      uid: "to-2", summary: "Call", producer: "+//IDN tasks.org//android-140101//EN",
      lines: "RELATED-TO;RELTYPE=PARENT:to-1\r\nPRIORITY:6\r\nCATEGORIES:Work\r\n"
        + "CATEGORIES:Calls\\, urgent,back\\\\slash\r\nCATEGORIES:work\\nnight,WORK\r\n")
    let read = try fields(text)
    #expect(read.parent == "to-1")
    #expect(PriorityLevel(priority: read.priority) == .low)
    #expect(read.tags == ["Work", "Calls, urgent", "back\\slash", "work\nnight"])
  }

  /// Apple: RELATED-TO;RELTYPE=PARENT, PRIORITY 1/5/9/0; other RELTYPEs are no parent.
  @Test(arguments: [(1, PriorityLevel.high), (5, .medium), (9, .low), (0, .none), (12, .none)])
  func applePrioritiesAndParentsAreRead(priority: Int, level: PriorityLevel) throws {
    let text = producerTask(
      uid: "ap-2", summary: "Pack", producer: "-//Apple Inc.//iOS 18.1//EN",
      lines: "RELATED-TO;RELTYPE=SIBLING:ap-9\r\nRELATED-TO;RELTYPE=PARENT:ap-1\r\n"
        + "PRIORITY:\(priority)\r\n")
    let read = try fields(text)
    #expect(read.parent == "ap-1")
    #expect(PriorityLevel(priority: read.priority) == level)
    let onlyChild = producerTask(
      uid: "ap-3", summary: "Go", lines: "RELATED-TO;RELTYPE=CHILD:ap-4\r\n")
    #expect(try fields(onlyChild).parent == nil)
    #expect(try fields(onlyChild).priority == 0 && fields(onlyChild).tags.isEmpty)
  }

  // MARK: - Writing

  /// A new task of ours: one parent line, PRIORITY, one CATEGORIES line escaped; read back the
  /// same; Python's icalendar reads the priority, the parent and the categories.
  @Test func ourTaskWritesTheThreePropertiesAndReadsThemBack() throws {
    var item = ChecklistItem(text: "Paint", itemID: 2)
    item.priority = 5
    item.tags = ["Home", "a;b", "x\\y"]
    var wanted = TaskFields(item, timeZone: utc)
    wanted.parent = "P-1"
    let calendar = TaskMapping.newCalendar(uid: "C-2", fields: wanted, now: Date(), timeZone: utc)
    let text = ICalendar.serialize([calendar])
    let lines = unfoldedLines(text)
    #expect(lines.contains("RELATED-TO;RELTYPE=PARENT:P-1"))
    #expect(lines.contains("PRIORITY:5"))
    #expect(lines.contains("CATEGORIES:Home,a\\;b,x\\\\y"))
    #expect(try fields(text).sameContent(as: wanted))
    let python = try pythonReading(text)
    #expect(python["PRIORITY"] == "5")
    #expect(python["PARENT"] == "P-1")
    #expect(python["CATEGORIES"]?.hasPrefix("Home,a;b") == true)
  }

  /// Only our fields change: a task whose text changes keeps its RELATED-TO lines (every
  /// type), PRIORITY and several CATEGORIES lines byte for byte.
  @Test func aChangedTextLeavesTheThreePropertiesByteForByte() throws {
    let foreign =
      "RELATED-TO;RELTYPE=PARENT;X-NC=1:nc-1\r\nRELATED-TO;RELTYPE=CHILD:nc-7\r\n"
      + "RELATED-TO;RELTYPE=SIBLING:nc-8\r\nPRIORITY:3\r\nCATEGORIES:Work\r\n"
      + "CATEGORIES:Home,Calls\\, urgent\r\n"
    let text = producerTask(uid: "nc-2", summary: "Buy paint", lines: foreign)
    let output = try patched(text) { $0.text = "Buy white paint" }
    #expect(output.contains("SUMMARY:Buy white paint\r\n"))
    #expect(output.contains(foreign))
  }

  /// A changed parent rewrites the first parent line only (its parameters kept); none removes
  /// it; CHILD and SIBLING lines and a second parent line stay.
  @Test func theParentLineChangesAloneOthersStay() throws {
    let text = producerTask(
      uid: "t", summary: "T",
      lines: "RELATED-TO;RELTYPE=CHILD:c\r\nRELATED-TO:p1\r\nRELATED-TO;RELTYPE=PARENT:p2\r\n")
    let moved = try patched(text) { $0.parent = "p9" }
    #expect(
      moved.contains(
        "RELATED-TO;RELTYPE=CHILD:c\r\nRELATED-TO:p9\r\nRELATED-TO;RELTYPE=PARENT:p2\r\n"))
    let outdented = try patched(text) { $0.parent = nil }
    #expect(
      outdented.contains("RELATED-TO;RELTYPE=CHILD:c\r\nRELATED-TO;RELTYPE=PARENT:p2\r\n"))
    #expect(!outdented.contains("RELATED-TO:p1"))
    let fresh = producerTask(uid: "t", summary: "T", lines: "RELATED-TO;RELTYPE=SIBLING:s\r\n")
    let indented = try patched(fresh) { $0.parent = "p" }
    #expect(indented.contains("RELATED-TO;RELTYPE=SIBLING:s\r\n"))
    #expect(unfoldedLines(indented).contains("RELATED-TO;RELTYPE=PARENT:p"))
  }

  /// The phone's 3 is kept through other changes; a level set here writes 1, 5 or 9; none
  /// removes PRIORITY.
  @Test func thePhonesPriorityNumberStaysUntilTheLevelChangesHere() throws {
    let text = producerTask(uid: "p", summary: "P", lines: "PRIORITY:3\r\n")
    var item = try fields(text).makeItem(itemID: 1, defaultDate: Date())
    #expect(item.priority == 3)
    item.priorityLevel = .high
    #expect(item.priority == 3)
    item.text = "Q"
    let unchanged = try patched(text) { $0 = TaskFields(item, timeZone: utc) }
    #expect(unchanged.contains("PRIORITY:3\r\n"))
    item.priorityLevel = .medium
    let medium = try patched(text) { $0 = TaskFields(item, timeZone: utc) }
    #expect(medium.contains("PRIORITY:5\r\n") && !medium.contains("PRIORITY:3"))
    item.priorityLevel = .none
    let none = try patched(text) { $0 = TaskFields(item, timeZone: utc) }
    #expect(!none.contains("PRIORITY"))
  }

  /// Tags changed here: several CATEGORIES lines become one, in the place of the first, in the
  /// item's order; no tags removes them all.
  @Test func changedTagsAreWrittenAsOneLine() throws {
    let text = producerTask(
      uid: "t", summary: "T", lines: "CATEGORIES:Work\r\nPRIORITY:1\r\nCATEGORIES:Home\r\n")
    let added = try patched(text) { $0.tags = ["Work", "Home", "Garden, shed"] }
    #expect(added.contains("CATEGORIES:Work,Home,Garden\\, shed\r\nPRIORITY:1\r\n"))
    #expect(unfoldedLines(added).filter { $0.hasPrefix("CATEGORIES") }.count == 1)
    let cleared = try patched(text) { $0.tags = [] }
    #expect(!cleared.contains("CATEGORIES"))
    #expect(cleared.contains("PRIORITY:1\r\n"))
  }

  // MARK: - The sync state

  /// The state keeps the item's parent, priority and tags and the file's, also in earlier
  /// versions (`base`, `prev`).
  @Test func theSyncStateKeepsTheThreeFields() throws {
    var item = ChecklistItem(
      text: "Child", dueDate: Date(timeIntervalSince1970: 1_796_000_000), itemID: 2)
    item.parentItemID = 1
    item.priority = 3
    item.tags = ["a,b", "c\\d", "tab\there"]
    var fields = TaskFields(item, timeZone: utc)
    fields.parent = "UID-1"
    var earlier = fields
    earlier.tags = ["old"]
    earlier.priority = 9
    earlier.parent = nil
    var record = SyncState.Item(
      item: item, href: "c.ics", uid: "UID-2",
      fingerprint: FileFingerprint(inode: 1, size: 2, modified: 3), fields: fields,
      pending: .rewrite(previous: earlier), earlier: [earlier])
    record.unsure = false
    let state = SyncState(
      dataFile: nil,
      collections: [
        SyncState.Collection(
          folder: "f", deleted: false, name: "L", icon: "No Icon", items: [record])
      ])
    let text = state.encoded(dataFilePath: "/d", vdir: "/v")
    let decoded = try #require(SyncState.decode(Array(text.utf8)))
    #expect(decoded == state)
    let back = decoded.collections[0].items[0]
    #expect(back.item.parentItemID == 1 && back.item.priority == 3)
    #expect(back.item.tags == ["a,b", "c\\d", "tab\there"])
    #expect(back.fields.parent == "UID-1" && back.earlier[0].tags == ["old"])
  }

  /// A state recorded before the three fields were synced (27 fields an item) still reads;
  /// its files are read again at the next pass, so their RELATED-TO, PRIORITY and CATEGORIES
  /// are taken in rather than overwritten.
  @Test func anOlderStateReadsAndItsFilesAreReadAgain() throws {
    let item = ChecklistItem(
      text: "Old", dueDate: Date(timeIntervalSince1970: 1_796_000_000), itemID: 7)
    let record = SyncState.Item(
      item: item, href: "o.ics", uid: "U-7",
      fingerprint: FileFingerprint(inode: 1, size: 2, modified: 3),
      fields: TaskFields(item, timeZone: utc), earlier: [TaskFields(item, timeZone: utc)])
    let state = SyncState(
      collections: [
        SyncState.Collection(
          folder: "f", deleted: false, name: "L", icon: "No Icon", items: [record])
      ])
    // Drop the six new fields of the item line and the three of the base line.
    let old = state.encoded(dataFilePath: "/d", vdir: "/v").split(separator: "\n").map { line in
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      if line.hasPrefix("item\t") { return fields.dropLast(6).joined(separator: "\t") }
      if line.hasPrefix("base\t") { return fields.dropLast(3).joined(separator: "\t") }
      return String(line)
    }.joined(separator: "\n")
    let itemLine = try #require(old.split(separator: "\n").first { $0.hasPrefix("item\t") })
    #expect(itemLine.split(separator: "\t", omittingEmptySubsequences: false).count == 27)
    let decoded = try #require(SyncState.decode(Array(old.utf8)))
    let back = decoded.collections[0].items[0]
    #expect(back.fingerprint == SyncState.unwritten)
    #expect(back.item.text == "Old" && back.earlier.count == 1)
  }

  // MARK: - The sync engine

  static func outlineModel() -> DataModel {
    var parent = ChecklistItem(text: "Move house", itemID: 1)
    parent.priority = 1
    parent.tags = ["Home"]
    var child = ChecklistItem(text: "Book van", itemID: 2)
    child.parentItemID = 1
    child.tags = ["Calls", "Home, garden"]
    child.priority = 5
    let other = ChecklistItem(text: "Water plants", itemID: 3)
    return DataModel(lists: [
      Checklist(name: "Home", items: [parent, child, other]),
      Checklist(name: "Work", items: [ChecklistItem(text: "Report", itemID: 4)]),
    ])
  }

  func uid(_ text: String) -> String? {
    unfoldedLines(text).first { $0.hasPrefix("UID:") }.map { String($0.dropFirst(4)) }
  }

  /// Made here: the child's file names its parent's UID; PRIORITY and CATEGORIES are written;
  /// the next pass writes nothing.
  @Test func subtasksPrioritiesAndTagsMadeHereReachTheVdir() throws {
    let fixture = try SyncFixture(Self.outlineModel())
    defer { fixture.remove() }
    try fixture.sync()
    let files = fixture.files()
    let parentPath = try #require(fixture.file(summary: "Move house"))
    let childPath = try #require(fixture.file(summary: "Book van"))
    let parentText = try #require(files[parentPath])
    let childText = try #require(files[childPath])
    let parentUID = try #require(uid(parentText))
    let child = unfoldedLines(childText)
    #expect(child.contains("RELATED-TO;RELTYPE=PARENT:" + parentUID))
    #expect(child.contains("PRIORITY:5"))
    #expect(child.contains("CATEGORIES:Calls,Home\\, garden"))
    #expect(unfoldedLines(parentText).contains("PRIORITY:1"))
    #expect(!unfoldedLines(parentText).contains { $0.hasPrefix("RELATED-TO") })
    #expect(try fixture.sync().isNothing)
    // Outdented here: the parent line goes.
    try fixture.edit { model in
      var item = model.lists[0].items[1]
      item.parentItemID = nil
      model.lists[0].replaceItem(at: 1, with: item)
    }
    #expect(try fixture.sync().changedHere == 1)
    let outdented = try #require(fixture.files()[childPath])
    #expect(!outdented.contains("RELATED-TO"))
    #expect(try fixture.sync().isNothing)
  }

  /// A phone's parent and child in one list arrive as a subtask; a child whose parent is in
  /// another list, or nowhere, is top-level here and its line stays byte for byte when it is
  /// edited here; the phone's priority number and categories arrive.
  @Test func aPhonesSubtasksArriveAndForeignParentsStay() throws {
    let fixture = try SyncFixture(Self.outlineModel())
    defer { fixture.remove() }
    try fixture.sync()
    try fixture.write("phone/displayname", "Trip\n")
    try fixture.write(
      "phone/parent.ics",
      producerTask(uid: "ph-1", summary: "Pack", lines: "X-APPLE-SORT-ORDER:1\r\n"))
    try fixture.write(
      "phone/child.ics",
      producerTask(
        uid: "ph-2", summary: "Socks",
        lines: "RELATED-TO;RELTYPE=PARENT:ph-1\r\nPRIORITY:2\r\nCATEGORIES:Clothes\r\n"
          + "CATEGORIES:Bag\r\nX-APPLE-SORT-ORDER:2\r\n"))
    let workFolder = try #require(fixture.folder(named: "Work"))
    let elsewhere = producerTask(
      uid: "ph-3", summary: "Slides",
      lines: "RELATED-TO:ph-1\r\nRELATED-TO;RELTYPE=SIBLING:ph-2\r\n")
    try fixture.write(workFolder + "/slides.ics", elsewhere)
    let orphan = producerTask(
      uid: "ph-4", summary: "Tickets", lines: "RELATED-TO;RELTYPE=PARENT:gone\r\n")
    try fixture.write("phone/orphan.ics", orphan)
    #expect(try fixture.sync().newFromVdir == 4)
    let (_, load) = try ChecklistsStore.open(location: fixture.location)
    let trip = try #require(load.model.lists.first { $0.name == "Trip" })
    let pack = try #require(trip.items.first { $0.text == "Pack" })
    let socks = try #require(trip.items.first { $0.text == "Socks" })
    #expect(socks.parentItemID == pack.itemID)
    #expect(socks.priority == 2 && socks.priorityLevel == .high)
    #expect(socks.tags == ["Clothes", "Bag"])
    #expect(trip.items.first { $0.text == "Tickets" }?.parentItemID == nil)
    let work = try #require(load.model.lists.first { $0.name == "Work" })
    #expect(work.items.first { $0.text == "Slides" }?.parentItemID == nil)
    #expect(try fixture.sync().isNothing)
    #expect(
      fixture.files()["phone/child.ics"]?.contains("CATEGORIES:Clothes\r\nCATEGORIES:Bag") == true)
    // Edited here: the lines of a parent elsewhere stay as the phone wrote them.
    try fixture.edit { model in
      for index in model.lists.indices {
        for (position, item) in model.lists[index].items.enumerated()
        where item.text == "Slides" || item.text == "Tickets" {
          var changed = item
          changed.text += "!"
          model.lists[index].replaceItem(at: position, with: changed)
        }
      }
    }
    #expect(try fixture.sync().changedHere == 2)
    let files = fixture.files()
    #expect(
      files[workFolder + "/slides.ics"]?.contains(
        "RELATED-TO:ph-1\r\nRELATED-TO;RELTYPE=SIBLING:ph-2\r\n") == true)
    #expect(files["phone/orphan.ics"]?.contains("RELATED-TO;RELTYPE=PARENT:gone\r\n") == true)
    #expect(try fixture.sync().isNothing)
  }

  /// The phone moves a subtask to another list (its file to another folder, same UID, its
  /// parent line kept): it is top-level there, and its line stays.
  @Test func aSubtaskThePhoneMovesToAnotherListIsTopLevelThere() throws {
    let fixture = try SyncFixture(Self.outlineModel())
    defer { fixture.remove() }
    try fixture.sync()
    let path = try #require(fixture.file(summary: "Book van"))
    let text = try String(contentsOfFile: fixture.vdir + "/" + path, encoding: .utf8)
    let work = try #require(fixture.folder(named: "Work"))
    try FileManager.default.removeItem(atPath: fixture.vdir + "/" + path)
    try fixture.write(work + "/moved.ics", text)
    #expect(try fixture.sync().merge.conflicts.isEmpty)
    let (_, load) = try ChecklistsStore.open(location: fixture.location)
    let moved = try #require(load.model.lists.first { $0.name == "Work" }?.items.last)
    #expect(moved.text == "Book van" && moved.parentItemID == nil)
    #expect(
      load.model.lists.first { $0.name == "Home" }?.items.map(\.text) == [
        "Move house", "Water plants",
      ])
    #expect(try fixture.sync().isNothing)
    #expect(fixture.files()[work + "/moved.ics"]?.contains("RELATED-TO;RELTYPE=PARENT:") == true)
  }

  /// Tags changed on the phone and the priority changed here, between two passes: both kept
  /// (the three-way merge takes them as fields of their own).
  @Test func tagsFromThePhoneAndAPriorityFromHereAreBothKept() throws {
    let fixture = try SyncFixture(Self.outlineModel())
    defer { fixture.remove() }
    try fixture.sync()
    let path = try #require(fixture.file(summary: "Book van"))
    try fixture.replace(
      in: path, "CATEGORIES:Calls,Home\\, garden", with: "CATEGORIES:Calls,Phone")
    try fixture.edit { model in
      var item = model.lists[0].items[1]
      item.priorityLevel = .low
      model.lists[0].replaceItem(at: 1, with: item)
    }
    let report = try fixture.sync()
    #expect(report.merge.conflicts.isEmpty)
    let (_, load) = try ChecklistsStore.open(location: fixture.location)
    let item = load.model.lists[0].items[1]
    #expect(item.tags == ["Calls", "Phone"] && item.priority == 9)
    let lines = unfoldedLines(try #require(fixture.files()[path]))
    #expect(lines.contains("PRIORITY:9") && lines.contains("CATEGORIES:Calls,Phone"))
    #expect(try fixture.sync().isNothing)
  }

  // MARK: - sync-merge

  /// vdirsyncer's conflict: tags added here and one removed on the server, the priority set on
  /// the server and the parent taken away here: each a field of its own, tags as a set.
  @Test func syncMergeTakesParentPriorityAndTagsFieldByField() throws {
    let fixture = try SyncFixture(Self.outlineModel())
    defer { fixture.remove() }
    try fixture.sync()
    let path = try #require(fixture.file(summary: "Book van"))
    let original = try String(contentsOfFile: fixture.vdir + "/" + path, encoding: .utf8)
    try ConflictMergeTests.change(fixture, item: 1) {
      $0.addTag("Urgent")
      $0.parentItemID = nil
    }
    try fixture.sync()
    let server =
      original
      .replacingOccurrences(of: "CATEGORIES:Calls,Home\\, garden", with: "CATEGORIES:Calls")
      .replacingOccurrences(of: "PRIORITY:5", with: "PRIORITY:2")
    #expect(server != original)
    let (a, b) = try ConflictMergeTests.conflictFiles(fixture, path: path, server: server)
    let outcome = try ConflictResolution.resolve(
      first: a, second: b, location: fixture.location, vdir: fixture.vdir, now: fixture.now,
      timeZone: .utc)
    #expect(outcome.merge.conflicts.isEmpty)
    #expect(outcome.merge.fields.tags == ["Calls", "Urgent"])
    #expect(outcome.merge.fields.priority == 2)
    #expect(outcome.merge.fields.parent == nil)
    let written = try String(contentsOfFile: a, encoding: .utf8)
    #expect(written == (try String(contentsOfFile: b, encoding: .utf8)))
    #expect(!written.contains("RELATED-TO"))
  }

  /// Both sides set another priority: ours kept, the server's reported.
  @Test func syncMergeReportsAPriorityChangedOnBothSides() throws {
    let fixture = try SyncFixture(Self.outlineModel())
    defer { fixture.remove() }
    try fixture.sync()
    let path = try #require(fixture.file(summary: "Book van"))
    let original = try String(contentsOfFile: fixture.vdir + "/" + path, encoding: .utf8)
    try ConflictMergeTests.change(fixture, item: 1) { $0.priorityLevel = .high }
    try fixture.sync()
    let server = original.replacingOccurrences(of: "PRIORITY:5", with: "PRIORITY:9")
    let (a, b) = try ConflictMergeTests.conflictFiles(fixture, path: path, server: server)
    let outcome = try ConflictResolution.resolve(
      first: a, second: b, location: fixture.location, vdir: fixture.vdir, now: fixture.now,
      timeZone: .utc)
    #expect(outcome.merge.fields.priority == 1)
    #expect(outcome.merge.conflicts.map(\.field) == ["priority"])
    #expect(outcome.merge.conflicts.first?.other == "low")
  }

  // MARK: - Python's icalendar

  /// What Python's icalendar reads: PRIORITY, the first RELATED-TO, CATEGORIES (joined).
  func pythonReading(_ text: String) throws -> [String: String] {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "outline-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("task.ics").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    let result = try runProcess(
      "/usr/bin/python3", ["-c", Self.oracle, path], environment: ["PATH": "/usr/bin:/bin"])
    #expect(result.status == 0, "icalendar: \(result.stderr)")
    var values: [String: String] = [:]
    for line in result.stdout.split(separator: "\n") {
      let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
      if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
    }
    return values
  }

  static let oracle = """
    import sys
    from icalendar import Calendar
    todo = Calendar.from_ical(open(sys.argv[1], 'rb').read()).walk('VTODO')[0]
    if 'PRIORITY' in todo: print('PRIORITY\\t' + str(int(todo['PRIORITY'])))
    related = todo.get('RELATED-TO')
    if related is not None:
        print('PARENT\\t' + str(related if not isinstance(related, list) else related[0]))
    cats = todo.get('CATEGORIES')
    if cats is not None:
        cats = cats if isinstance(cats, list) else [cats]
        print('CATEGORIES\\t' + ','.join(str(c) for x in cats for c in x.cats))
    """
}
