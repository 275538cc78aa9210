import ChecklistsTestSupport
import Foundation
import Testing

extension EndToEndProcesses {
  /// Other writers while the app runs: the CLI, a script, a second app on the same file. What
  /// is on screen is always saved, and changes made elsewhere are merged, never forked.
  @Suite(.serialized) struct MergeFlowTests {
    /// Rewrites the data file the way a script would: Python's plistlib, then a rename.
    static func renameList(_ from: String, to: String, in file: URL) throws {
      let script = """
        import plistlib, os, sys
        path = sys.argv[1]
        with open(path, "rb") as f: lists = plistlib.load(f)
        for l in lists:
            if l["name"] == sys.argv[2]: l["name"] = sys.argv[3]
        with open(path + ".new", "wb") as f: plistlib.dump(lists, f)
        os.rename(path + ".new", path)
        """
      let run = try BuiltBinary.run(
        ["python3", "-c", script, file.path, from, to],
        environment: ProcessInfo.processInfo.environment, executablePath: "/usr/bin/env")
      #expect(run.status == 0, "\(run.stderr)")
    }

    /// The folder's names that are conflict or rescue copies.
    static func copies(beside file: URL) -> [String] {
      let names =
        (try? FileManager.default.contentsOfDirectory(
          atPath: file.deletingLastPathComponent().path)) ?? []
      return names.filter { $0.contains(".conflict-") || $0.contains(".rescue-") }
    }

    @Test func aScriptRenamesAListWhileTheUserChecksAndUnchecksNothingIsLost() throws {
      let shell = try AppFlowShell { folder in
        try AppFlowShell.writeLists(
          ["Groceries", "Trips"], items: ["Groceries": ["Milk", "Eggs"], "Trips": ["Passport"]],
          into: folder)
      }
      defer { shell.close() }
      let session = shell.session
      try shell.launch(waitingFor: "Trips")
      try session.sendKeys("Enter")
      try session.waitFor(text: "Eggs")
      // Another program renames a list: merged into the screen without a key press.
      try Self.renameList("Trips", to: "Travel", in: shell.dataFile)
      try session.waitFor(text: "1 change made elsewhere merged")
      try session.sendKeys("Space")  // check Milk
      try session.sendKeys("C-s")
      try session.waitFor(text: "Saved")
      #expect(try shell.items(of: "Groceries").first?["checked"] as? Bool == true)
      try session.sendKeys("Space")  // uncheck Milk
      #expect(try shell.quit() == "0")
      let names = try shell.lists().compactMap { $0["name"] as? String }
      #expect(names == ["Groceries", "Travel"])
      #expect(try shell.items(of: "Groceries").first?["checked"] as? Bool == false)
      #expect(try shell.itemTexts(of: "Travel") == ["Passport"])
      #expect(Self.copies(beside: shell.dataFile).isEmpty)
      #expect(!(try session.capture()).contains("instead"))
    }

    @Test func aChangeMadeByTheCLIShowsUpWithoutAKeyAndUndoStaysOurs() throws {
      let shell = try AppFlowShell { folder in
        try AppFlowShell.writeLists(["Groceries"], items: ["Groceries": ["Milk"]], into: folder)
      }
      defer { shell.close() }
      let session = shell.session
      try shell.launch(waitingFor: "Groceries")
      try session.sendKeys("Enter")
      try session.waitFor(text: "Milk")
      try session.sendKeys("Space")  // our change: check Milk (not saved yet)
      let added = try shell.cli("add", "Groceries", "Bread")
      #expect(added.status == 0, "\(added.stderr)")
      try session.waitFor(text: "Bread")
      try session.waitFor(text: "1 change made elsewhere merged")
      // Undo undoes our toggle, not the CLI's add.
      try session.sendKeys("u")
      try session.waitFor(text: "Undid: check \"Milk\"")
      #expect(try shell.quit() == "0")
      #expect(try shell.itemTexts(of: "Groceries") == ["Milk", "Bread"])
      #expect(try shell.items(of: "Groceries").first?["checked"] as? Bool == false)
    }

    @Test func aHundredCLIAddsWhileTheUserEditsLoseNothing() throws {
      let shell = try AppFlowShell { folder in
        try AppFlowShell.writeLists(["L"], items: ["L": ["seed"]], into: folder)
      }
      defer { shell.close() }
      let session = shell.session
      // Not "L": one capital letter could be on screen before the app is (the command line).
      try shell.launch(waitingFor: "1 Remaining")
      try session.sendKeys("Enter")
      try session.waitFor(text: "seed")
      let loop = try startProcess(
        "/bin/bash",
        [
          "-c",
          "for i in $(seq 1 100); do \"$0\" add L \"cli-$i\" >/dev/null 2>>\"$1\" || exit 1; done",
          try BuiltBinary.existingPath(), session.directory.appendingPathComponent("loop.err").path,
        ], environment: shell.environment)
      // Meanwhile the user adds five items and saves now and then.
      for number in 1...5 {
        try session.sendKeys("a")
        try session.waitFor(text: "Add Item")
        try session.type("app-\(number)")
        try session.sendKeys("Enter")
        // The status line may already tell of a merge; the form closing is the sign.
        try session.waitFor("the form to close") { !$0.contains("Add Item") }
        if number % 2 == 0 { try session.sendKeys("C-s") }
      }
      loop.waitUntilExit()
      #expect(loop.terminationStatus == 0, "\(session.text(of: "loop.err"))")
      #expect(try shell.quit() == "0")
      let texts = try shell.itemTexts(of: "L")
      let expected = ["seed"] + (1...100).map { "cli-\($0)" } + (1...5).map { "app-\($0)" }
      #expect(texts.sorted() == expected.sorted())
      #expect(Set(try shell.items(of: "L").compactMap { $0["itemID"] as? Int }).count == 106)
      #expect(Self.copies(beside: shell.dataFile).isEmpty)
    }

    @Test func twoAppsOnOneFileEachEditingEndWithTheSameLists() throws {
      let first = try AppFlowShell { folder in
        try AppFlowShell.writeLists(["L"], items: ["L": ["shared"]], into: folder)
      }
      defer { first.close() }
      let second = try AppFlowShell()
      defer { second.close() }
      try first.launch(waitingFor: "1 Remaining")
      // The second app on the first one's data and state folders.
      let app = shellQuote(try BuiltBinary.existingPath())
      try second.session.type(
        "clear; XDG_DATA_HOME=\(shellQuote(first.session.dataHome.path)) "
          + "XDG_STATE_HOME=\(shellQuote(first.session.stateHome.path)) \(app); echo $? > status")
      try second.session.sendKeys("Enter")
      try second.session.waitFor(text: "1 Remaining")
      for (shell, text) in [(first, "from one"), (second, "from two")] {
        try shell.session.sendKeys("Enter")
        try shell.session.waitFor(text: "shared")
        try shell.session.sendKeys("a")
        try shell.session.waitFor(text: "Add Item")
        try shell.session.type(text)
        try shell.session.sendKeys("Enter")
        try shell.session.waitFor(text: "Added \"\(text)\"")
        try shell.session.sendKeys("C-s")
      }
      // Each screen shows the other's item without a key press.
      for shell in [first, second] {
        try shell.session.waitFor("both items") {
          $0.contains("from one") && $0.contains("from two")
        }
      }
      #expect(try first.quit() == "0")
      #expect(try second.quit() == "0")
      #expect(try first.itemTexts(of: "L").sorted() == ["from one", "from two", "shared"])
    }
  }
}
