import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The COMMANDS sections of the README and the man page, rendered from `CommandSpec.all` so
/// that they cannot drift from the commands; `scripts/update-docs` writes them between
/// the files' marker comments and a test fails when the committed files differ.
enum CommandDocs {
  /// The formats `checklists help --format` prints.
  enum Format: String, CaseIterable {
    case markdown, man
  }

  /// The section in `format`, without the marker lines.
  static func render(_ format: Format, commands: [CommandSpec] = CommandSpec.all) -> String {
    switch format {
    case .markdown: return markdown(commands)
    case .man: return man(commands)
    }
  }

  /// One bullet per command: its usage in code, then its summary.
  static func markdown(_ commands: [CommandSpec]) -> String {
    commands.map { "- `\($0.usage)`: \($0.summary)\n" }.joined()
  }

  /// A `.TP` paragraph per command: the usage line in bold and italics, then the summary and
  /// the details, escaped for troff.
  static func man(_ commands: [CommandSpec]) -> String {
    var lines: [String] = []
    for command in commands {
      lines.append(".TP")
      var words = ["\\fB\(troff(command.name))\\fR"]
      words += command.positionals.map { "\\fI\(troff($0))\\fR" }
      words += command.optionalPositionals.map { "[\\fI\(troff($0))\\fR]" }
      words += command.valueOptions.map {
        "[\\fB\(troff($0.0.rawValue))\\fR \\fI\(troff($0.1))\\fR]"
      }
      words += command.flags.map { "[\\fB\(troff($0.rawValue))\\fR]" }
      lines.append(words.joined(separator: " "))
      lines.append(troffLine(command.summary))
      if !command.details.isEmpty {
        for line in command.details.split(separator: "\n", omittingEmptySubsequences: false) {
          // A line indented in the help text (an example) keeps its own line in the manual.
          if line.hasPrefix(" ") { lines.append(".br") }
          lines.append(troffLine(String(line)))
          if line.hasPrefix(" ") { lines.append(".br") }
        }
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Text with troff's special characters escaped: backslash and hyphen-minus.
  static func troff(_ text: String) -> String {
    TextMatching.replacing(
      "-", with: "\\-", in: TextMatching.replacing("\\", with: "\\e", in: text))
  }

  /// A whole line of text: escaped, and guarded when it would start with a control character
  /// (`.` or `'`) or with spaces.
  private static func troffLine(_ text: String) -> String {
    let escaped = troff(text.trimmingSpaces())
    return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
  }
}
