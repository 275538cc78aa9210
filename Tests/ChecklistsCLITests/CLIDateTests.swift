import ChecklistsCore
import ChecklistsTestSupport
import Foundation
import Testing

extension CLITests {
  @Suite("CLI: due dates on add and edit, on a fixed clock", .serialized)
  struct CLIDateTests {
    /// What `add --due` stores for each form, at Monday 30 November 2026, 12:00 in Berlin.
    @Test(arguments: [
      ("tomorrow 9am", "2026-12-01T08:00:00Z"),
      ("fri 17:00", "2026-12-04T16:00:00Z"),
      ("+2h", "2026-11-30T13:00:00Z"),
      ("2026-12-24 18:00", "2026-12-24T17:00:00Z"),
      ("9am", "2026-12-01T08:00:00Z"),
      ("18:00", "2026-11-30T17:00:00Z"),
      ("today", "2026-11-30T08:00:00Z"),
      ("+1w", "2026-12-07T11:00:00Z"),
      ("now", "2026-11-30T11:00:00Z"),
    ])
    func addReadsEveryFormWithTheAppsParser(typed: String, stored: String) throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(sampleLists())
      let run = sandbox.call(
        "add", "Chores", "Task", "--due", typed, "--remind", extra: DueFixture.berlin)
      #expect(run.status == 0)
      let item = try #require(try sandbox.lists().first { $0.name == "Chores" }?.items.last)
      #expect(item.text == "Task")
      #expect(item.dueDate == DueFixture.utc(stored))
      #expect(item.shouldRemind)
    }

    @Test(arguments: [
      ("2026-13-40", "checklists: --due: cannot read \"2026-13-40\": month 13 does not exist"),
      (
        "2026-02-30",
        "checklists: --due: cannot read \"2026-02-30\": February 2026 has 28 days, not 30"
      ),
      ("25:00", "checklists: --due: cannot read \"25:00\": hour 25 does not exist"),
      (
        "xyz",
        "checklists: --due: cannot read \"xyz\" as a date; try 2026-12-24 18:00, tomorrow 9am, fri, +2h"
      ),
    ])
    func aBadDateExits2WithTheParsersMessageAndChangesNothing(typed: String, message: String)
      throws
    {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(sampleLists())
      let before = sandbox.bytes()
      for command in [
        ["add", "Chores", "Task", "--due", typed], ["edit", "Chores", "1", "--due", typed],
      ] {
        let run = sandbox.call(command, extra: DueFixture.berlin)
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        let lines = run.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == message)
        #expect(lines.last?.hasPrefix("usage: checklists \(command[0]) LIST") == true)
        #expect(sandbox.bytes() == before)
      }
    }

    @Test func editChangesTextDueDateAndReminder() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(sampleLists())
      let run = sandbox.call(
        "edit", "groceries", "Milk", "--text", "Oat milk", "--due", "fri 17:00", "--remind",
        extra: DueFixture.berlin)
      #expect(run.status == 0)
      #expect(
        run.stdout
          == "Updated \"Milk\" in Groceries: text \"Milk\" → \"Oat milk\", due Fri 4 Dec 2026, "
          + "17:00, reminder on.\n")
      var milk = try #require(try sandbox.lists().first { $0.name == "Groceries" }?.items.first)
      #expect(milk.text == "Oat milk")
      #expect(milk.dueDate == DueFixture.utc("2026-12-04T16:00:00Z"))
      #expect(milk.shouldRemind)
      #expect(milk.itemID == 1)

      let off = sandbox.call("edit", "Groceries", "1", "--no-remind", extra: DueFixture.berlin)
      #expect(off.stdout == "Updated \"Oat milk\" in Groceries: reminder off.\n")
      milk = try #require(try sandbox.lists().first { $0.name == "Groceries" }?.items.first)
      #expect(!milk.shouldRemind)
      #expect(milk.dueDate == DueFixture.utc("2026-12-04T16:00:00Z"))
      #expect(milk.text == "Oat milk")
    }

    @Test(arguments: [
      (
        ["edit", "Groceries", "1"],
        "checklists: edit needs --text, --due, --no-due, --remind, --no-remind, --note, --repeat, "
          + "--remind-before, --priority, --tag, --untag, --under or --top"
      ),
      (
        ["edit", "Groceries", "1", "--remind", "--no-remind"],
        "checklists: give --remind or --no-remind, not both"
      ),
      (["edit", "Groceries", "1", "--text", " "], "checklists: the item text is empty"),
      (["edit", "Groceries", "1", "--text", " \n\r "], "checklists: the item text is empty"),
    ])
    func editUsageErrors(arguments: [String], message: String) throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(sampleLists())
      let before = sandbox.bytes()
      let run = sandbox.call(arguments)
      #expect(run.status == 2)
      #expect(run.stderr.hasPrefix(message + "\nusage: checklists edit LIST ITEM "))
      #expect(sandbox.bytes() == before)
    }

    /// Text made only of white space, line breaks included, is empty for every command.
    @Test(arguments: [
      (["add", "Groceries", "\n"], "the item text is empty"),
      (["add", "Groceries", " \n \r\t"], "the item text is empty"),
      (["new-list", "\r"], "the list name is empty"),
      (["new-list", "\u{200B}\u{FEFF}"], "the list name is empty"),
      (["add", "Groceries", "\u{200D}\u{1B}"], "the item text is empty"),
      (["search", "\n"], "the search text is empty"),
    ])
    func blankTextIsRefused(arguments: [String], message: String) throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(sampleLists())
      let before = sandbox.bytes()
      let run = sandbox.call(arguments)
      #expect(run.status == 2)
      #expect(run.stderr.hasPrefix("checklists: " + message + "\n"))
      #expect(sandbox.bytes() == before)
    }
  }
}
