import ChecklistsTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Shared steps of the reliability suites: starting the app in a recording shell, finding its
/// pid, reading the data file back and driving the common screens.
enum ReliabilityHarness {
  /// Copies the iPhone fixture (Birthdays, Groceries, To Do, Trips) in as the data file.
  static func copyFixture(into folder: URL) throws {
    try AppFlowShell.copyFixture(into: folder)
  }

  /// Runs the app (with `arguments`) in a shell that records `stty -a` before and after, the
  /// exit status in `status`, stderr in `err`, and writes `finished` last; the shell then
  /// stays (tmux hides the cursor of a dead pane, and the cursor is checked).
  static func startRecordingShell(
    arguments: String = "", width: Int = 100, height: Int = 30,
    environment: [String: String] = [:], logOutput: Bool = false,
    prepare: (URL) throws -> Void = copyFixture
  ) throws -> TmuxSession {
    let app = shellQuote(try BuiltBinary.existingPath())
    return try TmuxSession(
      command:
        "stty -a > before; \(app) \(arguments) 2> err; echo $? > status; stty -a > after; "
        + "echo done > finished; \(TmuxSession.endOfRunCommand); exec sleep 600",
      width: width, height: height, environment: environment, logOutput: logOutput,
      prepare: prepare)
  }

  /// The pid of the app, the only child of the pane's shell.
  static func appPID(in session: TmuxSession) throws -> Int32 {
    var children: [Int32] = []
    try session.waitUntil("the app process") {
      children = childProcesses(of: try session.panePID())
      return children.count == 1
    }
    return children[0]
  }

  /// Waits until the shell has recorded everything after the app exited; returns the status.
  static func finishedStatus(of session: TmuxSession, timeout: TimeInterval = 10) throws -> String {
    try session.waitUntil("the shell to record the modes after", timeout: timeout) {
      session.fileExists("finished")
    }
    return session.text(of: "status").trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Sends `signal` (a name such as "TERM") to `pid`.
  static func send(_ signal: String, to pid: Int32) throws {
    try runProcess("/bin/kill", ["-\(signal)", "\(pid)"])
  }

  /// The lists in a plist file as (name, item texts); nil when it cannot be read as one.
  static func lists(at url: URL) -> [(name: String, items: [String])]? {
    guard let data = try? Data(contentsOf: url),
      let lists = try? PropertyListSerialization.propertyList(from: data, format: nil)
        as? [[String: Any]]
    else { return nil }
    return lists.map { list in
      let items = (list["items"] as? [[String: Any]]) ?? []
      return ((list["name"] as? String) ?? "", items.compactMap { $0["text"] as? String })
    }
  }

  /// The item texts of the list `name` in the session's data file.
  static func items(of name: String, in session: TmuxSession) -> [String] {
    lists(at: session.dataFile)?.first { $0.name == name }?.items ?? []
  }

  /// Opens the list on the row showing `name` from All Lists.
  static func open(_ name: String, in session: TmuxSession) throws {
    let screen = try session.waitFor(text: name)
    let lines = screen.components(separatedBy: "\n")
    let target = try #require(lines.firstIndex { $0.contains(name) })
    // The first list is selected at start, under the Today and Scheduled rows.
    let selected = try #require(lines.firstIndex { $0.contains("Scheduled") }) + 1
    for _ in 0..<max(0, target - selected) { try session.sendKeys("Down") }
    try session.sendKeys("Enter")
    try session.waitFor("the list \(name)") {
      $0.hasPrefix(" \(name)") || $0.contains(" \(name) —")
    }
  }

  /// In an open list: adds an item through the form and waits until the list shows it.
  static func addItem(_ text: String, in session: TmuxSession) throws {
    try session.sendKeys("a")
    try session.waitFor(text: "Add Item")
    try session.type(text)
    try session.waitFor(text: text)
    try session.sendKeys("Enter")
    try session.waitFor("the new item in the list") {
      !$0.contains("Add Item") && $0.contains(text)
    }
  }

  /// The screen has the shell's (main) screen back: no app header or key bar.
  static func shellScreenIsBack(_ session: TmuxSession) throws -> Bool {
    let screen = try session.capture()
    return !screen.contains("Checklists") && !screen.contains("q quit")
      && paneFormat("#{alternate_on}", in: session) == "0"
      && paneFormat("#{cursor_flag}", in: session) == "1"
  }

  /// A tmux format of the session's pane, e.g. `#{pane_title}`.
  static func paneFormat(_ format: String, in session: TmuxSession) -> String {
    let result = try? runProcess(
      "/usr/bin/tmux", ["-L", session.socketName, "display-message", "-p", "-t", "t", format])
    return result?.stdout.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
  }
}
