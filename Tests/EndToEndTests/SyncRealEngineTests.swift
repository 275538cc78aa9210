import ChecklistsCore
import ChecklistsTestSupport
import Foundation
import Testing

/// An iOS-like task as a phone would PUT it: an alarm with Apple's extra lines, a sort order,
/// categories and a repeat rule we cannot express.
func iosTask(uid: String, summary: String, status: String = "NEEDS-ACTION") -> String {
  """
  BEGIN:VCALENDAR\r
  VERSION:2.0\r
  PRODID:-//Apple Inc.//iOS 18.1//EN\r
  BEGIN:VTODO\r
  UID:\(uid)\r
  DTSTAMP:20261130T101500Z\r
  CREATED:20261130T101400Z\r
  SUMMARY:\(summary)\r
  STATUS:\(status)\r
  DUE:20261224T170000Z\r
  CATEGORIES:Errands,Home\r
  RRULE:FREQ=WEEKLY;BYDAY=SA\r
  X-APPLE-SORT-ORDER:684000000\r
  BEGIN:VALARM\r
  X-WR-ALARMUID:\(uid)-ALARM\r
  UID:\(uid)-ALARM\r
  TRIGGER;VALUE=DATE-TIME:20261224T170000Z\r
  ACTION:DISPLAY\r
  DESCRIPTION:Reminder\r
  X-APPLE-DEFAULT-ALARM:FALSE\r
  END:VALARM\r
  END:VTODO\r
  END:VCALENDAR\r

  """
}

/// A stored item's unfolded lines (Radicale re-serialises what it stores, so compare lines).
func storedLines(_ text: String?) -> [String] {
  var lines: [String] = []
  for raw in (text ?? "").replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n") {
    if raw.hasPrefix(" ") || raw.hasPrefix("\t"), !lines.isEmpty {
      lines[lines.count - 1] += raw.dropFirst()
    } else {
      lines.append(String(raw))
    }
  }
  return lines
}

extension ServerAndCLIProcesses {
  @Suite("Sync: against real Radicale, vdirsyncer and todoman", .serialized)
  struct SyncRealEngineTests {
    @Test func listsAndItemsTravelBothWaysThroughRadicale() throws {
      let rig = try SyncRig()
      try rig.startServer()
      // Made here: a list with a dated reminder and a plain item.
      try #require(rig.sandbox.run("new-list", "Groceries").status == 0)
      try #require(
        rig.sandbox.run("add", "Groceries", "Milk", "--due", "2026-12-24 18:00", "--remind").status
          == 0)
      try #require(rig.sandbox.run("add", "Groceries", "Bread").status == 0)
      // Made on the phone: a VTODO-only task list.
      try rig.makeTaskList("phone", displayName: "Phone list")
      try rig.dav("PUT", "phone/p1.ics", body: iosTask(uid: "IOS-2", summary: "Call mum"))
      let first = try rig.firstRound()
      #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
      #expect(try rig.lists()["Phone list"] == ["[ ] Call mum"])
      try rig.vdirsyncer("sync")
      let groceriesFolder = try #require(
        rig.serverCollections().first {
          rig.serverItems($0).values.contains { $0.contains("SUMMARY:Milk") }
        })
      #expect(rig.serverItems(groceriesFolder).count == 2)

      // The phone adds an item with foreign properties and completes Bread.
      let (put, putBody) = try rig.dav(
        "PUT", "\(groceriesFolder)/ios-1.ics", body: iosTask(uid: "IOS-1", summary: "Eggs"))
      #expect(put == 201, "\(putBody)")
      let breadName = try #require(
        rig.serverItems(groceriesFolder).first { $0.value.contains("SUMMARY:Bread") }?.key)
      let breadText = try #require(rig.serverItems(groceriesFolder)[breadName])
      let completed = breadText.replacingOccurrences(
        of: "STATUS:NEEDS-ACTION", with: "STATUS:COMPLETED")
      #expect(try rig.dav("PUT", "\(groceriesFolder)/\(breadName)", body: completed).0 / 100 == 2)
      try rig.dav("PUT", "phone/p2.ics", body: iosTask(uid: "IOS-3", summary: "Book dentist"))
      let second = try rig.round()
      #expect(second.status == 0, "\(second.stdout)\(second.stderr)")
      #expect(try rig.lists()["Groceries"] == ["[ ] Milk", "[x] Bread", "[ ] Eggs"])
      #expect(try rig.lists()["Phone list"] == ["[ ] Call mum", "[ ] Book dentist"])

      // Different fields of Eggs on each side: both kept. Same field of Milk: ours kept, the
      // phone's in the conflict log, nothing silently lost.
      func serverItem(_ summary: String) throws -> (String, String) {
        let found = try #require(
          rig.serverItems(groceriesFolder).first {
            storedLines($0.value).contains("SUMMARY:\(summary)")
          })
        return (found.key, found.value)
      }
      let (eggsName, eggsText) = try serverItem("Eggs")
      #expect(
        try rig.dav(
          "PUT", "\(groceriesFolder)/\(eggsName)",
          body: eggsText.replacingOccurrences(of: "SUMMARY:Eggs", with: "SUMMARY:Free-range eggs")
        ).0 / 100 == 2)
      let (milkName, milkText) = try serverItem("Milk")
      #expect(
        try rig.dav(
          "PUT", "\(groceriesFolder)/\(milkName)",
          body: milkText.replacingOccurrences(of: "SUMMARY:Milk", with: "SUMMARY:Soy milk")
        ).0 / 100 == 2)
      try #require(rig.sandbox.run("check", "Groceries", "Eggs").status == 0)
      try #require(rig.sandbox.run("edit", "Groceries", "Milk", "--text", "Oat milk").status == 0)
      let third = try rig.round()
      #expect(third.status == 1, "a conflict needs the user: \(third.stdout)\(third.stderr)")
      #expect(third.stdout.contains("1 conflict"))
      #expect(third.stderr.contains("Soy milk"))
      #expect(try rig.lists()["Groceries"] == ["[ ] Oat milk", "[x] Bread", "[x] Free-range eggs"])
      let log = try String(contentsOfFile: rig.sandbox.dataFile + ".conflicts.log", encoding: .utf8)
      #expect(log.contains("Soy milk"))
      let eggsOnServer = storedLines(try serverItem("Free-range eggs").1)
      #expect(eggsOnServer.contains("STATUS:COMPLETED"))
      #expect(storedLines(try serverItem("Oat milk").1).contains("SUMMARY:Oat milk"))
      // The foreign properties survived our edits, on the server.
      for kept in [
        "CATEGORIES:Errands,Home", "RRULE:FREQ=WEEKLY;BYDAY=SA", "X-WR-ALARMUID:IOS-1-ALARM",
        "X-APPLE-DEFAULT-ALARM:FALSE", "X-APPLE-SORT-ORDER:684000000",
      ] {
        #expect(eggsOnServer.contains(kept), "lost on the server: \(kept)")
      }
      #expect(eggsOnServer.contains { $0.hasPrefix("TRIGGER;VALUE=DATE-TIME:20261224T170000Z") })

      // A delete on either side.
      #expect(try rig.dav("DELETE", "\(groceriesFolder)/\(breadName)").0 / 100 == 2)
      try #require(rig.sandbox.run("rm", "Phone list", "Call mum").status == 0)
      let fourth = try rig.round()
      #expect(fourth.status == 0, "\(fourth.stdout)\(fourth.stderr)")
      #expect(try rig.lists()["Groceries"] == ["[ ] Oat milk", "[x] Free-range eggs"])
      #expect(try rig.lists()["Phone list"] == ["[ ] Book dentist"])
      #expect(rig.serverItems("phone").count == 1)
      #expect(rig.serverItems(groceriesFolder).count == 2)

      // Notes and repeats. Made here: a weekly item with a note, a monthly one on the 31st.
      try #require(
        rig.sandbox.run(
          "add", "Groceries", "Plants", "--due", "2026-12-03 09:00", "--repeat", "weekly",
          "--note", "Water, then feed;\nnot the cactus \\ ever"
        ).status == 0)
      try #require(
        rig.sandbox.run(
          "add", "Groceries", "Rent", "--due", "2027-01-31 09:00", "--repeat", "monthly"
        )
        .status == 0)
      // Made on the phone: a note and a daily rule; and a rule we cannot express.
      try rig.dav(
        "PUT", "\(groceriesFolder)/ios-4.ics",
        body: iosTask(uid: "IOS-4", summary: "Feed cat").replacingOccurrences(
          of: "RRULE:FREQ=WEEKLY;BYDAY=SA\r\n",
          with:
            "DTSTART:20261224T170000Z\r\nRRULE:FREQ=DAILY\r\nDESCRIPTION:Half a tin\\, no more\r\n")
      )
      try rig.dav(
        "PUT", "\(groceriesFolder)/ios-5.ics",
        body: iosTask(uid: "IOS-5", summary: "Bins").replacingOccurrences(
          of: "RRULE:FREQ=WEEKLY;BYDAY=SA", with: "RRULE:FREQ=MONTHLY;BYDAY=2TU"))
      let fifth = try rig.round()
      #expect(fifth.status == 0, "\(fifth.stdout)\(fifth.stderr)")
      let items = try rig.sandbox.lists().flatMap(\.items)
      let cat = try #require(items.first { $0.text == "Feed cat" })
      #expect(cat.note == "Half a tin, no more" && cat.repeatRule == .daily)
      #expect(try #require(items.first { $0.text == "Bins" }).repeatRule == nil)
      try #require(rig.sandbox.run("edit", "Groceries", "Bins", "--text", "Bins out").status == 0)
      let sixth = try rig.round()
      #expect(sixth.status == 0, "\(sixth.stdout)\(sixth.stderr)")
      #expect(storedLines(try serverItem("Bins out").1).contains("RRULE:FREQ=MONTHLY;BYDAY=2TU"))
      // On the server, Python's icalendar reads the note back, and dateutil's RFC 5545 rules
      // give the same next dates as ours (the 31st falls on each month's last day).
      let schedule = RepeatSchedule(timeZone: .utc)
      for summary in ["Plants", "Rent"] {
        let (name, _) = try serverItem(summary)
        let path = rig.root + "/radicale/collection-root/test/\(groceriesFolder)/\(name)"
        let read = try BuiltBinary.run(
          [rig.root + "/occurrences.py", path], environment: rig.environment,
          executablePath: SyncTools.python)
        #expect(read.status == 0, "\(read.stderr)")
        let item = try #require(items.first { $0.text == summary })
        var expected = [item.dueDate]
        var step = item
        for _ in 0..<4 {
          step = try #require(schedule.advanced(step))
          expected.append(step.dueDate)
        }
        let stamps = expected.map { String(Int($0.timeIntervalSince1970)) }
        #expect(read.stdout == ([item.note] + stamps).joined(separator: "\n") + "\n", "\(summary)")
      }

      // Everything we wrote is valid for Python's icalendar; a last round changes nothing.
      #expect(try rig.validate(rig.vdirFiles()) == "")
      try rig.vdirsyncer("sync")
      #expect(try rig.checklists("sync").stdout == "nothing to do, 0 conflicts\n")
    }

    /// A list's icon reaches a second computer (its own data file, vdir and vdirsyncer) through
    /// the server, and an icon changed there comes back; a list made on the phone still has
    /// "No Icon". vdirsyncer's metadata does not carry our `checklists-icon` file, so every
    /// list there was "No Icon".
    @Test func aListsIconReachesASecondComputerThroughTheServer() throws {
      let rig = try SyncRig()
      try rig.startServer()
      try #require(rig.sandbox.run("new-list", "Groceries", "--icon", "Groceries").status == 0)
      try #require(rig.sandbox.run("add", "Groceries", "Milk").status == 0)
      try rig.makeTaskList("phone", displayName: "Phone list")
      try rig.dav("PUT", "phone/p1.ics", body: iosTask(uid: "IOS-3", summary: "Call mum"))
      let first = try rig.firstRound()
      #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
      try rig.vdirsyncer("sync")

      // The second computer: the same vdirsyncer set-up with its own vdir and status.
      var config = try String(contentsOfFile: rig.root + "/vdirsyncer.conf", encoding: .utf8)
      for (first, second) in [
        ("~/.local/share/vdirsyncer/status/", rig.root + "/status2/"),
        ("~/.local/share/vdir/lists/", rig.root + "/vdir2/"),
      ] {
        try #require(config.contains(first), "the documented config lacks \(first)")
        config = config.replacingOccurrences(of: first, with: second)
      }
      try SyncRig.write(rig.root + "/vdirsyncer2.conf", config)
      var second = rig.environment
      second["VDIRSYNCER_CONFIG"] = rig.root + "/vdirsyncer2.conf"
      second["CHECKLISTS_VDIR"] = rig.root + "/vdir2"
      let file2 = rig.root + "/second/Checklists.plist"
      func run(_ executable: String, _ arguments: [String]) throws -> ProcessResult {
        let result = try BuiltBinary.run(
          arguments, environment: second, executablePath: executable)
        try #require(result.status == 0, "\(arguments): \(result.stdout)\(result.stderr)")
        return result
      }
      func icons() throws -> [String: String] {
        let export = try BuiltBinary.run(["--file", file2, "export"], environment: second)
        let lists = try #require(
          try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [[String: Any]])
        var result: [String: String] = [:]
        for list in lists {
          if let name = list["name"] as? String { result[name] = list["iconName"] as? String }
        }
        return result
      }
      _ = try run("/bin/sh", ["-c", "yes | \(SyncTools.vdirsyncer) discover"])
      _ = try run(SyncTools.vdirsyncer, ["metasync"])
      _ = try run(SyncTools.vdirsyncer, ["sync"])
      _ = try BuiltBinary.run(["--file", file2, "sync", "--init"], environment: second)
      #expect(try icons() == ["Groceries": "Groceries", "Phone list": "No Icon"])

      // Changed on the second computer: the first gets it through the server.
      _ = try BuiltBinary.run(
        ["--file", file2, "edit-list", "Groceries", "--icon", "Trips"], environment: second)
      _ = try BuiltBinary.run(["--file", file2, "sync"], environment: second)
      _ = try run(SyncTools.vdirsyncer, ["sync"])
      let back = try rig.round()
      #expect(back.status == 0, "\(back.stderr)")
      #expect(try rig.sandbox.lists().map(\.iconName).sorted() == ["No Icon", "Trips"])
      // Nothing else moved: the phone's task was not rewritten to carry an icon.
      let phone = rig.serverItems("phone").values.joined()
      #expect(!phone.contains("X-CHECKLISTS-ICON"))
      #expect(try rig.checklists("sync").stdout == "nothing to do, 0 conflicts\n")
    }

    @Test func todomanReadsOurVdirAndItsCompletionComesBack() throws {
      let rig = try SyncRig()
      try #require(rig.sandbox.run("new-list", "Work").status == 0)
      try #require(rig.sandbox.run("add", "Work", "Write report, part 1; draft").status == 0)
      try #require(
        rig.sandbox.run("add", "Work", "Send invoice", "--due", "2026-12-20 09:00").status == 0)
      let sync = try rig.checklists("sync")
      #expect(sync.status == 0, "\(sync.stderr)")
      #expect(try rig.validate(rig.vdirFiles()) == "")
      try SyncRig.write(
        rig.root + "/config/todoman/config.py",
        """
        path = "\(rig.vdir)/*"
        cache_path = "\(rig.root)/todoman-cache.sqlite3"
        date_format = "%Y-%m-%d"
        time_format = "%H:%M"
        default_list = "Work"

        """)
      let todoman = { (arguments: [String]) throws -> ProcessResult in
        try BuiltBinary.run(
          arguments, environment: rig.environment, executablePath: SyncTools.todoman)
      }
      let listed = try todoman(["--porcelain", "list"])
      #expect(listed.status == 0, "\(listed.stderr)")
      let tasks = try #require(
        try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
      let summaries = Set(tasks.compactMap { $0["summary"] as? String })
      #expect(summaries == ["Write report, part 1; draft", "Send invoice"])
      let invoice = try #require(tasks.first { ($0["summary"] as? String) == "Send invoice" })
      let id = try #require(invoice["id"] as? Int)
      let done = try todoman(["done", String(id)])
      #expect(done.status == 0, "\(done.stderr)")
      let back = try rig.checklists("sync")
      #expect(back.status == 0, "\(back.stderr)")
      #expect(back.stdout.contains("1 changed from the vdir"))
      #expect(try rig.lists()["Work"] == ["[ ] Write report, part 1; draft", "[x] Send invoice"])
      #expect(try rig.validate(rig.vdirFiles()) == "")
    }

    @Test func theVdirComesFromTheOptionTheEnvironmentOrTheConfigFile() throws {
      let rig = try SyncRig()
      try #require(rig.sandbox.run("new-list", "Work").status == 0)
      try #require(rig.sandbox.run("add", "Work", "Plan").status == 0)
      var environment = rig.environment
      environment["CHECKLISTS_VDIR"] = nil
      // None given: a usage error that says how to give one.
      let none = try BuiltBinary.run(["sync"], environment: environment)
      #expect(none.status == 2)
      #expect(none.stderr.contains("set vdir = PATH"))
      // The config file's `set vdir` (with ~), reported as JSON by a dry run.
      try SyncRig.write(
        rig.root + "/config/checklists/config", "# sync\nset vdir = ~/.local/share/vdir/lists\n")
      let dry = try BuiltBinary.run(["sync", "--dry-run", "--json"], environment: environment)
      #expect(dry.status == 0, "\(dry.stderr)")
      let report = try #require(
        try JSONSerialization.jsonObject(with: Data(dry.stdout.utf8)) as? [String: Any])
      #expect(report["dryRun"] as? Bool == true)
      #expect(report["newHere"] as? Int == 1)
      #expect(report["summary"] as? String == "1 new list here, 1 new here, 0 conflicts")
      #expect(rig.vdirFiles().isEmpty, "a dry run writes nothing")
      // A vdir that does not exist is refused, wherever it was named, and not made: a typo
      // in a path made a new folder and filled it with every list.
      try SyncRig.write(rig.root + "/config/checklists/config", "set vdir = ~/vdri\n")
      let typo = try BuiltBinary.run(["sync"], environment: environment)
      #expect(typo.status == 2, "\(typo.stdout)\(typo.stderr)")
      #expect(typo.stderr.contains("the vdir ~/vdri does not exist"), "\(typo.stderr)")
      #expect(typo.stderr.contains("checklists sync --init"), "\(typo.stderr)")
      #expect(typo.stdout.isEmpty)
      #expect(!FileManager.default.fileExists(atPath: rig.root + "/vdri"))
      // --vdir wins over the environment, which wins over the config file; --init makes it.
      let other = rig.root + "/new/other"
      environment["CHECKLISTS_VDIR"] = rig.root + "/from-environment"
      let refused = try BuiltBinary.run(["sync", "--vdir", other], environment: environment)
      #expect(refused.status == 2, "\(refused.stderr)")
      #expect(refused.stderr.contains("the vdir ~/new/other does not exist"), "\(refused.stderr)")
      #expect(!FileManager.default.fileExists(atPath: rig.root + "/new"))
      let synced = try BuiltBinary.run(
        ["sync", "--vdir", other, "--init"], environment: environment)
      #expect(synced.status == 0, "\(synced.stderr)")
      #expect(FileManager.default.fileExists(atPath: other))
      #expect(!FileManager.default.fileExists(atPath: rig.root + "/from-environment"))
      #expect(rig.vdirFiles().isEmpty)
    }
  }
}
