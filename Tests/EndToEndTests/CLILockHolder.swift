import ChecklistsTestSupport
import Foundation
import Testing

extension CLITestSandbox {
  /// Starts `checklists-bench hold-lock` on the data file and returns once it holds the lock.
  func startLockHolder() throws -> Process {
    let holder = Process()
    holder.executableURL = URL(fileURLWithPath: BuiltBinary.path("checklists-bench"))
    holder.arguments = ["hold-lock", dataFile]
    let pipe = Pipe()
    holder.standardOutput = pipe
    try holder.run()
    // "locked" arrives once the lock is held.
    let line = pipe.fileHandleForReading.availableData
    #expect(String(decoding: line, as: UTF8.self) == "locked\n")
    return holder
  }
}
