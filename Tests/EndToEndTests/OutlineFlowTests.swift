import Foundation
import Testing

extension EndToEndProcesses {
  /// Subtasks in the real app in tmux: make one, fold it away, move its parent, check the
  /// parent with it, delete both and undo, then read the saved file.
  @Suite(.serialized) struct OutlineFlowTests {
    @Test func subtaskFoldMoveCheckDeleteUndo() throws {
      let shell = try AppFlowShell()
      defer { shell.close() }
      let session = shell.session
      try shell.launch(waitingFor: "List — no items")
      for text in ["Pack", "Socks", "Tickets"] {
        try session.sendKeys("a")
        try session.waitFor(text: "Add Item")
        try session.type(text)
        try session.sendKeys("Enter")
        try session.waitFor(text: "Added \"\(text)\"")
      }
      // Socks under Pack.
      try session.sendKeys("g", "j")
      try session.type(">")
      try session.waitFor(text: "Indented \"Socks\" under \"Pack\"")
      try session.sendKeys("g", "o")
      try session.waitFor("Pack folded, Socks hidden") {
        $0.contains("▸ Pack") && !$0.contains("Socks")
      }
      // The folded parent moves below Tickets, its subtask with it.
      try session.sendKeys("J")
      try session.waitFor("Pack below Tickets") { screen in
        guard let tickets = screen.range(of: "Tickets"), let pack = screen.range(of: "▸ Pack")
        else { return false }
        return tickets.lowerBound < pack.lowerBound
      }
      try session.type("+")
      try session.waitFor("Socks shown again") { $0.contains("▾ Pack") && $0.contains("Socks") }
      try session.sendKeys("Space")
      try session.waitFor(text: "Checked \"Pack\" and its subtask")
      try session.sendKeys("d")
      try session.waitFor(text: "Delete \"Pack\" and its subtask? y/n")
      try session.sendKeys("y")
      try session.waitFor("Pack and Socks deleted") {
        $0.contains("Deleted \"Pack\" and its subtask") && !$0.contains("▾ Pack")
      }
      try session.sendKeys("u")
      try session.waitFor("Pack and Socks back") {
        $0.contains("Undid: delete \"Pack\" and its subtask") && $0.contains("▾ Pack")
          && $0.contains("Socks")
      }
      #expect(try shell.quit() == "0")
      let items = try shell.items(of: "List")
      #expect(items.compactMap { $0["text"] as? String } == ["Tickets", "Pack", "Socks"])
      #expect(items.map { $0["checked"] as? Bool } == [false, true, true])
      let packID = items.count == 3 ? items[1]["itemID"] as? Int : nil
      #expect(packID != nil && items[2]["parentItemID"] as? Int == packID)
      #expect(items[0]["parentItemID"] == nil && items[1]["parentItemID"] == nil)
    }
  }
}
