/// Why the full-screen terminal could not start.
public enum TerminalError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Standard input or output is not a terminal (names which).
  case notATerminal(stream: String)
  /// `TERM` is unset or empty.
  case noTerminalType
  /// curses does not know the terminal `TERM` names.
  case unknownTerminalType(String)
  /// The terminal cannot do full-screen output (no cursor addressing, e.g. `dumb`).
  case unsuitableTerminal(String)

  /// The one-line message for the user (without the program's name, which the line gets when
  /// it is printed).
  public var description: String {
    switch self {
    case .notATerminal(let stream):
      return "\(stream) is not a terminal; run it in a terminal, or use a command "
        + "such as `checklists lists`"
    case .noTerminalType:
      return "TERM is not set; set it to your terminal's type (e.g. xterm-256color)"
    case .unknownTerminalType(let name):
      return "unknown terminal type \"\(name)\" (TERM); set TERM to one the system "
        + "knows (e.g. xterm-256color)"
    case .unsuitableTerminal(let name):
      return "the terminal type \"\(name)\" (TERM) cannot move the cursor; "
        + "use a full-screen terminal"
    }
  }
}
