import ChecklistsTestSupport
import Foundation
import Testing

extension EndToEndProcesses {
  /// The app's data folder on a small tmpfs that is filled up or made read-only while it runs.
  @Suite(.serialized) struct ReliabilityDiskTests {
    typealias Harness = ReliabilityHarness

    /// How the disk fails.
    enum DiskFault: String, CaseIterable, Sendable {
      case full, readOnly

      /// The cause the user must see.
      var cause: String { self == .full ? "No space left on device" : "Read-only file system" }
    }

    /// Mounts a 256 KiB tmpfs on `folder`; throws why when it cannot.
    private static func mountSmallDisk(on folder: URL) throws {
      try Tmpfs.mount(at: folder.path, size: "256k")
    }

    /// Makes the fault happen on the disk at `folder`.
    private func inflict(_ fault: DiskFault, on folder: URL) throws {
      switch fault {
      case .full:
        // dd stops with ENOSPC once the disk is full.
        _ = try runProcess(
          "/bin/dd", ["if=/dev/zero", "of=\(folder.path)/filler", "bs=4k"])
        #expect(FileManager.default.fileExists(atPath: folder.path + "/filler"))
      case .readOnly:
        #expect(Tmpfs.remountReadOnly(folder.path))
      }
    }

    /// Takes the fault away again.
    private func heal(_ fault: DiskFault, on folder: URL) throws {
      switch fault {
      case .full: try FileManager.default.removeItem(atPath: folder.path + "/filler")
      case .readOnly:
        let result = try runProcess("/bin/mount", ["-o", "remount,rw", folder.path])
        #expect(result.status == 0, "\(result.stderr)")
      }
    }

    /// Ends the session, unmounts the small disk, then removes the session's folder (the
    /// session cannot remove it while the disk is still mounted inside it).
    private static func closeAndUnmount(_ session: TmuxSession, _ folder: URL) {
      session.close()
      _ = try? runProcess("/bin/umount", ["-l", folder.path])
      try? FileManager.default.removeItem(at: session.directory)
    }

    /// The app in a recording shell, its data folder (returned) on a small disk that holds the
    /// iPhone fixture; `brokenFromTheStart` is inflicted before the app starts.
    private func startOnSmallDisk(brokenFromTheStart fault: DiskFault?) throws
      -> (TmuxSession, URL)
    {
      var mounted: URL?
      let session = try Harness.startRecordingShell(
        environment: [:],
        prepare: { folder in
          try Self.mountSmallDisk(on: folder)
          mounted = folder
          try Harness.copyFixture(into: folder)
          if let fault { try inflict(fault, on: folder) }
        })
      return (session, try #require(mounted))
    }

    /// Quitting gives the file watch away (its teardown overlaps the last save); staying after
    /// that save failed still merges a change made elsewhere once the disk has room again,
    /// without a key press, and the quit that follows saves both.
    @Test func stayingAfterAFailedQuitStillMergesChangesMadeElsewhere() throws {
      let (session, folder) = try startOnSmallDisk(brokenFromTheStart: nil)
      defer { Self.closeAndUnmount(session, folder) }
      try Harness.open("Birthdays", in: session)
      try inflict(.full, on: folder)
      try Harness.addItem("Typed while full", in: session)
      try session.sendKeys("q")
      try session.waitFor(text: "r retry · w save elsewhere")
      try session.sendKeys("Escape")
      try session.waitFor("the lists again") { !$0.contains("r retry · w save elsewhere") }

      try heal(.full, on: folder)
      let environment = [
        "XDG_DATA_HOME": session.dataHome.path, "XDG_STATE_HOME": session.stateHome.path,
        "HOME": session.directory.path, "LANG": "C.UTF-8", "TZ": "UTC",
      ]
      let added = try BuiltBinary.run(
        ["add", "Groceries", "Added elsewhere"], environment: environment)
      #expect(added.status == 0, "\(added.stderr)")
      try session.waitFor(text: "change made elsewhere merged")
      try session.sendKeys("q")
      #expect(try Harness.finishedStatus(of: session) == "0")
      let lists = Harness.lists(at: session.dataFile) ?? []
      #expect(lists.first { $0.name == "Birthdays" }?.items.contains("Typed while full") == true)
      #expect(lists.first { $0.name == "Groceries" }?.items.contains("Added elsewhere") == true)
    }

    @Test(arguments: DiskFault.allCases)
    func saveFailsWithItsCauseThenSucceedsThenQuitAsksAndSavesElsewhereOrRescues(fault: DiskFault)
      throws
    {
      // The disk is read-only from the start: the app opens it with a warning, and each save
      // fails with the cause named.
      let (session, folder) = try startOnSmallDisk(
        brokenFromTheStart: fault == .readOnly ? fault : nil)
      defer { Self.closeAndUnmount(session, folder) }
      let original = try Data(contentsOf: session.dataFile)
      try Harness.open("Birthdays", in: session)

      if fault == .full { try inflict(fault, on: folder) }
      try Harness.addItem("While broken", in: session)
      try session.sendKeys("C-s")
      try session.waitFor(text: fault.cause)
      #expect(try Data(contentsOf: session.dataFile) == original)

      try heal(fault, on: folder)
      try session.sendKeys("C-s")
      try session.waitFor("the save after healing") {
        !$0.contains(fault.cause) && $0.contains("Saved")
      }
      #expect(Harness.items(of: "Birthdays", in: session).contains("While broken"))
      let saved = try Data(contentsOf: session.dataFile)

      try inflict(fault, on: folder)
      try Harness.addItem("Only in the rescue copy", in: session)
      try session.sendKeys("q")
      // Quitting asks what to do instead of exiting.
      try session.waitFor(text: "r retry · w save elsewhere")
      #expect(try session.capture().contains(fault.cause))
      if fault == .full {
        // Save elsewhere: a path outside the broken disk; the exit names it.
        let elsewhere = folder.deletingLastPathComponent().appendingPathComponent("saved.plist")
        try session.sendKeys("w")
        try session.waitFor(text: "Save the lists to:")
        try session.type(elsewhere.path)
        try session.sendKeys("Enter")
        #expect(try Harness.finishedStatus(of: session) == "0")
        #expect(try Data(contentsOf: session.dataFile) == saved)
        #expect(session.text(of: "err").contains("your lists were saved to \(elsewhere.path)"))
        let copied = Harness.lists(at: elsewhere)?.first { $0.name == "Birthdays" }?.items ?? []
        #expect(copied.contains("Only in the rescue copy"))
        try? FileManager.default.removeItem(at: elsewhere)
        #expect(session.text(of: "before") == session.text(of: "after"))
        return
      }
      try session.sendKeys("q")
      #expect(try Harness.finishedStatus(of: session) == "1")
      #expect(try Data(contentsOf: session.dataFile) == saved)
      let error = session.text(of: "err")
      #expect(error.contains(fault.cause), "\(error)")
      let path = try #require(
        error.components(separatedBy: "your data is in ").last?
          .trimmingCharacters(in: .whitespacesAndNewlines), "\(error)")
      #expect(!path.hasPrefix(folder.path))
      let rescued =
        Harness.lists(at: URL(fileURLWithPath: path))?
        .first { $0.name == "Birthdays" }?.items ?? []
      #expect(rescued.contains("Only in the rescue copy"), "\(error)")
      try? FileManager.default.removeItem(atPath: path)
      #expect(session.text(of: "before") == session.text(of: "after"))
    }
  }
}
