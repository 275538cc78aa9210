/// The full-screen app's key table as `keys` and `config --check` read it. The table belongs to
/// the UI (`KeyTable` in ChecklistsUI), which the scripting commands do not import: the UI
/// gives these answers (`AppKeyTable.ui`), and the program hands them to the commands.
public struct AppKeyTable: Sendable {
  /// The names of the output formats, the first the default (`text`, `json`, `markdown`, `man`).
  public var formats: [String]
  /// The table in the format named (one of `formats`), with a configuration's `bind` lines
  /// applied, or the defaults alone for nil.
  public var rendered: @Sendable (_ config: ConfigFile?, _ format: String) -> String
  /// Every problem of a configuration file as the table reads it (its unreadable lines and the
  /// `bind` lines that could not be applied), by line.
  public var problems: @Sendable (ConfigFile) -> [ConfigProblem]

  /// The table's answers.
  public init(
    formats: [String], rendered: @escaping @Sendable (ConfigFile?, String) -> String,
    problems: @escaping @Sendable (ConfigFile) -> [ConfigProblem]
  ) {
    self.formats = formats
    self.rendered = rendered
    self.problems = problems
  }
}
