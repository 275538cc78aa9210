import ChecklistsCore
import ChecklistsTestSupport
import Foundation
import Testing

extension ServerAndCLIProcesses {
  /// Subtasks, priorities and tags through Radicale and vdirsyncer: made here, they reach the
  /// phone as `RELATED-TO;RELTYPE=PARENT`, `PRIORITY` and `CATEGORIES`; the phone's (as
  /// tasks.org and Nextcloud write them) arrive here; Python's icalendar reads every file and
  /// todoman shows the priorities and categories.
  @Suite("Sync: subtasks, priorities and tags through the server", .serialized)
  struct SyncOutlineRigTests {
    static func uid(_ lines: [String]?) -> String? {
      lines?.first { $0.hasPrefix("UID:") }.map { String($0.dropFirst(4)) }
    }

    @Test func subtasksPrioritiesAndTagsGoBothWays() throws {
      let rig = try SyncRig()
      try rig.startServer()
      try #require(rig.sandbox.run("new-list", "Home").status == 0)
      let added = [
        try rig.sandbox.run("add", "Home", "Move house", "--priority", "high", "--tag", "Home"),
        try rig.sandbox.run(
          "add", "Home", "Book van", "--under", "Move house", "--priority", "medium", "--tag",
          "Calls", "--tag", "Urgent"),
        try rig.sandbox.run("add", "Home", "Water plants", "--priority", "low"),
      ]
      for result in added { try #require(result.status == 0, "\(result.stderr)") }
      let first = try rig.firstRound()
      try #require(first.status == 0, "\(first.stdout)\(first.stderr)")
      try rig.vdirsyncer("sync")
      try rig.startPhone()

      // Made here, on the phone.
      var phone = rig.phoneTasks()
      let parentUID = try #require(Self.uid(phone["Move house"]))
      let van = try #require(phone["Book van"])
      #expect(van.contains("RELATED-TO;RELTYPE=PARENT:" + parentUID), "\(van)")
      #expect(van.contains("PRIORITY:5"))
      #expect(van.contains("CATEGORIES:Calls,Urgent"))
      #expect(phone["Move house"]?.contains("PRIORITY:1") == true)
      #expect(phone["Move house"]?.contains("CATEGORIES:Home") == true)
      #expect(phone["Water plants"]?.contains("PRIORITY:9") == true)

      // The phone's: a parent and a subtask as tasks.org writes them (no RELTYPE is a parent;
      // PRIORITY 3; two CATEGORIES lines), a subtask of a task in no list here, and a change
      // of the priority on "Water plants" to tasks.org's 7.
      let folder = try #require(
        rig.phoneFiles()["Move house"].map { ($0 as NSString).deletingLastPathComponent })
      try SyncRig.write(
        folder + "/ph-1.ics",
        Self.phoneTask(uid: "ph-1", summary: "Pack", lines: ["PRIORITY:0"]))
      try SyncRig.write(
        folder + "/ph-2.ics",
        Self.phoneTask(
          uid: "ph-2", summary: "Socks",
          lines: [
            "RELATED-TO:ph-1", "PRIORITY:3", "CATEGORIES:Clothes,Bag", "CATEGORIES:Travel",
          ]))
      try SyncRig.write(
        folder + "/ph-3.ics",
        Self.phoneTask(
          uid: "ph-3", summary: "Tickets",
          lines: ["RELATED-TO;RELTYPE=PARENT:elsewhere", "RELATED-TO;RELTYPE=SIBLING:ph-1"]))
      try rig.phoneEdit("Water plants", stamp: "20261207T100000Z") { lines in
        lines = lines.map { $0 == "PRIORITY:9" ? "PRIORITY:7" : $0 }
      }
      try rig.phoneSync()
      let round = try rig.round()
      #expect(round.status == 0, "\(round.stdout)\(round.stderr)")
      let home = try #require(try rig.sandbox.lists().first { $0.name == "Home" })
      let pack = try #require(home.items.first { $0.text == "Pack" })
      let socks = try #require(home.items.first { $0.text == "Socks" })
      #expect(socks.parentItemID == pack.itemID)
      #expect(socks.priority == 3 && socks.priorityLevel == .high)
      #expect(socks.tags == ["Clothes", "Bag", "Travel"])
      #expect(home.items.first { $0.text == "Tickets" }?.parentItemID == nil)
      #expect(home.items.first { $0.text == "Water plants" }?.priority == 7)
      let shown = try rig.sandbox.run("show", "Home")
      #expect(shown.stdout.contains(".   [ ] !!! Socks #Clothes #Bag #Travel\n"), "\(shown.stdout)")

      // Edited here: the subtask's tags and a level; the orphan's text. The phone's lines
      // that did not change stay as they were.
      let edits = [
        try rig.sandbox.run("edit", "Home", "Socks", "--untag", "Bag"),
        try rig.sandbox.run("edit", "Home", "Water plants", "--priority", "medium"),
        try rig.sandbox.run("edit", "Home", "Tickets", "--text", "Train tickets"),
      ]
      for result in edits { try #require(result.status == 0, "\(result.stderr)") }
      let again = try rig.round()
      #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
      try rig.phoneSync()
      phone = rig.phoneTasks()
      let phoneSocks = try #require(phone["Socks"])
      #expect(phoneSocks.contains("CATEGORIES:Clothes,Travel"), "\(phoneSocks)")
      #expect(phoneSocks.filter { $0.hasPrefix("CATEGORIES") }.count == 1)
      #expect(phoneSocks.contains("PRIORITY:3"))
      #expect(phoneSocks.contains("RELATED-TO:ph-1"))
      #expect(phone["Water plants"]?.contains("PRIORITY:5") == true)
      let tickets = try #require(phone["Train tickets"])
      #expect(tickets.contains("RELATED-TO;RELTYPE=PARENT:elsewhere"))
      #expect(tickets.contains("RELATED-TO;RELTYPE=SIBLING:ph-1"))

      let files = Array(rig.phoneFiles().values) + rig.vdirFiles()
      #expect(try rig.validate(files) == "")

      // todoman reads our vdir: the priorities, and the categories it filters by.
      try SyncRig.write(
        rig.root + "/config/todoman/config.py",
        """
        path = "\(rig.vdir)/*"
        cache_path = "\(rig.root)/todoman-cache.sqlite3"
        date_format = "%Y-%m-%d"
        time_format = "%H:%M"
        default_list = "Home"

        """)
      let todoman = { (arguments: [String]) throws -> ProcessResult in
        try BuiltBinary.run(
          arguments, environment: rig.environment, executablePath: SyncTools.todoman)
      }
      let listed = try todoman(["--porcelain", "list"])
      #expect(listed.status == 0, "\(listed.stderr)")
      let tasks = try #require(
        try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
      var priorities: [String: Int] = [:]
      for task in tasks {
        if let summary = task["summary"] as? String {
          priorities[summary] = task["priority"] as? Int
        }
      }
      #expect(priorities["Move house"] == 1)
      #expect(priorities["Book van"] == 5)
      #expect(priorities["Socks"] == 3)
      #expect(priorities["Water plants"] == 5)
      let compact = try todoman(["list"])
      #expect(compact.status == 0, "\(compact.stderr)")
      #expect(
        compact.stdout.split(separator: "\n").contains {
          $0.contains("!!! ") && $0.contains("Move house")
        })
      let travel = try todoman(["--porcelain", "list", "--category", "Travel"])
      let travelTasks = try #require(
        try JSONSerialization.jsonObject(with: Data(travel.stdout.utf8)) as? [[String: Any]])
      #expect(travelTasks.compactMap { $0["summary"] as? String } == ["Socks"])
      let urgent = try todoman(["--porcelain", "list", "--category", "Urgent"])
      let urgentTasks = try #require(
        try JSONSerialization.jsonObject(with: Data(urgent.stdout.utf8)) as? [[String: Any]])
      #expect(urgentTasks.compactMap { $0["summary"] as? String } == ["Book van"])

      // Nothing more to write at the next round.
      let before = rig.phoneTasks()
      let quiet = try rig.round()
      #expect(quiet.status == 0)
      #expect(quiet.stdout == "nothing to do, 0 conflicts\n", "\(quiet.stdout)")
      try rig.phoneSync()
      #expect(rig.phoneTasks() == before)
    }

    /// A task as tasks.org writes it, CRLF ends, with `lines` before END:VTODO.
    static func phoneTask(uid: String, summary: String, lines: [String]) -> String {
      ([
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:+//IDN tasks.org//android-140101//EN",
        "BEGIN:VTODO", "UID:" + uid, "DTSTAMP:20261207T090000Z", "CREATED:20261207T090000Z",
        "LAST-MODIFIED:20261207T090000Z", "SUMMARY:" + summary, "STATUS:NEEDS-ACTION",
      ] + lines + ["END:VTODO", "END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
    }
  }
}
