import ChecklistsTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

extension EndToEndProcesses {
  /// Odd terminal sizes, a storm of resizes, and the terminal going away mid-run.
  @Suite(.serialized) struct ReliabilityTerminalTests {
    typealias Harness = ReliabilityHarness

    /// The normal 100×30 All Lists screen, drawn completely: header, four lists, key bar last.
    private func isCompleteAllLists(_ screen: String, height: Int = 30) -> Bool {
      let rows = screen.components(separatedBy: "\n")
      return rows.count >= height && rows[0].contains("Checklists")
        && ["Birthdays", "Groceries", "To Do", "Trips"].allSatisfy { screen.contains($0) }
        && rows[height - 1].contains("q quit")
    }

    /// Whether the process `pid` still exists (and is not a zombie waiting to be reaped).
    private func isAlive(_ pid: Int32) -> Bool {
      guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let closing = stat.lastIndex(of: ")")
      else { return false }
      return !stat[stat.index(after: closing)...].hasPrefix(" Z")
    }

    /// The `write` calls process `pid` has made (`syscw` of `/proc/PID/io`).
    private func writeCalls(_ pid: Int32) throws -> Int {
      let io = try String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8)
      let line = try #require(io.split(separator: "\n").first { $0.hasPrefix("syscw:") })
      return try #require(Int(line.dropFirst("syscw:".count).trimmingCharacters(in: .whitespaces)))
    }

    /// Waits until `pid` has made no write for 200 ms (at most 10 s); the count then.
    private func settledWriteCalls(_ pid: Int32, in session: TmuxSession) throws -> Int {
      var last = try writeCalls(pid)
      var since = Date()
      try session.waitUntil("the app to stop writing") {
        let now = try writeCalls(pid)
        if now != last { (last, since) = (now, Date()) }
        return Date().timeIntervalSince(since) >= 0.2
      }
      return last
    }

    /// A frame reaches the terminal whole, not in pieces: curses wrote its output after every
    /// cursor move until the screen had been through one `endwin`, and the help screen (thirty
    /// changed rows) took over thirty writes. Now a few (the cursor, curses' buffer).
    @Test func aFrameReachesTheTerminalInAFewWrites() throws {
      let session = try Harness.startRecordingShell()
      defer { session.close() }
      try session.waitFor(text: "Groceries")
      let pid = try Harness.appPID(in: session)
      let before = try settledWriteCalls(pid, in: session)
      try session.sendKeys("?")
      try session.waitFor("the All Lists help") {
        $0.contains("Keys: All Lists") && $0.contains("add a list")
      }
      let after = try settledWriteCalls(pid, in: session)
      #expect(after - before >= 1)
      #expect(after - before <= 3)
      try session.sendKeys("Escape")
      try session.waitFor(text: "Groceries")
      try session.sendKeys("q")
      #expect(try Harness.finishedStatus(of: session) == "0")
    }

    @Test func oddSizesFromOneCellToFiveHundredColumnsThenBack() throws {
      let session = try Harness.startRecordingShell()
      defer { session.close() }
      try session.waitFor(text: "Groceries")
      let pid = try Harness.appPID(in: session)
      for (width, height) in [(1, 1), (2, 2), (20, 5), (500, 200), (1, 1), (100, 30)] {
        try session.resize(width: width, height: height)
        try session.waitFor("the \(width)×\(height) screen") { screen in
          let rows = screen.components(separatedBy: "\n")
          let fits = rows.count <= height + 1 && rows.allSatisfy { $0.count <= width }
          switch (width, height) {
          case (20, 5):
            return fits && rows[0].contains("Checklists") && screen.contains("1 Remaining")
          case (500, 200): return isCompleteAllLists(screen, height: 200)
          case (100, 30): return isCompleteAllLists(screen)
          default: return fits && !screen.contains("Groceries")
          }
        }
        #expect(isAlive(pid), "the app died at \(width)×\(height)")
        #expect(!session.fileExists("status"))
      }
      try session.sendKeys("q")
      #expect(try Harness.finishedStatus(of: session) == "0")
      #expect(session.text(of: "before") == session.text(of: "after"))
    }

    @Test func aResizeStormIsSurvivedAndTheLastSizeIsDrawn() throws {
      let session = try Harness.startRecordingShell()
      defer { session.close() }
      try Harness.open("Birthdays", in: session)
      try session.sendKeys("a")
      try session.waitFor(text: "Add Item")
      try session.type("Typed before the storm")
      try session.waitFor(text: "Typed before the storm")
      let pid = try Harness.appPID(in: session)
      var generator = SystemRandomNumberGenerator()
      for round in 0..<100 {
        kill(pid, SIGWINCH)
        if round % 10 == 0 {
          try session.resize(
            width: Int.random(in: 1...200, using: &generator),
            height: Int.random(in: 1...60, using: &generator))
        }
      }
      try session.resize(width: 100, height: 30)
      let screen = try session.waitFor("the form at 100×30") { screen in
        let rows = screen.components(separatedBy: "\n")
        return rows.count >= 30 && rows[0].contains("Add Item")
          && screen.contains("Typed before the storm") && rows[29].contains("Esc cancel")
      }
      #expect(isAlive(pid))
      #expect(!screen.contains("Groceries"))
      try session.sendKeys("Enter")
      try session.waitFor("the list with the new item") {
        !$0.contains("Add Item") && $0.contains("Typed before the storm")
      }
      try session.sendKeys("q")
      #expect(try Harness.finishedStatus(of: session) == "0")
      #expect(Harness.items(of: "Birthdays", in: session).contains("Typed before the storm"))
      // The modes are restored; the size is tmux's (it may still be applying a storm's size).
      #expect(modes(session.text(of: "before")) == modes(session.text(of: "after")))
    }

    /// `stty -a` output without its first line (speed, rows and columns).
    private func modes(_ stty: String) -> String {
      stty.split(separator: "\n").dropFirst().joined(separator: "\n")
    }

    @Test func vt100WithoutColoursCanAddAnItemAndQuit() throws {
      let session = try Harness.startRecordingShell(environment: ["TERM": "vt100"])
      defer { session.close() }
      try Harness.open("Birthdays", in: session)
      try Harness.addItem("Added on a vt100", in: session)
      try session.sendKeys("Escape")
      try session.waitFor(text: "Groceries")
      try session.sendKeys("q")
      #expect(try Harness.finishedStatus(of: session) == "0")
      #expect(Harness.items(of: "Birthdays", in: session).contains("Added on a vt100"))
      #expect(session.text(of: "before") == session.text(of: "after"))
    }

    /// How the terminal disappears.
    enum TerminalLoss: String, CaseIterable, Sendable {
      /// The tmux server (the terminal emulator) is killed.
      case serverKilled
      /// The pane (window) is closed.
      case paneKilled
    }

    @Test(arguments: TerminalLoss.allCases)
    func theTerminalGoingAwaySavesAndTheProcessExits(loss: TerminalLoss) throws {
      let app = shellQuote(try BuiltBinary.existingPath())
      let session = try TmuxSession(
        command: "\(app) 2> err; echo $? > status", prepare: Harness.copyFixture)
      defer { session.close() }
      try Harness.open("Birthdays", in: session)
      try Harness.addItem("Committed before the loss", in: session)
      try session.sendKeys("a")
      try session.waitFor(text: "Add Item")
      try session.type("Half typed")
      try session.waitFor(text: "Half typed")
      let pid = try Harness.appPID(in: session)
      switch loss {
      case .serverKilled:
        try runProcess("/usr/bin/tmux", ["-L", session.socketName, "kill-server"])
      case .paneKilled:
        try runProcess("/usr/bin/tmux", ["-L", session.socketName, "kill-pane", "-t", "t"])
      }
      try session.waitUntil("the app to exit") { !isAlive(pid) }
      let items = Harness.items(of: "Birthdays", in: session)
      #expect(items.filter { $0 == "Committed before the loss" }.count == 1)
      #expect(!items.contains("Half typed"))
    }
  }
}
