import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// What went wrong driving tmux.
public struct TmuxError: Error, CustomStringConvertible {
  /// What happened, with the last screen when a wait timed out.
  public var description: String

  /// An error saying `description`.
  public init(description: String) { self.description = description }
}

/// A private tmux server with one pane running a command, for end-to-end tests.
///
/// Every session has its own socket and its own temporary directory holding `data/` and `state/`
/// (the pane's `XDG_DATA_HOME` and `XDG_STATE_HOME`). The pane stays after the command exits so
/// its exit status can be read. The server is killed by `close()` or at deinit.
public final class TmuxSession {
  /// The temporary directory of this session.
  public let directory: URL
  /// `XDG_DATA_HOME` of the pane.
  public let dataHome: URL
  /// `XDG_STATE_HOME` of the pane.
  public let stateHome: URL
  /// The raw bytes the pane's program wrote, when logging was asked for.
  public let logFile: URL
  private let socket: String
  /// The private tmux socket name (`tmux -L`).
  public var socketName: String { socket }
  private let tmux = "/usr/bin/tmux"
  private var isClosed = false

  /// The data file the program uses by default.
  public var dataFile: URL { dataHome.appendingPathComponent("checklists/Checklists.plist") }

  /// Starts `command` (run by `sh -c`) in a `width`×`height` pane with `TERM=xterm-256color`,
  /// `LANG=C.UTF-8` and private XDG directories, plus `environment`.
  ///
  /// With `logOutput`, everything the program writes is appended to `logFile`, from its
  /// first byte.
  public init(
    command: String, width: Int = 100, height: Int = 30, environment: [String: String] = [:],
    logOutput: Bool = false, prepare: (URL) throws -> Void = { _ in }
  ) throws {
    let unique = "checklists-e2e-\(getpid())-\(UUID().uuidString.prefix(8))"
    socket = unique
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(unique)
    dataHome = directory.appendingPathComponent("data")
    stateHome = directory.appendingPathComponent("state")
    logFile = directory.appendingPathComponent("output.log")
    try FileManager.default.createDirectory(
      at: dataHome.appendingPathComponent("checklists"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: stateHome, withIntermediateDirectories: true)
    try prepare(dataHome.appendingPathComponent("checklists"))

    let config = directory.appendingPathComponent("tmux.conf")
    try "set -g remain-on-exit on\nset -g status off\nset -g history-limit 0\n".write(
      to: config, atomically: true, encoding: .utf8)

    var variables = [
      "TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
      "XDG_DATA_HOME": dataHome.path, "XDG_STATE_HOME": stateHome.path,
      "HOME": directory.path,
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
    ]
    for (key, value) in environment { variables[key] = value }
    let assignments = variables.sorted { $0.key < $1.key }.map {
      shellQuote("\($0.key)=\($0.value)")
    }
    let inner = logOutput ? "read _ready; \(command)" : command
    let paneCommand =
      "cd \(shellQuote(directory.path)) && exec env -i \(assignments.joined(separator: " ")) "
      + "sh -c \(shellQuote(inner))"

    try tmuxCommand([
      "-f", config.path, "new-session", "-d", "-s", "t", "-x", "\(width)", "-y", "\(height)",
      paneCommand,
    ])
    if logOutput {
      try tmuxCommand(["pipe-pane", "-o", "-t", "t", "cat >> \(shellQuote(logFile.path))"])
      try sendKeys("Enter")
    }
  }

  deinit { close() }

  /// Kills this session's tmux server and removes its directory once the programs of the pane
  /// have ended (an app saves on the hangup, which would make its folders again).
  public func close() {
    guard !isClosed else { return }
    isClosed = true
    let session = try? panePID()
    _ = try? runProcess(tmux, ["-L", socket, "kill-server"])
    if let session {
      let deadline = Date().addingTimeInterval(10)
      while Self.processesRemain(inSession: session), Date() < deadline {
        Thread.sleep(forTimeInterval: 0.02)
      }
    }
    try? FileManager.default.removeItem(at: directory)
  }

  /// Whether any process still belongs to the session `id` (tmux makes each pane's command
  /// the leader of a session of its own).
  static func processesRemain(inSession id: Int32) -> Bool {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    for entry in entries where entry.first?.isNumber == true {
      guard let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { continue }
      // After the command's name: state, parent, process group, session.
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      if fields.count > 3, Int32(fields[3]) == id { return true }
    }
    return false
  }

  @discardableResult
  private func tmuxCommand(_ arguments: [String]) throws -> String {
    let result = try runProcess(tmux, ["-L", socket] + arguments)
    guard result.status == 0 else {
      throw TmuxError(
        description: "tmux \(arguments.joined(separator: " ")) failed: \(result.stderr)")
    }
    return result.stdout
  }

  /// Sends key names (`Enter`, `C-z`, `Escape`, `Up` …), one key each.
  public func sendKeys(_ keys: String...) throws {
    try tmuxCommand(["send-keys", "-t", "t"] + keys)
  }

  /// Types text literally.
  public func type(_ text: String) throws {
    try tmuxCommand(["send-keys", "-t", "t", "-l", text])
  }

  /// Pastes text as a terminal pastes it: bracketed (`ESC [200~ … ESC [201~`) when the program
  /// asked for bracketed paste, as a dropped file's path arrives.
  public func paste(_ text: String) throws {
    try tmuxCommand(["set-buffer", "-b", "e2e", "--", text])
    try tmuxCommand(["paste-buffer", "-p", "-d", "-b", "e2e", "-t", "t"])
  }

  /// The screen as text (`escapes`: with colour and attribute sequences).
  public func capture(escapes: Bool = false) throws -> String {
    try tmuxCommand(["capture-pane", "-p", "-t", "t"] + (escapes ? ["-e"] : []))
  }

  /// Polls the screen every 20 ms until `condition` holds; throws with the last screen after
  /// `timeout` seconds.
  @discardableResult
  public func waitFor(
    _ what: String, timeout: TimeInterval = 10, _ condition: (String) -> Bool
  ) throws -> String {
    let deadline = Date().addingTimeInterval(timeout)
    var screen = ""
    while true {
      screen = try capture()
      if condition(screen) { return screen }
      if Date() > deadline {
        throw TmuxError(description: "timed out waiting for \(what); the screen was:\n\(screen)")
      }
      Thread.sleep(forTimeInterval: 0.02)
    }
  }

  /// Waits until the screen shows `text`.
  @discardableResult
  public func waitFor(text: String, timeout: TimeInterval = 10) throws -> String {
    try waitFor("\"\(text)\"", timeout: timeout) { $0.contains(text) }
  }

  /// Polls a condition that is not about the screen, every 20 ms until `timeout` seconds.
  public func waitUntil(_ what: String, timeout: TimeInterval = 10, _ condition: () throws -> Bool)
    throws
  {
    let deadline = Date().addingTimeInterval(timeout)
    while try !condition() {
      if Date() > deadline {
        throw TmuxError(
          description: "timed out waiting for \(what); the screen was:\n\((try? capture()) ?? "")")
      }
      Thread.sleep(forTimeInterval: 0.02)
    }
  }

  /// Resizes the window (and its only pane).
  public func resize(width: Int, height: Int) throws {
    try tmuxCommand(["resize-window", "-t", "t", "-x", "\(width)", "-y", "\(height)"])
  }

  private func paneFormat(_ format: String) throws -> String {
    try tmuxCommand(["display-message", "-p", "-t", "t", format])
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// The process id of the pane's command (the `sh -c` that ran it, or what it exec'd).
  public func panePID() throws -> Int32 {
    guard let pid = Int32(try paneFormat("#{pane_pid}")) else {
      throw TmuxError(description: "no pane pid")
    }
    return pid
  }

  /// Whether the pane's command has exited.
  public func paneIsDead() throws -> Bool {
    try paneFormat("#{pane_dead}") == "1"
  }

  /// Waits for the pane's command to exit and returns its exit status.
  public func waitForExit(timeout: TimeInterval = 10) throws -> Int32 {
    // tmux marks the pane dead at end of output, and knows the status once it reaps the child.
    var status = ""
    var signal = ""
    try waitUntil("the program to exit", timeout: timeout) {
      guard try paneIsDead() else { return false }
      status = try paneFormat("#{pane_dead_status}")
      signal = try paneFormat("#{pane_dead_signal}")
      return !status.isEmpty || !signal.isEmpty
    }
    guard let value = Int32(status) else {
      throw TmuxError(description: "the program was killed by signal \(signal)")
    }
    return value
  }

  /// The raw bytes logged so far.
  public func loggedOutput() -> Data {
    (try? Data(contentsOf: logFile)) ?? Data()
  }

  /// What a recording shell prints once the program has ended (see `endOfRunCommand`).
  public static let endOfRunMarker = "<checklists-e2e: end of run>"

  /// The shell command that prints `endOfRunMarker` to the pane.
  public static let endOfRunCommand = "printf '%s\\n' \(shellQuote(endOfRunMarker))"

  /// Everything the program wrote, without the marker: tmux copies pane output to the log
  /// asynchronously, so this waits until the shell's end-of-run marker has come through it.
  public func loggedOutputOfFinishedRun(timeout: TimeInterval = 10) throws -> Data {
    let marker = Data(Self.endOfRunMarker.utf8)
    var log = Data()
    try waitUntil("the end-of-run marker in the output log", timeout: timeout) {
      log = loggedOutput()
      return log.range(of: marker) != nil
    }
    guard let range = log.range(of: marker) else { return log }
    return Data(log[..<range.lowerBound])
  }

  /// A file in the session's directory, as text ("" when missing).
  public func text(of name: String) -> String {
    (try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)) ?? ""
  }

  /// Whether a file exists in the session's directory.
  public func fileExists(_ name: String) -> Bool {
    FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path)
  }
}
