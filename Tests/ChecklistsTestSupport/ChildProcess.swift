import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A child process running in the background whose stdout lines are collected as they arrive
/// (for programs that announce what they do: a save loop, a lock holder).
public final class ChildProcess {
  /// The running process.
  public let process = Process()
  private let output = Pipe()
  private let errors = Pipe()
  private var pending = ""
  /// The whole lines read so far.
  public private(set) var lines: [String] = []

  /// Starts `executable` with `arguments` (and exactly `environment`, default this process's).
  public init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil)
    throws
  {
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    process.standardOutput = output
    process.standardError = errors
    try process.run()
  }

  /// The child's process id.
  public var pid: Int32 { process.processIdentifier }

  /// Reads lines until one starts with `prefix` (returned) or `seconds` pass or stdout ends.
  public func waitForLine(startingWith prefix: String, deadline seconds: Double) -> String? {
    if let line = lines.first(where: { $0.hasPrefix(prefix) }) { return line }
    let end = Date().addingTimeInterval(seconds)
    while Date() < end {
      guard readAvailable(timeoutMilliseconds: 100) else { return nil }
      if let line = lines.first(where: { $0.hasPrefix(prefix) }) { return line }
    }
    return nil
  }

  /// Waits (up to `seconds`) until stdout holds `text`; false on timeout or end of output.
  public func waitForOutput(_ text: String, deadline seconds: Double = 20) -> Bool {
    let end = Date().addingTimeInterval(seconds)
    while !pending.contains(text) && !lines.contains(where: { $0.contains(text) }) {
      guard Date() < end, readAvailable(timeoutMilliseconds: 100) else { return false }
    }
    return true
  }

  /// Waits (up to `seconds`) until `condition` holds for the lines read so far; false on
  /// timeout or end of output.
  public func waitUntil(deadline seconds: Double, _ condition: ([String]) -> Bool) -> Bool {
    let end = Date().addingTimeInterval(seconds)
    while !condition(lines) {
      guard Date() < end, readAvailable(timeoutMilliseconds: 100) else { return false }
    }
    return true
  }

  /// Reads what is there within the timeout; false once stdout has ended.
  @discardableResult
  private func readAvailable(timeoutMilliseconds: Int32) -> Bool {
    let fd = output.fileHandleForReading.fileDescriptor
    var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    guard poll(&poller, 1, timeoutMilliseconds) > 0 else { return true }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = read(fd, &buffer, buffer.count)
    if count <= 0 { return false }
    pending += String(decoding: buffer[0..<count], as: UTF8.self)
    while let newline = pending.firstIndex(of: "\n") {
      lines.append(String(pending[..<newline]))
      pending = String(pending[pending.index(after: newline)...])
    }
    return true
  }

  /// Kills the child, waits for it and reads the rest of its output.
  public func kill(_ signal: Int32 = SIGKILL) {
    _ = Foundation.kill(pid, signal)
    process.waitUntilExit()
    while readAvailable(timeoutMilliseconds: 0) {
      let fd = output.fileHandleForReading.fileDescriptor
      var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      if poll(&poller, 1, 0) <= 0 { break }
    }
  }

  /// Everything the child wrote to stderr (waits for the end of it).
  public func errorOutput() -> String {
    String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  }
}
