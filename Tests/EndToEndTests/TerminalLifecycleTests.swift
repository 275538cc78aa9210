import ChecklistsTestSupport
import Foundation
import Testing

extension EndToEndProcesses {
  /// The full-screen program in a real terminal (tmux): start, quit, signals, suspend, resize,
  /// refusing unusable terminals, and giving the terminal back after a crash.
  @Suite(.serialized) struct TerminalLifecycleTests {
    /// Copies the iPhone fixture in as the data file.
    private static func copyFixture(into folder: URL) throws {
      try AppFlowShell.copyFixture(into: folder)
    }

    /// Runs the app in a shell that records `stty -a` before and after, and its exit status.
    private func startRecordingShell(logOutput: Bool = false) throws -> TmuxSession {
      let app = shellQuote(try BuiltBinary.existingPath())
      return try TmuxSession(
        command:
          "stty -a > before; \(app); echo $? > status; stty -a > after; echo done > finished; "
          + TmuxSession.endOfRunCommand,
        logOutput: logOutput, prepare: Self.copyFixture)
    }

    /// Runs the app under `sh`, which records its exit status in `status` (tmux does not always
    /// reap a pane's process promptly, so its own exit status is not relied on).
    private func startApp() throws -> TmuxSession {
      let app = shellQuote(try BuiltBinary.existingPath())
      return try TmuxSession(command: "\(app); echo $? > status", prepare: Self.copyFixture)
    }

    /// The pid of the app, the only child of the pane's shell.
    private func appPID(in session: TmuxSession) throws -> Int32 {
      let children = childProcesses(of: try session.panePID())
      try #require(children.count == 1)
      return children[0]
    }

    /// Waits for the exit status the shell recorded.
    private func recordedStatus(of session: TmuxSession) throws -> String {
      try session.waitUntil("the exit status") { session.text(of: "status").hasSuffix("\n") }
      return session.text(of: "status").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The names of the lists in the data file.
    private func listNames(in session: TmuxSession) -> [String] {
      guard let data = try? Data(contentsOf: session.dataFile),
        let lists = try? PropertyListSerialization.propertyList(from: data, format: nil)
          as? [[String: Any]]
      else { return [] }
      return lists.compactMap { $0["name"] as? String }
    }

    /// Adds a list through the Add List form and waits until All Lists shows it.
    private func addList(_ name: String, in session: TmuxSession) throws {
      try session.sendKeys("a")
      try session.waitFor(text: "Add List")
      try session.type(name)
      try session.waitFor(text: name)
      try session.sendKeys("Enter")
      try session.waitFor("the new list on All Lists") {
        !$0.contains("Add List") && $0.contains(name)
      }
    }

    @Test func quitWithQRestoresTheTerminal() throws {
      let session = try startRecordingShell(logOutput: true)
      defer { session.close() }
      try session.waitFor(text: "Groceries")
      try session.sendKeys("q")
      try session.waitUntil("the shell to record the modes after") {
        session.fileExists("finished")
      }
      #expect(session.text(of: "status") == "0\n")
      #expect(session.text(of: "before") == session.text(of: "after"))
      #expect(!session.text(of: "before").isEmpty)
      let log = String(decoding: try session.loggedOutputOfFinishedRun(), as: UTF8.self)
      for sequence in ["\u{1B}[?2004h", "\u{1B}[?1004h", "\u{1B}[?2004l", "\u{1B}[?1004l"] {
        #expect(log.contains(sequence), "missing \(sequence.debugDescription)")
      }
      // The last thing written leaves the alternate screen with the cursor shown.
      if let leave = log.range(of: "\u{1B}[?1049l", options: .backwards),
        let show = log.range(of: "\u{1B}[?25h", options: .backwards)
      {
        #expect(show.lowerBound < leave.lowerBound)
        #expect(log[leave.upperBound...].count < 40)
      } else {
        Issue.record("the alternate screen was not left, or the cursor not shown")
      }
    }

    @Test(arguments: ["TERM", "HUP", "INT"])
    func terminatingSignalSavesAndExitsZero(signal: String) throws {
      let session = try startApp()
      defer { session.close() }
      try session.waitFor(text: "Groceries")
      let name = "Signal \(signal)"
      try addList(name, in: session)
      #expect(!listNames(in: session).contains(name))
      let pid = try appPID(in: session)
      try runProcess("/bin/kill", ["-\(signal)", "\(pid)"])
      #expect(try recordedStatus(of: session) == "0")
      #expect(listNames(in: session).contains(name))
    }

    @Test func secondSigtermWhileExitingIsHarmless() throws {
      let session = try startApp()
      defer { session.close() }
      try session.waitFor(text: "Groceries")
      try addList("Twice", in: session)
      let pid = try appPID(in: session)
      try runProcess("/bin/kill", ["-TERM", "\(pid)"])
      _ = try? runProcess("/bin/kill", ["-TERM", "\(pid)"])
      #expect(try recordedStatus(of: session) == "0")
      #expect(listNames(in: session) == ["Birthdays", "Groceries", "To Do", "Trips", "Twice"])
    }

    @Test func ctrlZSuspendsToTheShellAndFgBringsTheSameScreenBack() throws {
      let app = try BuiltBinary.existingPath()
      let session = try TmuxSession(
        command: "exec bash --norc --noprofile -i", environment: ["PS1": "READY$ "],
        prepare: Self.copyFixture)
      defer { session.close() }
      try session.waitFor(text: "READY$")
      try session.type(shellQuote(app))
      try session.sendKeys("Enter")
      try session.waitFor(text: "Groceries")
      try addList("Before Suspend", in: session)
      // A half-typed name must survive the stop.
      try session.sendKeys("a")
      try session.waitFor(text: "Add List")
      try session.type("Half typed")
      try session.waitFor(text: "Half typed")

      try session.sendKeys("C-z")
      try session.waitFor("the shell prompt after the stop") {
        $0.contains("Stopped") && $0.components(separatedBy: "READY$").count >= 3
      }
      #expect(listNames(in: session).contains("Before Suspend"))

      try session.type("fg")
      try session.sendKeys("Enter")
      let screen = try session.waitFor(text: "Half typed")
      #expect(screen.contains("Add List"))
      #expect(!screen.contains("READY$"))
      try session.sendKeys("Escape")
      try session.waitFor("All Lists again") { !$0.contains("Add List") && $0.contains("Trips") }

      // SIGTSTP from outside stops it the same way.
      let bash = try session.panePID()
      let children = childProcesses(of: bash)
      try #require(children.count == 1)
      try runProcess("/bin/kill", ["-TSTP", "\(children[0])"])
      try session.waitFor("the shell prompt after SIGTSTP") {
        $0.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("READY$")
      }
      try session.type("fg")
      try session.sendKeys("Enter")
      try session.waitFor("All Lists after the second fg") {
        $0.contains("Before Suspend") && !$0.contains("READY$")
      }
      try session.sendKeys("q")
      try session.waitFor("the prompt after quitting") { $0.contains("READY$") }
      try session.type("echo \"exit=$?\"")
      try session.sendKeys("Enter")
      try session.waitFor(text: "exit=0")
    }

    @Test func closingTheTerminalSaves() throws {
      let session = try startApp()
      defer { session.close() }
      try session.waitFor(text: "Groceries")
      try addList("Window Closed", in: session)
      try runProcess("/usr/bin/tmux", ["-L", session.socketName, "kill-server"])
      try session.waitUntil("the save after the terminal closed") {
        listNames(in: session).contains("Window Closed")
      }
    }

    @Test func resizeBigToTinyToBigRedraws() throws {
      let session = try startApp()
      defer { session.close() }
      try session.waitFor(text: "Groceries")
      try session.resize(width: 10, height: 3)
      try session.waitFor("the tiny screen") { screen in
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.count <= 4 && !screen.contains("Groceries")
      }
      #expect(!session.fileExists("status"))
      try session.resize(width: 1, height: 1)
      try session.resize(width: 120, height: 40)
      let screen = try session.waitFor("the big screen") {
        $0.contains("Groceries") && $0.contains("Trips") && $0.contains("quit")
      }
      #expect(screen.contains("Birthdays"))
      #expect(!session.fileExists("status"))
      try session.sendKeys("q")
      #expect(try recordedStatus(of: session) == "0")
    }

    @Test func refusesWhenNotATerminal() throws {
      let result = try runProcess(
        try BuiltBinary.existingPath(), [],
        environment: ["TERM": "xterm-256color", "HOME": NSTemporaryDirectory()],
        standardInput: "/dev/null")
      #expect(result.status == 1)
      #expect(result.stderr.contains("not a terminal"))
      #expect(result.stderr.split(separator: "\n").count == 1)
      #expect(!result.stdout.contains("\u{1B}"))
    }

    @Test(arguments: ["dumb", "nonexistent", ""])
    func refusesAnUnusableTerm(term: String) throws {
      let app = shellQuote(try BuiltBinary.existingPath())
      let session = try TmuxSession(
        command: "\(app) 2> err; echo $? > status", environment: ["TERM": term])
      defer { session.close() }
      try session.waitUntil("the exit status") { session.text(of: "status").hasSuffix("\n") }
      #expect(session.text(of: "status") == "1\n")
      let message = session.text(of: "err")
      #expect(message.hasPrefix("checklists: "))
      #expect(message.split(separator: "\n").count == 1)
      #expect(message.contains("TERM"))
    }

    @Test(arguments: ["SEGV", "ABRT"])
    func crashSignalGivesTheTerminalBack(signal: String) throws {
      let session = try startRecordingShell(logOutput: true)
      defer { session.close() }
      try session.waitFor(text: "Groceries")
      try runProcess("/bin/kill", ["-\(signal)", "\(try appPID(in: session))"])
      // Not the interactive backtracer's 30 s wait: the handler restores and re-raises at once.
      try session.waitUntil("the shell to record the modes after", timeout: 5) {
        session.fileExists("finished")
      }
      let expected = signal == "SEGV" ? 128 + 11 : 128 + 6
      #expect(session.text(of: "status") == "\(expected)\n")
      #expect(session.text(of: "before") == session.text(of: "after"))
      let log = String(decoding: try session.loggedOutputOfFinishedRun(), as: UTF8.self)
      #expect(log.contains("\u{1B}[?1049l"))
      #expect(log.contains("\u{1B}[?2004l"))
    }
  }

  /// What the program shows and accepts through the terminal: bracketed paste and colours.
  @Suite(.serialized) struct TerminalScreenTests {
    private static func copyFixture(into folder: URL) throws {
      try AppFlowShell.copyFixture(into: folder)
    }

    @Test func bracketedPasteArrivesAsTextNotKeys() throws {
      let app = shellQuote(try BuiltBinary.existingPath())
      let session = try TmuxSession(
        command: "\(app); echo $? > status", prepare: Self.copyFixture)
      defer { session.close() }
      try session.waitFor(text: "Groceries")
      try session.sendKeys("a")
      try session.waitFor(text: "Add List")
      // tmux wraps the buffer in ESC[200~ … ESC[201~ only when the program turned the mode on;
      // the "q" inside must not quit.
      try runProcess("/usr/bin/tmux", ["-L", session.socketName, "set-buffer", "Pasted q name"])
      try runProcess("/usr/bin/tmux", ["-L", session.socketName, "paste-buffer", "-p", "-t", "t"])
      try session.waitFor(text: "Pasted q name")
      #expect(!session.fileExists("status"))
    }

    @Test func mouseClickSelectsARow() throws {
      let app = shellQuote(try BuiltBinary.existingPath())
      let session = try TmuxSession(command: "\(app); echo $? > status", prepare: Self.copyFixture)
      defer { session.close() }
      let screen = try session.waitFor(text: "Groceries")
      let lines = screen.components(separatedBy: "\n")
      let row = try #require(lines.firstIndex { $0.contains("Trips") })
      // An SGR mouse report (1-based column;row): press and release of button 1 on "Trips".
      try session.type("\u{1B}[<0;6;\(row + 1)M\u{1B}[<0;6;\(row + 1)m")
      try session.waitFor("Trips selected") { _ in
        (try? session.capture(escapes: true))?.components(separatedBy: "\n")
          .first { $0.contains("Trips") }?.contains("\u{1B}[46m") ?? false
      }
      try session.sendKeys("Enter")
      try session.waitFor(text: "Renew passport")
    }

    @Test func aDoubleClickInOneReadOpensTheList() throws {
      let app = shellQuote(try BuiltBinary.existingPath())
      let session = try TmuxSession(command: "\(app); echo $? > status", prepare: Self.copyFixture)
      defer { session.close() }
      let screen = try session.waitFor(text: "Groceries")
      let lines = screen.components(separatedBy: "\n")
      let row = try #require(lines.firstIndex { $0.contains("Trips") })
      // Both clicks' four reports in one write, as a slow link delivers them: two presses.
      let click = "\u{1B}[<0;6;\(row + 1)M\u{1B}[<0;6;\(row + 1)m"
      try session.type(click + click)
      try session.waitFor(text: "Renew passport")
    }

    /// Inside tmux (which joins ZWJ sequences in two columns) 👩‍💻 is drawn whole; elsewhere
    /// as its first emoji, as the terminal would spread it over four columns.
    @Test(arguments: [true, false])
    func aZWJSequenceIsDrawnWholeWhereTheTerminalJoinsIt(inTmux: Bool) throws {
      let app = shellQuote(try BuiltBinary.existingPath())
      let session = try TmuxSession(
        command: "\(app) new-list Work >/dev/null && \(app) add Work '👩‍💻 code review' >/dev/null"
          + " && \(app) add Work '👍🏽 approved' >/dev/null && \(app)",
        environment: inTmux ? ["TMUX": "/tmp/tmux-e2e,1,0"] : [:])
      defer { session.close() }
      try session.waitFor(text: "Work")
      try session.sendKeys("G", "Enter")
      let screen = try session.waitFor(text: "code review")
      let row = screen.components(separatedBy: "\n").first { $0.contains("code review") } ?? ""
      #expect(row.contains(inTmux ? "👩‍💻 code review" : " 👩 code review"), "\(row)")
      // A skin tone, which tmux spreads over four columns, keeps its first emoji.
      #expect(screen.contains("👍 approved"), "\(screen)")
    }

    @Test(arguments: [["NO_COLOR": "1"], ["TERM": "vt100"]])
    func withoutColourRolesBecomeAttributes(environment: [String: String]) throws {
      let app = shellQuote(try BuiltBinary.existingPath())
      let session = try TmuxSession(
        command: "\(app); echo $? > status", environment: environment, prepare: Self.copyFixture)
      defer { session.close() }
      try session.waitFor(text: "Groceries")
      let screen = try session.capture(escapes: true)
      let colours = ["\u{1B}[30m", "\u{1B}[36m", "\u{1B}[46m", "\u{1B}[47m", "\u{1B}[32m"]
      for colour in colours { #expect(!screen.contains(colour)) }
      #expect(screen.contains("\u{1B}[1m"))  // the bold title
      #expect(screen.contains("7m"))  // the reversed selection
    }

    @Test func aNonUTF8LocaleFallsBackToUTF8() throws {
      let app = shellQuote(try BuiltBinary.existingPath())
      let session = try TmuxSession(
        command: "\(app); echo $? > status", environment: ["LANG": "C", "LC_ALL": "C"],
        prepare: Self.copyFixture)
      defer { session.close() }
      try session.waitFor(text: "🎂 Birthdays")
    }

    @Test func withColourRolesUseColourPairs() throws {
      let app = shellQuote(try BuiltBinary.existingPath())
      let session = try TmuxSession(command: "\(app); echo $? > status", prepare: Self.copyFixture)
      defer { session.close() }
      try session.waitFor(text: "Groceries")
      let screen = try session.capture(escapes: true)
      #expect(screen.contains("\u{1B}[36m"))  // the cyan title
      #expect(screen.contains("\u{1B}[46m"))  // the cyan selection
    }
  }
}
