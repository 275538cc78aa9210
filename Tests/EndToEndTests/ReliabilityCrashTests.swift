import Foundation
import Testing

extension EndToEndProcesses {
  /// Crash signals: the terminal comes back at once and the data file is not touched.
  @Suite(.serialized) struct ReliabilityCrashTests {
    typealias Harness = ReliabilityHarness

    /// Signal names and numbers on Linux.
    static let crashSignals: [(name: String, number: Int32)] = [
      ("SEGV", 11), ("BUS", 7), ("ABRT", 6), ("ILL", 4), ("TRAP", 5),
    ]

    @Test(arguments: ["SEGV", "BUS", "ABRT", "ILL", "TRAP"])
    func crashRestoresTheTerminalAndLeavesTheFileUntouched(signal: String) throws {
      let session = try Harness.startRecordingShell()
      defer { session.close() }
      let before = try Data(contentsOf: session.dataFile)
      try Harness.open("Birthdays", in: session)
      // An unsaved change, lost by design in a crash.
      try Harness.addItem("Unsaved in crash", in: session)
      let pid = try Harness.appPID(in: session)
      try Harness.send(signal, to: pid)
      // The main screen is back with the cursor shown within a second (the crash handler
      // restores before re-raising, not after the backtracer).
      try session.waitUntil("the shell's screen", timeout: 1) {
        try Harness.shellScreenIsBack(session)
      }
      let status = try Harness.finishedStatus(of: session)
      let number = try #require(Self.crashSignals.first { $0.name == signal }?.number)
      #expect(status == "\(128 + number)")
      #expect(session.text(of: "before") == session.text(of: "after"))
      #expect(try Data(contentsOf: session.dataFile) == before)
      let folder = session.dataFile.deletingLastPathComponent().path
      let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder)
        .filter {
          $0.hasPrefix("Checklists") && $0 != "Checklists.plist" && $0 != "Checklists.lock"
        }
      #expect(leftovers.allSatisfy { !$0.contains("tmp") }, "\(leftovers)")
    }
  }
}
