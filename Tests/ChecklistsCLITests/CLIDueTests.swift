import ChecklistsCore
import ChecklistsTestSupport
import Foundation
import Testing

extension CLITests {
  /// A fixed clock for the `due` fixture: Monday 30 November 2026, 12:00 in Berlin.
  enum DueFixture {
    static let now = "2026-11-30T11:00:00Z"
    static let berlin = ["CHECKLISTS_NOW": now, "TZ": "Europe/Berlin"]

    /// An instant given in UTC.
    static func utc(_ text: String) -> Date {
      ISO8601DateFormatter().date(from: text) ?? .distantPast
    }

    /// "Work" and "Home" with reminders around the fixed clock (Berlin is UTC+1 in November).
    static func lists() -> [Checklist] {
      func item(
        _ text: String, _ due: String, checked: Bool = false, remind: Bool = true, id: Int
      ) -> ChecklistItem {
        ChecklistItem(
          text: text, checked: checked, dueDate: utc(due), shouldRemind: remind, itemID: id)
      }
      var work = Checklist(name: "Work")
      work.insertItem(item("Report", "2026-11-30T09:00:00Z", id: 1))
      work.insertItem(item("Done already", "2026-11-30T08:00:00Z", checked: true, id: 2))
      work.insertItem(item("No reminder", "2026-11-30T07:00:00Z", remind: false, id: 3))
      work.insertItem(item("Later today", "2026-11-30T16:00:00Z", id: 4))
      var home = Checklist(name: "Home")
      home.insertItem(item("Plants", "2026-11-30T12:00:00Z", id: 5))
      // Due ten days ago while nothing ran: still listed, never lost.
      home.insertItem(item("Old bill", "2026-11-20T08:00:00Z", id: 6))
      home.insertItem(item("Soon", "2026-11-30T11:20:00Z", id: 7))
      home.insertItem(item("Just now", "2026-11-30T10:59:45Z", id: 8))
      return [work, home]
    }

    static let oldBill = "Home  Old bill  Fri 20 Nov 2026, 09:00 (10 d ago)"
    static let report = "Work  Report  Mon 30 Nov 2026, 10:00 (2 h ago)"
    static let justNow = "Home  Just now  Mon 30 Nov 2026, 11:59 (now)"
    static let soon = "Home  Soon  Mon 30 Nov 2026, 12:20 (in 20 min)"
    static let plants = "Home  Plants  Mon 30 Nov 2026, 13:00 (in 1 h)"
    static let laterToday = "Work  Later today  Mon 30 Nov 2026, 17:00 (in 5 h)"
  }

  /// A stand-in `notify-send` in the sandbox that appends its arguments, one call per line
  /// ("arg|arg|arg|"), to a log, and exits with a chosen status.
  struct FakeNotifySend {
    let folder: String
    let log: String

    init(in sandbox: CLITestSandbox, exitStatus: Int = 0) throws {
      folder = sandbox.root + "/fake-bin"
      log = sandbox.root + "/notify.log"
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      let script = """
        #!/bin/sh
        for argument in "$@"; do printf '%s|' "$argument"; done >> '\(log)'
        echo >> '\(log)'
        exit \(exitStatus)

        """
      let path = folder + "/notify-send"
      #expect(
        FileManager.default.createFile(
          atPath: path, contents: Data(script.utf8), attributes: [.posixPermissions: 0o755]))
    }

    /// The calls so far, each as its arguments.
    func calls() -> [[String]] {
      let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
      return text.split(separator: "\n").map { line in
        line.split(separator: "|", omittingEmptySubsequences: false).dropLast().map(String.init)
      }
    }
  }

  @Suite("CLI: due and --notify on a fixed clock", .serialized)
  struct CLIDueTests {
    @Test func dueListsUncheckedRemindersDueNowOldestFirstWithFullAndElapsedTime() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(DueFixture.lists())
      let run = sandbox.call("due", extra: DueFixture.berlin)
      #expect(run.status == 0)
      #expect(run.stderr.isEmpty)
      #expect(run.stdout == [DueFixture.oldBill, DueFixture.report, DueFixture.justNow].lines)
    }

    @Test(arguments: [
      ("30m", [DueFixture.oldBill, DueFixture.report, DueFixture.justNow, DueFixture.soon]),
      (
        "2h",
        [
          DueFixture.oldBill, DueFixture.report, DueFixture.justNow, DueFixture.soon,
          DueFixture.plants,
        ]
      ),
      (
        "1w",
        [
          DueFixture.oldBill, DueFixture.report, DueFixture.justNow, DueFixture.soon,
          DueFixture.plants, DueFixture.laterToday,
        ]
      ),
    ])
    func withinLooksAhead(window: String, expected: [String]) throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(DueFixture.lists())
      let run = sandbox.call("due", "--within", window, extra: DueFixture.berlin)
      #expect(run.status == 0)
      #expect(run.stdout == expected.lines)
    }

    @Test func theTimeZoneComesFromTZ() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(DueFixture.lists())
      let run = sandbox.call(
        "due", extra: ["CHECKLISTS_NOW": DueFixture.now, "TZ": "America/New_York"])
      #expect(
        run.stdout
          == [
            "Home  Old bill  Fri 20 Nov 2026, 03:00 (10 d ago)",
            "Work  Report  Mon 30 Nov 2026, 04:00 (2 h ago)",
            "Home  Just now  Mon 30 Nov 2026, 05:59 (now)",
          ].lines)
    }

    @Test func jsonGivesTheSameItemsWithInstants() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(DueFixture.lists())
      let run = sandbox.call("due", "--within", "1w", "--json", extra: DueFixture.berlin)
      #expect(run.status == 0)
      let rows = try #require(
        try JSONSerialization.jsonObject(with: run.stdoutBytes) as? [[String: Any]])
      #expect(
        rows.map { $0["text"] as? String }
          == ["Old bill", "Report", "Just now", "Soon", "Plants", "Later today"])
      #expect(
        rows.map { $0["list"] as? String } == ["Home", "Work", "Home", "Home", "Home", "Work"])
      #expect(rows.map { $0["overdue"] as? Bool } == [true, true, true, false, false, false])
      #expect(rows.first?["dueDate"] as? String == "2026-11-20T08:00:00Z")
      #expect(rows.first?["itemID"] as? Int == 6)
    }

    @Test func nothingDueExits1AndPrintsNothing() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(DueFixture.lists())
      let early = ["CHECKLISTS_NOW": "2026-11-01T00:00:00Z", "TZ": "Europe/Berlin"]
      let run = sandbox.call("due", "--within", "30m", extra: early)
      #expect(run.status == 1)
      #expect(run.stdout.isEmpty)
      #expect(run.stderr.isEmpty)
      let json = sandbox.call("due", "--json", extra: early)
      #expect(json.status == 1)
      #expect(json.stdout == "[\n\n]\n" || json.stdout == "[]\n")
    }

    @Test func aBadTestClockIsAUsageError() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      let run = sandbox.call("due", extra: ["CHECKLISTS_NOW": "noon"])
      #expect(run.status == 2)
      #expect(run.stderr.hasPrefix("checklists: CHECKLISTS_NOW is not an ISO 8601 date"))
    }

    // MARK: - --notify

    @Test func notifySendsEachDueItemOnceAndAgainAfterItsDateChanges() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(DueFixture.lists())
      let fake = try FakeNotifySend(in: sandbox)
      let environment = DueFixture.berlin.merging(["PATH": fake.folder + ":/usr/bin:/bin"]) { $1 }

      let first = sandbox.call("due", "--notify", extra: environment)
      #expect(first.status == 0)
      #expect(first.stderr.isEmpty)
      #expect(first.stdout == [DueFixture.oldBill, DueFixture.report, DueFixture.justNow].lines)
      #expect(
        fake.calls() == [
          ["--app-name=checklists", "Home", "Old bill — due Fri 20 Nov 09:00"],
          ["--app-name=checklists", "Work", "Report — due today 10:00"],
          ["--app-name=checklists", "Home", "Just now — due now"],
        ])
      #expect(try notified(sandbox) == ["6@1795161600", "1@1796029200", "8@1796036385"])

      let second = sandbox.call("due", "--notify", extra: environment)
      #expect(second.status == 0)
      #expect(second.stdout == first.stdout)
      #expect(fake.calls().count == 3)

      // A new due date, also already past, arms the reminder again.
      let edited = sandbox.call(
        "edit", "Home", "Old bill", "--due", "today 9am", extra: environment)
      #expect(edited.status == 0)
      let third = sandbox.call("due", "--notify", extra: environment)
      #expect(third.status == 0)
      #expect(fake.calls().count == 4)
      #expect(fake.calls().last == ["--app-name=checklists", "Home", "Old bill — due today 09:00"])
      #expect(try notified(sandbox) == ["1@1796029200", "8@1796036385", "6@1796025600"])

      // Checked or deleted items leave the record.
      #expect(sandbox.call("check", "Work", "Report", extra: environment).status == 0)
      #expect(sandbox.call("rm", "Home", "Just now", extra: environment).status == 0)
      let fourth = sandbox.call("due", "--notify", extra: environment)
      #expect(fourth.status == 0)
      #expect(fake.calls().count == 4)
      #expect(try notified(sandbox) == ["6@1796025600"])
    }

    @Test func itemsComingDueLaterAreSentWhenTheirTimeComes() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(DueFixture.lists())
      let fake = try FakeNotifySend(in: sandbox)
      var environment = DueFixture.berlin.merging(["PATH": fake.folder]) { $1 }
      #expect(sandbox.call("due", "--notify", extra: environment).status == 0)
      #expect(fake.calls().count == 3)
      // Half an hour later "Soon" (12:20) is due; the earlier ones are not sent again.
      environment["CHECKLISTS_NOW"] = "2026-11-30T11:30:00Z"
      #expect(sandbox.call("due", "--notify", extra: environment).status == 0)
      #expect(fake.calls().map { $0.dropFirst().first } == ["Home", "Work", "Home", "Home"])
      #expect(fake.calls().last?.last == "Soon — due 10 min ago")
    }

    @Test func whileTheAppHasTheFileOpenDueStillNotifiesEachItemOnce() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(DueFixture.lists())
      let fake = try FakeNotifySend(in: sandbox)
      let environment = DueFixture.berlin.merging(["PATH": fake.folder]) { $1 }
      let location = try DataFileLocation.resolve(environment: sandbox.environment)
      // The app's screen may not be in view: the desktop still hears of due items.
      let (app, _) = try ChecklistsStore.open(location: location)
      let run = sandbox.call("due", "--notify", extra: environment)
      #expect(run.status == 0)
      #expect(run.stdout == [DueFixture.oldBill, DueFixture.report, DueFixture.justNow].lines)
      #expect(run.stderr.isEmpty)
      #expect(fake.calls().count == 3)
      #expect(sandbox.call("due", "--notify", extra: environment).status == 0)
      #expect(fake.calls().count == 3)
      app.close()
    }

    @Test func aFailingNotifySendIsReportedAndRetriedNextTime() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(DueFixture.lists())
      let failing = try FakeNotifySend(in: sandbox, exitStatus: 1)
      let environment = DueFixture.berlin.merging(["PATH": failing.folder]) { $1 }
      let run = sandbox.call("due", "--notify", extra: environment)
      #expect(run.status == 0)
      #expect(run.stderr == "checklists: notify-send failed (exit status 1)\n")
      #expect(failing.calls().count == 1)
      #expect(try notified(sandbox) == [])
      let working = try FakeNotifySend(in: sandbox)
      #expect(sandbox.call("due", "--notify", extra: environment).status == 0)
      #expect(working.calls().count == 1 + 3)
    }

    @Test func withoutNotifySendItSaysSoOnceAndStillLists() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(DueFixture.lists())
      let emptyFolder = sandbox.root + "/no-bin"
      try FileManager.default.createDirectory(
        atPath: emptyFolder, withIntermediateDirectories: true)
      let environment = DueFixture.berlin.merging(["PATH": emptyFolder]) { $1 }
      let run = sandbox.call("due", "--notify", extra: environment)
      #expect(run.status == 0)
      #expect(run.stdout == [DueFixture.oldBill, DueFixture.report, DueFixture.justNow].lines)
      #expect(
        run.stderr
          == "checklists: notify-send not found; install libnotify-bin to get desktop notifications\n"
      )
      #expect(try notified(sandbox) == [])
      // Nothing due: nothing to send, nothing to complain about, exit 1.
      let quiet = sandbox.call(
        "due", "--notify",
        extra: environment.merging(["CHECKLISTS_NOW": "2026-11-01T00:00:00Z"]) {
          $1
        })
      #expect(quiet.status == 1)
      #expect(quiet.stdout.isEmpty)
      #expect(quiet.stderr.isEmpty)
    }

    /// The state file's `notified` record in the sandbox (empty when there is no state file).
    /// Another writer changes the state file while `due --notify` is about to claim its
    /// reminders (holding the data file's lock, as every writer of the state does): nothing is
    /// sent or recorded while it holds the lock (a reminder is claimed under the lock before it
    /// is sent); once it lets go, the reminders are sent and merged into what it wrote, not
    /// written over it.
    @Test func notifyMergesTheStateFileWithAWriterThatHeldTheLock() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(DueFixture.lists())
      let fake = try FakeNotifySend(in: sandbox)
      let environment = DueFixture.berlin.merging(["PATH": fake.folder + ":/usr/bin:/bin"]) { $1 }
      let location = try DataFileLocation.resolve(environment: sandbox.environment)
      #expect(sandbox.call("edit-list", "Work", "--icon", "Trips").status == 0)  // a state file
      let lock = try DataFileLock.acquire(
        dataFile: location.dataFile, shownPath: location.dataFile)
      let finished = DispatchSemaphore(value: 0)
      nonisolated(unsafe) var run: ProcessResult?
      Thread.detachNewThread {
        run = sandbox.call("due", "--notify", extra: environment)
        finished.signal()
      }
      // It waits for the lock (up to the store's 5 s) rather than claim past it.
      #expect(
        finished.wait(timeout: .now() + 1) == .timedOut,
        "due --notify finished while another writer held the lock")
      #expect(fake.calls().isEmpty, "sent before it was claimed under the lock")
      #expect(try notified(sandbox) == [], "written while another writer held the lock")
      var theirs = try JSONDecoder().decode(
        ChecklistsState.self,
        from: try #require(FileManager.default.contents(atPath: location.stateFile)))
      theirs.checklistName = "Home"
      theirs.checklistIndex = 1
      theirs.sortByDue = ["Work"]
      try JSONEncoder().encode(theirs).write(to: URL(fileURLWithPath: location.stateFile))
      lock.release()
      #expect(finished.wait(timeout: .now() + 30) == .success)
      #expect(run?.status == 0)
      #expect(run?.stderr == "")
      #expect(fake.calls().count == 3)
      let after = try JSONDecoder().decode(
        ChecklistsState.self,
        from: try #require(FileManager.default.contents(atPath: location.stateFile)))
      #expect(after.notified == ["6@1795161600", "1@1796029200", "8@1796036385"])
      #expect(after.checklistName == "Home")
      #expect(after.sortByDue == ["Work"])
    }

    private func notified(_ sandbox: CLITestSandbox) throws -> [String] {
      let location = try DataFileLocation.resolve(environment: sandbox.environment)
      guard let data = FileManager.default.contents(atPath: location.stateFile) else { return [] }
      return try JSONDecoder().decode(ChecklistsState.self, from: data).notified
    }
  }

}

extension Array where Element == String {
  /// The strings as lines, each ending in a newline.
  var lines: String { map { $0 + "\n" }.joined() }
}
