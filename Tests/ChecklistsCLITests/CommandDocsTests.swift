import ChecklistsTestSupport
import Foundation
import Testing

@testable import ChecklistsCLI

/// The docs' COMMANDS sections come from the command table: a test fails when the committed
/// README or man page differs (run `scripts/update-docs`).
@Suite struct CommandDocsTests {
  /// The lines strictly between the marker lines `begin` and `end` of a file in the repository.
  static func section(of file: String, begin: String, end: String) throws -> String {
    let text = try String(
      contentsOfFile: BuiltBinary.repositoryRoot + "/" + file, encoding: .utf8)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let start = try #require(lines.firstIndex { $0 == begin }, "no \(begin) in \(file)")
    let stop = try #require(lines.firstIndex { $0 == end }, "no \(end) in \(file)")
    try #require(start < stop, "\(end) comes before \(begin) in \(file)")
    return lines[(start + 1)..<stop].map { $0 + "\n" }.joined()
  }

  @Test func theReadmeListsTheCommandsOfTheTable() throws {
    let committed = try Self.section(
      of: "README.md", begin: "<!-- BEGIN GENERATED commands -->",
      end: "<!-- END GENERATED commands -->")
    #expect(
      committed == CommandDocs.render(.markdown),
      "README.md is stale: run scripts/update-docs")
  }

  @Test func theManPageListsTheCommandsOfTheTable() throws {
    let committed = try Self.section(
      of: "docs/checklists.1", begin: ".\\\" BEGIN GENERATED commands",
      end: ".\\\" END GENERATED commands")
    #expect(
      committed == CommandDocs.render(.man),
      "docs/checklists.1 is stale: run scripts/update-docs")
  }

  @Test func everyCommandIsDocumentedWithItsOptions() {
    let markdown = CommandDocs.render(.markdown)
    let man = CommandDocs.render(.man)
    for command in CommandSpec.all {
      #expect(markdown.contains("`\(command.usage)`: \(command.summary)"))
      #expect(man.contains("\\fB\(CommandDocs.troff(command.name))\\fR"))
      for option in command.options {
        #expect(man.contains("\\fB\(CommandDocs.troff(option.rawValue))\\fR"), "\(option)")
      }
    }
    #expect(!markdown.contains("checklists help"), "the hidden help command is not documented")
  }

  @Test func manTextIsEscapedForTroff() {
    #expect(CommandDocs.troff("--no-due \\n") == "\\-\\-no\\-due \\en")
    let spec = CommandSpec(
      name: "x", positionals: [], summary: ".starts with a dot", details: "  indented -- line"
    ) { _, _ throws(CLIError) in 0 }
    #expect(
      CommandDocs.render(.man, commands: [spec])
        == ".TP\n\\fBx\\fR\n\\&.starts with a dot\n.br\nindented \\-\\- line\n.br\n")
  }

  @Test func helpPrintsEitherSectionOrTheOverview() {
    let sandbox = CLITestSandbox()
    defer { sandbox.remove() }
    let markdown = sandbox.call("help", "--format", "markdown")
    #expect(markdown.status == 0)
    #expect(markdown.stdout == CommandDocs.render(.markdown))
    let man = sandbox.call("help", "--format=man")
    #expect(man.stdout == CommandDocs.render(.man))
    #expect(sandbox.call("help").stdout == CommandSpec.overview)
    let bad = sandbox.call("help", "--format", "html")
    #expect(bad.status == 2)
    #expect(bad.stderr.hasPrefix("checklists: --format is markdown or man, not \"html\"\n"))
    #expect(!FileManager.default.fileExists(atPath: sandbox.root + "/data"))
  }
}

/// The option table: names are an enum, and a spec declares each option once.
@Suite struct CommandOptionTests {
  @Test func everyOptionOfTheEnumIsUsedAndNoCommandDeclaresOneTwice() {
    var used: Set<OptionName> = []
    for command in CommandSpec.all + CommandSpec.hidden {
      let declared = command.valueOptions.map(\.0) + command.flags
      #expect(Set(declared).count == declared.count, "\(command.name)")
      used.formUnion(declared)
    }
    #expect(used == Set(OptionName.allCases))
  }

  @Test func parsingFillsTypedValuesAndFlags() throws {
    let parsed = try ItemCommands.edit.parse(["L", "1", "--text=New", "--no-due"])
    #expect(parsed.positionals == ["L", "1"])
    #expect(parsed.value(.text) == "New")
    #expect(parsed.value(.due) == nil)
    #expect(parsed.has(.noDue))
    #expect(!parsed.has(.remind))
    #expect(!parsed.wantsHelp)
    #expect(try ItemCommands.edit.parse(["-h"]).wantsHelp)
  }
}
