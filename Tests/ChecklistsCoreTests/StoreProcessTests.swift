import ChecklistsTestSupport
import Foundation
import Testing

@testable import ChecklistsCore

extension CoreProcesses {
  /// Tests that run `checklists-bench` (built by `swift build`) as a separate process.
  @Suite("Store: other processes, locks and kills", .serialized)
  struct StoreProcessTests {
    static let bench = BuiltBinary.path("checklists-bench")

    @Test func aLockHeldByAKilledProcessNeverBlocks() throws {
      let folder = StoreTestFolder()
      defer { folder.remove() }
      let location = folder.location()
      let holder = try ChildProcess(Self.bench, ["hold-lock", location.dataFile])
      #expect(holder.waitForOutput("locked"))
      // Reading needs no lock; a save waits for it, then names the holder.
      let (store, load) = try ChecklistsStore.open(location: location)
      store.lockTimeout = 0.2
      #expect {
        try store.save(adding("More", to: load.model))
      } throws: { error in
        (error as? StoreError)?.kind == .locked(pid: holder.pid)
      }
      holder.kill(SIGKILL)
      #expect(try store.save(adding("More", to: load.model)).outcome == .saved)
    }

    @Test func killingASaveLoopAtRandomMomentsAlwaysLeavesACompleteVersion() throws {
      let folder = StoreTestFolder()
      defer { folder.remove() }
      let location = folder.location()
      var random = SeededGenerator(seed: 20_261_129)
      var previousCount = 0
      for round in 1...50 {
        let child = try ChildProcess(Self.bench, ["save-loop", location.dataFile, "1000000"])
        let started = child.waitForOutput("ready")
        #expect(started, "round \(round): the save loop did not start: \(child.errorOutput())")
        usleep(UInt32.random(in: 0..<25_000, using: &random))
        child.kill(SIGKILL)
        guard started else { return }
        let bytes = try #require(folder.bytes("Checklists.plist"), "round \(round): no file")
        let document: ChecklistsDocument
        do {
          document = try ChecklistsFileCoding.decode(bytes)
        } catch {
          Issue.record("round \(round): the file does not decode: \(error)")
          return
        }
        let count = try Self.loopVersion(document, round: round)
        #expect(
          count >= previousCount, "round \(round): went back from \(previousCount) to \(count)")
        previousCount = count
        if let backup = folder.bytes("Checklists.plist.bak") {
          #expect(throws: Never.self) { _ = try ChecklistsFileCoding.decode(backup) }
        }
      }
      // The next open removes what a killed save left behind.
      let (store, load) = try ChecklistsStore.open(location: location)
      #expect(!folder.names().contains { $0.contains(".tmp-") })
      #expect(load.model.lists.first { $0.name == "Loop" }?.items.count == previousCount)
      store.close()
    }

    /// The number of items in "Loop", checking the file is one of the versions the loop writes:
    /// the lists "List" and "Loop", the latter holding exactly "item 1" … "item k".
    static func loopVersion(_ document: ChecklistsDocument, round: Int) throws -> Int {
      #expect(document.lists.map(\.name) == ["List", "Loop"], "round \(round)")
      let loop = try #require(document.lists.first { $0.name == "Loop" })
      let texts = loop.items.map(\.text)
      #expect(texts == (0..<texts.count).map { "item \($0 + 1)" }, "round \(round)")
      #expect(!texts.isEmpty, "round \(round)")
      return texts.count
    }
  }

  /// Tests on real small or read-only file systems (tmpfs; needs root).
  @Suite("Store: real full and read-only disks", .serialized)
  struct StoreMountTests {
    /// Mounts a tmpfs of `size` in the folder; returns the mount point.
    static func mountTmpfs(_ folder: StoreTestFolder, size: String) throws -> String {
      let point = folder.path + "/mnt"
      try Tmpfs.mount(at: point, size: size, mode: "0755")
      return point
    }

    @Test func aFullDiskKeepsTheOldFile() throws {
      let folder = StoreTestFolder()
      defer { folder.remove() }
      // The seam version always runs, so that the behaviour is checked even without mounts.
      folder.write("Checklists.plist", encodedBytes(sampleModel()))
      let faulty = FaultyFileSystem()
      let (seamStore, seamLoad) = try ChecklistsStore.open(
        location: folder.location(), fileSystem: faulty)
      faulty.setFault(.init(call: "write", code: ENOSPC) { $0.contains(".tmp-") })
      #expect(throws: StoreError.self) { try seamStore.save(bigModel(seamLoad.model)) }
      #expect(folder.bytes("Checklists.plist") == encodedBytes(sampleModel()))
      seamStore.close()
    }

    @Test(.enabled(if: Tmpfs.isAvailable, "mounting a tmpfs needs root"))
    func aFullTmpfsKeepsTheOldFile() throws {
      let folder = StoreTestFolder()
      defer { folder.remove() }
      let point = try Self.mountTmpfs(folder, size: "64k")
      defer { Tmpfs.unmount(point) }
      let old = encodedBytes(sampleModel())
      #expect(FileManager.default.createFile(atPath: point + "/Checklists.plist", contents: old))
      let location = DataFileLocation(
        dataFile: point + "/Checklists.plist", stateFile: folder.path + "/state.json")
      let (store, load) = try ChecklistsStore.open(location: location)
      let big = bigModel(load.model)
      #expect(encodedBytes(big).count > 64 * 1024)
      #expect {
        try store.save(big)
      } throws: { error in
        guard let error = error as? StoreError else { return false }
        return error.cause?.code == ENOSPC
          && error.message.hasPrefix("Could not save \(location.dataFile): No space left on device")
      }
      #expect(FileManager.default.contents(atPath: location.dataFile) == old)
      let names = (try? FileManager.default.contentsOfDirectory(atPath: point)) ?? []
      #expect(!names.contains { $0.contains(".tmp-") })
      // A smaller change still fits and saves.
      #expect(try store.save(adding("Small", to: load.model)).outcome == .saved)
      store.close()
    }

    @Test func aReadOnlyDiskKeepsTheOldFile() throws {
      let folder = StoreTestFolder()
      defer { folder.remove() }
      folder.write("Checklists.plist", encodedBytes(sampleModel()))
      let faulty = FaultyFileSystem()
      let (seamStore, seamLoad) = try ChecklistsStore.open(
        location: folder.location(), fileSystem: faulty)
      faulty.setFault(.init(call: "open", code: EROFS) { $0.contains(".tmp-") })
      #expect(throws: StoreError.self) { try seamStore.save(adding("x", to: seamLoad.model)) }
      #expect(folder.bytes("Checklists.plist") == encodedBytes(sampleModel()))
      seamStore.close()
    }

    @Test(.enabled(if: Tmpfs.isAvailable, "mounting a tmpfs needs root"))
    func aReadOnlyTmpfsKeepsTheOldFile() throws {
      let folder = StoreTestFolder()
      defer { folder.remove() }
      let point = try Self.mountTmpfs(folder, size: "1m")
      defer { Tmpfs.unmount(point) }
      let old = encodedBytes(sampleModel())
      #expect(FileManager.default.createFile(atPath: point + "/Checklists.plist", contents: old))
      let location = DataFileLocation(
        dataFile: point + "/Checklists.plist", stateFile: folder.path + "/state.json")
      // Unlocked: the lock file's open descriptor would make the remount busy.
      let (store, load) = try ChecklistsStore.open(location: location)
      #expect(Tmpfs.remountReadOnly(point))
      #expect {
        try store.save(adding("Laundry", to: load.model))
      } throws: { error in
        (error as? StoreError)?.message.contains("Read-only file system") == true
      }
      #expect(FileManager.default.contents(atPath: location.dataFile) == old)
      // A rescue copy still works: it goes to the fallback folder.
      let rescue = try store.writeRescueCopy(
        adding("Laundry", to: load.model), fallbackFolders: [folder.path])
      #expect(rescue.hasPrefix(folder.path + "/Checklists.rescue-"))
      store.close()
      // Opening a file on a read-only disk works, with a warning.
      let (_, reopened) = try ChecklistsStore.open(location: location)
      #expect(reopened.model == sampleModel())
      #expect(reopened.warnings.contains { $0.contains("Read-only file system") })
    }
  }
}
