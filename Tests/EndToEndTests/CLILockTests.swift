import ChecklistsCore
import ChecklistsTestSupport
import Foundation
import Testing

extension ServerAndCLIProcesses {
  @Suite("CLI: short locks shared with the app and other commands", .serialized)
  struct CLILockTests {
    @Test func aCommandWaitsForAnotherWriterAndThenMerges() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(sampleLists())
      let holder = try sandbox.startLockHolder()
      // The add waits for the lock; killing the holder lets it through.
      let add = try startProcess(
        BuiltBinary.path(), ["add", "Groceries", "Bread"], environment: sandbox.environment)
      usleep(300_000)
      #expect(add.isRunning, "the add did not wait for the lock")
      holder.kill()
      add.waitUntilExit()
      #expect(add.terminationStatus == 0)
      #expect(
        try sandbox.lists().first { $0.name == "Groceries" }?.items.map(\.text) == [
          "Milk", "Eggs", "Bread",
        ])
    }

    @Test func showingTheListsTakesNoLockAndMakesNoFile() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(sampleLists())
      let holder = try sandbox.startLockHolder()
      defer {
        holder.kill()
      }
      for command in [["lists"], ["show", "Groceries"], ["export"], ["due", "--json"]] {
        let run = try BuiltBinary.run(command, environment: sandbox.environment)
        #expect(run.stderr == "", "\(command): \(run.stderr)")
        #expect(run.status == 0 || command[0] == "due", "\(command)")
      }
      let fresh = CLITestSandbox()
      defer { fresh.remove() }
      try fresh.writeData(sampleLists())
      #expect(try fresh.run("lists").status == 0)
      let names = try FileManager.default.contentsOfDirectory(
        atPath: (fresh.dataFile as NSString).deletingLastPathComponent)
      #expect(names == ["Checklists.plist"])
    }
  }
}
