import ChecklistsTestSupport
import Foundation
import Testing

extension EndToEndProcesses {
  /// Terminating signals and suspension in the middle of editing: committed data is saved
  /// once, half-typed text is not, the terminal modes come back and the exit status is 0.
  @Suite(.serialized) struct ReliabilitySignalTests {
    typealias Harness = ReliabilityHarness

    /// Where the app is when the signal arrives.
    enum Moment: String, CaseIterable, Sendable {
      /// The Add Item form is open with half-typed text.
      case itemFormHalfTyped
      /// A filter is being typed in a list.
      case filterActive
    }

    /// Starts the app, commits one item to Birthdays and leaves it at `moment`.
    private func prepare(_ moment: Moment) throws -> TmuxSession {
      let session = try Harness.startRecordingShell()
      try Harness.open("Birthdays", in: session)
      try Harness.addItem("Committed item", in: session)
      switch moment {
      case .itemFormHalfTyped:
        try session.sendKeys("a")
        try session.waitFor(text: "Add Item")
        try session.type("Half typed")
        try session.waitFor(text: "Half typed")
      case .filterActive:
        try session.sendKeys("/")
        try session.type("Comm")
        try session.waitFor(text: "filter: Comm")
      }
      #expect(!Harness.items(of: "Birthdays", in: session).contains("Committed item"))
      return session
    }

    /// Checks the file has the committed item once, no half-typed one, and the terminal is back.
    private func expectCleanSavedExit(_ session: TmuxSession) throws {
      #expect(try Harness.finishedStatus(of: session) == "0")
      let items = Harness.items(of: "Birthdays", in: session)
      #expect(items.filter { $0 == "Committed item" }.count == 1)
      #expect(!items.contains("Half typed"))
      #expect(items.contains("Call grandma"))
      #expect(!session.text(of: "before").isEmpty)
      #expect(session.text(of: "before") == session.text(of: "after"))
      #expect(session.text(of: "err") == "")
      #expect(try Harness.shellScreenIsBack(session))
    }

    @Test(
      arguments: [Moment.itemFormHalfTyped, .filterActive],
      [["TERM"], ["HUP"], ["INT"], ["TERM", "TERM"], ["HUP", "INT"], ["INT", "TERM"]])
    func signalMidEditSavesCommittedDataOnce(moment: Moment, signals: [String]) throws {
      let session = try prepare(moment)
      defer { session.close() }
      let pid = try Harness.appPID(in: session)
      for signal in signals {
        // The second may find the process already gone; that is fine.
        _ = try? Harness.send(signal, to: pid)
      }
      try expectCleanSavedExit(session)
    }

    @Test(arguments: [Moment.itemFormHalfTyped, .filterActive])
    func suspendMidEditThenTerminateSavesOnce(moment: Moment) throws {
      let app = shellQuote(try BuiltBinary.existingPath())
      let session = try TmuxSession(
        command: "exec bash --norc --noprofile -i", environment: ["PS1": "READY$ "],
        prepare: Harness.copyFixture)
      defer { session.close() }
      try session.waitFor(text: "READY$")
      // One job: a stop of the app stops the wrapper shell too (bash would run on otherwise).
      let job =
        "stty -a > before; \(app) 2> err; echo $? > status; stty -a > after; echo > finished"
      try session.type("sh -c \(shellQuote(job))")
      try session.sendKeys("Enter")
      try Harness.open("Birthdays", in: session)
      try Harness.addItem("Committed item", in: session)
      let marker = moment == .itemFormHalfTyped ? "Half typed" : "filter: Comm"
      if moment == .itemFormHalfTyped {
        try session.sendKeys("a")
        try session.waitFor(text: "Add Item")
        try session.type("Half typed")
      } else {
        try session.sendKeys("/")
        try session.type("Comm")
      }
      try session.waitFor(text: marker)
      try session.sendKeys("C-z")
      try session.waitFor("the prompt after Ctrl-Z") {
        $0.contains("Stopped") && !$0.contains(marker)
      }
      // Stopping saves what was committed, not the half-typed text.
      let atStop = Harness.items(of: "Birthdays", in: session)
      #expect(atStop.filter { $0 == "Committed item" }.count == 1)
      #expect(!atStop.contains("Half typed"))
      try session.type("fg")
      try session.sendKeys("Enter")
      try session.waitFor(text: marker)
      // A stop and a terminate while the form is still open.
      let wrapper = childProcesses(of: try session.panePID())
      try #require(wrapper.count == 1)
      let app2 = childProcesses(of: wrapper[0])
      try #require(app2.count == 1)
      try Harness.send("TSTP", to: app2[0])
      try session.waitFor("the prompt after SIGTSTP") { !$0.contains(marker) }
      try session.type("fg")
      try session.sendKeys("Enter")
      try session.waitFor(text: marker)
      try Harness.send("TERM", to: app2[0])
      try session.waitUntil("the status") { session.fileExists("finished") }
      try expectCleanSavedExit(session)
    }

    @Test func killPercentOneEndsAStoppedAppCleanly() throws {
      // `kill %1` sends SIGTERM and SIGCONT to the stopped job, which stays in the background.
      let app = shellQuote(try BuiltBinary.existingPath())
      let session = try TmuxSession(
        command: "exec bash --norc --noprofile -i", environment: ["PS1": "READY$ "],
        prepare: Harness.copyFixture)
      defer { session.close() }
      try session.waitFor(text: "READY$")
      try session.type("stty -a > before; \(app)")
      try session.sendKeys("Enter")
      try Harness.open("Birthdays", in: session)
      try Harness.addItem("Committed item", in: session)
      try session.sendKeys("a")
      try session.waitFor(text: "Add Item")
      try session.type("Half typed")
      try session.waitFor(text: "Half typed")
      try session.sendKeys("C-z")
      try session.waitFor("the prompt after Ctrl-Z") {
        $0.contains("Stopped") && !$0.contains("Half typed")
      }
      try session.type("kill %1")
      try session.sendKeys("Enter")
      try session.type("stty -a > after")
      try session.sendKeys("Enter")
      // Bash reports "Done" for exit status 0 (not "Terminated" or "Stopped" again).
      try session.waitUntil("the stopped app to exit") {
        childProcesses(of: try session.panePID()).isEmpty
      }
      try session.type("jobs; echo checked")
      try session.sendKeys("Enter")
      let screen = try session.waitFor(text: "checked\n")
      #expect(screen.contains("Done"), "\(screen)")
      #expect(!screen.contains("Terminated"))
      let items = Harness.items(of: "Birthdays", in: session)
      #expect(items.filter { $0 == "Committed item" }.count == 1)
      #expect(!items.contains("Half typed"))
      try session.waitUntil("stty after") { session.text(of: "after").hasSuffix("\n") }
      #expect(session.text(of: "before") == session.text(of: "after"))
    }
  }
}
