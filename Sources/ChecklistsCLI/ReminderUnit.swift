import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// `reminders --install` and `--uninstall`: the systemd user unit that runs the reminder
/// service, `$XDG_CONFIG_HOME/systemd/user/checklists-reminders.service`, enabled and started
/// with `systemctl --user` where that works; elsewhere, the line that starts the service from a
/// shell profile.
struct ReminderUnit {
  /// The unit's file name.
  static let name = "checklists-reminders.service"

  /// The program to run (this one, as an absolute path).
  var program: String
  /// The data file it serves.
  var dataFile: String
  /// Variables the service should see as this shell does (the vdir, the time zone).
  var environment: [(String, String)]

  /// The unit for the program and file of this run.
  init(context: CommandContext) {
    program = Self.ownPath() ?? "checklists"
    dataFile = context.location.dataFile
    environment = ["CHECKLISTS_VDIR", "TZ"].compactMap { name in
      context.environment[name].flatMap { $0.isEmpty ? nil : (name, $0) }
    }
  }

  /// The folder of user units: `$XDG_CONFIG_HOME/systemd/user` (default `~/.config`).
  static func folder(environment: [String: String], home: String) -> String {
    let config =
      environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
      ?? home + "/.config"
    return config + "/systemd/user"
  }

  /// The unit file's text.
  var text: String {
    var lines = [
      "# Written by `checklists reminders --install`; removed by `--uninstall`.",
      "[Unit]",
      "Description=Checklists reminders as desktop notifications",
      "",
      "[Service]",
      "Type=exec",
      "ExecStart=\(Self.quoted(program)) --file \(Self.quoted(dataFile)) reminders",
    ]
    for (name, value) in environment {
      lines.append("Environment=\(Self.quoted(name + "=" + value))")
    }
    lines += [
      "Restart=on-failure",
      "RestartSec=10",
      "",
      "[Install]",
      "WantedBy=default.target",
    ]
    return lines.joined(separator: "\n") + "\n"
  }

  /// The line that starts the service from a shell profile (`~/.profile`): in the background,
  /// detached; a second one for the same file stops at once.
  var profileLine: String {
    let variables = environment.map { "\($0.0)=\(Self.shellQuoted($0.1)) " }.joined()
    return
      "(\(variables)\(Self.shellQuoted(program)) --file \(Self.shellQuoted(dataFile)) reminders "
      + ">/dev/null 2>&1 &)"
  }

  /// A word for systemd's command line and `Environment=`: in double quotes, with `\` and `"`
  /// escaped, `%` as `%%` (a specifier) and `$` as `$$` (a variable).
  static func quoted(_ word: String) -> String {
    var result = "\""
    for character in word {
      switch character {
      case "\\": result += "\\\\"
      case "\"": result += "\\\""
      case "%": result += "%%"
      case "$": result += "$$"
      default: result.append(character)
      }
    }
    return result + "\""
  }

  /// A word for `sh`.
  static func shellQuoted(_ word: String) -> String {
    "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''")
      + "'"
  }

  /// This program's absolute path, from `/proc/self/exe`.
  static func ownPath() -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    return String(
      decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}

/// Installs and removes the unit (`reminders --install`, `--uninstall`).
enum ReminderUnitInstaller {
  /// How long one `systemctl --user` call may take.
  static let timeout: Double = 20

  static func install(context: CommandContext) throws(CLIError) -> Int32 {
    let output = context.output
    let unit = ReminderUnit(context: context)
    let folder = ReminderUnit.folder(environment: context.environment, home: home(context))
    let path = folder + "/" + ReminderUnit.name
    let shown = context.location.display(path)
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      try Data(unit.text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      throw .failure("cannot write \(shown): \(String(cString: strerror(errno)))")
    }
    output.line("Wrote \(shown) (for \(context.location.displayPath)).")
    guard let systemctl = systemctl(context) else {
      output.line("systemctl is not installed: start the service from your shell profile")
      output.line("(~/.profile) with this line:")
      output.line("  " + unit.profileLine)
      return 0
    }
    if run(systemctl, ["--user", "daemon-reload"]),
      run(systemctl, ["--user", "enable", "--now", ReminderUnit.name])
    {
      output.line("Enabled and started it: systemctl --user status \(ReminderUnit.name)")
      return 0
    }
    output.line("systemctl --user does not work here (no user service manager): start the")
    output.line("service from your shell profile (~/.profile) with this line:")
    output.line("  " + unit.profileLine)
    return 0
  }

  static func uninstall(context: CommandContext) throws(CLIError) -> Int32 {
    let output = context.output
    let folder = ReminderUnit.folder(environment: context.environment, home: home(context))
    let path = folder + "/" + ReminderUnit.name
    let shown = context.location.display(path)
    guard (try? SystemFileSystem().lstat(path)) != nil else {
      output.line("\(shown) is not installed; nothing to remove.")
      return 0
    }
    if let systemctl = systemctl(context),
      run(systemctl, ["--user", "disable", "--now", ReminderUnit.name])
    {
      output.line("Stopped and disabled \(ReminderUnit.name).")
      _ = run(systemctl, ["--user", "daemon-reload"])
    }
    do throws(SystemCallError) {
      try SystemFileSystem().unlink(path)
    } catch {
      throw .failure("cannot remove \(shown): \(error.reason)")
    }
    output.line("Removed \(shown).")
    return 0
  }

  private static func home(_ context: CommandContext) -> String {
    context.location.homeDirectory ?? PathText.accountHome()
  }

  /// `systemctl` on `PATH`, nil when there is none.
  private static func systemctl(_ context: CommandContext) -> String? {
    SpawnedProcess.find("systemctl", path: context.environment["PATH"])
  }

  private static func run(_ executable: String, _ arguments: [String]) -> Bool {
    if case .exited(0) = SpawnedProcess.run(executable, arguments, timeout: timeout) {
      return true
    }
    return false
  }
}
