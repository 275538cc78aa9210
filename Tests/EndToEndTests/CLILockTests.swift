import ChecklistsCore
import Foundation
import Testing

extension EndToEndProcesses {
  @Suite("CLI: the lock against a second checklists", .serialized)
  struct CLILockTests {
    @Test func aCommandIsRefusedWhileAnotherProcessHoldsTheFile() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(sampleLists())
      let before = try #require(sandbox.bytes())
      let location = try DataFileLocation.resolve(environment: sandbox.environment)
      let (store, _) = try ChecklistsStore.open(location: location)
      let run = try sandbox.run("add", "Groceries", "Bread")
      #expect(run.status == 1)
      #expect(
        run.stderr
          == "checklists: ~/data/checklists/Checklists.plist is open in another checklists (pid \(getpid()))\n"
      )
      #expect(sandbox.bytes() == before)
      store.close()
      #expect(try sandbox.run("add", "Groceries", "Bread").status == 0)
    }

    @Test func aHolderKilledWithSIGKILLDoesNotBlockTheCLI() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(sampleLists())
      let holder = try sandbox.startLockHolder()
      let refused = try sandbox.run("add", "Chores", "Sweep")
      #expect(refused.status == 1)
      #expect(refused.stderr.contains("(pid \(holder.processIdentifier))"))
      // Showing the lists works meanwhile, from the last saved version, and says so.
      let shown = try sandbox.run("lists")
      #expect(shown.status == 0)
      #expect(shown.stdout.hasPrefix("1. Chores"))
      #expect(
        shown.stderr
          == "checklists: the file is open in the full-screen app; showing it as last saved\n")
      kill(holder.processIdentifier, SIGKILL)
      holder.waitUntilExit()
      let run = try sandbox.run("lists")
      #expect(run.status == 0)
      #expect(run.stdout.hasPrefix("1. Chores"))
    }
  }
}
