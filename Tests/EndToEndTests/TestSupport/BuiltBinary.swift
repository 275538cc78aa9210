import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The package's built executables (`swift build` must have run first) and a way to run them.
enum BuiltBinary {
  /// The repository's root, found from this file's path.
  static let repositoryRoot: String = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

  /// The folder `swift build` puts debug executables in.
  static let binFolder: String = {
    let conventional = repositoryRoot + "/.build/debug"
    if FileManager.default.isExecutableFile(atPath: conventional + "/checklists") {
      return conventional
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["swift", "build", "--show-bin-path"]
    process.currentDirectoryURL = URL(fileURLWithPath: repositoryRoot)
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return conventional }
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let path = String(decoding: output, as: UTF8.self)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    return path.isEmpty ? conventional : path
  }()

  /// The path of an executable of the package, e.g. "checklists".
  static func path(_ name: String = "checklists") -> String { binFolder + "/" + name }

  /// What a finished run printed and returned.
  struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
    var stdoutBytes: Data
  }

  /// Runs an executable with `arguments` and exactly `environment`; stdin is empty.
  static func run(
    _ arguments: [String], environment: [String: String], executable: String = "checklists",
    executablePath: String? = nil
  ) throws -> Run {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executablePath ?? path(executable))
    process.arguments = arguments
    process.environment = environment
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try process.run()
    // Read both pipes while the process runs, so that a full pipe cannot block it.
    let group = DispatchGroup()
    let collected = Collected()
    DispatchQueue.global().async(group: group) {
      collected.set(errors: errors.fileHandleForReading.readDataToEndOfFile())
    }
    let stdoutData = output.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return Run(
      status: process.terminationStatus, stdout: String(decoding: stdoutData, as: UTF8.self),
      stderr: String(decoding: collected.errors, as: UTF8.self), stdoutBytes: stdoutData)
  }

  /// Runs `checklists` with stdout on a pseudo-terminal (through util-linux `script`); returns
  /// the status and what the terminal showed, with the terminal's "\r\n" turned back into "\n".
  static func runOnTerminal(_ arguments: [String], environment: [String: String]) throws -> (
    status: Int32, output: String
  ) {
    let quoted = ([path()] + arguments).map {
      "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
    let run = try run(
      ["-q", "-e", "-c", quoted.joined(separator: " ") + " 2>/dev/null", "/dev/null"],
      environment: environment, executablePath: "/usr/bin/script")
    return (run.status, run.stdout.replacingOccurrences(of: "\r\n", with: "\n"))
  }
}

/// Holds what a background reader collected.
private final class Collected: @unchecked Sendable {
  private let lock = NSLock()
  private var storedErrors = Data()

  var errors: Data {
    lock.lock()
    defer { lock.unlock() }
    return storedErrors
  }

  func set(errors: Data) {
    lock.lock()
    storedErrors = errors
    lock.unlock()
  }
}
