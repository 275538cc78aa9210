import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Where the commands write: the process's stdout and stderr, or (in tests) anything else.
public struct CLIStreams: Sendable {
  /// Writes bytes to standard output.
  public var output: @Sendable (Data) -> Void
  /// Writes bytes to standard error.
  public var error: @Sendable (Data) -> Void
  /// Whether standard output is a terminal (text from the file then shows control characters).
  public var outputIsTerminal: Bool
  /// Whether standard error is a terminal.
  public var errorIsTerminal: Bool
  /// Why writing to `output` failed (a full disk, a closed pipe), nil while it has not.
  public var outputFailure: @Sendable () -> String?

  /// Streams writing to `output` and `error`, terminals or not as told; `outputFailure` says
  /// why a write to `output` failed.
  public init(
    output: @escaping @Sendable (Data) -> Void, error: @escaping @Sendable (Data) -> Void,
    outputIsTerminal: Bool = false, errorIsTerminal: Bool = false,
    outputFailure: @escaping @Sendable () -> String? = { nil }
  ) {
    self.output = output
    self.error = error
    self.outputIsTerminal = outputIsTerminal
    self.errorIsTerminal = errorIsTerminal
    self.outputFailure = outputFailure
  }

  /// The process's own stdout and stderr.
  public static var standard: CLIStreams {
    let failure = WriteFailure()
    return CLIStreams(
      output: { failure.write($0, to: STDOUT_FILENO) },
      error: { DescriptorWriter.write($0, to: STDERR_FILENO) },
      outputIsTerminal: isatty(STDOUT_FILENO) == 1, errorIsTerminal: isatty(STDERR_FILENO) == 1,
      outputFailure: { failure.reason })
  }
}

/// The first failed write to a descriptor, so that a command whose output was lost (`export >
/// backup.json` on a full disk) fails instead of reporting success.
final class WriteFailure: @unchecked Sendable {
  private let lock = ThreadLock()
  private var failure: String?

  /// Why the first failed write failed.
  var reason: String? {
    lock.lock()
    defer { lock.unlock() }
    return failure
  }

  /// Writes `bytes` to `descriptor`, noting why when that fails; after a failure, writes
  /// nothing more.
  func write(_ bytes: Data, to descriptor: Int32) {
    lock.lock()
    defer { lock.unlock() }
    guard failure == nil, !DescriptorWriter.write(bytes, to: descriptor) else { return }
    failure = String(cString: strerror(errno))
  }
}

/// Where the commands print: stdout for results, stderr for errors and notes.
///
/// Text from the file (names, item texts) goes through `shown`, which makes control characters
/// visible (`^[`) when the stream is a terminal, so a name cannot move the cursor or recolour the
/// user's terminal; pipes get the text unchanged.
struct CLIOutput {
  let streams: CLIStreams
  var stdoutIsTerminal: Bool { streams.outputIsTerminal }
  var stderrIsTerminal: Bool { streams.errorIsTerminal }

  /// Writes text as it is to stdout.
  func write(_ text: String) {
    streams.output(Data(text.utf8))
  }

  /// Writes bytes to stdout.
  func write(_ data: Data) {
    streams.output(data)
  }

  /// Writes a line to stdout.
  func line(_ text: String) { write(text + "\n") }

  /// Writes a line to stderr, prefixed with "checklists: ".
  func error(_ text: String) {
    let shown = stderrIsTerminal ? ControlCharacters.visible(text) : text
    streams.error(Data((ProgramMessage.line(shown) + "\n").utf8))
  }

  /// User text as it should appear on stdout.
  func shown(_ text: String) -> String {
    stdoutIsTerminal ? ControlCharacters.visible(text) : text
  }

  /// Reports an error and returns its exit status.
  func fail(_ error: CLIError) -> Int32 {
    self.error(error.message)
    for note in error.notes { self.error(note) }
    if let usage = error.usage {
      streams.error(Data("usage: \(usage)\n".utf8))
    }
    return error.status
  }
}
