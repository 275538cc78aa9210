import ChecklistsCore
import ChecklistsTestSupport
import Foundation
import Testing

extension CLITests {
  @Suite("CLI: undo takes back the commands' changes, newest first", .serialized)
  struct CLIUndoTests {
    @Test func undoWalksBackThroughTheCommandsChanges() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(sampleLists())
      let original = try sandbox.lists()
      #expect(sandbox.call("check", "Groceries", "Milk").status == 0)
      #expect(sandbox.call("add", "Groceries", "Café au lait").status == 0)
      #expect(sandbox.call("edit-list", "Chores", "--name", "House").status == 0)
      #expect(sandbox.call("mv", "Groceries", "Eggs", "House").status == 0)
      #expect(sandbox.call("rm-list", "Empty").status == 0)
      #expect(sandbox.call("new-list", "Trips").status == 0)

      let first = sandbox.call("undo")
      #expect(first.status == 0, "\(first.stderr)")
      #expect(first.stdout == "Undid `new-list Trips`.\n")
      #expect(try sandbox.lists().map(\.name) == ["Groceries", "House"])
      #expect(sandbox.call("undo").stdout == "Undid `rm-list Empty`.\n")
      #expect(sandbox.call("undo").stdout == "Undid `mv Groceries Eggs House`.\n")
      #expect(sandbox.call("undo").stdout == "Undid `edit-list Chores --name House`.\n")
      #expect(sandbox.call("undo").stdout == "Undid `add Groceries \"Café au lait\"`.\n")
      #expect(sandbox.call("undo").stdout == "Undid `check Groceries Milk`.\n")
      // The same lists (the file keeps them sorted by name once saved).
      let byName: ([Checklist]) -> [Checklist] = { $0.sorted { $0.name < $1.name } }
      #expect(byName(try sandbox.lists()) == byName(original))
      let nothing = sandbox.call("undo")
      #expect(nothing.status == 1)
      #expect(nothing.stderr.hasPrefix("checklists: nothing to undo"))
    }

    @Test func aChangeEditedSinceElsewhereIsRefusedAndKept() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(sampleLists())
      #expect(sandbox.call("add", "Groceries", "Bread").status == 0)
      // Elsewhere (the app, the phone): the item is edited after the command made it.
      var lists = try sandbox.lists()
      let groceries = try #require(lists.firstIndex { $0.name == "Groceries" })
      var bread = lists[groceries].items[2]
      bread.text = "Rye bread"
      lists[groceries].replaceItem(at: 2, with: bread)
      try sandbox.writeData(lists)
      let before = sandbox.bytes()
      let refused = sandbox.call("undo")
      #expect(refused.status == 1)
      #expect(
        refused.stderr
          == "checklists: could not undo `add Groceries Bread`: \"Bread\" was changed since "
          + "(elsewhere); nothing changed\n")
      #expect(sandbox.bytes() == before)
      // Still the newest: the same answer again.
      #expect(sandbox.call("undo").status == 1)
    }

    /// The app remembers lists by name (sorted by due date, the one it opens): a rename taken
    /// back takes that back too, as edit-list carried it over.
    @Test func aRenameUndoneTakesTheAppsMemoryOfTheListBack() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(sampleLists())
      let location = try DataFileLocation.resolve(environment: sandbox.environment)
      var state = ChecklistsState(checklistName: "Chores", sortByDue: ["Chores"])
      state.dataFile = location.dataFile
      try FileManager.default.createDirectory(
        atPath: (location.stateFile as NSString).deletingLastPathComponent,
        withIntermediateDirectories: true)
      try JSONEncoder().encode(state).write(to: URL(fileURLWithPath: location.stateFile))
      #expect(sandbox.call("edit-list", "Chores", "--name", "House").status == 0)
      #expect(sandbox.call("undo").status == 0)
      let after = try JSONDecoder().decode(
        ChecklistsState.self, from: Data(contentsOf: URL(fileURLWithPath: location.stateFile)))
      #expect(after.checklistName == "Chores")
      #expect(after.sortByDue == ["Chores"])
    }

    @Test func clearAndImportAreUndoneWhole() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(sampleLists())
      let byName: ([Checklist]) -> [Checklist] = { $0.sorted { $0.name < $1.name } }
      let original = byName(try sandbox.lists())
      let exported = sandbox.root + "/lists.json"
      let export = sandbox.call("export", "--format", "json")
      #expect(FileManager.default.createFile(atPath: exported, contents: export.stdoutBytes))
      #expect(sandbox.call("clear", "Groceries").status == 0)
      #expect(sandbox.call("import", exported, "--duplicate").status == 0)
      #expect(try sandbox.lists().count == 6)
      #expect(sandbox.call("undo").status == 0)
      #expect(try sandbox.lists().count == 3)
      #expect(sandbox.call("undo").stdout == "Undid `clear Groceries`.\n")
      #expect(byName(try sandbox.lists()) == original)
    }

    @Test func aRepeatingItemsCheckIsUndoneToItsDate() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(sampleLists())
      #expect(
        sandbox.call("edit", "Groceries", "Milk", "--due", "2026-12-01 09:00", "--repeat", "weekly")
          .status == 0)
      let dated = try sandbox.lists()
      let checked = sandbox.call("check", "Groceries", "Milk")
      #expect(checked.stdout.hasPrefix("Done \"Milk\" in Groceries; next due "))
      #expect(sandbox.call("undo").status == 0)
      #expect(try sandbox.lists() == dated)
    }
  }
}
