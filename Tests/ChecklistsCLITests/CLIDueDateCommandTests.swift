import ChecklistsCore
import ChecklistsTestSupport
import Foundation
import Testing

extension CLITests {
  @Suite("CLI: due dates that count, item matching, exit statuses", .serialized)
  struct CLIDueDateCommandTests {
    @Test func addWithoutDueHasNoDueDateAndTheAppsDefaultHour() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(sampleLists())
      let run = sandbox.call("add", "Groceries", "Soap", extra: DueFixture.berlin)
      #expect(run.stdout == "Added \"Soap\" to Groceries as item 3.\n")
      let soap = try #require(try sandbox.lists().first { $0.name == "Groceries" }?.items.last)
      #expect(!soap.hasDueDate)
      // 12:00 in Berlin is on the hour: the app's form would start there too.
      #expect(soap.dueDate == DueFixture.utc("2026-11-30T11:00:00Z"))
      let dated = sandbox.call(
        "add", "Groceries", "Bills", "--due", "tomorrow 9am", extra: DueFixture.berlin)
      #expect(
        dated.stdout == "Added \"Bills\" to Groceries as item 4, due Tue 1 Dec 2026, 09:00.\n")
      #expect(try sandbox.lists().first { $0.name == "Groceries" }?.items.last?.hasDueDate == true)
    }

    @Test func showAndDueListItemsWithADueDateWithoutAReminder() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(sampleLists())
      #expect(
        sandbox.call(
          "add", "Groceries", "Bills", "--due", "2026-11-29 10:00", extra: DueFixture.berlin
        ).status == 0)
      let show = sandbox.call("show", "Groceries", extra: DueFixture.berlin)
      #expect(
        show.stdout == """
          Groceries — 2 Remaining
          1. [ ] Milk
          2. [x] Eggs
          3. [ ] Bills  (due 2026-11-29 10:00, overdue)

          """)
      let due = sandbox.call("due", extra: DueFixture.berlin)
      #expect(due.status == 0)
      #expect(due.stdout == "Groceries  Bills  Sun 29 Nov 2026, 10:00 (26 h ago)\n")
      // --no-due takes it away again: nothing is due.
      let edit = sandbox.call("edit", "Groceries", "bills", "--no-due", extra: DueFixture.berlin)
      #expect(edit.stdout == "Updated \"Bills\" in Groceries: no due date.\n")
      #expect(sandbox.call("due", extra: DueFixture.berlin).status == 1)
    }

    @Test func dueExitsThreeOnAnErrorTwoOnUsage() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      #expect(
        FileManager.default.createFile(
          atPath: sandbox.root + "/bad.plist", contents: Data("x".utf8)))
      let broken = sandbox.call("--file", sandbox.root + "/bad.plist", "due")
      #expect(broken.status == 3)
      #expect(sandbox.call("due", "--within", "soon").status == 2)
      #expect(sandbox.call("show", "Nope").status == 1)
    }

    @Test func itemTextMatchesInAnyCaseWhenUnambiguous() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(sampleLists())
      let run = sandbox.call("check", "Groceries", "milk")
      #expect(run.status == 0)
      #expect(run.stdout == "Checked \"Milk\" in Groceries.\n")
      #expect(sandbox.call("add", "Groceries", "MILK").status == 0)
      let ambiguous = sandbox.call("uncheck", "Groceries", "milk")
      #expect(ambiguous.status == 1)
      #expect(
        ambiguous.stderr.contains(
          "\"milk\" could be several items in \"Groceries\": 1 \"Milk\", 3 \"MILK\"; "
            + "give more of the text or the number"))
    }

    @Test func aTextStartingWithADashSaysToUseDoubleDash() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(sampleLists())
      let run = sandbox.call("add", "Groceries", "-5 eggs")
      #expect(run.status == 2)
      #expect(
        run.stderr.hasPrefix(
          "checklists: unknown option -5 eggs for add; a TEXT that starts with - goes after --, "
            + "e.g. checklists add LIST -- \"-5 eggs\""))
      #expect(sandbox.call("add", "Groceries", "--", "-5 eggs").status == 0)
      // "an ITEM": it said "a ITEM".
      let check = sandbox.call("check", "Groceries", "-5 eggs")
      #expect(
        check.stderr.hasPrefix(
          "checklists: unknown option -5 eggs for check; an ITEM that starts with - goes after "
            + "--, e.g. checklists check LIST -- \"-5 eggs\""), "\(check.stderr)")
    }
  }
}
