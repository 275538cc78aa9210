import ChecklistsCore
import ChecklistsTestSupport
import Foundation
import Testing

extension CLITests {
  @Suite("CLI: commands, run in-process", .serialized)
  struct CLICommandTests {
    @Test func versionAndHelp() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      let version = sandbox.call("--version")
      #expect(version.status == 0)
      #expect(version.stdout == "checklists 0.1.0\n")
      let help = sandbox.call("--help")
      #expect(help.status == 0)
      for command in ["lists", "show", "add", "check", "uncheck", "rm", "new-list", "rm-list"] {
        #expect(help.stdout.contains("\n  \(command) "))
      }
      let addHelp = sandbox.call("add", "--help")
      #expect(addHelp.status == 0)
      #expect(
        addHelp.stdout.hasPrefix(
          "usage: checklists add LIST TEXT [--due DATE] [--note TEXT] [--repeat RULE] "
            + "[--remind-before LEAD] [--priority LEVEL] [--tag NAME] [--under ITEM] "
            + "[--photo FILE] [--remind]\n")
      )
      #expect(!FileManager.default.fileExists(atPath: sandbox.root + "/data"))
    }

    @Test(arguments: [
      (["frob"], "checklists: unknown command \"frob\""),
      (["add", "Groceries"], "checklists: add needs TEXT"),
      (["show"], "checklists: show needs LIST"),
      (["lists", "--bogus"], "checklists: unknown option --bogus for lists"),
      (
        ["check", "a", "b", "c"], "checklists: unexpected argument \"c\" (quote a text with spaces)"
      ),
      (
        ["due", "--within", "soon"],
        "checklists: --within takes a duration like 30m, 2h, 3d, 1w, not \"soon\""
      ),
      (["new-list", "X", "--icon", "Rocket"], "checklists: unknown icon \"Rocket\""),
      (["export", "--format", "csv"], "checklists: --format is json or plist, not \"csv\""),
      (["add", "L", "T", "--remind"], "checklists: --remind needs --due DATE"),
      (["--file"], "checklists: --file needs a path"),
    ])
    func usageErrorsExit2WithAUsageLine(arguments: [String], message: String) throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      let run = sandbox.call(arguments)
      #expect(run.status == 2)
      #expect(run.stdout.isEmpty)
      let lines = run.stderr.split(separator: "\n").map(String.init)
      #expect(lines.count == 2)
      #expect(lines.first?.hasPrefix(message) == true)
      #expect(lines.last?.hasPrefix("usage: checklists ") == true)
      #expect(sandbox.bytes() == nil)
    }

    @Test func aFirstRunShowsTheListNamedListAndWritesNothingForReading() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      let run = sandbox.call("lists")
      #expect(run.status == 0)
      #expect(run.stdout == "1. List — (No Items)\n")
      #expect(sandbox.bytes() == nil)
      let added = sandbox.call("add", "list", "Call mum")
      #expect(added.status == 0)
      #expect(added.stdout == "Added \"Call mum\" to List as item 1.\n")
      #expect(try sandbox.lists().map(\.name) == ["List"])
      #expect(try sandbox.lists().first?.items.map(\.text) == ["Call mum"])
      let state = try #require(
        FileManager.default.contentsOfDirectory(atPath: sandbox.root + "/state/checklists").first)
      #expect(state.hasPrefix("Checklists-") && state.hasSuffix(".json"))
    }

    /// On a read-only disk, a command that changes the lists warns that it cannot save (and
    /// then fails to), while one that only shows them says nothing of it.
    @Test(.enabled(if: Tmpfs.isAvailable, "mounting a tmpfs needs root"))
    func onlyCommandsThatChangeTheListsWarnOfAReadOnlyDisk() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      let point = sandbox.root + "/mnt"
      try Tmpfs.mount(at: point, size: "1m", mode: "0755")
      defer { Tmpfs.unmount(point) }
      let file = point + "/Checklists.plist"
      try sandbox.writeData(sampleLists(), to: file)
      #expect(Tmpfs.remountReadOnly(point))
      let warning =
        "warning: ~/mnt/Checklists.plist: Read-only file system; changes cannot be saved"
      for words in [["lists"], ["show", "Groceries"], ["search", "milk"], ["export"]] {
        let shown = sandbox.call(["--file", file] + words)
        #expect(shown.status == 0)
        #expect(!shown.stderr.contains("cannot be saved"), "\(words): \(shown.stderr)")
      }
      let added = sandbox.call("--file", file, "add", "Groceries", "Jam")
      #expect(added.status != 0)
      #expect(added.stderr.contains(warning))
    }

    /// A number means the list at that number, as for items, even when a list is named so;
    /// a name that is a number past the last list still finds that list.
    @Test func aListNumberWinsOverAListNamedLikeIt() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(["1", "3", "a", "b"].map { Checklist(name: $0) })
      #expect(sandbox.call("add", "3", "into a").status == 0)
      var lists = try sandbox.lists()
      #expect(lists.first { $0.name == "a" }?.items.map(\.text) == ["into a"])
      #expect(lists.first { $0.name == "3" }?.items.isEmpty == true)
      try sandbox.writeData(["5", "a"].map { Checklist(name: $0) })
      #expect(sandbox.call("add", "5", "into 5").status == 0)
      lists = try sandbox.lists()
      #expect(lists.first { $0.name == "5" }?.items.map(\.text) == ["into 5"])
    }

    @Test func editListRenamesAndChangesTheIconKeepingTheItems() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(sampleLists())
      let renamed = sandbox.call("edit-list", "groceries", "--name", "Shopping", "--icon", "trips")
      #expect(renamed.status == 0, "\(renamed.stderr)")
      #expect(renamed.stdout == "List \"Groceries\": renamed to \"Shopping\", icon Trips.\n")
      let shopping = try #require(try sandbox.lists().first { $0.name == "Shopping" })
      #expect(shopping.iconName == "Trips")
      #expect(shopping.items.map(\.text) == ["Milk", "Eggs"])
      #expect(
        sandbox.call("edit-list", "Shopping", "--icon", "Trips").stdout
          == "List \"Shopping\" is already so.\n")
      let before = sandbox.bytes()
      for (words, message) in [
        (["edit-list", "Shopping"], "edit-list needs --name or --icon"),
        (["edit-list", "Shopping", "--name", " \n"], "the list name is empty"),
        (["edit-list", "Shopping", "--icon", "rocket"], "unknown icon \"rocket\""),
      ] {
        let refused = sandbox.call(words)
        #expect(refused.status == 2)
        #expect(refused.stderr.hasPrefix("checklists: " + message), "\(refused.stderr)")
      }
      #expect(sandbox.call("edit-list", "Nowhere", "--name", "X").status == 1)
      #expect(sandbox.bytes() == before)
      // A name another list has (in any case or accents) is refused but with --duplicate.
      let taken = sandbox.call("edit-list", "Chores", "--name", "SHOPPING")
      #expect(taken.status == 1)
      #expect(
        taken.stderr
          == "checklists: list 3 is named \"Shopping\" already, and commands could not tell two "
          + "such lists apart by name; --duplicate makes another anyway\n")
      #expect(try sandbox.lists().map(\.name) == ["Chores", "Empty", "Shopping"])
      let twice = sandbox.call("edit-list", "Chores", "--name", "Shopping", "--duplicate")
      #expect(twice.status == 0)
      #expect(twice.stderr.contains("there are now 2 lists named \"Shopping\""))
      // A list's own name in another case is a rename, not a duplicate.
      #expect(sandbox.call("edit-list", "Empty", "--name", "EMPTY").status == 0)
    }

    /// The app remembers lists by name (the one it opens, those sorted by due date): a rename
    /// from the shell carries them over.
    @Test func editListCarriesTheAppsMemoryOfTheListOver() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(sampleLists())
      #expect(sandbox.call("add", "Chores", "Sweep").status == 0)  // writes a state file
      let folder = sandbox.root + "/state/checklists"
      // The state file, not the commands' undo log beside it.
      let name = try #require(
        try FileManager.default.contentsOfDirectory(atPath: folder).first {
          !$0.hasSuffix(".undo.json")
        })
      let path = folder + "/" + name
      var state = try #require(
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
          as? [String: Any])
      state["checklistName"] = "Groceries"
      state["sortByDue"] = ["Groceries", "Chores"]
      try JSONSerialization.data(withJSONObject: state).write(to: URL(fileURLWithPath: path))
      #expect(sandbox.call("edit-list", "Groceries", "--name", "Shopping").status == 0)
      let after = try #require(
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
          as? [String: Any])
      #expect(after["checklistName"] as? String == "Shopping")
      #expect((after["sortByDue"] as? [String]).map(Set.init) == ["Shopping", "Chores"])
    }

    @Test func listsShowsSubtitlesInTheAppsOrder() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(sampleLists())
      let run = sandbox.call("lists")
      #expect(run.status == 0)
      #expect(
        run.stdout == "1. Chores — All Done!\n2. Empty — (No Items)\n3. Groceries — 1 Remaining\n")
      let json = sandbox.call("lists", "--json")
      let rows = try #require(
        try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
      #expect(rows.map { $0["name"] as? String } == ["Chores", "Empty", "Groceries"])
      #expect(rows.map { $0["subtitle"] as? String } == ["All Done!", "(No Items)", "1 Remaining"])
      #expect(rows.last?["remaining"] as? Int == 1)
    }

    @Test func showFindsListsByNameAnyCaseOrNumber() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(sampleLists())
      let expected = "Groceries — 1 Remaining\n1. [ ] Milk\n2. [x] Eggs\n"
      #expect(sandbox.call("show", "GROCERIES").stdout == expected)
      #expect(sandbox.call("show", "3").stdout == expected)
      let missing = sandbox.call("show", "Nope")
      #expect(missing.status == 1)
      #expect(missing.stderr == "checklists: no list \"Nope\" (see `checklists lists`)\n")
      let json = sandbox.call("show", "groceries", "--json")
      let list = try #require(
        try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
      let items = try #require(list["items"] as? [[String: Any]])
      #expect(items.map { $0["text"] as? String } == ["Milk", "Eggs"])
      #expect(items.first?["dueDate"] as? String == "2027-01-15T08:00:00Z")
    }

    @Test func addCheckUncheckAndRemoveChangeTheFileOnce() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(sampleLists())
      let original = try #require(sandbox.bytes())
      let added = sandbox.call("add", "groceries", "Bread", "--due", "now", "--remind")
      #expect(added.status == 0)
      #expect(added.stdout.hasPrefix("Added \"Bread\" to Groceries as item 3, due "))
      #expect(added.stdout.hasSuffix(", reminds.\n"))
      #expect(sandbox.bytes(sandbox.dataFile + ".bak") == original)
      var groceries = try #require(try sandbox.lists().first { $0.name == "Groceries" })
      #expect(groceries.items.map(\.text) == ["Milk", "Eggs", "Bread"])
      #expect(groceries.items[2].shouldRemind)
      #expect(groceries.items[2].itemID == 4)

      #expect(
        sandbox.call("check", "Groceries", "Bread").stdout == "Checked \"Bread\" in Groceries.\n"
      )
      #expect(
        sandbox.call("uncheck", "Groceries", "2").stdout == "Unchecked \"Eggs\" in Groceries.\n")
      groceries = try #require(try sandbox.lists().first { $0.name == "Groceries" })
      #expect(groceries.items.map(\.checked) == [false, false, true])

      #expect(
        sandbox.call("rm", "Groceries", "Milk").stdout == "Deleted \"Milk\" from Groceries.\n")
      groceries = try #require(try sandbox.lists().first { $0.name == "Groceries" })
      #expect(groceries.items.map(\.text) == ["Eggs", "Bread"])

      let missing = sandbox.call("check", "Groceries", "Caviar")
      #expect(missing.status == 1)
      #expect(missing.stderr.contains("no item \"Caviar\" in \"Groceries\""))
    }

    @Test func nothingIsWrittenWhenNothingChanges() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(sampleLists())
      var before = stat()
      #expect(stat(sandbox.dataFile, &before) == 0)
      let run = sandbox.call("check", "Groceries", "Eggs")
      #expect(run.status == 0)
      #expect(run.stdout == "\"Eggs\" in Groceries was already checked.\n")
      for command in [["lists"], ["show", "Chores"], ["export"], ["due"]] {
        _ = sandbox.call(command)
      }
      var after = stat()
      #expect(stat(sandbox.dataFile, &after) == 0)
      #expect(before.st_ino == after.st_ino)
      #expect(before.st_mtim.tv_nsec == after.st_mtim.tv_nsec)
      #expect(!FileManager.default.fileExists(atPath: sandbox.dataFile + ".bak"))
    }

    @Test func newListAndRemoveList() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(sampleLists())
      let created = sandbox.call("new-list", "Trips 2027", "--icon", "trips")
      #expect(created.status == 0)
      #expect(created.stdout == "Created list \"Trips 2027\".\n")
      let trip = try #require(try sandbox.lists().first { $0.name == "Trips 2027" })
      #expect(trip.iconName == "Trips")
      // A second list of the same name (as lists are found: case and accents ignored) is
      // refused: commands would no longer find either by name. --duplicate makes it, and
      // stderr says how to tell them apart.
      let before = sandbox.bytes()
      let refused = sandbox.call("new-list", "trips 2027")
      #expect(refused.status == 1)
      #expect(
        refused.stderr
          == "checklists: list 4 is named \"Trips 2027\" already, and commands could not tell two "
          + "such lists apart by name; --duplicate makes another anyway\n")
      #expect(sandbox.bytes() == before)
      let again = sandbox.call("new-list", "Trips 2027", "--duplicate")
      #expect(again.status == 0)
      #expect(
        again.stderr
          == "checklists: there are now 2 lists named \"Trips 2027\": name them by number (see lists)\n"
      )
      // Without --icon a list gets the folder, as a list made in the app does.
      let icons = try sandbox.lists().filter { $0.name == "Trips 2027" }.map(\.iconName)
      #expect(icons.sorted() == ["Folder", "Trips"])
      #expect(sandbox.call("rm-list", "5").status == 0)
      let removed = sandbox.call("rm-list", "groceries")
      #expect(removed.stdout == "Deleted list \"Groceries\" (2 items).\n")
      #expect(try sandbox.lists().map(\.name) == ["Chores", "Empty", "Trips 2027"])
    }

    @Test func fileOptionOverridesTheEnvironmentWhichOverridesXDG() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      let fromEnvironment = sandbox.root + "/env.plist"
      let fromOption = sandbox.root + "/option.plist"
      _ = sandbox.call("new-list", "A", extra: ["CHECKLISTS_FILE": fromEnvironment])
      _ = sandbox.call(
        "--file", fromOption, "new-list", "B", extra: ["CHECKLISTS_FILE": fromEnvironment])
      _ = sandbox.call("new-list", "C", "--file=\(fromOption)")
      // The first list of a new file is the only one (the app's starting "List" is not made).
      #expect(try sandbox.lists(fromEnvironment).map(\.name) == ["A"])
      #expect(try sandbox.lists(fromOption).map(\.name) == ["B", "C"])
      #expect(sandbox.bytes() == nil)
      // An empty --file (`--file "$F"` with F unset) is refused: it changed the default file
      // or CHECKLISTS_FILE's, and the app opened them too.
      for arguments in [
        ["--file", "", "new-list", "D"], ["new-list", "D", "--file="], ["--file="],
      ] {
        let refused = sandbox.call(arguments, extra: ["CHECKLISTS_FILE": fromEnvironment])
        #expect(refused.status == 2, "\(arguments)")
        #expect(
          refused.stderr.hasPrefix(
            "checklists: --file needs a path, and it was given an empty one\n"), "\(arguments)")
      }
      #expect(try sandbox.lists(fromEnvironment).map(\.name) == ["A"])
      #expect(sandbox.bytes() == nil)
    }

    /// A named file that does not exist is likely a typo: a command that only shows lists says
    /// so (it showed a first run's "List"), and one that changes them creates the file only in
    /// a folder that exists (it made the folders too).
    @Test func aNamedFileThatDoesNotExistIsNotMadeUp() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      let typo = sandbox.root + "/typo.plist"
      let shown = sandbox.call("--file", typo, "lists")
      #expect(shown.status == 1)
      #expect(shown.stdout.isEmpty)
      #expect(
        shown.stderr
          == "checklists: ~/typo.plist: no such file (a command that adds or changes lists "
          + "creates it)\n")
      let nowhere = sandbox.root + "/no/such/folder/x.plist"
      let added = sandbox.call("add", "List", "a", extra: ["CHECKLISTS_FILE": nowhere])
      #expect(added.status == 1)
      #expect(
        added.stderr
          == "checklists: ~/no/such/folder: no such folder; a new data file is made only in a "
          + "folder that exists\n")
      #expect(!FileManager.default.fileExists(atPath: sandbox.root + "/no"))
      #expect(sandbox.call("--file", typo, "new-list", "A").status == 0)
      #expect(sandbox.call("--file", typo, "lists").stdout == "1. A — (No Items)\n")
    }

    @Test func anUnreadableFileIsRefusedAndLeftAlone() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try FileManager.default.createDirectory(
        atPath: sandbox.root + "/data/checklists", withIntermediateDirectories: true)
      let garbage = Data("<plist><array><dict><key>name</key></dict>".utf8)
      #expect(FileManager.default.createFile(atPath: sandbox.dataFile, contents: garbage))
      let expected: String
      do {
        _ = try ChecklistsFileCoding.decode(garbage)
        Issue.record("the codec accepted garbage")
        return
      } catch {
        // An XML syntax error: the file's name, line and column, as a compiler writes them.
        expected = error.shown(in: "Checklists.plist")
      }
      #expect(expected == "Checklists.plist:1:36: <key>name</key> has no value")
      for command in [["lists"], ["add", "List", "x"]] {
        let run = sandbox.call(command)
        #expect(run.status == 1)
        #expect(run.stderr == "checklists: \(expected)\n")
        #expect(sandbox.bytes() == garbage)
      }
    }

    @Test func controlCharactersAreMadeVisibleWhenTheOutputIsATerminal() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      var list = Checklist(name: "Evil\u{1B}[31mRed")
      list.insertItem(ChecklistItem(text: "Bell\u{07}\u{7F}", itemID: 1))
      try sandbox.writeData([list], format: .binary)
      let piped = sandbox.call("show", "1")
      #expect(piped.stdout == "Evil\u{1B}[31mRed — 1 Remaining\n1. [ ] Bell\u{07}\u{7F}\n")
      let terminal = sandbox.call(["show", "1"], outputIsTerminal: true)
      #expect(terminal.status == 0)
      #expect(terminal.stdout == "Evil^[[31mRed — 1 Remaining\n1. [ ] Bell^G^?\n")
    }
  }
}
