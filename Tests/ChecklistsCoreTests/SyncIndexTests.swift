import ChecklistsTestSupport
import Foundation
import Testing

@testable import ChecklistsCore

#if canImport(Glibc)
  import Glibc
#endif

extension SyncFixture {
  var statePath: String { VdirSync.statePath(location: location, vdir: vdir) }

  /// Whether the fast first look alone finds nothing to do.
  var indexSaysUnchanged: Bool {
    SyncIndex.isUnchanged(statePath: statePath, dataFile: location.dataFile, vdir: vdir)
  }

  /// Moves every modification time in the vdir ten seconds back (files, then their folders),
  /// as if the last pass were long ago, then syncs until the index is recorded.
  func settleAndRecordIndex() throws {
    func backdate(_ path: String) {
      guard let print = FileFingerprint.of(path) else { return }
      let back = print.modified - 10_000_000_000
      var times = [
        timespec(tv_sec: Int(back / 1_000_000_000), tv_nsec: Int(back % 1_000_000_000)),
        timespec(tv_sec: Int(back / 1_000_000_000), tv_nsec: Int(back % 1_000_000_000)),
      ]
      utimensat(AT_FDCWD, path, &times, 0)
    }
    let manager = FileManager.default
    for folder in try manager.contentsOfDirectory(atPath: vdir) {
      for name in try manager.contentsOfDirectory(atPath: vdir + "/" + folder) {
        backdate(vdir + "/" + folder + "/" + name)
      }
      backdate(vdir + "/" + folder)
    }
    backdate(vdir)
    // The first pass reads the files whose times moved and records them; the second, finding
    // nothing to do, records the index.
    try sync()
    #expect(try sync().isNothing)
    try #require(indexSaysUnchanged, "no index was recorded")
  }

  /// Rewrites a file in place (same inode, same size) and moves its time one microsecond on.
  func rewriteInPlace(_ path: String, _ old: String, with new: String) throws {
    let full = vdir + "/" + path
    let before = try #require(FileFingerprint.of(full))
    let text = try String(contentsOfFile: full, encoding: .utf8)
    let changed = text.replacingOccurrences(of: old, with: new)
    try #require(changed.utf8.count == text.utf8.count && changed != text)
    let handle = try #require(FileHandle(forWritingAtPath: full))
    try handle.write(contentsOf: Data(changed.utf8))
    try handle.close()
    let modified = before.modified + 1_000
    var times = [
      timespec(tv_sec: Int(modified / 1_000_000_000), tv_nsec: Int(modified % 1_000_000_000)),
      timespec(tv_sec: Int(modified / 1_000_000_000), tv_nsec: Int(modified % 1_000_000_000)),
    ]
    utimensat(AT_FDCWD, full, &times, 0)
    let after = try #require(FileFingerprint.of(full))
    try #require(after.inode == before.inode && after.size == before.size)
  }
}

@Suite("Sync: the fast first look finds every change")
struct SyncIndexTests {
  @Test func aPassWithNothingToDoRecordsTheIndexAndTheNextNeedsNothingElse() throws {
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    try fixture.sync()
    try fixture.settleAndRecordIndex()
    let index = try String(
      contentsOfFile: SyncIndex.path(statePath: fixture.statePath), encoding: .utf8)
    #expect(index.hasPrefix("checklists-sync-index 2\nstate\t"))
    #expect(index.components(separatedBy: "\nfolder\t").count - 1 == 2)
    #expect(index.components(separatedBy: ".ics\t").count - 1 == 3)
    #expect(try fixture.sync().isNothing)
    #expect(fixture.indexSaysUnchanged)
  }

  @Test func anIndexOfFilesChangedTooRecentlyIsNotRecorded() throws {
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    try fixture.sync()
    // Within the same clock tick another program's change could keep a folder's time.
    #expect(try fixture.sync().isNothing)
    #expect(!fixture.indexSaysUnchanged)
  }

  @Test func anItemFileReplacedInTheVdirIsFound() throws {
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    try fixture.sync()
    try fixture.settleAndRecordIndex()
    let path = try #require(fixture.file(summary: "Milk"))
    try fixture.replace(in: path, "SUMMARY:Milk", with: "SUMMARY:Oat milk")
    #expect(!fixture.indexSaysUnchanged)
    let report = try fixture.sync()
    #expect(report.changedFromVdir == 1, "\(report.summary)")
    #expect(try fixture.lists()["Groceries"] == ["[ ] Oat milk", "[x] Eggs"])
  }

  @Test func anItemFileEditedInPlaceWithTheSameSizeIsFoundByItsTime() throws {
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    try fixture.sync()
    try fixture.settleAndRecordIndex()
    let path = try #require(fixture.file(summary: "Milk"))
    try fixture.rewriteInPlace(path, "SUMMARY:Milk", with: "SUMMARY:Silk")
    #expect(!fixture.indexSaysUnchanged)
    let report = try fixture.sync()
    #expect(report.changedFromVdir == 1, "\(report.summary)")
    #expect(try fixture.lists()["Groceries"] == ["[ ] Silk", "[x] Eggs"])
  }

  @Test func aNewFileInAFolderIsFound() throws {
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    try fixture.sync()
    try fixture.settleAndRecordIndex()
    let folder = try #require(fixture.folder(named: "Groceries"))
    try fixture.write(folder + "/bread.ics", phoneTask(uid: "bread@phone", summary: "Bread"))
    #expect(!fixture.indexSaysUnchanged)
    let report = try fixture.sync()
    #expect(report.newFromVdir == 1, "\(report.summary)")
    #expect(try fixture.lists()["Groceries"]?.contains("[ ] Bread") == true)
  }

  @Test func aDeletedFileIsFound() throws {
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    try fixture.sync()
    try fixture.settleAndRecordIndex()
    let path = try #require(fixture.file(summary: "Eggs"))
    try FileManager.default.removeItem(atPath: fixture.vdir + "/" + path)
    #expect(!fixture.indexSaysUnchanged)
    let report = try fixture.sync()
    #expect(report.deletedFromVdir == 1, "\(report.summary)")
    #expect(try fixture.lists()["Groceries"] == ["[ ] Milk"])
  }

  @Test func aNewFolderIsFound() throws {
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    try fixture.sync()
    try fixture.settleAndRecordIndex()
    try fixture.write("phone-list/displayname", "Hardware\n")
    try fixture.write("phone-list/nails.ics", phoneTask(uid: "nails@phone", summary: "Nails"))
    #expect(!fixture.indexSaysUnchanged)
    let report = try fixture.sync()
    #expect(report.newListsFromVdir == 1 && report.newFromVdir == 1, "\(report.summary)")
    #expect(try fixture.lists()["Hardware"] == ["[ ] Nails"])
  }

  @Test func aChangedDataFileIsFound() throws {
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    try fixture.sync()
    try fixture.settleAndRecordIndex()
    try fixture.edit { model in
      let list = model.lists.first { $0.name == "Groceries" }!
      model.apply(model.toggleItem(listID: list.id, at: 0)!)
    }
    #expect(!fixture.indexSaysUnchanged)
    let report = try fixture.sync()
    #expect(report.changedHere == 1, "\(report.summary)")
    let path = try #require(fixture.file(summary: "Milk"))
    #expect(fixture.files()[path]?.contains("STATUS:COMPLETED") == true)
  }

  @Test func aLostOrRewrittenStateIsNotTrusted() throws {
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    try fixture.sync()
    try fixture.settleAndRecordIndex()
    let state = try Data(contentsOf: URL(fileURLWithPath: fixture.statePath))
    try FileManager.default.removeItem(atPath: fixture.statePath)
    #expect(!fixture.indexSaysUnchanged)
    // The same text written again is another file: the index is not trusted either.
    try state.write(to: URL(fileURLWithPath: fixture.statePath))
    #expect(!fixture.indexSaysUnchanged)
    try FileManager.default.removeItem(atPath: fixture.statePath)
    let report = try fixture.sync()
    #expect(report.newFromVdir == 0 && report.newHere == 0, "\(report.summary)")
    #expect(try fixture.lists()["Groceries"] == ["[ ] Milk", "[x] Eggs"])
    #expect(fixture.files().count == 3)
  }

  @Test func aCutOrForeignIndexIsNotTrusted() throws {
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    try fixture.sync()
    try fixture.settleAndRecordIndex()
    let indexPath = SyncIndex.path(statePath: fixture.statePath)
    let text = try String(contentsOfFile: indexPath, encoding: .utf8)
    let cut = text.replacingOccurrences(of: "end\n", with: "")
    try cut.write(toFile: indexPath, atomically: true, encoding: .utf8)
    #expect(!fixture.indexSaysUnchanged)
    try text.replacingOccurrences(of: "checklists-sync-index 2", with: "something else")
      .write(toFile: indexPath, atomically: true, encoding: .utf8)
    #expect(!fixture.indexSaysUnchanged)
    // An index from before notes and repeats were synced: the next pass reads everything.
    try text.replacingOccurrences(of: "checklists-sync-index 2", with: "checklists-sync-index 1")
      .write(toFile: indexPath, atomically: true, encoding: .utf8)
    #expect(!fixture.indexSaysUnchanged)
  }
}
