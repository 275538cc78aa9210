import ChecklistsCore
import ChecklistsTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

extension ServerAndCLIProcesses {
  @Suite("Sync: kill -9 during a sync", .serialized)
  struct SyncKillTests {
    static let rounds = 50

    /// Every item file's SUMMARY and whether it is done; every file must parse.
    static func vdirItems(_ vdir: String) throws -> [String: Bool] {
      var result: [String: Bool] = [:]
      let manager = FileManager.default
      for folder in try manager.contentsOfDirectory(atPath: vdir) where !folder.hasPrefix(".") {
        for name in try manager.contentsOfDirectory(atPath: vdir + "/" + folder)
        where name.hasSuffix(".ics") && !name.hasPrefix(".") {
          let path = vdir + "/" + folder + "/" + name
          let data = try #require(manager.contents(atPath: path))
          let calendar = try #require(try ICalendar.parse(data).first, "\(path)")
          let todo = try #require(TaskMapping.task(in: calendar), "\(path)")
          let fields = TaskMapping.fields(of: todo, timeZone: .current)
          #expect(result[fields.text] == nil, "two files hold \(fields.text)")
          result[fields.text] = fields.checked
        }
      }
      return result
    }

    /// The data file's items: text -> checked; texts must be unique.
    static func dataItems(_ sandbox: CLITestSandbox) throws -> [String: Bool] {
      var result: [String: Bool] = [:]
      for list in try sandbox.lists() {
        for item in list.items {
          #expect(result[item.text] == nil, "the data file holds \(item.text) twice")
          result[item.text] = item.checked
        }
      }
      return result
    }

    @Test func killsDuringSyncsLeaveBothSidesWholeAndTheNextSyncRepairsTheRest() throws {
      let rig = try SyncRig()
      var lists: [Checklist] = []
      var nextID = 0
      for listNumber in 0..<3 {
        var list = Checklist(name: "List \(listNumber)")
        for itemNumber in 0..<50 {
          list.insertItem(ChecklistItem(text: "item \(listNumber)-\(itemNumber)", itemID: nextID))
          nextID += 1
        }
        lists.append(list)
      }
      try rig.sandbox.writeData(lists)
      let first = try rig.checklists("sync")
      try #require(first.status == 0, "\(first.stderr)")

      let location = try DataFileLocation.resolve(environment: rig.environment, filePath: nil)
      var random = SeededGenerator(seed: 20_261_201)
      var expected = try Self.dataItems(rig.sandbox)
      var killedMidway = 0
      // How long after its start a sync is killed, at random below this window. The window
      // follows the machine: halved when the sync had already ended, widened a little when it
      // was caught running, so that the kills land inside syncs on fast and slow hosts alike.
      var window: UInt64 = 80_000
      for round in 1...Self.rounds {
        // Changes on both sides: two items and 20 toggles here; a new item and an edit there.
        let (store, load) = try ChecklistsStore.open(location: location)
        var model = load.model
        for (index, list) in model.lists.enumerated() where index < 2 {
          let item = model.makeItem(text: "round \(round) here \(index)")
          if let change = model.insertItem(item, listID: list.id) { model.apply(change) }
        }
        for _ in 0..<20 {
          let list = model.lists[Int(random.next() % UInt64(model.lists.count))]
          guard !list.items.isEmpty else { continue }
          let index = Int(random.next() % UInt64(list.items.count))
          if let change = model.toggleItem(listID: list.id, at: index) { model.apply(change) }
        }
        let saved = try store.save(model)
        let savedModel = saved.merged?.model ?? model
        for list in savedModel.lists {
          for item in list.items { expected[item.text] = item.checked }
        }
        let folders = try FileManager.default.contentsOfDirectory(atPath: rig.vdir)
          .filter { !$0.hasPrefix(".") }.sorted()
        let folder = folders[Int(random.next() % UInt64(folders.count))]
        let phoneText = "round \(round) phone"
        try SyncRig.write(
          rig.vdir + "/" + folder + "/kill-\(round).ics",
          iosTask(uid: "kill-\(round)", summary: phoneText))
        expected[phoneText] = false

        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltBinary.path())
        process.arguments = ["sync"]
        process.environment = rig.environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        usleep(UInt32(random.next() % window))
        if process.isRunning {
          killedMidway += 1
          window = min(window * 11 / 10, 200_000)
        } else {
          window = max(window / 2, 1_000)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()

        // Each side holds a whole version: the data file decodes, every item file parses.
        let data = try Self.dataItems(rig.sandbox)
        _ = try Self.vdirItems(rig.vdir)
        for text in expected.keys where !text.contains("phone") {
          #expect(data[text] != nil, "round \(round): \(text) is missing from the data file")
        }
      }
      print("sync kill test: \(killedMidway) of \(Self.rounds) syncs killed while running")
      #expect(killedMidway >= Self.rounds / 2)

      let repair = try rig.checklists("sync")
      #expect(repair.status == 0, "\(repair.stdout)\(repair.stderr)")
      let data = try Self.dataItems(rig.sandbox)
      let vdir = try Self.vdirItems(rig.vdir)
      #expect(data == vdir, "after the repairing sync both sides hold the same items")
      #expect(Set(data.keys) == Set(expected.keys), "nothing lost, nothing duplicated")
      for (text, checked) in expected where !text.contains("phone") {
        #expect(data[text] == checked, "\(text)")
      }
      #expect(try rig.checklists("sync").stdout == "nothing to do, 0 conflicts\n")
    }
  }
}
