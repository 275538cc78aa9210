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
  }
}
