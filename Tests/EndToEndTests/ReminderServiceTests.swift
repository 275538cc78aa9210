import ChecklistsCore
import ChecklistsTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

extension ServerAndCLIProcesses {
  /// `checklists reminders` against a real notification server (dunst on Xvfb, on a private
  /// session bus): delivery on time, Done and Snooze pressed in dunst's menu, catch-up, the
  /// summary, one delivery with `due --notify` and the app running, no bus, no CPU while idle.
  @Suite(.serialized) struct ReminderServiceTests {
    /// A sandbox for the data file, with the rig's bus and display in its environment.
    struct Setup {
      let sandbox = CLITestSandbox()
      let rig: NotificationRig

      init(withServer: Bool = true) throws {
        rig = try NotificationRig(withServer: withServer)
      }

      var environment: [String: String] {
        sandbox.environment.merging(rig.environment) { $1 }.merging([
          "CHECKLISTS_SNOOZE_SECONDS": "2",
          "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
        ]) { $1 }
      }

      /// Writes list "Home" with these items (text, due date, remind me, repeat rule).
      func write(_ items: [(String, Date, Bool, String?)]) throws {
        var id = 0
        let entries: [[String: Any]] = items.map { text, due, remind, rule in
          defer { id += 1 }
          var entry: [String: Any] = [
            "text": text, "checked": false, "dueDate": due, "shouldRemind": remind, "itemID": id,
            "hasDueDate": true,
          ]
          if let rule { entry["repeat"] = rule }
          return entry
        }
        let lists: [[String: Any]] = [["name": "Home", "iconName": "Inbox", "items": entries]]
        let data = try PropertyListSerialization.data(
          fromPropertyList: lists, format: .xml, options: 0)
        try FileManager.default.createDirectory(
          atPath: (sandbox.dataFile as NSString).deletingLastPathComponent,
          withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: sandbox.dataFile))
      }

      func items() throws -> [[String: Any]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: sandbox.dataFile))
        let lists = try PropertyListSerialization.propertyList(from: data, format: nil)
        return ((lists as? [[String: Any]])?.first?["items"] as? [[String: Any]]) ?? []
      }

      func close() {
        rig.close()
        sandbox.remove()
      }

      /// The reminders the state file records as done or dismissed here, for the next sync.
      func acknowledged() -> [String] {
        let folder = sandbox.root + "/state/checklists"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".json") }.flatMap { name -> [String] in
          guard let data = FileManager.default.contents(atPath: folder + "/" + name),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let marks = object["acknowledged"] as? [String: Any]
          else { return [] }
          return Array(marks.keys)
        }.sorted()
      }
    }

    /// A whole second `seconds` from now (XML plist dates hold whole seconds).
    static func wholeSecond(in seconds: Double) -> Date {
      Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + seconds).rounded(.up))
    }

    @Test func deliversOnTimeAndDoneAndSnoozeWork() throws {
      let setup = try Setup()
      defer { setup.close() }
      let due = Self.wholeSecond(in: 2)
      try setup.write([("Pay rent", due, true, nil), ("Later", Date() + 3600, true, nil)])
      let service = try ReminderServiceProcess(environment: setup.environment)
      defer { service.stop() }
      let id = try #require(service.waitForDelivery("Pay rent", deadline: 10))
      let arrived = Date()
      // Within a second of its time, not before.
      #expect(arrived >= due)
      #expect(arrived.timeIntervalSince(due) < 1)
      #expect(service.deliveries("Later").isEmpty)

      // Snooze (2 s in this test): it comes again, as a new notification.
      try setup.rig.press("snooze", on: id)
      #expect(service.child.waitForOutput("Snoozed \"Pay rent\"", deadline: 5))
      let again = try #require(service.waitForDelivery("Pay rent", after: 1, deadline: 10))
      #expect(again != id)

      // Done checks the item in the file.
      try setup.rig.press("done", on: again)
      #expect(service.child.waitForOutput("Checked \"Pay rent\" in Home.", deadline: 5))
      let items = try setup.items()
      #expect(items.first?["checked"] as? Bool == true)
      #expect(items.last?["checked"] as? Bool == false)
      // Done here: marked ACKNOWLEDGED on the phone's copy at the next sync.
      let key = "0@\(Int(due.timeIntervalSince1970))"
      #expect(setup.acknowledged() == [key])

      // (dunst keeps no history of a notification closed by its action: the snoozed one is.)
      let shown = try setup.rig.closeAllAndReadHistory()
      #expect(!shown.isEmpty)
      #expect(shown.allSatisfy { $0.summary == "Reminder" && $0.body == "Pay rent\nHome" })
    }

    @Test func aReminderDismissedOnTheDesktopIsRecordedForTheNextSync() throws {
      let setup = try Setup()
      defer { setup.close() }
      let due = Self.wholeSecond(in: 1)
      try setup.write([("Call mum", due, true, nil)])
      let service = try ReminderServiceProcess(environment: setup.environment)
      defer { service.stop() }
      _ = try #require(service.waitForDelivery("Call mum", deadline: 10))
      #expect(setup.acknowledged().isEmpty, "delivered is not yet dismissed")
      // Closed by the user (dunst's close: reason 2, dismissed).
      try setup.rig.ctl("close")
      let deadline = Date().addingTimeInterval(10)
      while setup.acknowledged().isEmpty && Date() < deadline { usleep(20_000) }
      #expect(setup.acknowledged() == ["0@\(Int(due.timeIntervalSince1970))"])
    }

    @Test func anEarlyReminderComesItsLeadTimeBeforeTheDueTime() throws {
      let setup = try Setup()
      defer { setup.close() }
      // Due in 15 minutes and 2 seconds, reminding 15 minutes early: in 2 s.
      let early = Self.wholeSecond(in: 2)
      try setup.write([("Dentist", early + 900, true, nil)])
      let edited = try setup.sandbox.run("edit", "Home", "Dentist", "--remind-before", "15m")
      #expect(edited.status == 0, "\(edited.stderr)")
      let service = try ReminderServiceProcess(environment: setup.environment)
      defer { service.stop() }
      #expect(service.waitForDelivery("Dentist", deadline: 10) != nil)
      let arrived = Date()
      #expect(arrived >= early)
      #expect(arrived.timeIntervalSince(early) < 1)
    }

    @Test func aReminderSnoozedWithTheCommandComesBack() throws {
      let setup = try Setup()
      defer { setup.close() }
      try setup.write([("Take out bins", Date() - 900, true, nil)])
      let service = try ReminderServiceProcess(environment: setup.environment)
      defer { service.stop() }
      #expect(service.waitForDelivery("Take out bins") != nil)
      // Snoozed for 10 minutes on a clock 10 minutes less 2 s behind: it comes again in 2 s.
      let clock = ISO8601DateFormatter().string(from: Date() - 598)
      let snoozed = try setup.sandbox.run(
        "snooze", "Home", "Take out bins", extra: ["CHECKLISTS_NOW": clock])
      #expect(snoozed.status == 0, "\(snoozed.stderr)")
      #expect(service.waitForDelivery("Take out bins", after: 1, deadline: 10) != nil)
    }

    @Test func doneOnARepeatingItemMovesItOn() throws {
      let setup = try Setup()
      defer { setup.close() }
      let due = Self.wholeSecond(in: -60)
      try setup.write([("Water plants", due, true, "daily")])
      let service = try ReminderServiceProcess(environment: setup.environment)
      defer { service.stop() }
      let id = try #require(service.waitForDelivery("Water plants"))
      try setup.rig.press("done", on: id)
      #expect(service.child.waitForOutput("Done \"Water plants\" in Home; next due", deadline: 5))
      let item = try #require(try setup.items().first)
      #expect(item["checked"] as? Bool == false)
      #expect(item["dueDate"] as? Date == due.addingTimeInterval(86_400))
      // Its next reminder is tomorrow's (the service wakes then; the log says so).
      let formatter = DueDateFormatter(timeZone: .utc)
      let next = "next reminder: " + formatter.full(due.addingTimeInterval(86_400))
      #expect(service.child.waitForOutput(next, deadline: 5), "\(service.child.lines)")
    }

    /// Frozen over the due time, as a suspended machine's processes are: the wall-clock timer
    /// has passed meanwhile, and the reminder comes once when the service runs again.
    @Test func aReminderDueWhileTheServiceWasFrozenComesOnceWhenItRunsAgain() throws {
      let setup = try Setup()
      defer { setup.close() }
      let due = Self.wholeSecond(in: 2)
      try setup.write([("Feed the cat", due, true, nil)])
      let service = try ReminderServiceProcess(environment: setup.environment)
      defer { service.stop() }
      #expect(service.child.waitForOutput("next reminder:", deadline: 10))
      kill(service.child.pid, SIGSTOP)
      // Until the due time has passed (a wait for a time, not for the program).
      while Date() < due.addingTimeInterval(1) { usleep(50_000) }
      kill(service.child.pid, SIGCONT)
      #expect(service.waitForDelivery("Feed the cat", deadline: 10) != nil)
      usleep(300_000)
      #expect(service.deliveries("Feed the cat").count == 1)
      #expect(try setup.rig.closeAllAndReadHistory().count == 1)
    }

    @Test func catchesUpOnceAndSummarisesMoreThanFive() throws {
      let setup = try Setup()
      defer { setup.close() }
      let past = Date().addingTimeInterval(-7200)
      try setup.write([("One", past, true, nil), ("Two", past + 60, true, nil)])
      var service = try ReminderServiceProcess(environment: setup.environment)
      #expect(service.waitForDelivery("One") != nil)
      #expect(service.waitForDelivery("Two") != nil)
      service.stop()
      // While it is stopped, seven more come due (and the two delivered stay delivered).
      try setup.write(
        [("One", past, true, nil), ("Two", past + 60, true, nil)]
          + (1...7).map { ("Missed \($0)", past + Double(120 + $0), true, nil) })
      service = try ReminderServiceProcess(environment: setup.environment)
      defer { service.stop() }
      #expect(
        service.child.waitForOutput("delivered 7 reminders as one notification", deadline: 10))
      let shown = try setup.rig.closeAllAndReadHistory()
      #expect(shown.map(\.summary) == ["Reminder", "Reminder", "7 reminders while you were away"])
      #expect(shown.last?.body == (1...7).map { "Home: Missed \($0)" }.joined(separator: "\n"))
    }

    @Test func oneNotificationWithTheAppTheServiceAndDueNotifyRunning() throws {
      let setup = try Setup()
      defer { setup.close() }
      let due = Self.wholeSecond(in: 2)
      try setup.write([("Call mum", due, true, nil)])
      let app = try TmuxSession(
        command: try BuiltBinary.existingPath(),
        environment: setup.environment.merging([
          "XDG_DATA_HOME": setup.sandbox.root + "/data",
          "XDG_STATE_HOME": setup.sandbox.root + "/state",
        ]) { $1 })
      defer { app.close() }
      try app.waitFor(text: "Home")
      let service = try ReminderServiceProcess(environment: setup.environment)
      defer { service.stop() }
      #expect(service.waitForDelivery("Call mum") != nil)
      try app.waitFor(text: "Call mum\" (Home)")
      let notify = try setup.sandbox.run("due", "--notify", extra: setup.rig.environment)
      #expect(notify.status == 0)
      // The service's claim, read again after a file change (the app's own state write).
      #expect(try setup.sandbox.run("add", "Home", "Other").status == 0)
      usleep(300_000)
      #expect(service.deliveries("Call mum").count == 1)
      #expect(try setup.rig.closeAllAndReadHistory().count == 1)
    }

    @Test func dueNotifyFirstMeansTheServiceDoesNotRepeatIt() throws {
      let setup = try Setup()
      defer { setup.close() }
      try setup.write([
        ("Sent by cron", Date() - 60, true, nil), ("Next", Self.wholeSecond(in: 2), true, nil),
      ])
      let notify = try setup.sandbox.run("due", "--notify", extra: setup.rig.environment)
      #expect(notify.status == 0, "\(notify.stderr)")
      let service = try ReminderServiceProcess(environment: setup.environment)
      defer { service.stop() }
      #expect(service.waitForDelivery("Next") != nil)
      #expect(service.deliveries("Sent by cron").isEmpty)
      #expect(
        try setup.rig.closeAllAndReadHistory().map(\.body) == [
          "Sent by cron — due 1 min ago", "Next\nHome",
        ])
    }

    @Test func withoutABusOrServerItSaysSoOnceAndDeliversWhenOneStarts() throws {
      let setup = try Setup(withServer: false)
      defer { setup.close() }
      try setup.write([("Waiting", Date() - 60, true, nil)])
      // No bus at all: said once, still running.
      var lonely = setup.environment
      lonely["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=" + setup.sandbox.root + "/no-bus"
      let alone = try ReminderServiceProcess(environment: lonely)
      usleep(500_000)
      #expect(alone.child.process.isRunning)
      alone.stop()
      let said = alone.child.errorOutput()
      #expect(said.contains("cannot reach the session bus"), "\(said)")
      #expect(said.components(separatedBy: "\n").filter { !$0.isEmpty }.count == 1)

      // A bus without a notification server: said once; delivered when dunst starts.
      let service = try ReminderServiceProcess(environment: setup.environment)
      defer { service.stop() }
      usleep(500_000)
      #expect(service.deliveries("Waiting").isEmpty)
      // It waits for a server without trying again and again.
      let before = try #require(service.wakeUps)
      usleep(1_000_000)
      #expect(service.wakeUps == before)
      try setup.rig.startServer()
      #expect(service.waitForDelivery("Waiting") != nil)
      service.stop()
      let errors = service.child.errorOutput()
      #expect(errors.hasPrefix("checklists: no desktop notification server answered"), "\(errors)")
      #expect(errors.contains("notifications are delivered again"))
    }

    @Test func sleepsBetweenReminders() throws {
      let setup = try Setup()
      defer { setup.close() }
      try setup.write([("Much later", Date() + 3600, true, nil)])
      let service = try ReminderServiceProcess(environment: setup.environment)
      defer { service.stop() }
      #expect(service.child.waitForOutput("checklists reminders: delivering", deadline: 10))
      usleep(300_000)
      let before = try #require(service.wakeUps)
      let ticks = try #require(service.cpuTicks)
      usleep(2_000_000)
      // Not one wake-up of any thread in two seconds: it waits in poll with no timeout until
      // the reminder; and no CPU time, as the app's idle check measures it.
      #expect(service.wakeUps == before)
      #expect(service.cpuTicks == ticks)
      // A change to the file wakes it at once: an item due now is delivered.
      try setup.write([("Much later", Date() + 3600, true, nil), ("Now", Date() - 1, true, nil)])
      #expect(service.waitForDelivery("Now") != nil)
    }
  }
}

extension ServerAndCLIProcesses {
  /// `reminders --install` / `--uninstall` and the unit they write, checked by systemd.
  @Suite(.serialized) struct ReminderUnitTests {
    @Test func installWritesAUnitSystemdAcceptsAndUninstallRemovesIt() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      let runtime = sandbox.root + "/runtime"
      try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
      chmod(runtime, 0o700)
      // No user service manager is reachable from the sandbox (its own empty runtime folder).
      let extra = [
        "XDG_CONFIG_HOME": sandbox.root + "/config", "XDG_RUNTIME_DIR": runtime,
        "CHECKLISTS_VDIR": sandbox.root + "/my vdir",
      ]
      let installed = try sandbox.run("reminders", "--install", extra: extra)
      #expect(installed.status == 0, "\(installed.stderr)")
      let unitPath = sandbox.root + "/config/systemd/user/checklists-reminders.service"
      let unit = try String(contentsOfFile: unitPath, encoding: .utf8)
      // The program as /proc/self/exe names it: symbolic links resolved.
      let binary = URL(fileURLWithPath: try BuiltBinary.existingPath()).resolvingSymlinksInPath()
        .path
      #expect(
        unit.contains(
          "ExecStart=\"\(binary)\" --file \"\(sandbox.dataFile)\" reminders\n"))
      #expect(unit.contains("Environment=\"CHECKLISTS_VDIR=\(sandbox.root)/my vdir\"\n"))
      #expect(unit.contains("Environment=\"TZ=UTC\"\n"))
      #expect(unit.contains("Restart=on-failure\n"))
      #expect(
        installed.stdout.hasPrefix("Wrote ~/config/systemd/user/checklists-reminders.service"))
      let profileLine =
        "  (CHECKLISTS_VDIR='\(sandbox.root)/my vdir' TZ='UTC' '\(binary)' --file "
        + "'\(sandbox.dataFile)' reminders >/dev/null 2>&1 &)"
      #expect(installed.stdout.contains("\n" + profileLine + "\n"), "\(installed.stdout)")

      if let analyze = installedTool("systemd-analyze") {
        let verified = try runProcess(
          analyze, ["--user", "verify", unitPath],
          environment: ["XDG_RUNTIME_DIR": runtime, "PATH": "/usr/bin:/bin", "HOME": sandbox.root])
        #expect(verified.status == 0, "\(verified.stderr)")
        #expect(verified.stderr.isEmpty, "\(verified.stderr)")
      }

      let removed = try sandbox.run("reminders", "--uninstall", extra: extra)
      #expect(removed.status == 0)
      #expect(
        removed.stdout.hasSuffix("Removed ~/config/systemd/user/checklists-reminders.service.\n"))
      #expect(!FileManager.default.fileExists(atPath: unitPath))
      let again = try sandbox.run("reminders", "--uninstall", extra: extra)
      #expect(again.stdout.hasSuffix("is not installed; nothing to remove.\n"))
    }

    @Test func aSecondServiceForTheSameFileStopsAtOnce() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(sampleLists())
      let first = try ReminderServiceProcess(environment: sandbox.environment)
      defer { first.stop() }
      #expect(first.child.waitForOutput("checklists reminders: delivering", deadline: 10))
      let second = try sandbox.run("reminders")
      #expect(second.status == 1)
      #expect(
        second.stderr
          == "checklists: the reminder service already runs for ~/data/checklists/Checklists.plist (pid \(first.child.pid))\n"
      )
    }
  }
}
