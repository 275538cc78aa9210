import ChecklistsCore
import ChecklistsTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A second device on the rig's server, as a phone: its own vdir and vdirsyncer config (the
/// server wins its conflicts, as a phone's own edits are made on the server), its files edited
/// as iOS does (the whole task written again, with a new LAST-MODIFIED).
extension SyncRig {
  var phoneVdir: String { root + "/phone-vdir" }

  var phoneEnvironment: [String: String] {
    environment.merging(["VDIRSYNCER_CONFIG": root + "/phone.conf"]) { $1 }
  }

  /// Writes the phone's config and brings every collection of the server to the phone.
  func startPhone() throws {
    try Self.write(
      root + "/phone.conf",
      """
      [general]
      status_path = "\(root)/phone-status/"

      [pair phone]
      a = "phone_local"
      b = "phone_remote"
      collections = ["from b"]
      conflict_resolution = "b wins"

      [storage phone_local]
      type = "filesystem"
      path = "\(phoneVdir)/"
      fileext = ".ics"

      [storage phone_remote]
      type = "caldav"
      url = "http://127.0.0.1:\(port)/"
      username = "test"
      password = "x"
      item_types = ["VTODO"]

      """)
    let discover = try BuiltBinary.run(
      ["-c", "yes | \(SyncTools.vdirsyncer) discover"], environment: phoneEnvironment,
      executablePath: "/bin/sh")
    try #require(discover.status == 0, "phone: vdirsyncer discover: \(discover.stderr)")
    try phoneSync()
  }

  /// `vdirsyncer sync` on the phone; it must succeed.
  func phoneSync() throws {
    let run = try BuiltBinary.run(
      ["sync"], environment: phoneEnvironment, executablePath: SyncTools.vdirsyncer)
    try #require(run.status == 0, "phone: vdirsyncer sync: \(run.stderr)")
  }

  /// The phone's task files: SUMMARY -> path.
  func phoneFiles() -> [String: String] {
    var result: [String: String] = [:]
    let manager = FileManager.default
    for folder in (try? manager.contentsOfDirectory(atPath: phoneVdir)) ?? []
    where !folder.hasPrefix(".") {
      for name in (try? manager.contentsOfDirectory(atPath: phoneVdir + "/" + folder)) ?? []
      where name.hasSuffix(".ics") && !name.hasPrefix(".") {
        let path = phoneVdir + "/" + folder + "/" + name
        let lines = storedLines(try? String(contentsOfFile: path, encoding: .utf8))
        if let summary = lines.first(where: { $0.hasPrefix("SUMMARY:") }) {
          result[String(summary.dropFirst(8))] = path
        }
      }
    }
    return result
  }

  /// The phone's tasks: SUMMARY -> unfolded lines.
  func phoneTasks() -> [String: [String]] {
    phoneFiles().mapValues { storedLines(try? String(contentsOfFile: $0, encoding: .utf8)) }
  }

  /// Edits the phone's task `summary` as iOS does: `edit` changes its unfolded VTODO lines (the
  /// alarms' lines too); the whole file is written again with a new LAST-MODIFIED and DTSTAMP.
  func phoneEdit(_ summary: String, stamp: String, _ edit: (inout [String]) -> Void) throws {
    let path = try #require(phoneFiles()[summary], "the phone has no task \(summary)")
    var lines = storedLines(try String(contentsOfFile: path, encoding: .utf8))
    edit(&lines)
    lines = lines.map {
      $0.hasPrefix("LAST-MODIFIED:")
        ? "LAST-MODIFIED:" + stamp : $0.hasPrefix("DTSTAMP:") ? "DTSTAMP:" + stamp : $0
    }
    let temporary = path + ".tmp"
    try (lines.joined(separator: "\r\n") + "\r\n").write(
      toFile: temporary, atomically: false, encoding: .utf8)
    try #require(rename(temporary, path) == 0)
  }

  /// Adds a task on the phone to the collection that holds `beside`.
  func phoneAdd(uid: String, summary: String, beside: String) throws {
    let path = try #require(phoneFiles()[beside], "the phone has no task \(beside)")
    let folder = (path as NSString).deletingLastPathComponent
    try Self.write(folder + "/" + uid + ".ics", iosTask(uid: uid, summary: summary))
  }

  /// Deletes the phone's task `summary`.
  func phoneDelete(_ summary: String) throws {
    let path = try #require(phoneFiles()[summary], "the phone has no task \(summary)")
    try FileManager.default.removeItem(atPath: path)
  }

  /// The cron line docs/sync.md gives (`*/5 * * * * COMMANDS`), run as cron would, with
  /// vdirsyncer's and our output; `checklists` and `vdirsyncer` are found on the PATH.
  @discardableResult
  func documentedCronLine() throws -> ProcessResult {
    let doc = try String(
      contentsOfFile: BuiltBinary.repositoryRoot + "/docs/sync.md", encoding: .utf8)
    let line = try #require(
      doc.split(separator: "\n").first { $0.hasPrefix("    */5 * * * * ") },
      "docs/sync.md: no cron line")
    let commands = String(line.dropFirst("    */5 * * * * ".count))
    try #require(commands.contains("checklists sync"), "the cron line: \(commands)")
    return try BuiltBinary.run(
      ["-c", commands], environment: environment, executablePath: "/bin/sh")
  }

  /// The item of the data file with `text`.
  func item(_ text: String) throws -> ChecklistItemSnapshot {
    let items = try sandbox.lists().flatMap(\.items)
    let found = try #require(items.first { $0.text == text }, "no item \(text) in the data file")
    return ChecklistItemSnapshot(
      text: found.text, checked: found.checked,
      due: found.hasDueDate ? found.dueDate : nil, note: found.note)
  }
}

/// What a test compares of an item.
struct ChecklistItemSnapshot: Equatable {
  var text: String
  var checked: Bool
  var due: Date?
  var note: String
}
