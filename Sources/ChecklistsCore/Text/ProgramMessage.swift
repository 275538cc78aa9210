/// Lines the program writes to standard error: the one place that names the program in them.
public enum ProgramMessage {
  /// `text` as a line of the program's own: "checklists: " and the text (no newline).
  public static func line(_ text: String) -> String { "checklists: " + text }
}
