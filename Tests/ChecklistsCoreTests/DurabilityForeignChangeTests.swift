import Foundation
import Testing

@testable import ChecklistsCore

#if canImport(Glibc)
  import Glibc
#endif

/// `save` merges with a file someone else changed since the load, and never overwrites one it
/// cannot read.
@Suite("Durability: files changed by others between load and save")
struct DurabilityForeignChangeTests {
  /// Loads a sample file, lets `change` act on the folder, then saves a changed model.
  static func saveAfter(
    _ change: (StoreTestFolder, String) throws -> Void
  ) throws -> (folder: StoreTestFolder, result: Result<SaveResult, StoreError>, model: DataModel) {
    let folder = StoreTestFolder()
    folder.write("Checklists.plist", encodedBytes(sampleModel()))
    let location = folder.location()
    let (store, load) = try ChecklistsStore.open(
      location: location, clock: { Date(timeIntervalSince1970: 1_800_000_000) },
      timeZone: ZoneRules.utc)
    defer { store.close() }
    try change(folder, location.dataFile)
    let changed = adding("Laundry", to: load.model)
    do {
      return (folder, .success(try store.save(changed)), changed)
    } catch {
      return (folder, .failure(error), changed)
    }
  }

  /// The texts of each list in the file, by list name.
  static func texts(_ data: Data?) -> [String: [String]] {
    guard let data, let document = try? ChecklistsFileCoding.decode(bytes: [UInt8](data)) else {
      return [:]
    }
    var texts: [String: [String]] = [:]
    for list in document.lists { texts[list.name] = list.items.map(\.text) }
    return texts
  }

  /// The file now holds both the foreign change and ours, and no copy was made.
  static func expectMerged(
    _ outcome: (folder: StoreTestFolder, result: Result<SaveResult, StoreError>, model: DataModel),
    theirs: [String: [String]]
  ) {
    let folder = outcome.folder
    guard case .success(let result) = outcome.result else {
      Issue.record("the save failed: \(outcome.result)")
      return
    }
    guard case .merged = result.outcome else {
      Issue.record("the save reported \(result.outcome)")
      return
    }
    var expected = theirs
    // Ours' new item comes before theirs' new items at the same place.
    let chores = expected["Chores", default: []]
    let common = chores.prefix { $0 == "Dishes" }
    expected["Chores"] = Array(common) + ["Laundry"] + chores.dropFirst(common.count)
    #expect(Self.texts(folder.bytes("Checklists.plist")) == expected)
    #expect(result.merged?.model.lists.map(\.name) == expected.keys.sorted())
    #expect(!folder.names().contains { $0.contains("conflict-") || $0.contains(".tmp-") })
  }

  @Test func aFileReplacedByAnotherInodeIsMergedWith() throws {
    let foreign = encodedBytes(sampleModel(extraItem: "From elsewhere"))
    let outcome = try Self.saveAfter { folder, file in
      folder.write("new", foreign)
      #expect(rename(folder.path + "/new", file) == 0)
    }
    defer { outcome.folder.remove() }
    Self.expectMerged(
      outcome,
      theirs: ["Groceries": ["Milk", "Eggs"], "Chores": ["Dishes", "From elsewhere"]])
  }

  @Test func aFileTruncatedInPlaceIsLeftAloneAndTheListsGoToOneConflictCopy() throws {
    var inode: ino_t = 0
    let outcome = try Self.saveAfter { _, file in
      var status = stat()
      _ = stat(file, &status)
      inode = status.st_ino
      #expect(truncate(file, 10) == 0)
    }
    defer { outcome.folder.remove() }
    let foreign = encodedBytes(sampleModel()).prefix(10)
    var status = stat()
    _ = stat(outcome.folder.path + "/Checklists.plist", &status)
    #expect(status.st_ino == inode)
    let folder = outcome.folder
    let copyName = "Checklists.conflict-20270115-080000.plist"
    guard case .success(let result) = outcome.result,
      case .conflictCopy(_, let copy, let reason) = result.outcome
    else {
      Issue.record("expected a conflict copy: \(outcome.result)")
      return
    }
    #expect(copy == folder.path + "/" + copyName)
    #expect(!reason.isEmpty)
    #expect(result.statusLine.hasPrefix("Saved to \(copy): Checklists.plist cannot be read now ("))
    #expect(result.exitNotice?.contains("your lists were saved to \(copy)") == true)
    #expect(folder.bytes("Checklists.plist") == Data(foreign))
    #expect(folder.bytes(copyName) == encodedBytes(outcome.model))
    #expect(!folder.names().contains { $0.contains(".tmp-") })
  }

  @Test func aFileRewrittenInPlaceWithTheSameSizeIsMergedWith() throws {
    let original = encodedBytes(sampleModel())
    let text = String(decoding: original, as: UTF8.self).replacingOccurrences(
      of: "<string>Milk</string>", with: "<string>Silk</string>")
    let foreign = Data(text.utf8)
    #expect(foreign.count == original.count && foreign != original)
    let outcome = try Self.saveAfter { _, file in
      let handle = try #require(FileHandle(forUpdatingAtPath: file))
      try handle.write(contentsOf: foreign)
      try handle.close()
      // A different modification time, whatever the clock's resolution.
      var times = [
        timespec(tv_sec: 1_700_000_000, tv_nsec: 0), timespec(tv_sec: 1_700_000_000, tv_nsec: 0),
      ]
      #expect(utimensat(AT_FDCWD, file, &times, 0) == 0)
    }
    defer { outcome.folder.remove() }
    Self.expectMerged(outcome, theirs: ["Groceries": ["Silk", "Eggs"], "Chores": ["Dishes"]])
  }

  @Test func aSameSizeRewriteThatRestoresTheModificationTimeIsMergedWith() throws {
    let original = encodedBytes(sampleModel())
    let text = String(decoding: original, as: UTF8.self).replacingOccurrences(
      of: "<string>Milk</string>", with: "<string>Silk</string>")
    let foreign = Data(text.utf8)
    let outcome = try Self.saveAfter { _, file in
      var before = stat()
      #expect(stat(file, &before) == 0)
      let handle = try #require(FileHandle(forUpdatingAtPath: file))
      try handle.write(contentsOf: foreign)
      try handle.close()
      // Like `touch -r` or a copy tool keeping times: the old time comes back (ctime cannot).
      var times = [before.st_atim, before.st_mtim]
      #expect(utimensat(AT_FDCWD, file, &times, 0) == 0)
    }
    defer { outcome.folder.remove() }
    Self.expectMerged(outcome, theirs: ["Groceries": ["Silk", "Eggs"], "Chores": ["Dishes"]])
  }

  @Test func aDeletedFileIsRecreatedWithAMessage() throws {
    let outcome = try Self.saveAfter { _, file in #expect(unlink(file) == 0) }
    defer { outcome.folder.remove() }
    guard case .success(let result) = outcome.result else {
      Issue.record("the save failed: \(outcome.result)")
      return
    }
    #expect(result.outcome == .recreated)
    #expect(
      result.statusLine
        == "Saved: Checklists.plist had been deleted by another program; it is back")
    #expect(
      result.exitNotice
        == "\(outcome.folder.path)/Checklists.plist had been deleted by another program; it was "
        + "saved again")
    #expect(outcome.folder.bytes("Checklists.plist") == encodedBytes(outcome.model))
  }

  @Test func aFileReplacedByAFolderIsLeftAloneAndTheListsGoElsewhere() throws {
    let outcome = try Self.saveAfter { folder, file in
      #expect(unlink(file) == 0)
      try FileManager.default.createDirectory(atPath: file, withIntermediateDirectories: false)
      folder.write("Checklists.plist/inside", Data("keep".utf8))
    }
    let folder = outcome.folder
    defer { folder.remove() }
    var isFolder: ObjCBool = false
    #expect(
      FileManager.default.fileExists(
        atPath: folder.path + "/Checklists.plist", isDirectory: &isFolder)
        && isFolder.boolValue)
    #expect(folder.bytes("Checklists.plist/inside") == Data("keep".utf8))
    switch outcome.result {
    case .success(let result):
      guard case .conflictCopy(_, let copy, _) = result.outcome else {
        Issue.record("the save reported \(result.outcome)")
        return
      }
      #expect(FileManager.default.contents(atPath: copy) == encodedBytes(outcome.model))
    case .failure(let error):
      #expect(error.message.contains("Checklists.plist"), "\(error.message)")
    }
  }
}
