import ChecklistsCore
import ChecklistsTestSupport
import Foundation
import Testing

extension CLITests {
  @Suite("CLI: early reminders (--remind-before)", .serialized)
  struct CLIReminderLeadTests {
    typealias P = PlannerFixture

    @Test func addAndEditSetTheLeadTimeShowAndExportIt() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(P.lists())
      let added = sandbox.call(
        "add", "Home", "Dentist", "--due", "2026-12-03 10:00", "--remind-before", "15m",
        extra: P.berlin)
      #expect(added.stderr.isEmpty)
      #expect(added.status == 0)
      #expect(
        added.stdout
          == "Added \"Dentist\" to Home as item 4, due Thu 3 Dec 2026, 10:00, reminds 15 min "
          + "before.\n")
      var item = try #require(try sandbox.lists().first?.items.last)
      #expect(item.shouldRemind)
      #expect(item.reminderLead.minutes == 15)
      #expect(item.unknownFields[.remindBefore] == .integer(15))

      let shown = sandbox.call("show", "Home", extra: P.berlin)
      #expect(
        shown.stdout.contains("4. [ ] Dentist  (due 2026-12-03 10:00, reminds 15 min before)"))
      let json = sandbox.call("show", "Home", "--json", extra: P.berlin)
      let list = try #require(
        try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
      let items = try #require(list["items"] as? [[String: Any]])
      #expect(items[3]["remindBefore"] as? String == "15m")
      #expect(items[0]["remindBefore"] == nil)

      let edited = sandbox.call("edit", "Home", "Dentist", "--remind-before", "1d", extra: P.berlin)
      #expect(edited.stdout == "Updated \"Dentist\" in Home: reminds 1 day before.\n")
      item = try #require(try sandbox.lists().first?.items.last)
      #expect(item.reminderLead.minutes == 1440)

      // Export and import keep it.
      let export = sandbox.call("export", extra: P.berlin)
      let file = sandbox.root + "/export.json"
      #expect(FileManager.default.createFile(atPath: file, contents: Data(export.stdout.utf8)))
      let other = CLITestSandbox()
      defer { other.remove() }
      #expect(try other.run("import", file, extra: P.berlin).status == 0)
      let imported = try #require(try other.lists().first { $0.name == "Home" })
      #expect(imported.items[3].reminderLead.minutes == 1440)
      #expect(imported.items[0].reminderLead.isNone)

      let atDue = sandbox.call("edit", "Home", "Dentist", "--remind-before", "0", extra: P.berlin)
      #expect(atDue.stdout == "Updated \"Dentist\" in Home: reminds at the due time.\n")
      item = try #require(try sandbox.lists().first?.items.last)
      #expect(item.reminderLead.isNone)
      #expect(item.shouldRemind)
      #expect(item.unknownFields[.remindBefore] == nil)
    }

    @Test func aLeadTimeNeedsADueDateAndAFormItReads() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(P.lists())
      let before = sandbox.bytes()
      let noDue = sandbox.call("add", "Home", "Call", "--remind-before", "15m", extra: P.berlin)
      #expect(noDue.status == 2)
      #expect(noDue.stderr.hasPrefix("checklists: --remind-before needs --due DATE\nusage: "))
      let bad = sandbox.call(
        "add", "Home", "Call", "--due", "tomorrow", "--remind-before", "soon", extra: P.berlin)
      #expect(bad.status == 2)
      #expect(
        bad.stderr.hasPrefix(
          "checklists: --remind-before takes a lead time like 5m, 15m, 30m, 1h, 1d (up to "
            + "365d) or 0, not \"soon\"\nusage: "))
      let undated = sandbox.call(
        "edit", "Work", "Café order", "--remind-before", "15m", extra: P.berlin)
      #expect(undated.status == 2)
      #expect(
        undated.stderr.hasPrefix(
          "checklists: --remind-before needs a due date: give --due DATE too\nusage: "))
      #expect(sandbox.bytes() == before)
    }

    @Test func dueNotifySendsAnEarlyReminderBeforeTheItemIsDue() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(P.lists())
      let fake = try FakeNotifySend(in: sandbox)
      let environment = P.berlin.merging(["PATH": fake.folder + ":/usr/bin:/bin"]) { $1 }
      // 12:00 now; due 12:20, 30 minutes early: its reminder came at 11:50.
      #expect(
        sandbox.call(
          "add", "Home", "Call Ana", "--due", "12:20", "--remind-before", "30m",
          extra: environment
        ).status == 0)
      let run = sandbox.call("due", "--notify", extra: environment)
      #expect(run.stderr.isEmpty)
      #expect(fake.calls() == [["--app-name=checklists", "Home", "Call Ana — due in 20 min"]])
      let location = try DataFileLocation.resolve(environment: sandbox.environment)
      let state = try #require(FileManager.default.contents(atPath: location.stateFile))
      let notified = try JSONDecoder().decode(ChecklistsState.self, from: state).notified
      let due = Int(P.utc("2026-12-01T11:20:00Z").timeIntervalSince1970)
      #expect(notified == ["7@\(due)-30m"])
      // Work's overdue report is listed; the early reminder is not sent again.
      #expect(sandbox.call("due", "--notify", extra: environment).status == 0)
      #expect(fake.calls().count == 1)
    }
  }
}
