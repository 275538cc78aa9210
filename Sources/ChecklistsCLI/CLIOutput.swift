import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Where the commands print: stdout for results, stderr for errors and notes.
///
/// Text from the file (names, item texts) goes through `shown`, which makes control characters
/// visible (`^[`) when the stream is a terminal, so a name cannot move the cursor or recolour the
/// user's terminal; pipes get the text unchanged.
struct CLIOutput {
  let stdoutIsTerminal = isatty(STDOUT_FILENO) == 1
  let stderrIsTerminal = isatty(STDERR_FILENO) == 1

  /// Writes text as it is to stdout.
  func write(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
  }

  /// Writes bytes to stdout.
  func write(_ data: Data) {
    FileHandle.standardOutput.write(data)
  }

  /// Writes a line to stdout.
  func line(_ text: String) { write(text + "\n") }

  /// Writes a line to stderr, prefixed with "checklists: ".
  func error(_ text: String) {
    let shown = stderrIsTerminal ? ControlCharacters.visible(text) : text
    FileHandle.standardError.write(Data("checklists: \(shown)\n".utf8))
  }

  /// User text as it should appear on stdout.
  func shown(_ text: String) -> String {
    stdoutIsTerminal ? ControlCharacters.visible(text) : text
  }

  /// Reports an error and returns its exit status.
  func fail(_ error: CLIError) -> Int32 {
    self.error(error.message)
    if let usage = error.usage {
      FileHandle.standardError.write(Data("usage: \(usage)\n".utf8))
    }
    return error.status
  }
}

/// Makes control characters visible: C0 as `^@`…`^_`, DEL as `^?`, C1 as `<U+0080>`….
enum ControlCharacters {
  static func visible(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0..<0x20:
        result += "^" + String(UnicodeScalar(UInt8(scalar.value + 0x40)))
      case 0x7F:
        result += "^?"
      case 0x80..<0xA0:
        result += String(format: "<U+%04X>", scalar.value)
      default:
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
