import ChecklistsCore
import ChecklistsTestSupport
import Foundation
import Testing

extension CLITests {
  /// A fixed clock for the planner commands: Tuesday 1 December 2026, 12:00 in Berlin.
  enum PlannerFixture {
    static let berlin = ["CHECKLISTS_NOW": "2026-12-01T11:00:00Z", "TZ": "Europe/Berlin"]

    static func utc(_ text: String) -> Date {
      ISO8601DateFormatter().date(from: text) ?? .distantPast
    }

    /// "Home" (a weekly item due this morning with a note, a checked item, an item due
    /// tomorrow) and "Work" (an overdue item, "Café order", an undated item).
    static func lists() -> [Checklist] {
      var plants = ChecklistItem(
        text: "Water plants", dueDate: utc("2026-12-01T08:00:00Z"), hasDueDate: true, itemID: 1)
      plants.repeatRule = .weekly
      plants.note = "The fern by the window"
      var home = Checklist(name: "Home")
      home.insertItem(plants)
      home.insertItem(ChecklistItem(text: "Dishes", checked: true, itemID: 2))
      home.insertItem(
        ChecklistItem(
          text: "Bins", dueDate: utc("2026-12-02T06:00:00Z"), hasDueDate: true, itemID: 3))
      var work = Checklist(name: "Work")
      work.insertItem(
        ChecklistItem(
          text: "Report", dueDate: utc("2026-11-30T09:00:00Z"), hasDueDate: true, itemID: 4))
      var coffee = ChecklistItem(text: "Café order", itemID: 5)
      coffee.note = "oat milk\nno sugar"
      work.insertItem(coffee)
      work.insertItem(ChecklistItem(text: "Slides", checked: true, itemID: 6))
      return [home, work]
    }
  }

  @Suite("CLI: notes, repeat, mv, clear, today and search", .serialized)
  struct CLIPlannerTests {
    typealias P = PlannerFixture

    @Test func addAndEditSetNoteAndRepeatAndShowAndExportThem() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(P.lists())
      let added = sandbox.call(
        "add", "Home", "Pay rent", "--due", "2026-12-31 09:00", "--repeat", "monthly", "--note",
        "Standing order?\nAsk the bank", extra: P.berlin)
      #expect(added.status == 0)
      #expect(added.stderr.isEmpty)
      #expect(
        added.stdout
          == "Added \"Pay rent\" to Home as item 4, due Thu 31 Dec 2026, 09:00, repeats monthly.\n")
      let item = try #require(try sandbox.lists().first?.items.last)
      #expect(item.note == "Standing order?\nAsk the bank")
      #expect(item.repeatRule == .monthly)

      let edited = sandbox.call(
        "edit", "Home", "Pay rent", "--repeat", "every 3 months", "--note", "", extra: P.berlin)
      #expect(edited.status == 0)
      #expect(
        edited.stdout == "Updated \"Pay rent\" in Home: note removed, repeats every 3 months.\n")

      let shown = sandbox.call("show", "Home", extra: P.berlin)
      #expect(
        shown.stdout
          == [
            "Home — 3 Remaining",
            "1. [ ] Water plants  (due 2026-12-01 09:00, overdue, repeats weekly)",
            "       The fern by the window",
            "2. [x] Dishes",
            "3. [ ] Bins  (due 2026-12-02 07:00)",
            "4. [ ] Pay rent  (due 2026-12-31 09:00, repeats every 3 months)",
          ].lines)

      let json = sandbox.call("export", extra: P.berlin)
      let exported = try #require(
        try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
      let homeItems = try #require(exported.first?["items"] as? [[String: Any]])
      #expect(homeItems[0]["note"] as? String == "The fern by the window")
      #expect(homeItems[0]["repeat"] as? String == "weekly")
      #expect(homeItems[1]["note"] == nil)
      #expect(homeItems[1]["repeat"] == nil)

      // The export imports back with its notes and rules.
      let exportFile = sandbox.root + "/export.json"
      #expect(FileManager.default.createFile(atPath: exportFile, contents: Data(json.stdout.utf8)))
      let other = CLITestSandbox()
      defer { other.remove() }
      #expect(try other.run("import", exportFile, extra: P.berlin).status == 0)
      let imported = try #require(try other.lists().first { $0.name == "Home" })
      #expect(imported.items[0].note == "The fern by the window")
      #expect(imported.items[0].repeatRule == .weekly)
      #expect(imported.items[3].repeatRule == RepeatRule(.monthly, interval: 3))
    }

    @Test func importRefusesARuleItCannotReadAndChangesNothing() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(P.lists())
      let before = sandbox.bytes()
      let file = sandbox.root + "/bad.json"
      let json = """
        [{"name": "Trips", "items": [{"text": "Visa", "repeat": "hourly"}]}]
        """
      #expect(FileManager.default.createFile(atPath: file, contents: Data(json.utf8)))
      let run = sandbox.call("import", file, extra: P.berlin)
      #expect(run.status == 1)
      #expect(
        run.stderr
          == "checklists: bad.json: list 1 (\"Trips\"), item 1: \"repeat\" should be a rule such "
          + "as \"weekly\" or \"every 2 weeks\" but is \"hourly\"\n")
      #expect(sandbox.bytes() == before)
      let shown = sandbox.call("show", "Home", "--json", extra: P.berlin)
      let list = try #require(
        try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
      let items = try #require(list["items"] as? [[String: Any]])
      #expect(items[0]["repeat"] as? String == "weekly")
      #expect(items[0]["note"] as? String == "The fern by the window")
    }

    @Test func repeatNeedsADueDateAndARuleItKnows() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(P.lists())
      let before = sandbox.bytes()
      let undated = sandbox.call("add", "Home", "Stretch", "--repeat", "daily", extra: P.berlin)
      #expect(undated.status == 2)
      #expect(undated.stderr.contains("--repeat needs a due date"))
      let bad = sandbox.call(
        "edit", "Home", "Bins", "--repeat", "every 3 hours", extra: P.berlin)
      #expect(bad.status == 2)
      #expect(bad.stderr.contains("--repeat takes daily, weekdays, weekly"))
      #expect(sandbox.bytes() == before)
      let none = sandbox.call("edit", "Home", "1", "--repeat", "none", extra: P.berlin)
      #expect(none.stdout == "Updated \"Water plants\" in Home: no repeat.\n")
      #expect(try sandbox.lists()[0].items[0].repeatRule == nil)
    }

    @Test func checkingARepeatingItemMovesItToTheNextTime() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(P.lists())
      let checked = sandbox.call("check", "Home", "Water plants", extra: P.berlin)
      #expect(checked.status == 0)
      #expect(
        checked.stdout
          == "Done \"Water plants\" in Home; next due Tue 8 Dec 2026, 09:00.\n")
      let item = try sandbox.lists()[0].items[0]
      #expect(!item.checked)
      #expect(item.dueDate == P.utc("2026-12-08T08:00:00Z"))
      // A plain item is simply checked.
      let plain = sandbox.call("check", "Home", "Bins", extra: P.berlin)
      #expect(plain.stdout == "Checked \"Bins\" in Home.\n")
    }

    @Test func moveTakesAnItemToAnotherList() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(P.lists())
      let moved = sandbox.call("mv", "home", "1", "Work", extra: P.berlin)
      #expect(moved.status == 0)
      #expect(moved.stdout == "Moved \"Water plants\" from Home to Work (item 4).\n")
      let lists = try sandbox.lists()
      #expect(lists[0].items.map(\.text) == ["Dishes", "Bins"])
      #expect(lists[1].items.map(\.text) == ["Report", "Café order", "Slides", "Water plants"])
      #expect(lists[1].items[3].repeatRule == .weekly)
      #expect(lists[1].items[3].itemID == 1)
      let same = sandbox.call("mv", "Work", "Report", "Work", extra: P.berlin)
      #expect(same.status == 1)
      #expect(same.stderr == "checklists: \"Report\" is already in Work\n")
      let missing = sandbox.call("mv", "Work", "Report", "Nowhere", extra: P.berlin)
      #expect(missing.status == 1)
      #expect(missing.stderr.contains("no list \"Nowhere\""))
    }

    @Test func clearDeletesCheckedItems() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(P.lists())
      let cleared = sandbox.call("clear", "Work", extra: P.berlin)
      #expect(cleared.status == 0)
      #expect(cleared.stdout == "Cleared 1 checked item from Work.\n")
      #expect(try sandbox.lists()[1].items.map(\.text) == ["Report", "Café order"])
      let again = sandbox.call("clear", "Work", extra: P.berlin)
      #expect(again.status == 0)
      #expect(again.stdout == "Work has no checked items.\n")
    }

    @Test func todayListsOverdueAndTodaysItemsWithExitStatusAsDue() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(P.lists())
      let today = sandbox.call("today", extra: P.berlin)
      #expect(today.status == 0)
      #expect(
        today.stdout
          == [
            "Work  Report  Mon 30 Nov 2026, 10:00 (26 h ago)",
            "Home  Water plants  Tue 1 Dec 2026, 09:00 (3 h ago, repeats weekly)",
          ].lines)
      let json = sandbox.call("today", "--json", extra: P.berlin)
      let rows = try #require(
        try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
      #expect(rows.map { $0["text"] as? String } == ["Report", "Water plants"])
      #expect(rows[1]["repeat"] as? String == "weekly")
      #expect(rows[1]["note"] as? String == "The fern by the window")
      #expect(rows[0]["overdue"] as? Bool == true)
      // In New York it is 06:00 on Tuesday: the same two.
      let newYork = sandbox.call(
        "today", extra: ["CHECKLISTS_NOW": "2026-12-01T11:00:00Z", "TZ": "America/New_York"])
      #expect(newYork.stdout.components(separatedBy: "\n").count == 3)
      // Nothing due: exit 1, nothing printed.
      let empty = CLITestSandbox()
      defer { empty.remove() }
      try empty.writeData([Checklist(name: "L", items: [ChecklistItem(text: "a", itemID: 1)])])
      let none = try empty.run("today", extra: P.berlin)
      #expect(none.status == 1)
      #expect(none.stdout.isEmpty)
    }

    @Test func searchFindsTextAndNotesInAnyCaseAndAccentGroupedByList() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(P.lists())
      let found = sandbox.call("search", "CAFE", extra: P.berlin)
      #expect(found.status == 0)
      #expect(found.stdout == ["Work", "  2. [ ] Café order"].lines)
      let inNotes = sandbox.call("search", "o", extra: P.berlin)
      #expect(
        inNotes.stdout
          == [
            "Home", "  1. [ ] Water plants  — The fern by the window", "Work", "  1. [ ] Report",
            "  2. [ ] Café order",
          ].lines)
      let noteOnly = sandbox.call("search", "sugar", extra: P.berlin)
      #expect(noteOnly.stdout == ["Work", "  2. [ ] Café order  — no sugar"].lines)
      let json = sandbox.call("search", "fern", "--json", extra: P.berlin)
      let groups = try #require(
        try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
      #expect(groups.count == 1)
      #expect(groups[0]["list"] as? String == "Home")
      let items = try #require(groups[0]["items"] as? [[String: Any]])
      #expect(items[0]["index"] as? Int == 1)
      #expect(items[0]["text"] as? String == "Water plants")
      let none = sandbox.call("search", "zebra", extra: P.berlin)
      #expect(none.status == 1)
      #expect(none.stdout.isEmpty)
      let blank = sandbox.call("search", " ", extra: P.berlin)
      #expect(blank.status == 2)
    }
  }
}
