import ChecklistsTestSupport
import Foundation
import Testing

extension CLITestSandbox {
  /// Starts `checklists-bench hold-lock` on the data file and returns once it holds the lock.
  func startLockHolder() throws -> ChildProcess {
    let holder = try ChildProcess(BuiltBinary.path("checklists-bench"), ["hold-lock", dataFile])
    // "locked" arrives once the lock is held.
    #expect(holder.waitForOutput("locked"), "the lock holder did not start")
    return holder
  }
}
