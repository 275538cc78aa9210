import ChecklistsCore
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// What a finished program printed and returned.
public struct ProcessResult: Sendable {
  /// The exit status, or 128 + the signal's number when a signal ended it.
  public var status: Int32
  /// Standard output, byte for byte.
  public var stdoutBytes: Data
  /// Standard error as text.
  public var stderr: String

  /// A result with these parts.
  public init(status: Int32, stdoutBytes: Data, stderr: String) {
    self.status = status
    self.stdoutBytes = stdoutBytes
    self.stderr = stderr
  }

  /// Standard output as text.
  public var stdout: String { String(decoding: stdoutBytes, as: UTF8.self) }
}

/// Why a program could not be started.
public struct ProcessRunError: Error, CustomStringConvertible {
  /// The program and the `posix_spawn` error.
  public var description: String
}

/// Runs a program to its end (standard input from the file `standardInput`, default
/// `/dev/null`; exactly `environment`, default this process's) and returns its exit status,
/// standard output and standard error.
///
/// This is the one way the tests run a program to completion. Output goes through temporary
/// files, not pipes: a tmux server forked by the first command would keep a pipe open forever,
/// and a program cannot block on a full pipe. `posix_spawn` and `waitpid`, because Foundation's
/// `Process` missed the exit of tmux's forking client. The child starts with no blocked signals
/// and default handlers (test threads block most signals and a child would inherit that mask).
@discardableResult
public func runProcess(
  _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
  standardInput: String? = nil
) throws -> ProcessResult {
  let base = FileManager.default.temporaryDirectory.appendingPathComponent(
    "checklists-test-run-\(UUID().uuidString)")
  let outputURL = base.appendingPathExtension("out")
  let errorURL = base.appendingPathExtension("err")
  defer {
    try? FileManager.default.removeItem(at: outputURL)
    try? FileManager.default.removeItem(at: errorURL)
  }
  let pid = try spawn(
    executable, arguments, environment: environment,
    files: (standardInput ?? "/dev/null", outputURL.path, errorURL.path))
  var status: Int32 = 0
  while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
  let exited = status & 0x7F == 0
  let exitStatus = exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
  let output = (try? Data(contentsOf: outputURL)) ?? Data()
  let errorText = (try? String(contentsOf: errorURL, encoding: .utf8)) ?? ""
  return ProcessResult(status: exitStatus, stdoutBytes: output, stderr: errorText)
}

/// Starts a program in the background (input from `/dev/null`, output and errors as this
/// process's or, `discardingOutput`, on `/dev/null`; exactly `environment`, default this
/// process's) and returns it running: for a
/// program the test waits for (`waitUntilExit()`) or watches (`isRunning`) while it does
/// something else. A program whose output the test reads is a `ChildProcess`.
public func startProcess(
  _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
  discardingOutput: Bool = false
) throws -> Process {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: executable)
  process.arguments = arguments
  if let environment { process.environment = environment }
  process.standardInput = FileHandle.nullDevice
  if discardingOutput {
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
  }
  try process.run()
  return process
}

/// Starts a program with its standard input, output and error opened on the given files and
/// the signal mask and handlers reset; returns its process id.
func spawn(
  _ executable: String, _ arguments: [String], environment: [String: String]?,
  files: (input: String, output: String, error: String)
) throws -> pid_t {
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 0, files.input, O_RDONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 1, files.output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
  posix_spawn_file_actions_addopen(&actions, 2, files.error, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
  let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
  let variables = environment ?? ProcessInfo.processInfo.environment
  let envp: [UnsafeMutablePointer<CChar>?] =
    variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
  defer {
    for pointer in argv { free(pointer) }
    for pointer in envp { free(pointer) }
  }
  var attributes = posix_spawnattr_t()
  posix_spawnattr_init(&attributes)
  defer { posix_spawnattr_destroy(&attributes) }
  SpawnedProcess.resetSignals(&attributes)
  var pid: pid_t = 0
  let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
  guard spawned == 0 else {
    throw ProcessRunError(description: "cannot run \(executable): error \(spawned)")
  }
  return pid
}

/// The first of `/usr/bin/NAME`, `/bin/NAME`, `/usr/local/bin/NAME` that is executable.
public func installedTool(_ name: String) -> String? {
  ["/usr/bin/", "/bin/", "/usr/local/bin/"].map { $0 + name }
    .first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// Quotes a word for `sh`.
public func shellQuote(_ word: String) -> String {
  "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

/// The process ids whose parent is `parent`, from `/proc/*/stat`.
public func childProcesses(of parent: Int32) -> [Int32] {
  guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else {
    return []
  }
  var children: [Int32] = []
  for entry in entries {
    guard let pid = Int32(entry),
      let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
      let closing = stat.lastIndex(of: ")")
    else { continue }
    // After "pid (comm)": state, then the parent's pid.
    let fields = stat[stat.index(after: closing)...].split(separator: " ")
    if fields.count > 1, Int32(fields[1]) == parent { children.append(pid) }
  }
  return children
}
