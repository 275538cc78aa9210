import ChecklistsCore
import ChecklistsTestSupport
import Foundation
import Testing

extension CLITests {
  /// Subtasks, priorities and tags through the commands.
  @Suite("CLI: subtasks, priorities and tags", .serialized)
  struct CLIOutlineTests {
    static let due = Date(timeIntervalSince1970: 1_800_000_000)

    static func item(_ text: String, _ id: Int, parent: Int? = nil) -> ChecklistItem {
      var item = ChecklistItem(text: text, dueDate: due, itemID: id)
      item.parentItemID = parent
      return item
    }

    /// Trip ▸ Passport (tags, a phone's priority 3) ▸ Photo; Trip ▸ Tickets; Groceries (low).
    static func outlined() -> [Checklist] {
      var passport = item("Passport", 11, parent: 10)
      passport.priority = 3
      passport.tags = ["Papers", "Grocery list"]
      var groceries = item("Groceries", 14)
      groceries.priorityLevel = .low
      return [
        Checklist(
          name: "Home",
          items: [
            item("Trip", 10), passport, item("Photo", 12, parent: 11),
            item("Tickets", 13, parent: 10), groceries,
          ])
      ]
    }

    @Test(arguments: ["json", "plist"])
    func exportAndImportKeepTheOutlinePrioritiesAndTags(format: String) throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(Self.outlined())
      let export = sandbox.call("export", "--format", format)
      #expect(export.status == 0)
      if format == "json" {
        let lists = try #require(
          try JSONSerialization.jsonObject(with: export.stdoutBytes) as? [[String: Any]])
        let items = try #require(lists.first?["items"] as? [[String: Any]])
        #expect(items.map { $0["parentItemID"] as? Int } == [nil, 10, 11, 10, nil])
        #expect(items[1]["priority"] as? Int == 3)
        #expect(items[1]["tags"] as? [String] == ["Papers", "Grocery list"])
        #expect(items[4]["priority"] as? Int == 9)
        #expect(items[0]["priority"] == nil && items[0]["tags"] == nil)
      }
      let exported = sandbox.root + "/export." + format
      #expect(FileManager.default.createFile(atPath: exported, contents: export.stdoutBytes))
      // Into a file whose IDs are taken: the items are renumbered, children with them.
      let other = sandbox.root + "/other.plist"
      try sandbox.writeData(
        [Checklist(name: "Taken", items: (10...14).map { Self.item("T\($0)", $0) })], to: other)
      let imported = sandbox.call("--file", other, "import", exported)
      #expect(imported.status == 0)
      let home = try #require(try sandbox.lists(other).first { $0.name == "Home" })
      let ids = home.items.map(\.itemID)
      #expect(Set(ids).isDisjoint(with: 10...14))
      #expect(home.items.map(\.parentItemID) == [nil, ids[0], ids[1], ids[0], nil])
      #expect(home.depths() == [0, 1, 2, 1, 0])
      #expect(home.items[1].priority == 3)
      #expect(home.items[1].tags == ["Papers", "Grocery list"])
      #expect(home.items[4].priorityLevel == .low)
      // The same again is skipped as already there; a different outline is not the same list.
      let again = sandbox.call("--file", other, "import", exported)
      #expect(again.stdout.hasPrefix("Skipped 1 list already in your file"))
    }

    @Test func importRejectsBadValuesNamingTheItem() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      let cases: [(String, String)] = [
        (#""priority": 12"#, "\"priority\" should be a whole number from 0 to 9 but is 12"),
        (#""tags": "work""#, "\"tags\" should be an array of strings but is a string"),
        (#""tags": ["a", 1]"#, "\"tags\" item 2 should be a tag name but is a number"),
        (#""parentItemID": "x""#, "\"parentItemID\" should be a whole number but is a string"),
      ]
      for (field, message) in cases {
        let file = sandbox.root + "/bad.json"
        let json = #"[{"name": "L", "items": [{"text": "A", "itemID": 1, "#
        #expect(
          FileManager.default.createFile(atPath: file, contents: Data((json + field + "}]}]").utf8))
        )
        let result = sandbox.call("import", file)
        #expect(result.status == 1)
        #expect(result.stderr == "checklists: bad.json: list 1 (\"L\"), item 1: \(message)\n")
      }
    }

    @Test func aChildWhoseParentIsNotInTheImportBecomesTopLevel() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      let file = sandbox.root + "/orphan.json"
      let json = """
        [{"name": "L", "items": [
          {"text": "Orphan", "itemID": 5, "parentItemID": 4},
          {"text": "Parent", "itemID": 6},
          {"text": "Child", "parentItemID": 6}
        ]}]
        """
      #expect(FileManager.default.createFile(atPath: file, contents: Data(json.utf8)))
      #expect(sandbox.call("import", file).status == 0)
      let list = try #require(try sandbox.lists().first { $0.name == "L" })
      #expect(list.items.map(\.text) == ["Orphan", "Parent", "Child"])
      #expect(list.items.map(\.parentItemID) == [nil, nil, list.items[1].itemID])
    }

    /// Trip ▸ Passport ▸ Photo, Trip ▸ Tickets, Groceries, made with add --under.
    static func made(in sandbox: CLITestSandbox) {
      #expect(sandbox.call("new-list", "Home").status == 0)
      #expect(
        sandbox.call("add", "Home", "Trip", "--priority", "high", "--tag", "work").status == 0)
      let passport = sandbox.call(
        "add", "Home", "Passport", "--under", "Trip", "--tag", "Papers", "--tag", "#papers")
      #expect(passport.stdout == "Added \"Passport\" to Home as item 2 under \"Trip\".\n")
      #expect(sandbox.call("add", "Home", "Photo", "--under", "Passport").status == 0)
      #expect(sandbox.call("add", "Home", "Groceries", "--priority", "low").status == 0)
      let tickets = sandbox.call("add", "Home", "Tickets", "--under", "Trip")
      #expect(tickets.stdout == "Added \"Tickets\" to Home as item 4 under \"Trip\".\n")
    }

    @Test func showIndentsSubtasksAndMarksPriorityAndTags() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      Self.made(in: sandbox)
      #expect(
        sandbox.call("show", "Home").stdout == """
          Home — 5 Remaining
          1. [ ] !!! Trip #work
          2.   [ ] Passport #Papers
          3.     [ ] Photo
          4.   [ ] Tickets
          5. [ ] ! Groceries

          """)
      let json = sandbox.call("show", "Home", "--json")
      let list = try #require(
        try JSONSerialization.jsonObject(with: json.stdoutBytes) as? [String: Any])
      let items = try #require(list["items"] as? [[String: Any]])
      let ids = items.compactMap { $0["itemID"] as? Int }
      #expect(items.map { $0["parentItemID"] as? Int } == [nil, ids[0], ids[1], ids[0], nil])
      #expect(items.map { $0["priority"] as? Int } == [1, nil, nil, nil, 9])
      #expect(items[1]["tags"] as? [String] == ["Papers"])
      // search finds #tag and !!! (and --json carries the keys).
      #expect(sandbox.call("search", "#pap").stdout == "Home\n  2. [ ] Passport #Papers\n")
      #expect(sandbox.call("search", "!!!").stdout == "Home\n  1. [ ] !!! Trip #work\n")
      #expect(sandbox.call("search", "#nothing").status == 1)
      let found = sandbox.call("search", "#WORK", "--json")
      #expect(found.stdout.contains("\"tags\" : [\n          \"work\"\n        ]"))
      #expect(found.stdout.contains("\"priority\" : 1"))
    }

    @Test func editMovesUnderAndToTheTopAndChangesPriorityAndTags() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      Self.made(in: sandbox)
      let under = sandbox.call("edit", "Home", "Groceries", "--under", "Passport", "--tag", "home")
      #expect(under.stdout == "Updated \"Groceries\" in Home: tagged #home, under \"Passport\".\n")
      #expect(
        try sandbox.lists()[0].items.map(\.text) == [
          "Trip", "Passport", "Photo", "Groceries", "Tickets",
        ])
      let top = sandbox.call("edit", "Home", "Photo", "--top")
      #expect(top.stdout == "Updated \"Photo\" in Home: top-level.\n")
      let home = try sandbox.lists()[0]
      #expect(home.items.map(\.text) == ["Trip", "Passport", "Groceries", "Tickets", "Photo"])
      #expect(home.depths() == [0, 1, 2, 1, 0])
      #expect(
        sandbox.call("edit", "Home", "Photo", "--top").stdout.hasSuffix("already reads so.\n"))
      let levels = sandbox.call("edit", "Home", "Trip", "--priority", "none", "--untag", "WORK")
      #expect(levels.stdout == "Updated \"Trip\" in Home: no priority, untagged #work.\n")
      // Not under itself or its own subtask; not both options.
      let loop = sandbox.call("edit", "Home", "Trip", "--under", "Passport")
      #expect(loop.status == 1)
      #expect(loop.stderr == "checklists: an item cannot go under one of its own subtasks\n")
      #expect(sandbox.call("edit", "Home", "Trip", "--under", "Trip").status == 1)
      #expect(sandbox.call("edit", "Home", "Trip", "--under", "Photo", "--top").status == 2)
      #expect(sandbox.call("edit", "Home", "Trip", "--priority", "urgent").status == 2)
      // Each edit undoes: the last brings Trip's priority and tag back.
      #expect(sandbox.call("undo").status == 0)
      let trip = try sandbox.lists()[0].items[0]
      #expect(trip.priorityLevel == .high && trip.tags == ["work"])
    }

    @Test func rmOfAParentNeedsWithChildrenAndUndoBringsAllBack() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      Self.made(in: sandbox)
      let before = try sandbox.lists()
      let refused = sandbox.call("rm", "Home", "Trip")
      #expect(refused.status == 1)
      #expect(
        refused.stderr
          == "checklists: \"Trip\" has 3 subtasks; give --with-children to delete them too\n")
      let removed = sandbox.call("rm", "Home", "Trip", "--with-children")
      #expect(removed.stdout == "Deleted \"Trip\" and its 3 subtasks from Home.\n")
      #expect(try sandbox.lists()[0].items.map(\.text) == ["Groceries"])
      #expect(sandbox.call("undo").status == 0)
      #expect(try sandbox.lists() == before)
      // A subtask without subtasks of its own needs nothing.
      #expect(sandbox.call("rm", "Home", "Photo").status == 0)
    }

    @Test func mvMovesAnItemWithItsSubtasks() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      Self.made(in: sandbox)
      #expect(sandbox.call("new-list", "Away").status == 0)
      let before = try sandbox.lists()
      let moved = sandbox.call("mv", "Home", "Passport", "Away")
      #expect(moved.stdout == "Moved \"Passport\" with 1 subtask from Home to Away (item 1).\n")
      let lists = try sandbox.lists()
      let away = try #require(lists.first { $0.name == "Away" })
      #expect(away.items.map(\.text) == ["Passport", "Photo"])
      #expect(away.depths() == [0, 1])
      #expect(away.items[0].parentItemID == nil)
      #expect(
        lists.first { $0.name == "Home" }?.items.map(\.text) == ["Trip", "Tickets", "Groceries"])
      #expect(sandbox.call("undo").status == 0)
      #expect(try sandbox.lists() == before)
    }
  }
}
