import ChecklistsCore
import ChecklistsTestSupport
import Foundation
import Testing

extension EndToEndProcesses {
  @Suite("CLI: the built binary finds out whether its output is a terminal", .serialized)
  struct CLITerminalOutputTests {
    @Test func controlCharactersAreMadeVisibleOnATerminalOnly() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      var list = Checklist(name: "Evil\u{1B}[31mRed")
      list.insertItem(ChecklistItem(text: "Bell\u{07}\u{7F}", itemID: 1))
      try sandbox.writeData([list], format: .binary)
      let piped = try sandbox.run("show", "1")
      #expect(piped.stdout == "Evil\u{1B}[31mRed — 1 Remaining\n1. [ ] Bell\u{07}\u{7F}\n")
      let terminal = try BuiltBinary.runOnTerminal(["show", "1"], environment: sandbox.environment)
      #expect(terminal.status == 0)
      #expect(terminal.output == "Evil^[[31mRed — 1 Remaining\n1. [ ] Bell^G^?\n")
    }
  }
}
