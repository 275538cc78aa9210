import ChecklistsTestSupport
import Foundation
import Testing

extension EndToEndProcesses {
  /// The real app on real files: the iPhone app's own file, and a 100,000-item list.
  @Suite(.serialized) struct AppFlowFileTests {
    @Test func iPhoneFileOpensOnAllListsAndStaysXMLAfterAnEdit() throws {
      let shell = try AppFlowShell { try AppFlowShell.copyFixture(into: $0) }
      defer { shell.close() }
      let session = shell.session
      try shell.launch(waitingFor: "Trips")
      let rows = try session.capture().split(separator: "\n").map(String.init)
      let expected = [
        ("Birthdays", "1 Remaining"), ("Groceries", "All Done!"), ("To Do", "(No Items)"),
        ("Trips", "1 Remaining"),
      ]
      for (name, subtitle) in expected {
        #expect(rows.contains { $0.contains(name) && $0.hasSuffix(subtitle) }, "\(name): \(rows)")
      }
      // Edit "Eggs" (Groceries, second item): append " x6".
      try session.sendKeys("j", "Enter")
      try session.waitFor(text: "Eggs")
      try session.sendKeys("j", "e")
      try session.waitFor(text: "Edit Item")
      try session.sendKeys("End")
      try session.type(" x6")
      try session.sendKeys("Enter")
      try session.waitFor("the edited row") { !$0.contains("Edit Item") && $0.contains("Eggs x6") }
      #expect(try shell.quit() == "0")

      let text = try String(contentsOf: shell.dataFile, encoding: .utf8)
      #expect(text.hasPrefix("<?xml"))
      // plistlib reads it, and everything but the edited text is as in the iPhone's file.
      let script = """
        import plistlib, sys
        before = plistlib.load(open(sys.argv[1], 'rb'))
        after = plistlib.load(open(sys.argv[2], 'rb'))
        before[1]['items'][1]['text'] = 'Eggs x6'
        print('SAME' if before == after else 'DIFFERENT')
        """
      let compared = try runProcess(
        "/usr/bin/python3",
        ["-c", script, AppFlowShell.fixture.path, shell.dataFile.path])
      #expect(compared.status == 0, "\(compared.stderr)")
      #expect(compared.stdout == "SAME\n")
    }

    @Test func hundredThousandItemsOpenScrollToggleAndSave() throws {
      let bench = URL(fileURLWithPath: BuiltBinary.path("checklists-bench"))
      let shell = try AppFlowShell { folder in
        let made = try runProcess(
          bench.path,
          [
            "generate", "100000", folder.appendingPathComponent("Checklists.plist").path,
            "--lists", "1",
          ])
        guard made.status == 0 else {
          throw TmuxError(description: "checklists-bench generate failed: \(made.stderr)")
        }
      }
      defer { shell.close() }
      let session = shell.session
      let before = try shell.lists()
      let items = before.first?["items"] as? [[String: Any]] ?? []
      try #require(items.count == 100_000)
      let lastText = try #require(items.last?["text"] as? String)
      let lastChecked = try #require(items.last?["checked"] as? Bool)

      try shell.launch(waitingFor: "Groceries 1", timeout: 30)
      try session.sendKeys("Enter")
      try session.waitFor(text: "remaining", timeout: 30)
      // tmux pads a wide emoji with variation selector by a space: compare without spaces.
      func showsLast(_ screen: String) -> Bool {
        screen.filter { $0 != " " }.contains(lastText.filter { $0 != " " })
      }
      try session.sendKeys("End")
      try session.waitFor("the last item", showsLast)
      try session.sendKeys("PPage")
      try session.waitFor("a page up") { !showsLast($0) }
      try session.sendKeys("NPage")
      try session.waitFor("a page down", showsLast)
      let header = try session.capture().split(separator: "\n").first.map(String.init) ?? ""
      try session.sendKeys("End", "Space")
      try session.waitFor("the remaining count to change") { !$0.hasPrefix(header) }
      #expect(try shell.quit(timeout: 60) == "0")
      let after = try shell.items(of: "Groceries 1")
      #expect(after.count == 100_000)
      #expect(after.last?["checked"] as? Bool == !lastChecked)
      #expect(after.last?["text"] as? String == lastText)
    }
  }
}
