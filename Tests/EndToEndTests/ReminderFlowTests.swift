import ChecklistsTestSupport
import Foundation
import Testing

extension EndToEndProcesses {
  /// Reminders in the real app: one falls due while it runs (status line, one bell, `r`), one
  /// already overdue at launch (highlighted, silent), and a new user setting one up.
  @Suite(.serialized) struct ReminderFlowTests {
    /// Whether an escaped screen line sets SGR attribute `code` (e.g. 31 red, 7 reverse).
    private static func sets(_ code: Int, in line: String) -> Bool {
      line.range(of: "\u{1B}\\[([0-9;]*;)?\(code)[;m]", options: .regularExpression) != nil
    }

    /// The number of bells in `bytes`, not counting those that end an OSC sequence.
    private static func bells(in bytes: Data) -> Int {
      var count = 0
      var inOSC = false
      var previous: UInt8 = 0
      for byte in bytes {
        if inOSC {
          if byte == 0x07 || (previous == 0x1B && byte == 0x5C) { inOSC = false }
        } else if previous == 0x1B && byte == 0x5D {
          inOSC = true
        } else if byte == 0x07 {
          count += 1
        }
        previous = byte
      }
      return count
    }

    /// Writes lists "Bills" (an overdue reminder, then `payRent`) and "Other".
    private static func writeBills(payRentDue due: Date, into folder: URL) throws {
      func entry(_ text: String, _ due: Date, _ id: Int) -> [String: Any] {
        ["text": text, "checked": false, "dueDate": due, "shouldRemind": true, "itemID": id]
      }
      let lists: [[String: Any]] = [
        [
          "name": "Bills", "iconName": "Inbox",
          "items": [
            entry("Old bill", Date().addingTimeInterval(-3600), 0), entry("Pay rent", due, 1),
          ],
        ],
        ["name": "Other", "iconName": "No Icon", "items": [[String: Any]]()],
      ]
      let data = try PropertyListSerialization.data(
        fromPropertyList: lists, format: .xml, options: 0)
      try data.write(to: folder.appendingPathComponent("Checklists.plist"))
    }

    @Test func reminderFiresOnceWhileRunningAndROpensIt() throws {
      // The due date parser takes minutes at the finest, so the file is written directly.
      let due = Date().addingTimeInterval(6)
      let shell = try AppFlowShell(logOutput: true) {
        try Self.writeBills(payRentDue: due, into: $0)
      }
      defer { shell.close() }
      let session = shell.session
      try shell.launch(waitingFor: "Bills")
      try session.sendKeys("Enter")
      try session.waitFor(text: "Old bill")
      #expect(Date() < due, "the app started too late for this test to mean anything")

      // Overdue at launch: highlighted (red, bold), and no bell.
      let overdueRow =
        try session.capture(escapes: true).split(separator: "\n")
        .first { $0.contains("Old bill") }.map(String.init) ?? ""
      #expect(Self.sets(31, in: overdueRow) && Self.sets(1, in: overdueRow), "\(overdueRow)")
      #expect(Self.bells(in: session.loggedOutput()) == 0)

      try session.sendKeys("h")
      try session.waitFor(text: "Other")
      try session.waitFor(text: "Reminder: \"Pay rent\" (Bills)", timeout: 20)
      try session.waitUntil("the bell") { Self.bells(in: session.loggedOutput()) >= 1 }
      // Give a second bell time to show up if one were coming.
      let settle = Date().addingTimeInterval(2)
      try session.waitUntil("two seconds") { Date() > settle }
      #expect(Self.bells(in: session.loggedOutput()) == 1)

      try session.sendKeys("r")
      // The item's row, not the old status line ("Reminder: "Pay rent" (Bills)") that tmux may
      // still show below the new title for a moment.
      try session.waitFor("the Bills list with its Pay rent row") { screen in
        screen.contains("Bills —")
          && screen.split(separator: "\n").contains {
            $0.contains("Pay rent") && !$0.contains("Reminder:")
          }
      }
      let rentRow =
        try session.capture(escapes: true).split(separator: "\n")
        .first { $0.contains("Pay rent") && !$0.contains("Reminder:") }.map(String.init) ?? ""
      #expect(Self.sets(7, in: rentRow), "the reminded item is selected: \(rentRow)")
      #expect(try shell.quit() == "0")

      let listed = try shell.cli("due")
      #expect(listed.status == 0)
      #expect(listed.stdout.contains("Pay rent"), "\(listed.stdout)")
    }

    /// `due --notify` run while the app is open (from cron, say) sends each reminder once: the
    /// app's own state, written when it quits, keeps the record of what was sent. It wrote the
    /// record it had read at launch, so the next run sent everything again.
    @Test func remindersSentWhileTheAppRunsAreNotSentAgainAfterItQuits() throws {
      let shell = try AppFlowShell { folder in
        try Self.writeBills(payRentDue: Date().addingTimeInterval(86_400 * 30), into: folder)
      }
      defer { shell.close() }
      let session = shell.session
      let bin = session.directory.appendingPathComponent("fake-bin")
      try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
      let log = session.directory.appendingPathComponent("notify.log").path
      let script = "#!/bin/sh\necho \"$*\" >> '\(log)'\n"
      #expect(
        FileManager.default.createFile(
          atPath: bin.appendingPathComponent("notify-send").path, contents: Data(script.utf8),
          attributes: [.posixPermissions: 0o755]))
      var environment = shell.environment
      environment["PATH"] = bin.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
      let sent = {
        ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
      }

      try shell.launch(waitingFor: "Bills")
      let first = try BuiltBinary.run(["due", "--notify"], environment: environment)
      #expect(first.status == 0, "\(first.stderr)")
      #expect(sent().count == 1 && sent().first?.contains("Old bill") == true, "\(sent())")
      // The app's state changes (the open list), so it writes its state when it quits.
      try session.sendKeys("Enter")
      try session.waitFor(text: "Old bill")
      #expect(try shell.quit() == "0")
      let second = try BuiltBinary.run(["due", "--notify"], environment: environment)
      #expect(second.status == 0, "\(second.stderr)")
      #expect(sent().count == 1, "\(sent())")
      // And the app's own choice was written with it: it reopens the list.
      try shell.launch(waitingFor: "Pay rent")
      #expect(try shell.quit() == "0")
    }

    @Test func newUserAddsPayRentTomorrowAtNineWithAReminder() throws {
      let shell = try AppFlowShell()
      defer { shell.close() }
      let session = shell.session
      try shell.launch(waitingFor: "List — no items")
      try session.sendKeys("a")
      try session.waitFor(text: "Add Item")
      try session.type("Pay rent")
      try session.sendKeys("Tab", "Tab", "Space")
      try session.waitFor(text: "● On")
      try session.sendKeys("Tab", "C-u")
      try session.type("tomorrow 9am")
      try session.waitFor(text: "tomorrow 9am")
      try session.sendKeys("Enter")
      // The form's own "Text  Pay rent" row may linger below the new title: wait for the
      // status line, drawn last.
      let screen = try session.waitFor("the new row") {
        !$0.contains("Add Item") && $0.contains("Added \"Pay rent\"")
      }
      let row = screen.split(separator: "\n").first { $0.contains("Pay rent") } ?? ""
      #expect(row.contains("tomorrow 09:00"), "\(screen)")
      #expect(try shell.quit() == "0")
      let item = try shell.items(of: "List").first
      #expect(item?["shouldRemind"] as? Bool == true)
      let listed = try shell.cli("due", "--within", "2d")
      #expect(listed.status == 0)
      #expect(listed.stdout.contains("Pay rent"), "\(listed.stdout)")
    }

    /// The state file's text (the shared record of delivered and snoozed reminders).
    private static func stateText(_ shell: AppFlowShell) -> String {
      let folder = shell.session.stateHome.appendingPathComponent("checklists")
      let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
      return names.filter { $0.hasSuffix(".json") }.compactMap {
        try? String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)
      }.joined()
    }

    /// Out of sight (the terminal said focus out), a reminder also goes out as the terminal's
    /// notification, claimed in the shared record; `z` snoozes it there for the service too;
    /// while a reminder service runs for the file, the app leaves the desktop to it.
    @Test func outOfSightAReminderAlsoGoesOutThroughTheTerminalOnce() throws {
      let rent = Date().addingTimeInterval(5)
      let plants = rent.addingTimeInterval(4)
      let shell = try AppFlowShell(logOutput: true) { folder in
        func entry(_ text: String, _ due: Date, _ id: Int) -> [String: Any] {
          ["text": text, "checked": false, "dueDate": due, "shouldRemind": true, "itemID": id]
        }
        let lists: [[String: Any]] = [
          [
            "name": "Bills", "iconName": "Inbox",
            "items": [entry("Pay rent", rent, 1), entry("Water plants", plants, 2)],
          ]
        ]
        let data = try PropertyListSerialization.data(
          fromPropertyList: lists, format: .xml, options: 0)
        try data.write(to: folder.appendingPathComponent("Checklists.plist"))
      }
      defer { shell.close() }
      let session = shell.session
      try shell.launch(waitingFor: "Bills")
      #expect(Date() < rent, "the app started too late for this test to mean anything")
      // What a terminal sends when its window loses the focus.
      try session.sendKeys("-H", "1b", "5b", "4f")
      let sent = { (text: String) in
        session.loggedOutput().range(of: Data("\u{1B}]9;Reminder: \(text)\u{1B}\\".utf8)) != nil
      }
      try session.waitUntil("the terminal notification", timeout: 20) { sent("Pay rent (Bills)") }
      try session.waitFor(text: "Reminder: \"Pay rent\" (Bills)")
      let key = "1@\(Int(rent.timeIntervalSince1970.rounded(.down)))"
      #expect(Self.stateText(shell).contains(key), "claimed: \(Self.stateText(shell))")

      try session.sendKeys("z")
      try session.waitFor(text: "Snoozed \"Pay rent\"")
      try session.waitUntil("the snooze in the shared record") {
        Self.stateText(shell).contains("\"snoozed\"") && Self.stateText(shell).contains(key)
      }

      // With a reminder service holding the file's service lock, nothing goes out here: the
      // service delivers to the desktop.
      let lock = shell.dataFile.path + ".reminders.lock"
      // One process holds it (a shell that becomes `sleep`), so that killing it ends it all.
      let holder = try ChildProcess(
        "/bin/sh", ["-c", "exec 9>>\"$0\" && flock -n 9 && echo held && exec sleep 60", lock])
      defer { holder.kill() }
      #expect(holder.waitForOutput("held"))
      try session.sendKeys("-H", "1b", "5b", "4f")
      try session.waitFor(text: "Reminder: \"Water plants\" (Bills)", timeout: 20)
      let settle = Date().addingTimeInterval(1)
      try session.waitUntil("a second") { Date() > settle }
      #expect(!sent("Water plants (Bills)"))
      #expect(!Self.stateText(shell).contains("2@"), "the service's to claim")
      #expect(try shell.quit() == "0")
    }

    /// Two apps on one file, both out of sight: the reminder rings on both screens, and goes
    /// out through the terminal once (whichever claims it first in the shared record).
    @Test func twoAppsOnOneFileSendOneTerminalNotification() throws {
      let rent = Date().addingTimeInterval(6)
      let binary = shellQuote(try BuiltBinary.existingPath())
      let first = try TmuxSession(command: binary, logOutput: true) { folder in
        try Self.writeBills(payRentDue: rent, into: folder)
      }
      defer { first.close() }
      let second = try TmuxSession(
        command: binary,
        environment: [
          "XDG_DATA_HOME": first.dataHome.path, "XDG_STATE_HOME": first.stateHome.path,
        ], logOutput: true)
      defer { second.close() }
      let apps = [first, second]
      for app in apps { try app.waitFor(text: "Bills") }
      #expect(Date() < rent, "the apps started too late for this test to mean anything")
      // What a terminal sends when its window loses the focus.
      for app in apps { try app.sendKeys("-H", "1b", "5b", "4f") }
      for app in apps { try app.waitFor(text: "Reminder: \"Pay rent\" (Bills)", timeout: 20) }
      let sequence = Data("\u{1B}]9;Reminder: Pay rent (Bills)\u{1B}\\".utf8)
      let sent = { (app: TmuxSession) in app.loggedOutput().range(of: sequence) != nil }
      try first.waitUntil("a terminal notification", timeout: 10) { apps.contains(where: sent) }
      // The other one had as long again to send its own (tmux copies output asynchronously).
      let settle = Date().addingTimeInterval(1)
      try first.waitUntil("a second") { Date() > settle }
      #expect(apps.filter(sent).count == 1)
    }
  }
}
