import Foundation
import Testing

extension EndToEndProcesses {
  /// The item form's Notes field and Repeat picker in the real app in tmux, and what they save.
  @Suite(.serialized) struct ItemFormPlannerFlowTests {
    @Test func addAnItemWithATwoLineNoteThatRepeatsWeekly() throws {
      let shell = try AppFlowShell()
      defer { shell.close() }
      let session = shell.session
      try shell.launch(waitingFor: "List — no items")
      try session.sendKeys("a")
      try session.waitFor(text: "Add Item")
      try session.type("Bins")
      try session.sendKeys("Tab")
      try session.waitFor(text: "Enter new line")
      try session.type("Blue bin")
      try session.sendKeys("Enter")
      try session.type("Green on Tuesdays")
      try session.waitFor("both lines of the note") { screen in
        let rows = screen.split(separator: "\n")
        guard let first = rows.firstIndex(where: { $0.contains("Notes     Blue bin") }) else {
          return false
        }
        return rows.count > first + 1 && rows[first + 1].contains("Green on Tuesdays")
      }
      // Ctrl-D leaves the note for Remind Me; Tab goes on to the Due Date.
      try session.sendKeys("C-d", "Tab")
      try session.type("tomorrow 9am")
      try session.waitFor(text: "tomorrow 9am")
      try session.sendKeys("Tab")
      try session.waitFor(text: "Enter choose")
      try session.sendKeys("Enter")
      try session.waitFor("the Repeat picker") {
        $0.contains("Every 2 weeks") && $0.contains("Enter pick")
      }
      try session.sendKeys("j", "j", "j", "Enter")
      try session.waitFor("Weekly picked") {
        $0.contains("Repeat    Weekly  then ") && !$0.contains("Every 2 weeks")
      }
      // Tab goes on to the Priority row and the Tags field, where Enter is Done.
      try session.sendKeys("Tab", "Tab", "Enter")
      let screen = try session.waitFor("the new row") {
        !$0.contains("Add Item") && $0.contains("Added \"Bins\"")
      }
      let row = screen.split(separator: "\n").first { $0.contains("Bins") } ?? ""
      #expect(row.contains("Bins  Blue bin"), "\(screen)")
      #expect(row.contains("↻ tomorrow 09:00"), "\(screen)")
      #expect(!row.contains("Green"), "\(screen)")
      #expect(screen.contains("Added \"Bins\", due tomorrow 09:00, repeats weekly"), "\(screen)")
      #expect(try shell.quit() == "0")

      let shown = try shell.cli("show", "List", "--json")
      #expect(shown.status == 0)
      let json = try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8))
      let items = (json as? [String: Any])?["items"] as? [[String: Any]] ?? []
      let bins = try #require(items.first { $0["text"] as? String == "Bins" }, "\(shown.stdout)")
      #expect(bins["note"] as? String == "Blue bin\nGreen on Tuesdays")
      #expect(bins["repeat"] as? String == "weekly")
      #expect(bins["hasDueDate"] as? Bool == true)
    }
  }
}
