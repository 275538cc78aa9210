import ChecklistsTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

extension EndToEndProcesses {
  /// With `images` unset (`auto`) the app asks the terminal what it shows when the first photo
  /// is wanted: tmux (no images: half blocks), xterm as a VT340 (sixel) and kitty (its own
  /// protocol), the last two real terminals on a virtual X display.
  @Suite(.serialized) struct PhotoDetectionTests {
    /// The query: kitty's `a=q` for image 31, then the device attributes request.
    static let query = "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\\u{1B}[c"

    func count(of needle: String, in log: Data) -> Int {
      var found = 0
      var from = log.startIndex
      while let range = log.range(of: Data(needle.utf8), in: from..<log.endIndex) {
        found += 1
        from = range.upperBound
      }
      return found
    }

    /// A shell whose lists hold "Parking spot" with the red-and-blue PNG.
    func shellWithPhoto(logOutput: Bool) throws -> (AppFlowShell, png: String) {
      let shell = try PhotoFlowTests().photoShell(logOutput: logOutput)
      let png = shell.session.directory.appendingPathComponent("Pictures/red-blue.png").path
      try shell.cli("add", "List", "Parking spot", "--photo", png)
      return (shell, png)
    }

    /// Inside tmux (`TMUX` set, as tmux sets it) only the device attributes are asked: tmux
    /// would take kitty's query for a window title.
    @Test func tmuxIsAskedOnceItsAnswersAreNeverTypedAndHalfBlocksAreDrawn() throws {
      let (shell, _) = try shellWithPhoto(logOutput: true)
      defer { shell.close() }
      let session = shell.session
      let title = ReliabilityHarness.paneFormat("#{pane_title}", in: session)
      try session.type("export TMUX=/tmp/tmux-0/default,1,0")
      try session.sendKeys("Enter")
      try shell.launch(waitingFor: "Parking spot")
      #expect(count(of: "\u{1B}[c", in: session.loggedOutput()) == 0)
      // The form asks for the photo; keys typed at once land in the text, the answers do not.
      try session.sendKeys("Enter", "End")
      try session.type(" B4")
      try session.waitFor(text: "Parking spot B4")
      // Red and blue from the 256-colour cube (tmux has no COLORTERM here).
      try session.waitUntil("the photo drawn in half blocks") {
        let screen = try session.capture(escapes: true)
        return screen.contains("48;5;196") && screen.contains("48;5;21m")
      }
      #expect(try !session.capture().contains("1;2c"))
      try session.sendKeys("Escape")
      try session.waitFor(text: "Cancelled")
      // A second photo does not ask again. The first "Cancelled" may still be on screen while
      // tmux shows half a frame, so the form must be whole before Escape, and gone after it
      // (else `q` could follow Escape within the escape delay and read as Alt-q).
      try session.sendKeys("Enter")
      try session.waitUntil("the form drawn again with its photo") {
        let screen = try session.capture(escapes: true)
        return screen.contains("48;5;196") && screen.contains("Esc cancel")
          && !screen.contains("Cancelled")
      }
      try session.sendKeys("Escape")
      try session.waitUntil("the form closed again") {
        let screen = try session.capture()
        return screen.contains("Cancelled") && !screen.contains("Edit Item")
      }
      #expect(try shell.quit() == "0")
      let log = session.loggedOutput()
      #expect(count(of: "\u{1B}[c", in: log) == 1)
      #expect(count(of: "\u{1B}_G", in: log) == 0)
      #expect(ReliabilityHarness.paneFormat("#{pane_title}", in: session) == title)
      #expect(try shell.itemTexts(of: "List") == ["Parking spot"])
    }

    /// Runs the app in a real X terminal on a virtual display (it opens on the list, whose
    /// preview pane of 120 columns or more shows the photo) until `done` holds for what it
    /// wrote; then ends it with SIGTERM and returns its output.
    func runInXTerminal(
      _ shell: AppFlowShell, terminal: (_ script: String) -> [String],
      until done: (Data) -> Bool
    ) throws -> Data {
      let directory = shell.session.directory
      let log = directory.appendingPathComponent("xterm-output.log")
      let pidFile = directory.appendingPathComponent("app.pid")
      let app = try BuiltBinary.existingPath()
      let inner = directory.appendingPathComponent("app.sh")
      try "echo $$ > '\(pidFile.path)'\nexec '\(app)'\n".write(
        to: inner, atomically: true, encoding: .utf8)
      // `script` keeps every byte the app writes, and passes the terminal's answers to it.
      let outer = directory.appendingPathComponent("terminal.sh")
      try "exec script -q -f -e -c 'sh \(inner.path)' '\(log.path)'\n".write(
        to: outer, atomically: true, encoding: .utf8)
      let xvfb = try #require(installedTool("xvfb-run"), "xvfb-run is installed by .ci/run")
      let arguments = ["-a", "-s", "-screen 0 1920x1080x24"] + terminal(outer.path)
      let process = try startProcess(
        xvfb, arguments, environment: shell.environment, discardingOutput: true)
      defer { stop(process, appPIDFile: pidFile) }
      try shell.session.waitUntil("the app's output in the X terminal", timeout: 60) {
        guard process.isRunning else {
          throw TmuxError(description: "the X terminal ended early")
        }
        return done((try? Data(contentsOf: log)) ?? Data())
      }
      let pid = try #require(processID(in: pidFile))
      #expect(kill(pid, SIGTERM) == 0)
      try shell.session.waitUntil("the X terminal to close", timeout: 30) { !process.isRunning }
      return try Data(contentsOf: log)
    }

    func processID(in file: URL) -> Int32? {
      (try? String(contentsOf: file, encoding: .utf8)).flatMap {
        Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
      }
    }

    /// After a failure: the app, then the terminal and the X server, are killed, each waited
    /// for with a deadline.
    func stop(_ process: Process, appPIDFile: URL) {
      guard process.isRunning else { return }
      if let pid = processID(in: appPIDFile) { kill(pid, SIGKILL) }
      func ended(within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        return !process.isRunning
      }
      if ended(within: 10) { return }
      _ = try? runProcess("/usr/bin/pkill", ["-KILL", "-P", "\(process.processIdentifier)"])
      process.terminate()
      _ = ended(within: 10)
    }

    /// Where a sixel image starts in `log` (`ESC P`, parameters, `q`).
    func sixelCount(in log: Data) -> Int {
      var found = 0
      var from = log.startIndex
      while let range = log.range(of: Data("\u{1B}P".utf8), in: from..<log.endIndex) {
        let tail = log[range.upperBound...].prefix(16)
        if let end = tail.firstIndex(where: { !(0x30...0x3B).contains($0) }), log[end] == 0x71 {
          found += 1
        }
        from = range.upperBound
      }
      return found
    }

    @Test func xtermAsAVT340AnswersSixelAndGetsSixels() throws {
      let (shell, _) = try shellWithPhoto(logOutput: false)
      defer { shell.close() }
      let log = try runInXTerminal(
        shell,
        terminal: { script in
          ["xterm", "-ti", "vt340", "-geometry", "130x40", "-e", "sh", script]
        },
        until: { sixelCount(in: $0) > 0 })
      #expect(count(of: Self.query, in: log) == 1)
      #expect(sixelCount(in: log) >= 1)
      // Not drawn twice: no kitty image and no half blocks of the photo's red.
      #expect(count(of: "\u{1B}_Ga=T", in: log) == 0)
      #expect(try shell.itemTexts(of: "List") == ["Parking spot"])
    }

    @Test func kittyAnswersItsQueryAndGetsItsImagesDeletedAtTheEnd() throws {
      let (shell, _) = try shellWithPhoto(logOutput: false)
      defer { shell.close() }
      let log = try runInXTerminal(
        shell,
        terminal: { script in
          [
            "kitty", "-o", "linux_display_server=x11", "-o", "initial_window_width=135c",
            "-o", "initial_window_height=40c", "-o", "remember_window_size=no", "sh", script,
          ]
        },
        until: { count(of: "\u{1B}_Ga=T,f=32,", in: $0) > 0 })
      #expect(count(of: Self.query, in: log) == 1)
      #expect(sixelCount(in: log) == 0)
      // Every image sent is deleted before the app leaves the screen.
      let sent = try #require(log.range(of: Data("\u{1B}_Ga=T".utf8), options: .backwards))
      let deleted = try #require(log.range(of: Data("\u{1B}_Ga=d,d=I,".utf8), options: .backwards))
      #expect(deleted.lowerBound > sent.lowerBound)
      #expect(try shell.itemTexts(of: "List") == ["Parking spot"])
    }
  }
}
