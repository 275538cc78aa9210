import ChecklistsTestSupport
import Foundation
import Testing

@testable import ChecklistsCore

/// `sync-merge`'s merge of vdirsyncer's two versions of a task, against the sync state.
@Suite("Sync: merging vdirsyncer's conflicts")
struct ConflictMergeTests {
  static func groceries() throws -> SyncFixture {
    let fixture = try SyncFixture(
      DataModel(lists: [
        Checklist(
          name: "Groceries",
          items: [
            ChecklistItem(text: "Milk", itemID: 1), ChecklistItem(text: "Bread", itemID: 2),
          ])
      ]))
    try fixture.sync()
    return fixture
  }

  /// vdirsyncer's two files: the vdir's current `path` as a, the server's as b.
  static func conflictFiles(_ fixture: SyncFixture, path: String, server: String) throws -> (
    String, String
  ) {
    let a = fixture.folder.path + "/lists_local"
    let b = fixture.folder.path + "/lists_remote"
    try Data(contentsOf: URL(fileURLWithPath: fixture.vdir + "/" + path)).write(
      to: URL(fileURLWithPath: a))
    try server.write(toFile: b, atomically: true, encoding: .utf8)
    return (a, b)
  }

  /// Changes item `index` of the first list in the data file.
  static func change(_ fixture: SyncFixture, item index: Int, _ edit: (inout ChecklistItem) -> Void)
    throws
  {
    try fixture.edit { model in
      var item = model.lists[0].items[index]
      edit(&item)
      if let change = model.replaceItem(listID: model.lists[0].id, at: index, with: item) {
        model.apply(change)
      }
    }
  }

  func resolve(_ fixture: SyncFixture, _ a: String, _ b: String) throws(ConflictMergeError)
    -> ConflictResolution.Outcome
  {
    try ConflictResolution.resolve(
      first: a, second: b, location: fixture.location, vdir: fixture.vdir, now: fixture.now,
      timeZone: .utc)
  }

  /// An early reminder set here and the text changed on the server: both kept. The lead is a
  /// field of its own; taking the server's version whole put the reminder back at the due time.
  @Test func aLeadTimeSetHereStaysBesideTheServersText() throws {
    let due = Date(timeIntervalSince1970: 1_796_472_000)
    let fixture = try SyncFixture(
      DataModel(lists: [
        Checklist(
          name: "Groceries",
          items: [
            ChecklistItem(
              text: "Milk", dueDate: due, shouldRemind: true, hasDueDate: true, itemID: 1)
          ])
      ]))
    defer { fixture.remove() }
    try fixture.sync()
    let path = try #require(fixture.file(summary: "Milk"))
    let original = try String(contentsOfFile: fixture.vdir + "/" + path, encoding: .utf8)
    try Self.change(fixture, item: 0) { $0.reminderLead = ReminderLead(minutes: 15) }
    try fixture.sync()
    let server = original.replacingOccurrences(of: "SUMMARY:Milk", with: "SUMMARY:Whole milk")
    #expect(server != original)
    let (a, b) = try Self.conflictFiles(fixture, path: path, server: server)
    let outcome = try resolve(fixture, a, b)
    #expect(outcome.merge.conflicts.isEmpty)
    #expect(outcome.merge.fields.text == "Whole milk")
    #expect(outcome.merge.fields.lead == 15)
    #expect(outcome.merge.fields.remind)
  }

  /// Two saves here (text, then checked) before vdirsyncer ran, a due date and a category on
  /// the server: all four kept, the server's foreign line byte for byte, both files equal. A
  /// base of the last pass alone would take the server's old text back.
  @Test func eachSidesFieldsAreKeptThroughSeveralSavesHere() throws {
    let fixture = try Self.groceries()
    defer { fixture.remove() }
    let path = try #require(fixture.file(summary: "Milk"))
    let original = try String(contentsOfFile: fixture.vdir + "/" + path, encoding: .utf8)
    try Self.change(fixture, item: 0) { $0.text = "Oat milk" }
    try fixture.sync()
    try Self.change(fixture, item: 0) { $0.checked = true }
    try fixture.sync()
    let server = original.replacingOccurrences(
      of: "END:VTODO", with: "DUE:20261205T120000Z\r\nCATEGORIES:Dairy\\,Cold\r\nEND:VTODO")
    let (a, b) = try Self.conflictFiles(fixture, path: path, server: server)
    let outcome = try resolve(fixture, a, b)
    #expect(outcome.merge.conflicts.isEmpty)
    #expect(outcome.firstIsOurs)
    let fields = outcome.merge.fields
    #expect(fields.text == "Oat milk" && fields.checked && fields.due == 1_796_472_000)
    let first = try String(contentsOfFile: a, encoding: .utf8)
    #expect(first == (try String(contentsOfFile: b, encoding: .utf8)))
    #expect(first.contains("\r\nCATEGORIES:Dairy\\,Cold\r\n"))
    #expect(!FileManager.default.fileExists(atPath: fixture.location.dataFile + ".conflicts.log"))
  }

  /// The same field changed on both sides: the vdir's value in both files, the server's in the
  /// conflict log; the next pass tells it (exit 1 in the CLI) once.
  @Test func theSameFieldKeepsTheVdirsValueAndTheNextPassTellsIt() throws {
    let fixture = try Self.groceries()
    defer { fixture.remove() }
    let path = try #require(fixture.file(summary: "Bread"))
    let original = try String(contentsOfFile: fixture.vdir + "/" + path, encoding: .utf8)
    try Self.change(fixture, item: 1) { $0.text = "Rye bread" }
    try fixture.sync()
    let (a, b) = try Self.conflictFiles(
      fixture, path: path,
      server: original.replacingOccurrences(of: "SUMMARY:Bread", with: "SUMMARY:Sourdough"))
    let outcome = try resolve(fixture, a, b)
    #expect(outcome.merge.fields.text == "Rye bread")
    #expect(outcome.merge.conflicts.map(\.other) == ["\"Sourdough\""])
    #expect(try String(contentsOfFile: b, encoding: .utf8).contains("SUMMARY:Rye bread"))
    let log = try String(
      contentsOfFile: fixture.location.dataFile + ".conflicts.log", encoding: .utf8)
    #expect(log.contains("\"Sourdough\""))
    let told = try fixture.sync()
    #expect(told.settledByVdirsyncer.count == 1 && told.needsUser)
    #expect(told.summary.hasSuffix("1 conflict"))
    #expect(try fixture.sync().settledByVdirsyncer.isEmpty, "told once")
  }

  /// A server value the file held before is no change there: ours stays (the server's copy
  /// may be an older version of ours).
  @Test func aValueTheFileHeldBeforeIsNoChangeOnTheServer() throws {
    let fixture = try Self.groceries()
    defer { fixture.remove() }
    let path = try #require(fixture.file(summary: "Milk"))
    try Self.change(fixture, item: 0) { $0.text = "Oat milk" }
    try fixture.sync()
    let uploaded = try String(contentsOfFile: fixture.vdir + "/" + path, encoding: .utf8)
    try Self.change(fixture, item: 0) { $0.text = "Soy milk" }
    try fixture.sync()
    let (a, b) = try Self.conflictFiles(
      fixture, path: path,
      server: uploaded.replacingOccurrences(of: "END:VTODO", with: "DESCRIPTION:Cold\r\nEND:VTODO"))
    let outcome = try resolve(fixture, a, b)
    #expect(outcome.merge.conflicts.isEmpty)
    #expect(outcome.merge.fields.text == "Soy milk" && outcome.merge.fields.note == "Cold")
  }

  /// What cannot be merged safely is refused, and nothing is written.
  @Test func whatCannotBeMergedIsRefused() throws {
    let fixture = try Self.groceries()
    defer { fixture.remove() }
    let path = try #require(fixture.file(summary: "Milk"))
    let (a, b) = try Self.conflictFiles(
      fixture, path: path, server: phoneTask(uid: "OTHER", summary: "Milk"))
    #expect(throws: ConflictMergeError.self) { try resolve(fixture, a, b) }
    try phoneTask(uid: "NEW", summary: "New").write(toFile: a, atomically: true, encoding: .utf8)
    try phoneTask(uid: "NEW", summary: "Newer").write(toFile: b, atomically: true, encoding: .utf8)
    do {
      _ = try resolve(fixture, a, b)
      Issue.record("a task the state does not know was merged")
    } catch {
      guard case .notSynced(let uid, _) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(uid == "NEW")
    }
    #expect(try String(contentsOfFile: a, encoding: .utf8).contains("SUMMARY:New\r"))
  }

  /// A task vdirsyncer met before any pass recorded it: once recorded it is unsure, and each
  /// field that differs is a conflict (the vdir's kept), never a silent choice.
  @Test func aTaskMetBeforeItWasRecordedMergesOnlyWithConflicts() throws {
    let fixture = try Self.groceries()
    defer { fixture.remove() }
    let folder = try #require(fixture.folder(named: "Groceries"))
    try fixture.write(folder + "/tea.ics", phoneTask(uid: "TEA", summary: "Green tea"))
    let a = fixture.folder.path + "/lists_local"
    let b = fixture.folder.path + "/lists_remote"
    try phoneTask(uid: "TEA", summary: "Green tea").write(
      toFile: a, atomically: true, encoding: .utf8)
    try phoneTask(uid: "TEA", summary: "Tea").write(toFile: b, atomically: true, encoding: .utf8)
    #expect(throws: ConflictMergeError.self) { try resolve(fixture, a, b) }
    try fixture.sync()
    let (again, _) = try Self.conflictFiles(
      fixture, path: try #require(fixture.file(summary: "Green tea")),
      server: phoneTask(uid: "TEA", summary: "Tea"))
    let outcome = try resolve(fixture, again, b)
    #expect(outcome.merge.fields.text == "Green tea")
    #expect(outcome.merge.conflicts.map(\.other) == ["\"Tea\""])
  }

  /// The state keeps a record's earlier versions and the unsure mark.
  @Test func theStateKeepsEarlierVersionsAndTheUnsureMark() throws {
    var item = SyncState.Item(
      item: ChecklistItem(
        text: "Milk", dueDate: Date(timeIntervalSince1970: 1_796_000_000), itemID: 1),
      href: "a.ics", uid: "A",
      fingerprint: FileFingerprint(inode: 1, size: 2, modified: 3),
      fields: TaskFields(text: "Milk", itemID: 1),
      earlier: [TaskFields(text: "Mil\tk", due: 5), TaskFields(text: "M", note: "n\nx")])
    item.unsure = true
    let state = SyncState(
      dataFile: nil,
      collections: [
        SyncState.Collection(folder: "f", deleted: false, name: "G", icon: "No Icon", items: [item])
      ])
    let decoded = SyncState.decode(Array(state.encoded(dataFilePath: "d", vdir: "v").utf8))
    #expect(decoded == state)
  }
}

/// A pass killed after it recorded its pending state and before it wrote the vdir, then the
/// phone's version of the file brought by vdirsyncer: the next pass keeps this computer's change
/// (the pass's unwritten one) and takes the phone's. The check was lost: the file's unchanged
/// field read as the check undone there.
@Suite("Sync: a pass killed before its vdir writes")
struct SyncKilledBeforeWritingTests {
  @Test func thePhonesVersionArrivingAfterwardsUndoesNothingOfOurs() throws {
    let fixture = try ConflictMergeTests.groceries()
    defer { fixture.remove() }
    let path = try #require(fixture.file(summary: "Milk"))
    try ConflictMergeTests.change(fixture, item: 0) { $0.checked = true }
    // The pass as far as its pending state: planned, recorded, killed.
    let statePath = VdirSync.statePath(location: fixture.location, vdir: fixture.vdir)
    let state = try #require(
      SyncState.decode(Array(try Data(contentsOf: URL(fileURLWithPath: statePath)))))
    let (_, load) = try ChecklistsStore.open(location: fixture.location)
    let plan = SyncEngine.plan(
      ours: load.model, state: state, snapshot: Vdir.scan(fixture.vdir), root: fixture.vdir,
      options: SyncOptions(timeZone: .utc, now: fixture.now))
    try Vdir.writeAtomically(
      Array(plan.state.encoded(dataFilePath: fixture.location.dataFile, vdir: fixture.vdir).utf8),
      to: statePath)
    // vdirsyncer brings the phone's note into the file.
    try fixture.replace(in: path, "END:VTODO", with: "DESCRIPTION:Oat\r\nEND:VTODO")
    try fixture.sync()
    let (_, after) = try ChecklistsStore.open(location: fixture.location)
    let milk = try #require(after.model.lists[0].items.first { $0.text == "Milk" })
    #expect(milk.checked && milk.note == "Oat")
    let lines = unfoldedLines(
      try String(contentsOfFile: fixture.vdir + "/" + path, encoding: .utf8))
    #expect(lines.contains("STATUS:COMPLETED") && lines.contains("DESCRIPTION:Oat"))
  }
}
