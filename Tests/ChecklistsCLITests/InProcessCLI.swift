import ChecklistsCLI
import ChecklistsTestSupport
import ChecklistsUI
import Foundation

/// What a command run in-process wrote to its two streams, kept in memory.
final class CapturedStreams: @unchecked Sendable {
  private let lock = NSLock()
  private var output = Data()
  private var errors = Data()

  /// Streams that append here, as pipes (not terminals) unless told otherwise.
  func streams(outputIsTerminal: Bool = false, errorIsTerminal: Bool = false) -> CLIStreams {
    CLIStreams(
      output: { data in self.locked { self.output.append(data) } },
      error: { data in self.locked { self.errors.append(data) } },
      outputIsTerminal: outputIsTerminal, errorIsTerminal: errorIsTerminal)
  }

  /// What was written so far, as a finished run's result with `status`.
  func result(status: Int32) -> ProcessResult {
    locked {
      ProcessResult(
        status: status, stdoutBytes: output, stderr: String(decoding: errors, as: UTF8.self))
    }
  }

  private func locked<T>(_ body: () -> T) -> T {
    lock.lock()
    defer { lock.unlock() }
    return body()
  }
}

extension CLITestSandbox {
  /// Runs a command in this process with the sandbox's environment (plus `extra`), its output
  /// captured; the status is -1 when the words name no command (the binary would start the
  /// full-screen app).
  func call(_ arguments: String..., extra: [String: String] = [:]) -> ProcessResult {
    call(arguments, extra: extra)
  }

  /// Runs a command in this process, as `call(_:extra:)` does, from an array of words.
  func call(
    _ arguments: [String], extra: [String: String] = [:], outputIsTerminal: Bool = false
  ) -> ProcessResult {
    let captured = CapturedStreams()
    let status = CommandLineInterface.run(
      arguments, environment: environment.merging(extra) { $1 }, keyTable: .ui,
      streams: captured.streams(outputIsTerminal: outputIsTerminal))
    return captured.result(status: status ?? -1)
  }
}
