import Foundation
import Testing

extension EndToEndProcesses {
  /// The planner's keys in the real app in tmux: checking a repeating item, clearing checked
  /// items, and undoing both.
  @Suite(.serialized) struct PlannerFlowTests {
    @Test func repeatingItemMovesOnAndClearCheckedUndoes() throws {
      let shell = try AppFlowShell()
      defer { shell.close() }
      let session = shell.session
      try shell.cli("add", "List", "Bins", "--due", "tomorrow 9am", "--repeat", "weekly")
      try shell.cli("add", "List", "Done thing")
      try shell.cli("check", "List", "Done thing")
      try shell.launch(waitingFor: "Bins")
      try session.waitFor(text: "↻")
      try session.sendKeys("Space")
      try session.waitFor(text: "Next: ")
      try session.sendKeys("u")
      try session.waitFor(text: "Undid: edit \"Bins\"")
      try session.sendKeys("Space")
      try session.waitFor(text: "Next: ")

      try session.sendKeys("C")
      try session.waitFor(text: "Clear 1 checked item of \"List\"? y/n")
      try session.sendKeys("y")
      try session.waitFor(text: "Cleared 1 checked item")
      try session.sendKeys("u")
      try session.waitFor(text: "Undid: clear 1 checked item")
      try session.waitFor(text: "Done thing")
      try session.sendKeys("C-r")
      try session.waitFor(text: "Redid: clear 1 checked item")
      #expect(try shell.quit() == "0")
      #expect(try shell.itemTexts(of: "List") == ["Bins"])
      // Checked, the repeating item stays unchecked (its due date moved a week on).
      #expect(try shell.items(of: "List").first?["checked"] as? Bool == false)

      try shell.launch(waitingFor: "Bins")
      try session.sendKeys("C")
      try session.waitFor(text: "No checked items to clear")
      #expect(try shell.quit() == "0")
    }

    @Test func moveToAnotherListAndUndo() throws {
      let shell = try AppFlowShell()
      defer { shell.close() }
      let session = shell.session
      try shell.cli("add", "List", "Milk")
      try shell.cli("new-list", "Work")
      try shell.launch(waitingFor: "Milk")
      try session.sendKeys("m")
      try session.waitFor(text: "Move \"Milk\" to")
      try session.sendKeys("Enter")
      try session.waitFor(text: "Moved \"Milk\" to \"Work\"")
      try session.sendKeys("u")
      try session.waitFor(text: "Undid: move \"Milk\" to \"Work\"")
      try session.sendKeys("C-r")
      try session.waitFor(text: "Redid: move \"Milk\" to \"Work\"")
      #expect(try shell.quit() == "0")
      #expect(try shell.itemTexts(of: "List") == [])
      #expect(try shell.itemTexts(of: "Work") == ["Milk"])
    }
  }
}
