import CTerminalSupport
import ChecklistsCore
import ChecklistsUI

#if canImport(Glibc)
  import Glibc
#endif

/// Runs a program full-screen from start to exit status.
public enum FullScreen {
  /// Prepares the process before anything else runs: Swift's crash backtracer made
  /// non-interactive (when `SWIFT_BACKTRACE` is unset) and the crash handler that gives the
  /// terminal back installed.
  ///
  /// The runtime reads `SWIFT_BACKTRACE` when the process starts, so setting it here reaches
  /// processes started from this one, not this process itself; here the crash handler is what
  /// counts: it replaces the backtracer's handlers, restores the terminal and re-raises.
  public static func prepareProcess() {
    setenv("SWIFT_BACKTRACE", "interactive=no", 0)
    ct_install_crash_handlers()
  }

  /// Starts the terminal, makes the program for its size (columns, rows), runs it until it ends
  /// and restores the terminal; prints a one-line error or the exit message to standard error
  /// and returns the exit status.
  public static func run<Program: TerminalProgram>(
    environment: [String: String], hooks: TerminalDriverHooks<Program>,
    makeProgram: (_ width: Int, _ height: Int) -> Program
  ) -> Int32 {
    let terminal: Terminal
    do {
      terminal = try Terminal.start(environment: environment)
    } catch {
      printError(error.description)
      return 1
    }
    let program = makeProgram(terminal.width, terminal.height)
    let driver = TerminalDriver(program: program, terminal: terminal, hooks: hooks)
    let exit = driver.run()
    if let message = exit.message { printError(message) }
    return exit.status
  }

  private static func printError(_ text: String) {
    var bytes = Array((ProgramMessage.line(text) + "\n").utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeMutableBytes { buffer -> Int in
        guard let base = buffer.baseAddress else { return -1 }
        return write(STDERR_FILENO, base + offset, buffer.count - offset)
      }
      if written <= 0 {
        if written < 0 && errno == EINTR { continue }
        return
      }
      offset += written
    }
  }
}
