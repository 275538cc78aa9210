import ChecklistsTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

extension EndToEndProcesses {
  /// Two writers on one file, and the file changed by another program while the app runs.
  @Suite(.serialized) struct ReliabilityFileTests {
    typealias Harness = ReliabilityHarness

    /// The environment the CLI needs to find the session's data file.
    private func cliEnvironment(_ session: TmuxSession) -> [String: String] {
      [
        "XDG_DATA_HOME": session.dataHome.path, "XDG_STATE_HOME": session.stateHome.path,
        "HOME": session.directory.path, "LANG": "C.UTF-8", "TERM": "xterm-256color",
      ]
    }

    @Test func theCLIWorksWhileTheAppRunsAndItsChangeShowsUp() throws {
      let session = try Harness.startRecordingShell()
      defer { session.close() }
      try session.waitFor(text: "Groceries")
      let folder = session.dataFile.deletingLastPathComponent()
      // Commands that only show the lists take no lock and make no file.
      let shown = try BuiltBinary.run(["lists"], environment: cliEnvironment(session))
      #expect(shown.status == 0)
      #expect(shown.stdout.contains("Birthdays"))
      #expect(shown.stderr == "")
      let dueWhileOpen = try BuiltBinary.run(
        ["due", "--json"], environment: cliEnvironment(session))
      #expect(dueWhileOpen.stderr == "")
      #expect(
        !((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).contains {
          $0.hasSuffix(".lock")
        })
      // A change is merged into the screen at once.
      let added = try BuiltBinary.run(
        ["add", "Birthdays", "From the CLI"], environment: cliEnvironment(session))
      #expect(added.status == 0, "\(added.stderr)")
      #expect(added.stderr == "")
      try session.waitFor(text: "1 change made elsewhere merged")
      try Harness.open("Birthdays", in: session)
      try session.waitFor(text: "From the CLI")
      try session.sendKeys("q")
      #expect(try Harness.finishedStatus(of: session) == "0")
      #expect(Harness.items(of: "Birthdays", in: session).contains("From the CLI"))
    }

    @Test func onAFirstRunTheFileIsWatchedFromItsFirstSave() throws {
      let app = try BuiltBinary.existingPath()
      // No data file: the first run makes it (and its folder) at the first save.
      let session = try TmuxSession(
        command: "exec bash --norc --noprofile -i", environment: ["PS1": "READY$ "])
      defer { session.close() }
      try FileManager.default.removeItem(at: session.dataFile.deletingLastPathComponent())
      try session.waitFor(text: "READY$")
      try session.type(shellQuote(app))
      try session.sendKeys("Enter")
      try session.waitFor(text: "No items yet")
      #expect(!FileManager.default.fileExists(atPath: session.dataFile.path))
      let pid = try #require(childProcesses(of: try session.panePID()).first)
      try session.sendKeys("C-z")
      try session.waitFor("the shell prompt after the stop") {
        $0.contains("Stopped") && $0.components(separatedBy: "READY$").count >= 3
      }
      #expect(FileManager.default.fileExists(atPath: session.dataFile.path))
      // Stopped, it already watches the file's folder: an inotify descriptor is open.
      let descriptors =
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
      let watches = descriptors.filter {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)"))
          == "anon_inode:inotify"
      }
      #expect(watches.count == 1)
      let added = try BuiltBinary.run(
        ["add", "List", "Made while stopped"], environment: cliEnvironment(session))
      #expect(added.status == 0, "\(added.stderr)")
      try session.type("fg")
      try session.sendKeys("Enter")
      try session.waitFor(text: "Made while stopped")
      try session.sendKeys("q")
      try session.waitFor("the prompt after quitting") {
        $0.contains("READY$") && !$0.contains("Made while stopped")
      }
    }

    /// What another program does to the data file.
    enum ForeignChange: String, CaseIterable, Sendable {
      case replacedWithOtherLists, truncated, garbage, replacedWithDirectory

      /// The changes after which the file is no checklists file: the last resort, a copy.
      static let unreadable: [ForeignChange] = [.truncated, .garbage, .replacedWithDirectory]
    }

    /// Applies `change` to the file at `url`.
    private func apply(_ change: ForeignChange, to url: URL) throws {
      switch change {
      case .replacedWithOtherLists:
        let other: [[String: Any]] = [["name": "Foreign", "iconName": "Folder", "items": []]]
        let data = try PropertyListSerialization.data(
          fromPropertyList: other, format: .xml, options: 0)
        let temporary = url.appendingPathExtension("other")
        try data.write(to: temporary)
        #expect(rename(temporary.path, url.path) == 0)
      case .truncated:
        #expect(truncate(url.path, 0) == 0)
      case .garbage:
        try Data("not a plist \u{0}\u{1}\u{2}".utf8).write(to: url)
      case .replacedWithDirectory:
        try FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
      }
    }

    /// A snapshot of what is at `url`: file bytes, or a marker for a directory.
    private func snapshot(_ url: URL) -> Data? {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
        return nil
      }
      if isDirectory.boolValue { return Data("<directory>".utf8) }
      return try? Data(contentsOf: url)
    }

    /// Files named `Checklists.conflict-*.plist` next to the data file.
    private func conflictCopies(_ session: TmuxSession) -> [URL] {
      let folder = session.dataFile.deletingLastPathComponent()
      let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
      return names.filter { $0.hasPrefix("Checklists.conflict-") && $0.hasSuffix(".plist") }
        .sorted().map { folder.appendingPathComponent($0) }
    }

    @Test func listsReplacedByAnotherProgramAreMergedWithOurChange() throws {
      let session = try Harness.startRecordingShell()
      defer { session.close() }
      try Harness.open("Birthdays", in: session)
      try Harness.addItem("Mine before the change", in: session)
      try apply(.replacedWithOtherLists, to: session.dataFile)
      // Theirs deleted every list and added "Foreign"; ours changed Birthdays, which stays.
      try session.waitFor(text: "made elsewhere merged")
      try session.sendKeys("q")
      #expect(try Harness.finishedStatus(of: session) == "0")
      let lists = Harness.lists(at: session.dataFile) ?? []
      #expect(lists.map(\.name).sorted() == ["Birthdays", "Foreign"])
      #expect(Harness.items(of: "Birthdays", in: session).contains("Mine before the change"))
      #expect(conflictCopies(session).isEmpty)
      let log = session.dataFile.appendingPathExtension("conflicts.log")
      #expect(
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains(
          "list \"Birthdays\": kept: deleted on one side, changed on the other"))
    }

    @Test(arguments: ForeignChange.unreadable)
    func aFileThatIsNoLongerAChecklistsFileIsNeverOverwritten(change: ForeignChange) throws {
      let session = try Harness.startRecordingShell()
      defer { session.close() }
      try Harness.open("Birthdays", in: session)
      try Harness.addItem("Mine before the change", in: session)
      try apply(change, to: session.dataFile)
      let foreign = snapshot(session.dataFile)
      try session.sendKeys("C-s")
      // The watcher may first tell of the change itself ("was deleted by another program"
      // while a folder takes the file's place); the save's own line names the copy.
      let screen = try session.waitFor("the status line after Ctrl-S") {
        $0.contains("conflict-") || $0.contains("ould not")
      }
      #expect(snapshot(session.dataFile) == foreign)
      let copies = conflictCopies(session)
      #expect(copies.count == 1, "\(screen)")
      if let copy = copies.first {
        #expect(screen.contains("conflict-"), "the status line names the copy: \(screen)")
        let saved = Harness.lists(at: copy)?.first { $0.name == "Birthdays" }?.items ?? []
        #expect(saved.contains("Mine before the change"))
      }
      // A second change, then quit: the foreign file still stands.
      try Harness.addItem("Mine after the change", in: session)
      try session.sendKeys("q")
      let status = try Harness.finishedStatus(of: session)
      #expect(snapshot(session.dataFile) == foreign)
      // Standard error names the copy that holds the last changes, and the exit status says
      // the data file does not (1, as the man page's EXIT STATUS has it).
      let error = session.text(of: "err")
      #expect(status == "1")
      let named = conflictCopies(session).filter { error.contains($0.lastPathComponent) }
      #expect(named.count == 1, "stderr: \(error.debugDescription)")
      if let copy = named.first {
        let saved = Harness.lists(at: copy)?.first { $0.name == "Birthdays" }?.items ?? []
        #expect(saved.contains("Mine after the change"))
      }
      #expect(session.text(of: "before") == session.text(of: "after"))
    }

    @Test func aDeletedFileIsRecreatedOnlyAfterSayingSo() throws {
      let session = try Harness.startRecordingShell()
      defer { session.close() }
      try Harness.open("Birthdays", in: session)
      try Harness.addItem("Survives the delete", in: session)
      try FileManager.default.removeItem(at: session.dataFile)
      try session.sendKeys("C-s")
      try session.waitFor(text: "had been deleted by another program")
      #expect(Harness.items(of: "Birthdays", in: session).contains("Survives the delete"))
      try session.sendKeys("q")
      #expect(try Harness.finishedStatus(of: session) == "0")
      #expect(conflictCopies(session).isEmpty)
    }

    @Test func aFileDeletedBeforeQuitIsRecreatedAndTheExitSaysSo() throws {
      let session = try Harness.startRecordingShell()
      defer { session.close() }
      try Harness.open("Birthdays", in: session)
      try Harness.addItem("Survives the delete", in: session)
      try FileManager.default.removeItem(at: session.dataFile)
      try session.sendKeys("q")
      let status = try Harness.finishedStatus(of: session)
      #expect(Harness.items(of: "Birthdays", in: session).contains("Survives the delete"))
      #expect(status == "0")
      #expect(
        session.text(of: "err").contains("deleted"),
        "quitting recreated the file without a word: \(session.text(of: "err").debugDescription)")
    }
  }
}
