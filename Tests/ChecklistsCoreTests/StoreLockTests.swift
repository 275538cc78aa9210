import Foundation
import Testing

@testable import ChecklistsCore

@Suite("Store: short locks, held only to read, merge and write")
struct StoreLockTests {
  @Test func openingTakesNoLockAndASaveLocksOnlyWhileItWrites() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    folder.write("Checklists.plist", encodedBytes(sampleModel()))
    let (first, load) = try ChecklistsStore.open(location: folder.location())
    let (second, _) = try ChecklistsStore.open(location: folder.location())
    #expect(folder.names() == ["Checklists.plist"])
    #expect(try first.save(adding("One", to: load.model)).outcome == .saved)
    #expect(
      String(decoding: folder.bytes("Checklists.plist.lock") ?? Data(), as: UTF8.self)
        == "\(getpid())\n")
    // The lock is free again: a lock taken now does not wait.
    let lock = try DataFileLock.acquire(
      dataFile: folder.path + "/Checklists.plist", shownPath: "Checklists.plist")
    lock.release()
    // The second store merges the first one's change with its own.
    guard case .merged = try second.save(adding("Two", to: load.model)).outcome else {
      Issue.record("expected a merge")
      return
    }
    let saved = try ChecklistsFileCoding.decode(
      bytes: [UInt8](try #require(folder.bytes("Checklists.plist"))))
    #expect(
      saved.lists.first { $0.name == "Chores" }?.items.map(\.text) == ["Dishes", "Two", "One"])
  }

  @Test func theLockFileHoldsOurPidAndIsWrittenOnlyWhenItDoesNot() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    let dataFile = folder.path + "/Checklists.plist"
    // A longer pid left by another process is replaced whole.
    folder.write("Checklists.plist.lock", Data("4194304999\n".utf8))
    let faulty = FaultyFileSystem()
    let first = try DataFileLock.acquire(
      dataFile: dataFile, shownPath: "Checklists.plist", fileSystem: faulty)
    first.release()
    #expect(
      String(decoding: folder.bytes("Checklists.plist.lock") ?? Data(), as: UTF8.self)
        == "\(getpid())\n")
    let lockFile = dataFile + ".lock"
    #expect(faulty.calls.filter { $0 == "write " + lockFile }.count == 1)
    #expect(faulty.calls.filter { $0 == "ftruncate " + lockFile }.count == 1)
    // Taken again by the same process: the file already says so and is not written.
    let second = try DataFileLock.acquire(
      dataFile: dataFile, shownPath: "Checklists.plist", fileSystem: faulty)
    second.release()
    #expect(faulty.calls.filter { $0 == "write " + lockFile }.count == 1)
    #expect(faulty.calls.filter { $0 == "ftruncate " + lockFile }.count == 1)
    #expect(
      String(decoding: folder.bytes("Checklists.plist.lock") ?? Data(), as: UTF8.self)
        == "\(getpid())\n")
  }

  @Test func aSaveWaitsForAnotherWriterThenNamesIt() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    folder.write("Checklists.plist", encodedBytes(sampleModel()))
    let (store, load) = try ChecklistsStore.open(location: folder.location())
    store.lockTimeout = 0.1
    let held = try DataFileLock.acquire(
      dataFile: folder.path + "/Checklists.plist", shownPath: "Checklists.plist")
    #expect {
      try store.save(adding("More", to: load.model))
    } throws: { error in
      (error as? StoreError)?.message
        == "\(folder.path)/Checklists.plist is being saved by another checklists "
        + "(pid \(getpid())) that does not finish; try again"
    }
    #expect(folder.bytes("Checklists.plist") == encodedBytes(sampleModel()))
    held.release()
    #expect(try store.save(adding("More", to: load.model)).outcome == .saved)
  }

  @Test func aSymbolicLinkAndItsTargetShareTheLock() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    folder.write("Target.plist", encodedBytes(sampleModel()))
    #expect(symlink("Target.plist", folder.path + "/Checklists.plist") == 0)
    let held = try DataFileLock.acquire(
      dataFile: folder.path + "/Target.plist", shownPath: "Target.plist")
    let (store, load) = try ChecklistsStore.open(location: folder.location())
    store.lockTimeout = 0.05
    #expect(throws: StoreError.self) {
      try store.save(adding("More", to: load.model))
    }
    withExtendedLifetime(held) {}
  }

  @Test func aReadOnlyFolderIsReadAndASaveSaysWhyItFails() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    folder.write("Checklists.plist", encodedBytes(sampleModel()))
    let faulty = FaultyFileSystem(
      fault: .init(call: "open", code: EROFS) { $0.hasSuffix(".lock") })
    let (store, load) = try ChecklistsStore.open(location: folder.location(), fileSystem: faulty)
    #expect(load.model == sampleModel())
    #expect {
      try store.save(adding("More", to: load.model))
    } throws: { error in
      (error as? StoreError)?.message.contains("Read-only file system") == true
    }
  }
}
