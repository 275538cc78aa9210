#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs another program to its end with `posix_spawn`, its input and output on `/dev/null`
/// (`Process` needs all of Foundation).
public enum SpawnedProcess {
  /// How a run ended.
  public enum Outcome: Equatable, Sendable {
    /// It exited with this status.
    case exited(Int32)
    /// A signal ended it.
    case signalled(Int32)
    /// It was still running at the deadline and was killed.
    case timedOut
    /// It could not be started (the `posix_spawn` error).
    case notStarted(Int32)
  }

  /// Makes a child spawned with `attributes` start with no signal blocked and every handler at
  /// its default, whatever this process's threads block or catch.
  public static func resetSignals(_ attributes: inout posix_spawnattr_t) {
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    var allSignals = sigset_t()
    sigfillset(&allSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
  }

  /// Runs `executable` with `arguments` (and this process's environment), waiting at most
  /// `timeout` seconds.
  public static func run(_ executable: String, _ arguments: [String], timeout: Double) -> Outcome {
    run(executable, arguments, timeout: timeout, standardOutput: nil)
  }

  private static func run(
    _ executable: String, _ arguments: [String], timeout: Double, standardOutput: Int32?
  ) -> Outcome {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    if let standardOutput {
      posix_spawn_file_actions_adddup2(&actions, standardOutput, 1)
    } else {
      posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    }
    let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    resetSignals(&attributes)
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
    guard spawned == 0 else { return .notStarted(spawned) }
    var status: Int32 = 0
    var waited = 0.0
    while true {
      let result = waitpid(pid, &status, WNOHANG)
      if result == pid { break }
      if result < 0 && errno != EINTR { return .notStarted(errno) }
      if waited >= timeout {
        kill(pid, SIGKILL)
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return .timedOut
      }
      usleep(10_000)
      waited += 0.01
    }
    let signal = status & 0x7F
    return signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
  }

  /// The program `name` in the folders of `path` (a `PATH` value; the usual folders when nil).
  public static func find(_ name: String, path: String?) -> String? {
    (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map { "\($0)/\(name)" }
      .first { $0.hasPrefix("/") && access($0, X_OK) == 0 }
  }

  /// Runs `executable` like `run`, and returns what it wrote to standard output when it exited
  /// with status 0 (at most 64 KiB, what a pipe holds); nil otherwise.
  public static func output(_ executable: String, _ arguments: [String], timeout: Double)
    -> String?
  {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return nil }
    defer { close(ends[0]) }
    // The child gets the write end as its output (dup2 clears close-on-exec there), nothing
    // else; our end does not block, so reading stops at the end of what came.
    _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
    _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
    _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
    let outcome = run(executable, arguments, timeout: timeout, standardOutput: ends[1])
    close(ends[1])
    guard outcome == .exited(0) else { return nil }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while bytes.count < 65_536 {
      let count = buffer.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
      if count <= 0 { break }
      bytes += buffer[0..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
