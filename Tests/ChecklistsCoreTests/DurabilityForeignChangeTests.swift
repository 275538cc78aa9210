import Foundation
import Testing

@testable import ChecklistsCore

#if canImport(Glibc)
  import Glibc
#endif

/// `save` never overwrites a file someone else changed since the load.
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
      location: location, lock: true, clock: { Date(timeIntervalSince1970: 1_800_000_000) },
      timeZone: TimeZone(identifier: "UTC") ?? .current)
    defer { store.close() }
    try change(folder, location.dataFile)
    let changed = adding("Laundry", to: load.model)
    do {
      return (folder, .success(try store.save(changed)), changed)
    } catch {
      return (folder, .failure(error), changed)
    }
  }

  /// The foreign file stays as it is and the model is in the conflict copy.
  static func expectConflictCopy(
    _ outcome: (folder: StoreTestFolder, result: Result<SaveResult, StoreError>, model: DataModel),
    foreign: Data
  ) {
    let folder = outcome.folder
    let copyName = "Checklists.conflict-20270115-080000.plist"
    guard case .success(let result) = outcome.result else {
      Issue.record("the save failed: \(outcome.result)")
      return
    }
    #expect(
      result.outcome
        == .conflictCopy(
          dataFile: folder.path + "/Checklists.plist", copy: folder.path + "/" + copyName))
    #expect(result.message?.contains("was changed by another program") == true)
    #expect(folder.bytes("Checklists.plist") == foreign)
    #expect(folder.bytes(copyName) == encodedBytes(outcome.model))
    #expect(!folder.names().contains { $0.contains(".tmp-") })
  }

  @Test func aFileReplacedByAnotherInodeGetsAConflictCopy() throws {
    let foreign = encodedBytes(sampleModel(extraItem: "From elsewhere"))
    let outcome = try Self.saveAfter { folder, file in
      folder.write("new", foreign)
      #expect(rename(folder.path + "/new", file) == 0)
    }
    defer { outcome.folder.remove() }
    Self.expectConflictCopy(outcome, foreign: foreign)
  }

  @Test func aFileTruncatedInPlaceGetsAConflictCopy() throws {
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
    Self.expectConflictCopy(outcome, foreign: Data(foreign))
  }

  @Test func aFileRewrittenInPlaceWithTheSameSizeGetsAConflictCopy() throws {
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
    Self.expectConflictCopy(outcome, foreign: foreign)
  }

  @Test func aSameSizeRewriteThatRestoresTheModificationTimeGetsAConflictCopy() throws {
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
    #expect(
      outcome.folder.bytes("Checklists.plist") == foreign, "the foreign change was overwritten")
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
      result.message
        == "\(outcome.folder.path)/Checklists.plist had been deleted by another program; "
        + "saved it again")
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
      guard case .conflictCopy(_, let copy) = result.outcome else {
        Issue.record("the save reported \(result.outcome)")
        return
      }
      #expect(FileManager.default.contents(atPath: copy) == encodedBytes(outcome.model))
    case .failure(let error):
      #expect(error.message.contains("Checklists.plist"), "\(error.message)")
    }
  }
}
