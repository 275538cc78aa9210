import ChecklistsCore
import ChecklistsTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A time written as iCalendar's UTC form, e.g. "20261205T120000Z".
func utcDate(_ text: String) throws -> Date {
  let formatter = DateFormatter()
  formatter.locale = Locale(identifier: "en_US_POSIX")
  formatter.timeZone = TimeZone(identifier: "UTC")
  formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
  return try #require(formatter.date(from: text), "not a UTC time: \(text)")
}

/// Inserts a line into a task's VTODO (before its first alarm or its end).
func insertIntoTodo(_ line: String, _ lines: inout [String]) {
  let index =
    lines.firstIndex { $0 == "BEGIN:VALARM" } ?? lines.firstIndex { $0 == "END:VTODO" }
    ?? lines.count
  lines.insert(line, at: index)
}

extension ServerAndCLIProcesses {
  /// A laptop (our data file, its vdir and the documented vdirsyncer config) and a phone (a
  /// second vdir and vdirsyncer) on one real Radicale: each interleaving of edits keeps every
  /// change, with vdirsyncer calling `checklists sync-merge` on its conflicts.
  @Suite("Sync: conflicts between the laptop and the phone", .serialized)
  struct SyncConflictTests {
    /// A rig with "Groceries" (Cheddar, Bread, Butter, Jam) synced to the server and the
    /// phone.
    static func groceries() throws -> SyncRig {
      let rig = try SyncRig()
      try rig.startServer()
      try #require(rig.sandbox.run("new-list", "Groceries").status == 0)
      for text in ["Cheddar", "Bread", "Butter", "Jam"] {
        try #require(rig.sandbox.run("add", "Groceries", text).status == 0)
      }
      let first = try rig.firstRound()
      try #require(first.status == 0, "\(first.stdout)\(first.stderr)")
      try rig.vdirsyncer("sync")
      try rig.startPhone()
      try #require(Set(rig.phoneTasks().keys) == ["Cheddar", "Bread", "Butter", "Jam"])
      return rig
    }

    @Test func everyInterleavingKeepsEachSidesChanges() throws {
      let rig = try Self.groceries()
      let conflictLog = rig.sandbox.dataFile + ".conflicts.log"

      // The issue's case: the phone sets a due date, this computer checks the item and writes
      // it to the vdir at once (as the app does at a save), then the documented cron line.
      try rig.phoneEdit("Cheddar", stamp: "20261204T080000Z") {
        insertIntoTodo("DUE:20261205T120000Z", &$0)
      }
      try rig.phoneSync()
      try #require(rig.sandbox.run("check", "Groceries", "Cheddar").status == 0)
      try #require(try rig.checklists("sync").status == 0)
      let cron = try rig.documentedCronLine()
      #expect(cron.status == 0, "\(cron.stdout)\(cron.stderr)")
      #expect(cron.stderr.contains("Doing conflict resolution"), "vdirsyncer met the conflict")
      let due = try utcDate("20261205T120000Z")
      #expect(
        try rig.item("Cheddar")
          == ChecklistItemSnapshot(text: "Cheddar", checked: true, due: due, note: ""))
      try rig.phoneSync()
      let cheddar = try #require(rig.phoneTasks()["Cheddar"])
      #expect(cheddar.contains("STATUS:COMPLETED") && cheddar.contains("DUE:20261205T120000Z"))
      #expect(!FileManager.default.fileExists(atPath: conflictLog), "no conflict was logged")

      // The same field on both sides: the vdir's value everywhere, the phone's in the log,
      // said by sync-merge (within vdirsyncer's output) and by the next pass, which exits 1.
      try rig.phoneEdit("Bread", stamp: "20261204T081000Z") {
        $0 = $0.map { $0 == "SUMMARY:Bread" ? "SUMMARY:Sourdough" : $0 }
      }
      try rig.phoneSync()
      try #require(
        rig.sandbox.run("edit", "Groceries", "Bread", "--text", "Rye bread").status == 0)
      try #require(try rig.checklists("sync").status == 0)
      let engine = try BuiltBinary.run(
        ["sync"], environment: rig.environment, executablePath: SyncTools.vdirsyncer)
      #expect(engine.status == 0, "\(engine.stderr)")
      #expect(engine.stderr.contains("kept \"Rye bread\" from the vdir"), "\(engine.stderr)")
      let told = try rig.checklists("sync")
      #expect(told.status == 1, "\(told.stdout)\(told.stderr)")
      #expect(told.stderr.contains("\"Sourdough\""), "\(told.stderr)")
      #expect(told.stdout.contains("1 conflict"))
      try rig.vdirsyncer("sync")
      #expect(try rig.checklists("sync").status == 0, "told once")
      try rig.phoneSync()
      #expect(rig.phoneTasks()["Rye bread"] != nil && rig.phoneTasks()["Sourdough"] == nil)
      let log = try String(contentsOfFile: conflictLog, encoding: .utf8)
      #expect(log.contains("\"Sourdough\"") && log.contains("Rye bread"), "\(log)")

      // Deleted on the phone, changed here: it stays, changed, on every side.
      try rig.phoneDelete("Butter")
      try rig.phoneSync()
      try #require(
        rig.sandbox.run("edit", "Groceries", "Butter", "--text", "Salted butter").status == 0)
      try #require(try rig.checklists("sync").status == 0)
      try rig.documentedCronLine()
      // Deleted here, changed on the phone: it comes back with the phone's change.
      try rig.phoneEdit("Jam", stamp: "20261204T082000Z") {
        insertIntoTodo("DESCRIPTION:Apricot\\, not strawberry", &$0)
      }
      try rig.phoneSync()
      try #require(rig.sandbox.run("rm", "Groceries", "Jam").status == 0)
      try #require(try rig.checklists("sync").status == 0)
      try rig.documentedCronLine()
      try rig.documentedCronLine()
      #expect(try rig.item("Salted butter").text == "Salted butter")
      #expect(try rig.item("Jam").note == "Apricot, not strawberry")

      // New on both sides: each arrives once. The same text added on both sides is one item
      // when both reach the same pass; two when this computer wrote its own to the vdir first.
      try rig.phoneAdd(uid: "PHONE-APPLES", summary: "Apples", beside: "Cheddar")
      try rig.phoneAdd(uid: "PHONE-FIGS", summary: "Figs", beside: "Cheddar")
      try rig.phoneAdd(uid: "PHONE-PLUMS", summary: "Plums", beside: "Cheddar")
      try rig.phoneSync()
      for text in ["Plums", "Pears", "Figs"] {
        try #require(rig.sandbox.run("add", "Groceries", text).status == 0)
        // Plums reaches the vdir before the phone's does (the app open would do the same).
        if text == "Plums" { try #require(try rig.checklists("sync").status == 0) }
      }
      let round = try rig.documentedCronLine()
      #expect(round.status == 0, "\(round.stdout)\(round.stderr)")
      try rig.documentedCronLine()
      let texts = try rig.sandbox.lists().flatMap(\.items).map(\.text)
      for text in ["Apples", "Pears", "Figs"] {
        #expect(texts.filter { $0 == text }.count == 1, "\(text): \(texts)")
      }
      #expect(texts.filter { $0 == "Plums" }.count == 2, "\(texts)")
      try rig.phoneSync()
      let phone = rig.phoneTasks()
      #expect(
        Set(phone.keys)
          == ["Cheddar", "Rye bread", "Salted butter", "Jam", "Apples", "Pears", "Figs", "Plums"])
      #expect(try rig.validate(rig.vdirFiles()) == "")
      #expect(try rig.checklists("sync").stdout == "nothing to do, 0 conflicts\n")
    }

    /// A task `checklists sync` never recorded has no base: sync-merge refuses, vdirsyncer
    /// leaves both sides as they are, and once a pass has recorded the task the next
    /// `vdirsyncer sync` merges it. Two tasks, or a file that is no task, are refused too.
    @Test func syncMergeRefusesWhatItCannotMergeSafely() throws {
      let rig = try Self.groceries()
      let folder = try #require(
        try FileManager.default.contentsOfDirectory(atPath: rig.vdir).first {
          !$0.hasPrefix(".")
        })
      let local = rig.vdir + "/" + folder + "/LOCAL-1.ics"
      try SyncRig.write(local, iosTask(uid: "LOCAL-1", summary: "Tea"))
      try rig.vdirsyncer("sync")
      try rig.phoneSync()
      // A property checklists does not map (CATEGORIES are tags, merged as a field).
      try rig.phoneEdit("Tea", stamp: "20261204T090000Z") {
        $0 = $0.flatMap { $0.hasPrefix("SUMMARY:") ? [$0, "LOCATION:Corner shop"] : [$0] }
      }
      try rig.phoneSync()
      try SyncRig.write(
        local,
        iosTask(uid: "LOCAL-1", summary: "Tea").replacingOccurrences(
          of: "SUMMARY:Tea", with: "SUMMARY:Green tea"))
      let refused = try BuiltBinary.run(
        ["sync"], environment: rig.environment, executablePath: SyncTools.vdirsyncer)
      #expect(refused.status != 0)
      #expect(refused.stderr.contains("not in the sync state"), "\(refused.stderr)")
      #expect(try String(contentsOfFile: local, encoding: .utf8).contains("SUMMARY:Green tea"))
      try rig.phoneSync()
      #expect(rig.phoneTasks()["Tea"]?.contains("LOCATION:Corner shop") == true)
      // The documented round: our pass records the task, vdirsyncer merges it.
      try rig.documentedCronLine()
      try rig.documentedCronLine()
      try rig.phoneSync()
      let tea = try #require(rig.phoneTasks()["Green tea"])
      #expect(tea.contains("LOCATION:Corner shop"), "the phone's foreign property stayed: \(tea)")
      #expect(try rig.item("Green tea").text == "Green tea")

      let a = rig.root + "/lists_local"
      let b = rig.root + "/lists_remote"
      try SyncRig.write(a, iosTask(uid: "LOCAL-1", summary: "One"))
      try SyncRig.write(b, iosTask(uid: "OTHER", summary: "Two"))
      let two = try rig.checklists("sync-merge", a, b)
      #expect(two.status == 1 && two.stderr.contains("different tasks"), "\(two.stderr)")
      try SyncRig.write(b, "BEGIN:VCALENDAR\nBEGIN:VTODO\nSUMMARY:broken\n")
      let broken = try rig.checklists("sync-merge", a, b)
      #expect(broken.status == 1 && broken.stderr.contains(b), "\(broken.stderr)")
      #expect(try String(contentsOfFile: a, encoding: .utf8).contains("SUMMARY:One"))
    }

    /// The app open on the laptop, as docs/sync.md suggests: the phone's due date survives the
    /// app's save (which writes the vdir at once) and the documented cron line; a CLI edit while
    /// the app is open and the phone's note on the same item both stay.
    @Test func withTheAppOpenThePhonesEditsSurvive() throws {
      let rig = try Self.groceries()
      let shell = try AppFlowShell()
      defer { shell.close() }
      let session = shell.session
      let environment = rig.environment
      let exports = [
        "HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "CHECKLISTS_VDIR",
      ]
      .map { "\($0)=\(shellQuote(environment[$0] ?? ""))" }
      try session.type("export " + exports.joined(separator: " "))
      try session.sendKeys("Enter")
      try shell.launch(waitingFor: "Groceries")
      try session.sendKeys("Enter")
      try session.waitFor(text: "Butter")

      try rig.phoneEdit("Cheddar", stamp: "20261204T100000Z") {
        insertIntoTodo("DUE:20261205T120000Z", &$0)
      }
      try rig.phoneEdit("Bread", stamp: "20261204T100000Z") {
        insertIntoTodo("DESCRIPTION:Wholemeal", &$0)
      }
      try rig.phoneSync()
      try session.sendKeys("Space")  // check Cheddar
      try session.sendKeys("C-s")
      try session.waitFor(text: "Saved")
      try session.waitUntil("the app wrote Cheddar to the vdir") {
        EndToEndProcesses.SyncAppFlowTests.vdirTasks(rig.vdir)["Cheddar"]?.contains(
          "STATUS:COMPLETED") == true
      }
      try #require(
        rig.sandbox.run("edit", "Groceries", "Bread", "--text", "Bread rolls").status == 0)
      try session.waitFor(text: "Bread rolls")
      let cron = try rig.documentedCronLine()
      #expect(cron.stderr.contains("Doing conflict resolution"), "\(cron.stderr)")
      let due = try utcDate("20261205T120000Z")
      try session.waitUntil("the phone's due date in the data file") {
        (try? rig.item("Cheddar").due) == due
      }
      try rig.documentedCronLine()
      try rig.phoneSync()
      let phone = rig.phoneTasks()
      let cheddar = try #require(phone["Cheddar"])
      #expect(cheddar.contains("STATUS:COMPLETED") && cheddar.contains("DUE:20261205T120000Z"))
      #expect(phone["Bread rolls"]?.contains("DESCRIPTION:Wholemeal") == true, "\(phone)")
      #expect(try shell.quit() == "0")
      #expect(
        try rig.item("Cheddar")
          == ChecklistItemSnapshot(text: "Cheddar", checked: true, due: due, note: ""))
      #expect(try rig.item("Bread rolls").note == "Wholemeal")
      #expect(!FileManager.default.fileExists(atPath: rig.sandbox.dataFile + ".conflicts.log"))
    }

    /// kill -9 of `checklists sync` (20 passes, most killed while running) and of sync-merge
    /// under vdirsyncer (a call in each of 10 rounds or more, most killed while running) at random moments while both sides change the same tasks: after the next full rounds
    /// nothing is lost without a word or duplicated, on any side.
    @Test func killsOfTheSyncAndOfTheConflictCommandLoseNothing() throws {
      let rig = try Self.groceries()
      // vdirsyncer's conflict command, killed after a random delay (in the file merge-delay,
      // 0.1 to 15 ms: before, during and after its work), each exit status recorded.
      let wrapper = rig.root + "/killed-merge"
      try SyncRig.write(
        wrapper,
        """
        #!/bin/sh
        timeout -s KILL "$(cat \(rig.root)/merge-delay)" checklists sync-merge "$@"
        status=$?
        echo $status >> \(rig.root)/merge-exits
        exit $status

        """)
      try #require(chmod(wrapper, 0o755) == 0)
      let config = try String(contentsOfFile: rig.root + "/vdirsyncer.conf", encoding: .utf8)
      let killing = config.replacingOccurrences(
        of: "[\"command\", \"checklists\", \"sync-merge\"]", with: "[\"command\", \"\(wrapper)\"]")
      try #require(killing != config)
      try SyncRig.write(rig.root + "/killing.conf", killing)
      let killingEnvironment = rig.environment.merging([
        "VDIRSYNCER_CONFIG": rig.root + "/killing.conf"
      ]) { $1 }

      let collection = try #require(
        rig.serverCollections().first {
          rig.serverItems($0).values.contains { $0.contains("SUMMARY:Cheddar") }
        })
      var random = SeededGenerator(seed: 20_261_204)
      let texts = ["Cheddar", "Bread", "Butter", "Jam"]
      var expected: [String: (checked: Bool, note: String)] = [:]
      for text in texts { expected[text] = (false, "") }
      var window: UInt64 = 60_000
      var killedSyncs = 0
      let rounds = 10
      for round in 1...rounds {
        let text = texts[round % texts.count]
        let note = "note \(round)"
        // The phone's edits, straight to the server (as iOS makes them): a new note on the
        // item and a new task.
        let stored = try #require(
          rig.serverItems(collection).first {
            storedLines($0.value).contains("SUMMARY:" + text)
          })
        var lines = storedLines(stored.value)
        // Our items carry no alarm: the one DESCRIPTION is the note.
        lines.removeAll { $0.hasPrefix("DESCRIPTION:") }
        insertIntoTodo("DESCRIPTION:" + note, &lines)
        lines = lines.map {
          $0.hasPrefix("LAST-MODIFIED:")
            ? String(format: "LAST-MODIFIED:20261204T11%02d00Z", round) : $0
        }
        let put = try rig.dav(
          "PUT", "\(collection)/\(stored.key)", body: lines.joined(separator: "\r\n") + "\r\n")
        try #require(put.0 / 100 == 2, "\(put)")
        let added = try rig.dav(
          "PUT", "\(collection)/PHONE-\(round).ics",
          body: iosTask(uid: "PHONE-\(round)", summary: "phone \(round)"))
        try #require(added.0 / 100 == 2, "\(added)")
        expected["phone \(round)"] = (false, "")
        let checked = !(expected[text]?.checked ?? false)
        try #require(
          rig.sandbox.run(checked ? "check" : "uncheck", "Groceries", text).status == 0)
        try #require(rig.sandbox.run("add", "Groceries", "here \(round)").status == 0)
        expected[text] = (checked, note)
        expected["here \(round)"] = (false, "")

        // Two passes killed at random moments, then vdirsyncer with the command killed.
        for _ in 0..<2 {
          let process = Process()
          process.executableURL = URL(fileURLWithPath: BuiltBinary.path())
          process.arguments = ["sync"]
          process.environment = rig.environment
          process.standardOutput = FileHandle.nullDevice
          process.standardError = FileHandle.nullDevice
          try process.run()
          usleep(UInt32(random.next() % window))
          if process.isRunning {
            killedSyncs += 1
            window = min(window * 11 / 10, 200_000)
          } else {
            window = max(window / 2, 1_000)
          }
          kill(process.processIdentifier, SIGKILL)
          process.waitUntilExit()
        }
        // A pass that ends (as the open app's at a save): this computer's change is in the
        // vdir, so vdirsyncer meets the conflict and starts the command.
        _ = try rig.checklists("sync")
        try SyncRig.write(
          rig.root + "/merge-delay", String(format: "%.4f", Double(1 + random.next() % 150) / 10000)
        )
        _ = try BuiltBinary.run(
          ["sync"], environment: killingEnvironment, executablePath: SyncTools.vdirsyncer)
      }
      print("sync-merge kill test: \(killedSyncs) of \(rounds * 2) syncs killed while running")

      let exits = (try? String(contentsOfFile: rig.root + "/merge-exits", encoding: .utf8)) ?? ""
      let merges = exits.split(separator: "\n")
      print(
        "sync-merge kill test: \(merges.filter { $0 == "137" }.count) of \(merges.count) "
          + "sync-merge calls killed")
      #expect(merges.contains("137"), "no sync-merge was killed: \(merges)")
      #expect(merges.contains("0"), "no sync-merge ended: \(merges)")
      for _ in 0..<2 { try rig.documentedCronLine() }
      try rig.phoneSync()
      var data: [String: (checked: Bool, note: String)] = [:]
      for item in try rig.sandbox.lists().flatMap(\.items) {
        #expect(data[item.text] == nil, "the data file holds \(item.text) twice")
        data[item.text] = (item.checked, item.note)
      }
      let phone = rig.phoneTasks()
      #expect(Set(data.keys) == Set(expected.keys), "nothing lost or duplicated here")
      #expect(Set(phone.keys) == Set(expected.keys), "nothing lost or duplicated on the phone")
      #expect(rig.phoneFiles().count == expected.count)
      // Different fields on each side every time. A pass killed after it saved the data file
      // and before it recorded the state leaves the values it brought in looking like this
      // computer's own: if the phone changed them again meanwhile, that is a conflict a later
      // pass logs (docs/sync.md, "What can still conflict"). So this computer's checks are
      // all kept, and each of the phone's last notes is kept or named in the log: none is
      // lost without a word.
      let log =
        (try? String(contentsOfFile: rig.sandbox.dataFile + ".conflicts.log", encoding: .utf8))
        ?? ""
      if !log.isEmpty { print("sync-merge kill test, the conflict log:\n\(log)") }
      for line in log.split(separator: "\n") {
        #expect(line.contains(", note: kept \"note "), "\(line)")
      }
      for (text, want) in expected {
        let lines = phone[text] ?? []
        #expect(data[text]?.checked == want.checked, "\(text) here")
        #expect(lines.contains("STATUS:COMPLETED") == want.checked, "\(text) on the phone")
        // One note on both sides (the phone's new tasks carry an alarm's DESCRIPTION).
        let note = data[text]?.note ?? ""
        if texts.contains(text) && note.isEmpty {
          #expect(!lines.contains { $0.hasPrefix("DESCRIPTION:") }, "\(text) on the phone")
        } else if !note.isEmpty {
          #expect(lines.contains("DESCRIPTION:" + note), "\(text)'s note on the phone")
        }
        if !want.note.isEmpty && data[text]?.note != want.note {
          #expect(log.contains("the other change was \"\(want.note)\""), "\(text): \(want.note)")
        }
      }
    }
  }
}
