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
      try session.waitFor(text: "Undid: check \"Bins\"")
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

    @Test func todayScheduledAndSearchAcrossLists() throws {
      let shell = try AppFlowShell()
      defer { shell.close() }
      let session = shell.session
      // Overdue whatever the day the test runs, and far ahead: no midnight can move them.
      try shell.cli("add", "List", "Milk", "--due", "2020-01-01 09:00")
      try shell.cli("new-list", "Work")
      try shell.cli("add", "Work", "Book the trip", "--due", "2099-06-01 09:00")
      try shell.launch(waitingFor: "Milk")
      try session.sendKeys("Escape")
      try session.waitUntil("Today and Scheduled rows with counts") {
        let screen = try session.capture()
        return screen.contains("Today") && screen.contains("1 item")
          && screen.contains("Scheduled") && screen.contains("2 items")
      }
      try session.sendKeys("Home", "Enter")
      try session.waitUntil("Today with Milk and its list") {
        let screen = try session.capture()
        return screen.contains("Today — 1 item") && screen.contains("Milk")
          && screen.contains("List")
      }
      try session.sendKeys("Space")
      try session.waitFor(text: "Nothing due today")
      try session.sendKeys("u")
      try session.waitUntil("Milk back in Today") {
        let screen = try session.capture()
        return screen.contains("Undid: check \"Milk\"") && screen.contains("Today — 1 item")
      }
      // e, d and m act on the item in its own list, and u undoes them, all from Today.
      try session.sendKeys("e")
      try session.waitUntil("the item form on Milk") {
        let screen = try session.capture()
        return screen.contains("Edit Item") && screen.contains("Milk")
      }
      try session.sendKeys("Escape")
      try session.waitFor(text: "Today — 1 item")
      try session.sendKeys("d")
      try session.waitFor(text: "Nothing due today")
      try session.sendKeys("u")
      try session.waitFor(text: "Undid: delete \"Milk\"")
      try session.sendKeys("m")
      try session.waitFor(text: "Move \"Milk\" to")
      try session.sendKeys("Enter")
      try session.waitUntil("Milk in Today, now from Work") {
        let screen = try session.capture()
        return screen.contains("Moved \"Milk\" to \"Work\"") && screen.contains("Work")
          && screen.contains("Today — 1 item")
      }
      try session.sendKeys("u")
      try session.waitFor(text: "Undid: move \"Milk\" to \"Work\"")
      try session.sendKeys("Enter")
      try session.waitFor(text: "List — 1 of 1 remaining")
      try session.sendKeys("Escape")
      try session.waitFor(text: "Today — 1 item")
      try session.sendKeys("Escape")
      try session.waitFor(text: "Enter open")
      try session.sendKeys("Down", "Enter")
      try session.waitUntil("Scheduled grouped by day") {
        let screen = try session.capture()
        return screen.contains("Scheduled — 2 items") && screen.contains("Overdue")
          && screen.contains("Book the trip")
      }
      try session.sendKeys("Escape")
      try session.waitFor(text: "Enter open")
      try session.sendKeys("/")
      try session.waitFor(text: "Type to search")
      try session.type("TRIP")
      try session.waitFor(text: "Search \"TRIP\" — 1 found")
      try session.sendKeys("Enter", "Enter")
      try session.waitUntil("the item in its list") {
        let screen = try session.capture()
        return screen.contains("Work — 1 of 1 remaining") && screen.contains("Book the trip")
      }
      #expect(try shell.quit() == "0")
      #expect(try shell.items(of: "List").first?["checked"] as? Bool == false)
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
