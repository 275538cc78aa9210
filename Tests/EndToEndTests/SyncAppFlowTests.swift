import ChecklistsCore
import ChecklistsTestSupport
import Foundation
import Testing

extension EndToEndProcesses {
  /// The app with a vdir configured: it syncs at start, after each save, and takes in what
  /// appears in the vdir while it runs.
  @Suite(.serialized) struct SyncAppFlowTests {
    /// The vdir's item files' unfolded lines, by SUMMARY.
    static func vdirTasks(_ vdir: String) -> [String: [String]] {
      var result: [String: [String]] = [:]
      let manager = FileManager.default
      for folder in (try? manager.contentsOfDirectory(atPath: vdir)) ?? []
      where !folder.hasPrefix(".") {
        for name in (try? manager.contentsOfDirectory(atPath: vdir + "/" + folder)) ?? []
        where name.hasSuffix(".ics") && !name.hasPrefix(".") {
          let lines = storedLines(
            try? String(contentsOfFile: vdir + "/" + folder + "/" + name, encoding: .utf8))
          if let summary = lines.first(where: { $0.hasPrefix("SUMMARY:") }) {
            result[String(summary.dropFirst(8))] = lines
          }
        }
      }
      return result
    }

    /// The app on a list "Groceries" with "Milk", the vdir set; returns once the app has
    /// synced at start (Milk is in the vdir). The caller closes the shell.
    static func launchWithVdir() throws -> (shell: AppFlowShell, vdir: String) {
      let shell = try AppFlowShell { folder in
        try AppFlowShell.writeLists(["Groceries"], items: ["Groceries": ["Milk"]], into: folder)
      }
      let session = shell.session
      let vdir = session.directory.path + "/vdir"
      do {
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
        try session.type("export CHECKLISTS_VDIR=\(vdir)")
        try session.sendKeys("Enter")
        try shell.launch(waitingFor: "Groceries")
        try session.waitUntil("Milk in the vdir") { vdirTasks(vdir)["Milk"] != nil }
      } catch {
        shell.close()
        throw error
      }
      return (shell, vdir)
    }

    @Test func theAppSyncsAtStartAfterASaveAndWhenThePhonesChangesArrive() throws {
      let (shell, vdir) = try Self.launchWithVdir()
      defer { shell.close() }
      let session = shell.session
      let folders = try FileManager.default.contentsOfDirectory(atPath: vdir)
      let folder = try #require(
        folders.first {
          (try? String(contentsOfFile: vdir + "/" + $0 + "/displayname", encoding: .utf8))
            == "Groceries\n"
        })
      try session.sendKeys("Enter")
      try session.waitFor(text: "Milk")
      // The phone's item arrives without a key press.
      try SyncRig.write(
        vdir + "/" + folder + "/phone.ics", iosTask(uid: "PHONE-1", summary: "Bread"))
      try session.waitFor(text: "Bread")
      // Our change goes to the vdir at the save.
      try session.sendKeys("Space")  // check Milk
      try session.sendKeys("C-s")
      try session.waitFor(text: "Saved")
      try session.waitUntil("Milk completed in the vdir") {
        Self.vdirTasks(vdir)["Milk"]?.contains("STATUS:COMPLETED") == true
      }
      #expect(try shell.quit() == "0")
      #expect(try shell.itemTexts(of: "Groceries") == ["Milk", "Bread"])
      #expect(Self.vdirTasks(vdir)["Bread"]?.contains("CATEGORIES:Errands,Home") == true)
    }

    /// A configured vdir that does not exist is said on the status line and not made (the
    /// app made it and filled it with every list, as `sync` did, from a mistyped path).
    @Test func aVdirThatDoesNotExistIsToldAndNotMade() throws {
      let shell = try AppFlowShell { folder in
        try AppFlowShell.writeLists(["Groceries"], items: ["Groceries": ["Milk"]], into: folder)
      }
      defer { shell.close() }
      let session = shell.session
      let vdir = session.directory.path + "/vdri"
      try session.type("export CHECKLISTS_VDIR=\(vdir)")
      try session.sendKeys("Enter")
      try shell.launch(waitingFor: "Groceries")
      try session.waitFor(text: "does not exist")
      // A save syncs again: told again, still not made.
      try session.sendKeys("Enter")
      try session.waitFor(text: "Milk")
      try session.sendKeys("Space")
      try session.sendKeys("C-s")
      try session.waitFor(text: "Saved; Sync: the vdir ~/vdri does not exist")
      #expect(!FileManager.default.fileExists(atPath: vdir))
      #expect(try shell.quit() == "0")
      #expect(!FileManager.default.fileExists(atPath: vdir))
    }

    /// A problem a pass finds in the vdir while the app runs is told at once, though the data
    /// file did not change, and not again later (it was told once, late, after the next change
    /// of the file).
    @Test func aProblemInTheVdirIsToldWhenItAppears() throws {
      let (shell, vdir) = try Self.launchWithVdir()
      defer { shell.close() }
      let session = shell.session
      let folders = try FileManager.default.contentsOfDirectory(atPath: vdir)
      let folder = try #require(folders.first { !$0.hasPrefix(".") })
      try SyncRig.write(
        vdir + "/" + folder + "/broken.ics", "BEGIN:VCALENDAR\nBEGIN:VTODO\nSUMMARY:broken\n")
      try session.waitFor(text: "broken.ics")
      // Said once: a change of the file later merges without it, though the pass's summary
      // changed (it was said again, or not, as the merge raced the next key).
      try SyncRig.write(
        vdir + "/" + folder + "/phone.ics", iosTask(uid: "PHONE-2", summary: "Bread"))
      let merged = try session.waitFor(text: "1 change made elsewhere merged")
      #expect(!merged.contains("broken.ics"))
      try session.sendKeys("Enter")
      let screen = try session.waitFor(text: "Bread")
      #expect(!screen.contains("broken.ics"))
      #expect(try shell.quit() == "0")
    }
  }
}
