import ChecklistsTestSupport
import Foundation
import Testing

extension EndToEndProcesses {
  @Suite("CLI: a damaged file names its .bak and how to restore it", .serialized)
  struct CLIDamagedFileTests {
    @Test func theHintsCopyCommandBringsBackTheLastVersion() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(sampleLists())
      #expect(try sandbox.run("add", "Groceries", "Bread").status == 0)  // makes the .bak
      #expect(FileManager.default.createFile(atPath: sandbox.dataFile, contents: Data("{".utf8)))
      let refused = try sandbox.run("lists")
      #expect(refused.status != 0)
      let backup = sandbox.dataFile + ".bak"
      #expect(refused.stderr.contains("the version before the last save is in \(backup)"))
      let command = try #require(
        refused.stderr.components(separatedBy: ": cp ").last?
          .trimmingCharacters(in: .whitespacesAndNewlines), "\(refused.stderr)")
      #expect(command == "'\(backup)' '\(sandbox.dataFile)'")
      let restore = try BuiltBinary.run(
        ["-c", "cp " + command], environment: sandbox.environment, executablePath: "/bin/sh")
      #expect(restore.status == 0, "\(restore.stderr)")
      let shown = try sandbox.run("lists")
      #expect(shown.status == 0, "\(shown.stderr)")
      #expect(shown.stdout.contains("Groceries"))
    }
  }
}
