import Foundation
import Testing

extension EndToEndProcesses {
  /// The real app in tmux used the way people use it: adding, checking, deleting and undoing
  /// items, lists made with the CLI, forms, ordering, filter, help and saving.
  @Suite(.serialized) struct AppFlowTests {
    @Test func firstRunAddQuitRelaunchToggleDeleteUndoRedo() throws {
      let shell = try AppFlowShell()
      defer { shell.close() }
      let session = shell.session
      try shell.launch(waitingFor: "List — no items")
      try session.sendKeys("a")
      try session.waitFor(text: "Add Item")
      try session.type("Milk")
      try session.sendKeys("Enter")
      try session.waitFor(text: "Added \"Milk\"")
      #expect(!FileManager.default.fileExists(atPath: shell.dataFile.path), "saved before quit")
      #expect(try shell.quit() == "0")
      #expect(try shell.itemTexts(of: "List") == ["Milk"])
      #expect(try shell.items(of: "List").first?["checked"] as? Bool == false)

      // The state file remembers the open list.
      try shell.launch(waitingFor: "List — 1 of 1 remaining")
      try session.sendKeys("Space")
      try session.waitFor(text: "List — 0 of 1 remaining")
      #expect(try shell.quit() == "0")
      #expect(try shell.items(of: "List").first?["checked"] as? Bool == true)

      try shell.launch(waitingFor: "Milk")
      try session.sendKeys("d")
      try session.waitFor(text: "No items yet")
      // The status line still names "Milk" after d ("Deleted "Milk" (u undoes)"): each step
      // waits for its own message and the screen it leaves, never for text already there.
      try session.sendKeys("u")
      try session.waitFor("Milk back after u") {
        $0.contains("Undid: delete \"Milk\"") && !$0.contains("No items yet")
      }
      try session.sendKeys("C-r")
      try session.waitFor("Milk deleted again after Ctrl-R") {
        $0.contains("Redid: delete \"Milk\"") && $0.contains("No items yet")
      }
      try session.sendKeys("u")
      try session.waitFor("Milk back after the second u") {
        $0.contains("Undid: delete \"Milk\"") && !$0.contains("No items yet")
      }
      #expect(try shell.quit() == "0")
      #expect(try shell.itemTexts(of: "List") == ["Milk"])
    }

    /// The state file is written when what it holds changes (here the open list), not again
    /// on every quit: an unchanged one keeps its inode (a write replaces the file by rename).
    @Test func unchangedStateIsNotWrittenAgain() throws {
      let shell = try AppFlowShell()
      defer { shell.close() }
      let folder = shell.session.stateHome.appendingPathComponent("checklists")
      func stateInode() throws -> Int {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        let name = try #require(names.first { $0.hasSuffix(".json") })
        let attributes = try FileManager.default.attributesOfItem(
          atPath: folder.appendingPathComponent(name).path)
        return try #require((attributes[.systemFileNumber] as? NSNumber)?.intValue)
      }
      try shell.launch(waitingFor: "List — no items")
      #expect(try shell.quit() == "0")
      let first = try stateInode()
      try shell.launch(waitingFor: "List — no items")
      #expect(try shell.quit() == "0")
      #expect(try stateInode() == first, "rewritten although nothing in it changed")
      try shell.launch(waitingFor: "List — no items")
      try shell.session.sendKeys("Escape")
      try shell.session.waitFor(text: "Checklists")
      #expect(try shell.quit() == "0")
      #expect(try stateInode() != first, "the open list changed but the state was not written")
    }

    @Test func emptyTextIsRefusedAndEscapeCancels() throws {
      let shell = try AppFlowShell()
      defer { shell.close() }
      let session = shell.session
      try shell.launch(waitingFor: "List — no items")
      try session.sendKeys("a")
      try session.waitFor(text: "Add Item")
      try session.sendKeys("Enter")
      let refused = try session.waitFor(text: "The item needs some text")
      #expect(refused.contains("Add Item"))
      try session.type("Never added")
      try session.waitFor(text: "Never added")
      try session.sendKeys("Escape")
      // Both: tmux may show the new title above rows of the old form for a moment.
      try session.waitFor("the form closed on the empty list") {
        !$0.contains("Add Item") && $0.contains("No items yet")
      }
      #expect(try shell.quit() == "0")
      #expect(try shell.itemTexts(of: "List") == [])
    }

    @Test func allListsShowsSubtitlesOfListsMadeWithTheCLI() throws {
      let shell = try AppFlowShell()
      defer { shell.close() }
      try shell.cli("new-list", "Empty")
      try shell.cli("new-list", "Finished")
      try shell.cli("add", "Finished", "Done thing")
      try shell.cli("check", "Finished", "Done thing")
      try shell.cli("new-list", "Open")
      try shell.cli("add", "Open", "One")
      try shell.cli("add", "Open", "Two")
      try shell.cli("add", "Open", "Three")
      try shell.cli("check", "Open", "Two")
      // The CLI's first run made "List" too and remembered list 0: go back to All Lists.
      try shell.launch(waitingFor: "Empty")
      try shell.session.sendKeys("h")
      let screen = try shell.session.waitFor(text: "Remaining")
      let rows = screen.split(separator: "\n").map(String.init)
      #expect(rows.contains { $0.contains("Empty") && $0.contains("(No Items)") }, "\(screen)")
      #expect(rows.contains { $0.contains("Finished") && $0.contains("All Done!") }, "\(screen)")
      #expect(rows.contains { $0.contains("Open") && $0.contains("2 Remaining") }, "\(screen)")
      #expect(try shell.quit() == "0")
    }

    @Test func addListWithAnIconFromThePicker() throws {
      let shell = try AppFlowShell { try AppFlowShell.copyFixture(into: $0) }
      defer { shell.close() }
      let session = shell.session
      try shell.launch(waitingFor: "Groceries")
      try session.sendKeys("a")
      try session.waitFor(text: "Add List")
      try session.type("Holidays")
      try session.sendKeys("Tab")
      try session.sendKeys("Enter")
      // The picker's first row is "No Icon"; two rows down is "Birthdays".
      try session.waitFor(text: "Appointments")
      try session.sendKeys("g", "j", "j", "Enter")
      try session.waitFor("the picker closed with Birthdays chosen") {
        $0.contains("Add List") && $0.contains("Birthdays") && !$0.contains("Appointments")
      }
      // Picking moved the focus on to the name: Enter is Done.
      try session.sendKeys("Enter")
      try session.waitFor("the new list on All Lists") {
        !$0.contains("Add List") && $0.contains("Holidays")
      }
      #expect(try shell.quit() == "0")
      let list = try shell.lists().first { $0["name"] as? String == "Holidays" }
      #expect(list?["iconName"] as? String == "Birthdays")
    }

    @Test func renameReSortsInNaturalOrder() throws {
      let shell = try AppFlowShell {
        try AppFlowShell.writeLists(["list 10", "list 9", "zeta"], into: $0)
      }
      defer { shell.close() }
      let session = shell.session
      try shell.launch(waitingFor: "zeta")
      func order(_ screen: String) -> [String] {
        // The rows only, not the status line's "Renamed list …" message.
        screen.split(separator: "\n").filter { !$0.contains("Renamed") }.compactMap { row in
          ["list 9", "list 10", "list 11", "zeta"].first { row.contains($0) }
        }
      }
      #expect(order(try session.capture()) == ["list 9", "list 10", "zeta"])
      // g goes to Today; the first list is two rows under it.
      try session.sendKeys("g", "j", "j", "e")
      try session.waitFor(text: "Edit List")
      try session.sendKeys("C-u")
      try session.type("list 11")
      try session.sendKeys("Enter")
      // "list 11" is in the form's field too: the status line, drawn last, says the frame is whole.
      let screen = try session.waitFor("the renamed list") {
        !$0.contains("Edit List") && $0.contains("list 11") && $0.contains("Renamed list")
      }
      #expect(order(screen) == ["list 10", "list 11", "zeta"])
      #expect(try shell.quit() == "0")
      let names = try shell.lists().compactMap { $0["name"] as? String }
      #expect(Set(names) == ["list 10", "list 11", "zeta"])
    }

    @Test func moveWithShiftJAndKPersistsTheFileOrder() throws {
      let shell = try AppFlowShell {
        try AppFlowShell.writeLists(
          ["Chores"], items: ["Chores": ["alpha", "bravo", "charlie"]], into: $0)
      }
      defer { shell.close() }
      let session = shell.session
      try shell.launch(waitingFor: "Chores")
      try session.sendKeys("Enter")
      try session.waitFor(text: "charlie")
      try session.sendKeys("g", "J")
      try session.waitFor("alpha moved down") {
        let rows = $0.split(separator: "\n")
        guard let a = rows.firstIndex(where: { $0.contains("alpha") }),
          let b = rows.firstIndex(where: { $0.contains("bravo") })
        else { return false }
        return b < a
      }
      try session.sendKeys("G", "K")
      try session.waitFor("charlie moved up") {
        let rows = $0.split(separator: "\n")
        guard let a = rows.firstIndex(where: { $0.contains("alpha") }),
          let c = rows.firstIndex(where: { $0.contains("charlie") })
        else { return false }
        return c < a
      }
      #expect(try shell.quit() == "0")
      #expect(try shell.itemTexts(of: "Chores") == ["bravo", "charlie", "alpha"])
    }

    @Test func filterHelpAndSaveWithoutQuitting() throws {
      let shell = try AppFlowShell { try AppFlowShell.copyFixture(into: $0) }
      defer { shell.close() }
      let session = shell.session
      try shell.launch(waitingFor: "Groceries")
      try session.sendKeys("/")
      try session.type("gro")
      try session.waitFor("only Groceries") {
        $0.contains("Groceries") && !$0.contains("Birthdays") && !$0.contains("Trips")
      }
      try session.sendKeys("Escape")
      try session.waitFor("the filter cleared") { $0.contains("Birthdays") && $0.contains("Trips") }

      try session.sendKeys("?")
      // The help screen can reach tmux in more than one write: wait for all of it.
      try session.waitFor("the All Lists help with the save key and a's action") {
        $0.contains("Keys: All Lists") && $0.contains("Ctrl-S") && $0.contains("add a list")
      }
      try session.sendKeys("Escape")
      try session.waitFor("help closed") { !$0.contains("Keys: All Lists") }

      try session.sendKeys("g", "j", "j", "Enter")
      try session.waitFor(text: "Birthdays —")
      try session.sendKeys("?")
      try session.waitFor("the Checklist help with J and Space") {
        $0.contains("Keys: Checklist") && $0.contains("J") && $0.contains("Space")
      }
      try session.sendKeys("Escape")
      try session.waitFor("help closed") { !$0.contains("Keys: Checklist") }

      try session.sendKeys("a")
      try session.waitFor(text: "Add Item")
      try session.type("Saved early")
      try session.sendKeys("Enter")
      try session.waitFor(text: "Added \"Saved early\"")
      #expect(try !shell.itemTexts(of: "Birthdays").contains("Saved early"))
      try session.sendKeys("C-s")
      try session.waitUntil("the file to have the item") {
        (try? shell.itemTexts(of: "Birthdays").contains("Saved early")) == true
      }
      #expect(!session.fileExists("status"), "the app is still running")
      #expect(try shell.quit() == "0")
    }
  }
}
