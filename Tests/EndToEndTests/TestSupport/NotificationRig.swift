import ChecklistsTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A private session bus with a real notification server on it: `dbus-daemon`, Xvfb and dunst
/// (configured to keep every notification until it is acted on), with `dunstctl` to read what
/// arrived and to press a notification's actions through dunst's menu (a dmenu script).
final class NotificationRig {
  let folder: String
  let busAddress: String
  let display: String
  private let bus: ChildProcess
  private let xvfb: ChildProcess
  private var dunst: Process?

  /// Starts the bus and the display; `withServer: false` leaves dunst out (`startServer()`).
  init(withServer: Bool = true) throws {
    folder = NSTemporaryDirectory() + "checklists-notify-" + UUID().uuidString.prefix(8)
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let daemon = try #require(installedTool("dbus-daemon"), "dbus is installed by .ci/run")
    // A session bus that starts no service on demand (the system's session configuration would
    // start dunst by itself as soon as a notification is sent).
    try """
    <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
     "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
    <busconfig>
      <type>session</type>
      <listen>unix:path=\(folder)/bus</listen>
      <policy context="default">
        <allow send_destination="*" eavesdrop="true"/>
        <allow eavesdrop="true"/>
        <allow own="*"/>
      </policy>
    </busconfig>
    """.write(toFile: folder + "/bus.conf", atomically: true, encoding: .utf8)
    bus = try ChildProcess(
      daemon, ["--config-file=\(folder)/bus.conf", "--nofork", "--print-address"])
    busAddress = try #require(bus.waitForLine(startingWith: "unix:", deadline: 10))
    let server = try #require(installedTool("Xvfb"), "xvfb is installed by .ci/run")
    xvfb = try ChildProcess(server, ["-displayfd", "1", "-nolisten", "tcp"])
    let number = try #require(xvfb.waitForLine(startingWith: "", deadline: 20))
    display = ":" + number.trimmingCharacters(in: .whitespaces)
    try """
    [global]
        dmenu = \(folder)/dmenu.sh
        history_length = 100
    [urgency_low]
        timeout = 0
    [urgency_normal]
        timeout = 0
    [urgency_critical]
        timeout = 0
    [keep]
        appname = "*"
        override_dbus_timeout = 0
    """.write(toFile: folder + "/dunstrc", atomically: true, encoding: .utf8)
    // dunst's menu: picks the line of the wanted notification id and action.
    try "#!/bin/sh\ngrep -m1 -F -- \"$(cat '\(folder)/choice')\"\n".write(
      toFile: folder + "/dmenu.sh", atomically: true, encoding: .utf8)
    chmod(folder + "/dmenu.sh", 0o755)
    if withServer { try startServer() }
  }

  /// What every process of the test needs to reach the bus and the display.
  var environment: [String: String] {
    ["DBUS_SESSION_BUS_ADDRESS": busAddress, "DISPLAY": display]
  }

  /// Starts dunst and waits until it owns its name on the bus.
  func startServer() throws {
    let program = try #require(installedTool("dunst"), "dunst is installed by .ci/run")
    var variables = ProcessInfo.processInfo.environment
    for (key, value) in environment { variables[key] = value }
    dunst = try startProcess(
      program, ["-config", folder + "/dunstrc"], environment: variables, discardingOutput: true)
    let deadline = Date().addingTimeInterval(10)
    while (try? ctl("count", "displayed"))?.status != 0 {
      try #require(Date() < deadline, "dunst did not start")
      usleep(20_000)
    }
  }

  /// Runs `dunstctl` on the rig's bus.
  @discardableResult
  func ctl(_ arguments: String...) throws -> ProcessResult {
    let program = try #require(installedTool("dunstctl"), "dunst is installed by .ci/run")
    var variables = ProcessInfo.processInfo.environment
    for (key, value) in environment { variables[key] = value }
    return try runProcess(program, arguments, environment: variables)
  }

  /// How many notifications are on screen.
  func displayedCount() throws -> Int {
    Int(try ctl("count", "displayed").stdout.trimmingCharacters(in: .whitespacesAndNewlines))
      ?? -1
  }

  /// Presses `action` ("done", "snooze") on notification `id` through dunst's menu.
  func press(_ action: String, on id: UInt32) throws {
    try "[\(id),\(action)]".write(toFile: folder + "/choice", atomically: true, encoding: .utf8)
    try ctl("context")
  }

  /// One notification as dunst's history holds it.
  struct Shown: Equatable {
    var id: Int
    var summary: String
    var body: String
  }

  /// Closes every notification on screen (into the history) and returns the whole history,
  /// oldest first.
  func closeAllAndReadHistory() throws -> [Shown] {
    try ctl("close-all")
    let data = Data(try ctl("history").stdoutBytes)
    let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let groups = try #require(root["data"] as? [[[String: Any]]])
    func field(_ entry: [String: Any], _ name: String) -> Any? {
      (entry[name] as? [String: Any])?["data"]
    }
    return (groups.first ?? []).map { entry in
      Shown(
        id: field(entry, "id") as? Int ?? -1, summary: field(entry, "summary") as? String ?? "",
        body: field(entry, "body") as? String ?? "")
    }.sorted { $0.id < $1.id }
  }

  /// Stops dunst, the display and the bus and removes the folder.
  func close() {
    if let dunst, dunst.isRunning {
      kill(dunst.processIdentifier, SIGKILL)
      dunst.waitUntilExit()
    }
    xvfb.kill()
    bus.kill()
    try? FileManager.default.removeItem(atPath: folder)
  }
}

/// The reminder service running in the background, its stdout lines collected.
final class ReminderServiceProcess {
  let child: ChildProcess

  init(environment: [String: String]) throws {
    child = try ChildProcess(
      try BuiltBinary.existingPath(), ["reminders"], environment: environment)
  }

  /// The lines saying a notification for `text` was delivered.
  func deliveries(_ text: String) -> [String] {
    child.lines.filter { $0.hasPrefix("delivered") && $0.contains(text) }
  }

  /// Waits for a delivery of `text` after the first `count`; returns the notification id.
  func waitForDelivery(_ text: String, after count: Int = 0, deadline: Double = 10) -> UInt32? {
    guard child.waitUntil(deadline: deadline, { _ in deliveries(text).count > count }),
      let line = deliveries(text).last,
      let open = line.range(of: "(notification ", options: .backwards)
    else { return nil }
    return UInt32(line[open.upperBound...].dropLast())
  }

  /// The voluntary context switches of all the process's threads so far (each wake-up from a
  /// wait is one; `/proc/PID/status` alone counts only the main thread's).
  var wakeUps: Int? {
    let tasks = "/proc/\(child.pid)/task"
    guard let threads = try? FileManager.default.contentsOfDirectory(atPath: tasks),
      !threads.isEmpty
    else { return nil }
    var total = 0
    for thread in threads {
      guard
        let status = try? String(contentsOfFile: "\(tasks)/\(thread)/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: {
          $0.hasPrefix("voluntary_ctxt_switches:")
        }),
        let count = Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces))
      else { return nil }
      total += count
    }
    return total
  }

  /// The CPU time the process has used, all threads, in clock ticks (`utime` + `stime` of
  /// `/proc/PID/stat`, 10 ms each): the measure of the app's idle check (docs/performance.md).
  var cpuTicks: Int? {
    guard let stat = try? String(contentsOfFile: "/proc/\(child.pid)/stat", encoding: .utf8),
      let closing = stat.lastIndex(of: ")")
    else { return nil }
    // After the command's name: state is field 3, utime 14 and stime 15.
    let fields = stat[stat.index(after: closing)...].split(separator: " ")
    guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else {
      return nil
    }
    return user + system
  }

  func stop() { child.kill() }
}
