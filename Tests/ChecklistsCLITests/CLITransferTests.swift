import ChecklistsCore
import ChecklistsTestSupport
import Foundation
import Testing

extension CLITests {
  @Suite("CLI: export and import", .serialized)
  struct CLITransferTests {
    /// A backup that could not be written (a full disk, a closed stdout) fails with the reason;
    /// the commands that only show fail so too (`search` with its error status, 3).
    @Test(arguments: [
      ("export > /dev/full", "No space left on device", 1),
      ("export --format plist > /dev/full", "No space left on device", 1),
      ("show Groceries > /dev/full", "No space left on device", 1),
      ("lists --json > /dev/full", "No space left on device", 1),
      ("search Milk > /dev/full", "No space left on device", 3),
      ("export >&-", "Bad file descriptor", 1),
      ("--version > /dev/full", "No space left on device", 1),
      ("export --help > /dev/full", "No space left on device", 1),
    ])
    func outputThatCannotBeWrittenFails(command: String, reason: String, status: Int32) throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(sampleLists())
      let binary = shellQuote(try BuiltBinary.existingPath())
      let result = try runProcess(
        "/bin/sh", ["-c", "\(binary) \(command)"], environment: sandbox.environment)
      #expect(result.status == status)
      #expect(result.stderr == "checklists: could not write the output: \(reason)\n")
    }

    @Test func exportJSONMirrorsThePlistKeysAndImportAddsTheLists() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(sampleLists())
      let export = sandbox.call("export")
      #expect(export.status == 0)
      let lists = try #require(
        try JSONSerialization.jsonObject(with: export.stdoutBytes) as? [[String: Any]])
      #expect(
        lists.map { Set($0.keys) } == Array(repeating: ["name", "iconName", "items"], count: 3))
      let item = try #require((lists.first?["items"] as? [[String: Any]])?.first)
      #expect(
        Set(item.keys) == ["text", "checked", "dueDate", "shouldRemind", "itemID", "hasDueDate"])
      #expect(item["dueDate"] as? String == "2027-01-15T08:00:00Z")

      // Importing the export into a file that does not exist yet gives just those lists (no
      // extra "List"), with fresh item IDs.
      let exported = sandbox.root + "/export.json"
      #expect(FileManager.default.createFile(atPath: exported, contents: export.stdoutBytes))
      let other = sandbox.root + "/other.plist"
      let imported = sandbox.call("--file", other, "import", exported)
      #expect(imported.status == 0)
      #expect(imported.stdout == "Imported 3 lists (3 items) from export.json.\n")
      let result = try sandbox.lists(other)
      #expect(result.map(\.name) == ["Chores", "Empty", "Groceries"])
      #expect(result.flatMap(\.items).map(\.itemID).sorted() == [0, 1, 2])
      let groceries = try #require(result.first { $0.name == "Groceries" })
      #expect(groceries.items.map(\.checked) == [false, true])
      #expect(groceries.items.first?.dueDate == Date(timeIntervalSince1970: 1_800_000_000))

      // The same export again: every list is already there; nothing changes.
      let before = sandbox.bytes(other)
      let again = sandbox.call("--file", other, "import", exported)
      #expect(again.status == 0)
      #expect(
        again.stdout == """
          Skipped 3 lists already in your file (same name and items): "Chores", "Empty", \
          "Groceries"; --duplicate imports them anyway.
          Nothing imported from export.json.

          """)
      #expect(sandbox.bytes(other) == before)
      // --duplicate forces them in.
      let forced = sandbox.call("--file", other, "import", "--duplicate", exported)
      #expect(forced.stdout == "Imported 3 lists (3 items) from export.json.\n")
      #expect(try sandbox.lists(other).count == 6)
      // Many skipped lists are named ten at most.
      let many = (1...25).map { Checklist(name: "L\($0)") }
      let manyFile = sandbox.root + "/many.plist"
      try sandbox.writeData(many, to: manyFile)
      let manyExport = sandbox.call("--file", manyFile, "export")
      let manyPath = sandbox.root + "/many.json"
      #expect(FileManager.default.createFile(atPath: manyPath, contents: manyExport.stdoutBytes))
      let skippedMany = sandbox.call("--file", manyFile, "import", manyPath)
      #expect(
        skippedMany.stdout.hasPrefix(
          "Skipped 25 lists already in your file (same name and items): \"L1\", \"L2\", \"L3\", "
            + "\"L4\", \"L5\", \"L6\", \"L7\", \"L8\", \"L9\", \"L10\" and 15 more; --duplicate "
            + "imports them anyway.\n"), "\(skippedMany.stdout)")
    }

    /// A repeating item keeps the day and time its series keeps, and a date before the
    /// Gregorian calendar began (1582) or after 9999 comes back as it was.
    @Test func exportJSONKeepsRepeatAnchorsAndEveryDateThroughImport() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      let early = Date(timeIntervalSince1970: -14_818_690_800)  // 1500-06-01 09:00 UTC
      let late = Date(timeIntervalSince1970: 253_433_923_140)  // 10000-12-31 23:59 UTC
      var rent = ChecklistItem(
        text: "Rent", dueDate: Date(timeIntervalSince1970: 1_803_801_600), hasDueDate: true,
        itemID: 1)
      rent.repeatRule = .monthly
      rent.repeatAnchorDay = 31
      rent.repeatAnchorMinute = 150
      var list = Checklist(name: "Dates")
      list.insertItem(rent)
      list.insertItem(ChecklistItem(text: "Old", dueDate: early, hasDueDate: true, itemID: 2))
      list.insertItem(ChecklistItem(text: "Far", dueDate: late, hasDueDate: true, itemID: 3))
      try sandbox.writeData([list], format: .binary)
      let export = sandbox.call("export")
      #expect(export.status == 0)
      let lists = try #require(
        try JSONSerialization.jsonObject(with: export.stdoutBytes) as? [[String: Any]])
      let items = try #require(lists.first?["items"] as? [[String: Any]])
      #expect(items[0]["repeatDay"] as? Int == 31)
      #expect(items[0]["repeatMinute"] as? Int == 150)
      #expect(items[1]["dueDate"] as? String == "1500-06-01T09:00:00Z")
      #expect(items[2]["dueDate"] as? String == "+10000-12-31T23:59:00Z")
      let exported = sandbox.root + "/export.json"
      #expect(FileManager.default.createFile(atPath: exported, contents: export.stdoutBytes))
      let other = sandbox.root + "/other.plist"
      #expect(sandbox.call("--file", other, "import", exported).status == 0)
      let back = try #require(try sandbox.lists(other).first).items
      #expect(back.map(\.repeatAnchorDay) == [31, nil, nil])
      #expect(back.map(\.repeatAnchorMinute) == [150, nil, nil])
      #expect(back.map(\.dueDate) == [rent.dueDate, early, late])
      // A value out of range is refused with where it is.
      let bad = sandbox.root + "/bad.json"
      let text = String(decoding: export.stdoutBytes, as: UTF8.self)
        .replacingOccurrences(of: "\"repeatDay\" : 31", with: "\"repeatDay\" : 32")
      #expect(FileManager.default.createFile(atPath: bad, contents: Data(text.utf8)))
      let refused = sandbox.call("--file", other, "import", bad)
      #expect(refused.status != 0)
      #expect(
        refused.stderr.contains(
          "list 1 (\"Dates\"), item 1: \"repeatDay\" should be a whole number from 1 to 31 but "
            + "is 32"))
    }

    @Test func exportPlistRoundTripsThroughImport() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(sampleLists())
      let export = sandbox.call("export", "--format", "plist")
      #expect(export.status == 0)
      let exported = try ChecklistsFileCoding.decode(export.stdoutBytes).lists
      #expect(exported == sampleLists().sorted { $0.name < $1.name })
      let path = sandbox.root + "/copy.plist"
      #expect(FileManager.default.createFile(atPath: path, contents: export.stdoutBytes))
      #expect(sandbox.call("--file", sandbox.root + "/b.plist", "import", path).status == 0)
      #expect(try sandbox.lists(sandbox.root + "/b.plist").count == 3)
    }

    /// Lists XML cannot hold (a control character) are exported as a binary plist, and stderr
    /// says so.
    @Test func exportPlistOfTextXMLCannotHoldSaysItIsBinary() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(sampleLists())
      let added = sandbox.call("add", "Empty", "Bell\u{7} pepper")
      #expect(added.status == 0)
      let export = sandbox.call("export", "--format", "plist")
      #expect(export.status == 0)
      #expect(export.stdoutBytes.starts(with: Data("bplist00".utf8)))
      #expect(
        export.stderr
          == "checklists: exported as a binary property list because an item holds control "
          + "characters that XML cannot store\n")
      let exported = try ChecklistsFileCoding.decode(export.stdoutBytes).lists
      #expect(exported.first { $0.name == "Empty" }?.items.map(\.text) == ["Bell\u{7} pepper"])
      // Not to a terminal, as gzip will not: the bytes would garble it.
      let toTerminal = sandbox.call(["export", "--format", "plist"], outputIsTerminal: true)
      #expect(toTerminal.status == 1)
      #expect(toTerminal.stdout.isEmpty)
      #expect(
        toTerminal.stderr
          == "checklists: these lists need a binary plist (an item holds control characters "
          + "that XML cannot store), which is not written to a terminal: send it to a file, e.g. "
          + "checklists export --format plist > lists.plist\n")
      // XML is.
      _ = sandbox.call("rm", "Empty", "1")
      #expect(sandbox.call(["export", "--format", "plist"], outputIsTerminal: true).status == 0)
    }

    @Test(arguments: [
      (
        #"[{"name":"A","items":[{"text":"x"},{"text":"y","checked":"yes"}]}]"#,
        #"bad.json: list 1 ("A"), item 2: "checked" should be true/false but is a string"#
      ),
      (
        #"{"name":"A"}"#,
        "bad.json: the top level should be an array of checklists but is a dictionary"
      ),
      (#"[{"items":[]}]"#, #"bad.json: list 1: "name" is missing"#),
      (
        #"[{"name":"A","items":[{"text":"x","dueDate":"tomorrow"}]}]"#,
        #"bad.json: list 1 ("A"), item 1: "dueDate" should be an ISO 8601 date but is a string"#
      ),
      (
        #"[{"name":"A","items":[1]}]"#,
        #"bad.json: list 1 ("A"), item 1: should be a dictionary but is a number"#
      ),
      // A syntax error names the line and column, as a compiler does, and what was expected.
      ("[1, 2", "bad.json:1:6: the file ends inside an array: expected , or ]"),
      (
        #"[{"name":"Ab","items":[{"text":"xy","checked":tru}]}]"#,
        "bad.json:1:47: expected a value (true, false, null, a number, a string, [ or {)"
      ),
      (
        "[\n  {\"name\": \"Café\"\n   \"items\": []}\n]",
        "bad.json:3:4: expected , or } after a value in an object"
      ),
      // A due date said to be there and missing; a repeat without one, which add refuses.
      (
        #"[{"name":"D","items":[{"text":"x","hasDueDate":true}]}]"#,
        #"bad.json: list 1 ("D"), item 1: "hasDueDate" is true but there is no "dueDate""#
      ),
      (
        #"[{"name":"D","items":[{"text":"x","repeat":"weekly"}]}]"#,
        #"bad.json: list 1 ("D"), item 1: "repeat" needs a due date: give "dueDate" too"#
      ),
    ])
    func aBadImportIsRejectedWithTheKeyPathAndNothingChanges(content: String, message: String)
      throws
    {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(sampleLists())
      let before = try #require(sandbox.bytes())
      let path = sandbox.root + "/bad.json"
      #expect(FileManager.default.createFile(atPath: path, contents: Data(content.utf8)))
      let run = sandbox.call("import", path)
      #expect(run.status == 1)
      #expect(run.stderr == "checklists: \(message)\n")
      #expect(sandbox.bytes() == before)
      #expect(!FileManager.default.fileExists(atPath: sandbox.dataFile + ".bak"))
    }

    /// Names and texts that show nothing, which new-list and add refuse but the file holds
    /// (the iPhone app takes a text of spaces), come back from a backup as they were, and
    /// import says so: it refused the whole backup.
    @Test func blankNamesAndTextsRoundTripThroughExportAndImport() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      let due = Date(timeIntervalSinceReferenceDate: 0)
      let lists = [
        Checklist(
          name: "Groceries",
          items: [
            ChecklistItem(text: "Milk", dueDate: due, itemID: 1),
            ChecklistItem(text: " ", dueDate: due, itemID: 2),
            ChecklistItem(text: "\u{200B}", checked: true, dueDate: due, itemID: 3),
          ]),
        Checklist(name: "", items: [ChecklistItem(text: "", dueDate: due, itemID: 4)]),
      ]
      try sandbox.writeData(lists)
      let exported = sandbox.call("export")
      #expect(exported.status == 0)
      let backup = sandbox.root + "/backup.json"
      #expect(FileManager.default.createFile(atPath: backup, contents: Data(exported.stdout.utf8)))
      let restored = sandbox.root + "/restored.plist"
      let run = sandbox.call("--file", restored, "import", backup)
      #expect(run.status == 0)
      #expect(
        run.stderr
          == "checklists: 1 list without a name and 3 items without text imported as the file "
          + "has them\n")
      let back = try sandbox.lists(restored)
      #expect(back.map(\.name).sorted() == ["", "Groceries"])
      let groceries = try #require(back.first { $0.name == "Groceries" })
      #expect(groceries.items.map(\.text) == ["Milk", " ", "\u{200B}"])
      #expect(groceries.items.map(\.checked) == [false, false, true])
      #expect(back.first { $0.name.isEmpty }?.items.map(\.text) == [""])
    }

    /// `import -` reads standard input: an export piped into another file's import.
    @Test func importDashReadsStandardInput() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(sampleLists())
      let binary = shellQuote(try BuiltBinary.existingPath())
      let other = shellQuote(sandbox.root + "/other.plist")
      let piped = try runProcess(
        "/bin/sh", ["-c", "\(binary) export | \(binary) --file \(other) import -"],
        environment: sandbox.environment)
      #expect(piped.status == 0, "\(piped.stderr)")
      let imported = try sandbox.lists(sandbox.root + "/other.plist").map(\.name)
      #expect(imported == ["Chores", "Empty", "Groceries"], "\(piped.stdout)")
      let bad = try runProcess(
        "/bin/sh", ["-c", "printf '[1, 2' | \(binary) --file \(other) import -"],
        environment: sandbox.environment)
      #expect(bad.status == 1)
      #expect(
        bad.stderr
          == "checklists: standard input:1:6: the file ends inside an array: expected , or ]\n")
    }

    /// A hand-written item with a "dueDate" and no "hasDueDate" has that due date.
    @Test func aHandWrittenDueDateIsADueDate() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      let path = sandbox.root + "/mine.json"
      let content =
        #"[{"name":"Min","items":[{"text":"with due","dueDate":"2026-12-05T10:00:00Z"},"#
        + #"{"text":"said not","dueDate":"2026-12-05T10:00:00Z","hasDueDate":false}]}]"#
      #expect(FileManager.default.createFile(atPath: path, contents: Data(content.utf8)))
      #expect(sandbox.call("import", path).status == 0)
      let items = try #require(try sandbox.lists().first { $0.name == "Min" }?.items)
      #expect(items.map(\.showsDueDate) == [true, false])
      #expect(items.first?.dueDate == Date(timeIntervalSince1970: 1_796_464_800))
    }

    @Test func aBadPlistImportUsesTheCodecsMessage() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(sampleLists())
      let before = try #require(sandbox.bytes())
      let bad = Data("<?xml version=\"1.0\"?><plist><dict/></plist>".utf8)
      let path = sandbox.root + "/bad.plist"
      #expect(FileManager.default.createFile(atPath: path, contents: bad))
      let expected: String
      do {
        _ = try ChecklistsFileCoding.decode(bad)
        Issue.record("the codec accepted a dictionary")
        return
      } catch {
        expected = error.message
      }
      let run = sandbox.call("import", path)
      #expect(run.status == 1)
      #expect(run.stderr == "checklists: bad.plist: \(expected)\n")
      #expect(sandbox.bytes() == before)
    }

    @Test func importRefusesWhatIsNotARegularFile() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      let fifo = sandbox.root + "/pipe.json"
      #expect(mkfifo(fifo, 0o600) == 0)
      let run = sandbox.call("import", fifo)
      #expect(run.status == 1)
      #expect(
        run.stderr
          == "checklists: \(fifo) is not a regular file of at most 1 GiB (- reads standard input)\n"
      )
      #expect(sandbox.bytes() == nil)
    }
  }
}
