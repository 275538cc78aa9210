import ChecklistsTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The real tools of a sync set-up, as `.ci/run` installs them from Debian.
enum SyncTools {
  static let python = "/usr/bin/python3"
  static let vdirsyncer = "/usr/bin/vdirsyncer"
  static let todoman = "/usr/bin/todoman"

  /// Fails the test loudly when a tool is missing (CI installs them; a skipped test proves
  /// nothing).
  static func require() throws {
    for tool in [python, vdirsyncer, todoman] {
      try #require(
        FileManager.default.isExecutableFile(atPath: tool),
        "\(tool) is missing: install radicale, vdirsyncer, todoman and python3-icalendar (.ci/run)")
    }
    let check = try BuiltBinary.run(
      ["-c", "import radicale, icalendar"], environment: ["PATH": "/usr/bin:/bin"],
      executablePath: python)
    try #require(
      check.status == 0, "Debian's radicale or python3-icalendar is missing: \(check.stderr)")
  }
}

/// A sandbox with a data file, a vdir, vdirsyncer's config and (when started) a Radicale
/// server on 127.0.0.1 with a free port and its storage in the sandbox.
final class SyncRig {
  let sandbox = CLITestSandbox()
  var root: String { sandbox.root }
  /// The vdir of the documented config (`~` is the sandbox).
  var vdir: String { root + "/.local/share/vdir/lists" }
  private(set) var port: Int32 = 0
  private var server: Process?

  init() throws {
    try SyncTools.require()
    try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
    try Self.write(root + "/dav.py", Self.davScript)
    try Self.write(root + "/validate.py", Self.validateScript)
    try Self.write(root + "/occurrences.py", Self.occurrencesScript)
  }

  deinit {
    if let server, server.isRunning {
      kill(server.processIdentifier, SIGKILL)
      server.waitUntilExit()
    }
    sandbox.remove()
  }

  var environment: [String: String] {
    sandbox.environment.merging([
      "XDG_CONFIG_HOME": root + "/config", "VDIRSYNCER_CONFIG": root + "/vdirsyncer.conf",
      "CHECKLISTS_VDIR": vdir,
      // The documented conflict command is `checklists`, found on the PATH.
      "PATH": BuiltBinary.binFolder + ":/usr/bin:/bin",
    ]) { $1 }
  }

  /// The base URL of the user's collections.
  var userURL: String { "http://127.0.0.1:\(port)/test/" }

  /// Starts Radicale and writes vdirsyncer's config for it; returns once it answers.
  func startServer() throws {
    port = try Self.freePort()
    let config = """
      [server]
      hosts = 127.0.0.1:\(port)
      [auth]
      type = none
      [rights]
      type = owner_only
      [storage]
      filesystem_folder = \(root)/radicale
      [logging]
      level = warning

      """
    try Self.write(root + "/radicale.conf", config)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: SyncTools.python)
    process.arguments = ["-m", "radicale", "--config", root + "/radicale.conf"]
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle(forWritingAtPath: "/dev/null")
    try process.run()
    server = process
    let deadline = Date().addingTimeInterval(20)
    while !Self.answers(port: port) {
      try #require(
        process.isRunning, "radicale exited at start (status \(process.terminationStatus))")
      try #require(Date() < deadline, "radicale did not answer on port \(port) within 20 s")
      usleep(20_000)
    }
    try Self.write(root + "/vdirsyncer.conf", try Self.documentedVdirsyncerConfig(port: port))
    // The password file the documented config reads (any password does for this Radicale).
    try Self.write(root + "/.config/vdirsyncer/password", "x\n")
  }

  /// The vdirsyncer config docs/sync.md shows, for this server: only the port and the user
  /// are changed (`~` is the sandbox, where the rig puts the vdir, the status and the password
  /// file), so the documented config is the tested one.
  static func documentedVdirsyncerConfig(port: Int32) throws -> String {
    let doc = try String(
      contentsOfFile: BuiltBinary.repositoryRoot + "/docs/sync.md", encoding: .utf8)
    let marker = "`~/.config/vdirsyncer/config`:\n\n```ini\n"
    let start = try #require(doc.range(of: marker), "docs/sync.md: no vdirsyncer config block")
    let end = try #require(
      doc.range(of: "\n```\n", range: start.upperBound..<doc.endIndex),
      "docs/sync.md: the vdirsyncer config block does not end")
    var config = String(doc[start.upperBound..<end.lowerBound]) + "\n"
    for (documented, tested) in [
      ("127.0.0.1:5232", "127.0.0.1:\(port)"), ("username = \"you\"", "username = \"test\""),
    ] {
      try #require(config.contains(documented), "docs/sync.md's config lacks \(documented)")
      config = config.replacingOccurrences(of: documented, with: tested)
    }
    return config
  }

  /// `checklists ARGS`.
  @discardableResult
  func checklists(_ arguments: String...) throws -> ProcessResult {
    try BuiltBinary.run(arguments, environment: environment)
  }

  /// Runs vdirsyncer with a command; it must succeed.
  func vdirsyncer(_ arguments: String...) throws {
    let run = try BuiltBinary.run(
      arguments, environment: environment, executablePath: SyncTools.vdirsyncer)
    try #require(run.status == 0, "vdirsyncer \(arguments): \(run.stderr)")
  }

  /// The first round of a new set-up: our sync (`--init`) makes the folders, `vdirsyncer discover`
  /// (answering yes) pairs them with the server's collections, `metasync` brings the names,
  /// `sync` the items, and our second sync takes in what came from the server.
  @discardableResult
  func firstRound() throws -> ProcessResult {
    let ours = try checklists("sync", "--init")
    try #require(ours.status == 0, "\(ours.stdout)\(ours.stderr)")
    let discover = try BuiltBinary.run(
      ["-c", "yes | \(SyncTools.vdirsyncer) discover"], environment: environment,
      executablePath: "/bin/sh")
    try #require(discover.status == 0, "vdirsyncer discover: \(discover.stderr)")
    try vdirsyncer("metasync")
    try vdirsyncer("sync")
    return try checklists("sync")
  }

  /// The round a user's timer makes: `vdirsyncer sync`, `checklists sync`, `vdirsyncer sync`.
  @discardableResult
  func round() throws -> ProcessResult {
    try vdirsyncer("sync")
    let run = try checklists("sync")
    try vdirsyncer("sync")
    return run
  }

  /// A WebDAV request through Python's urllib; returns the status and body.
  @discardableResult
  func dav(_ method: String, _ path: String, body: String = "") throws -> (Int, String) {
    let input = root + "/request-body"
    try Self.write(input, body)
    let run = try BuiltBinary.run(
      [root + "/dav.py", method, userURL + path, input], environment: environment,
      executablePath: SyncTools.python)
    let lines = run.stdout.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
    let status = Int(lines.first ?? "") ?? -1
    return (status, lines.count > 1 ? String(lines[1]) : run.stderr)
  }

  /// Makes a VTODO-only calendar on the server (what iOS Reminders shows).
  func makeTaskList(_ name: String, displayName: String) throws {
    let body = """
      <?xml version="1.0" encoding="utf-8"?>
      <D:mkcol xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
        <D:set><D:prop>
          <D:resourcetype><D:collection/><C:calendar/></D:resourcetype>
          <D:displayname>\(displayName)</D:displayname>
          <C:supported-calendar-component-set><C:comp name="VTODO"/></C:supported-calendar-component-set>
        </D:prop></D:set>
      </D:mkcol>
      """
    let (status, text) = try dav("MKCOL", name + "/", body: body)
    try #require(status == 201, "MKCOL \(name): \(status) \(text)")
  }

  /// The server's stored items of a collection: file name -> text (Radicale's storage).
  func serverItems(_ collection: String) -> [String: String] {
    let folder = root + "/radicale/collection-root/test/" + collection
    var result: [String: String] = [:]
    for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    where !name.hasPrefix(".") {
      result[name] = try? String(contentsOfFile: folder + "/" + name, encoding: .utf8)
    }
    return result
  }

  /// The server's collections of the test user.
  func serverCollections() -> [String] {
    let folder = root + "/radicale/collection-root/test"
    return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
      .filter { !$0.hasPrefix(".") }.sorted()
  }

  /// The data file's lists: name -> ["[x] text"].
  func lists() throws -> [String: [String]] {
    var result: [String: [String]] = [:]
    for list in try sandbox.lists() {
      result[list.name] = list.items.map { ($0.checked ? "[x] " : "[ ] ") + $0.text }
    }
    return result
  }

  /// Every `.ics` file of the vdir.
  func vdirFiles() -> [String] {
    var result: [String] = []
    for folder in (try? FileManager.default.contentsOfDirectory(atPath: vdir)) ?? []
    where !folder.hasPrefix(".") {
      for name in (try? FileManager.default.contentsOfDirectory(atPath: vdir + "/" + folder)) ?? []
      where name.hasSuffix(".ics") && !name.hasPrefix(".") {
        result.append(vdir + "/" + folder + "/" + name)
      }
    }
    return result.sorted()
  }

  /// Checks files with Python's icalendar: they parse, and have UID and DTSTAMP on each VTODO,
  /// PRODID and VERSION on the calendar, ACTION and TRIGGER on each VALARM. Returns the
  /// problems.
  func validate(_ files: [String]) throws -> String {
    let run = try BuiltBinary.run(
      [root + "/validate.py"] + files, environment: environment, executablePath: SyncTools.python)
    return run.status == 0 ? "" : run.stdout + run.stderr
  }

  static func write(_ path: String, _ text: String) throws {
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try text.write(toFile: path, atomically: true, encoding: .utf8)
  }

  /// A TCP port nobody listens on now.
  static func freePort() throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    try #require(fd >= 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
    }
    try #require(bound == 0)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return Int32(UInt16(bigEndian: address.sin_port))
  }

  /// Whether something accepts TCP connections on the port.
  static func answers(port: Int32) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    return connected == 0
  }

  static let davScript = #"""
    import base64, sys, urllib.error, urllib.request
    method, url, body_path = sys.argv[1], sys.argv[2], sys.argv[3]
    body = open(body_path, "rb").read() if method in ("PUT", "MKCOL") else None
    request = urllib.request.Request(url, data=body, method=method)
    request.add_header("Authorization", "Basic " + base64.b64encode(b"test:x").decode())
    if method == "PUT":
        request.add_header("Content-Type", "text/calendar; charset=utf-8")
    elif method == "MKCOL":
        request.add_header("Content-Type", "application/xml; charset=utf-8")
    try:
        with urllib.request.urlopen(request) as response:
            print(response.status)
            sys.stdout.write(response.read().decode("utf-8", "replace"))
    except urllib.error.HTTPError as error:
        print(error.code)
        sys.stdout.write(error.read().decode("utf-8", "replace"))
    """#

  static let validateScript = #"""
    import sys
    from icalendar import Calendar
    problems = []
    for path in sys.argv[1:]:
        try:
            calendar = Calendar.from_ical(open(path, "rb").read())
        except Exception as error:
            problems.append("%s: does not parse: %s" % (path, error))
            continue
        for name in ("PRODID", "VERSION"):
            if name not in calendar:
                problems.append("%s: no %s on VCALENDAR" % (path, name))
        todos = [c for c in calendar.walk() if c.name == "VTODO"]
        if not todos:
            problems.append("%s: no VTODO" % path)
        for todo in todos:
            for name in ("UID", "DTSTAMP"):
                if name not in todo:
                    problems.append("%s: no %s on VTODO" % (path, name))
        for alarm in calendar.walk("VALARM"):
            for name in ("ACTION", "TRIGGER"):
                if name not in alarm:
                    problems.append("%s: no %s on VALARM" % (path, name))
    print("\n".join(problems))
    sys.exit(1 if problems else 0)
    """#

  /// Prints a task file's note (its DESCRIPTION, as Python's icalendar unescapes it) and the
  /// first five occurrences of its RRULE from DTSTART (as dateutil, which comes with
  /// python3-icalendar, computes RFC 5545 rules), in seconds since 1970, a line each.
  static let occurrencesScript = #"""
    import sys
    from icalendar import Calendar
    from dateutil.rrule import rrulestr
    calendar = Calendar.from_ical(open(sys.argv[1], "rb").read())
    todo = [c for c in calendar.walk() if c.name == "VTODO"][0]
    print(str(todo.get("DESCRIPTION", "")))
    start = todo.decoded("DTSTART")
    rule = rrulestr(todo.get("RRULE").to_ical().decode(), dtstart=start)
    for date in rule[:5]:
        print(int(date.timestamp()))
    """#
}
