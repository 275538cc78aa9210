import ChecklistsCore
import ChecklistsTestSupport
import Foundation
import Testing

extension ServerAndCLIProcesses {
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

    /// A change saved while the file could not be read went to a conflict copy: the hint then
    /// names that copy, newer than the backup, and its command brings the change back.
    @Test func aNewerConflictCopyIsTheOneTheHintRestores() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(sampleLists())
      #expect(try sandbox.run("add", "Groceries", "Bread").status == 0)  // makes the .bak
      #expect(FileManager.default.createFile(atPath: sandbox.dataFile, contents: Data("{".utf8)))
      // The .bak is older than the copy to come, by more than the file system's clock step.
      let backup = sandbox.dataFile + ".bak"
      try FileManager.default.setAttributes(
        [.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: backup)
      // The app, which read the file before it went bad, saves a change: a conflict copy.
      try sandbox.writeData(
        sampleLists().map { list in
          var list = list
          if list.name == "Groceries" {
            list.insertItem(ChecklistItem(text: "Jam", dueDate: Date(), itemID: 90))
          }
          return list
        }, to: sandbox.root + "/data/checklists/Checklists.conflict-20261202-212310.plist")
      let refused = try sandbox.run("lists")
      #expect(refused.status != 0)
      #expect(refused.stderr.contains("the lists as saved while it could not be read are in "))
      let command = try #require(
        refused.stderr.components(separatedBy: ": cp ").last?
          .components(separatedBy: " (the version").first, "\(refused.stderr)")
      #expect(command.hasPrefix("'\(sandbox.root)/data/checklists/Checklists.conflict-"))
      let restore = try BuiltBinary.run(
        ["-c", "cp " + command], environment: sandbox.environment, executablePath: "/bin/sh")
      #expect(restore.status == 0, "\(restore.stderr)")
      let shown = try sandbox.run("show", "Groceries")
      #expect(shown.stdout.contains("Jam"), "\(shown.stdout)")
    }
  }
}
