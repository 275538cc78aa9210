import ChecklistsCore
import Foundation
import Testing

@testable import ChecklistsUI

/// The status line's messages: a long one is cut and says which key shows it whole, and the
/// messages view (`M`) shows every message so far, wrapped.
@Suite struct StatusMessagesTests {
  private let long =
    "2 changes made elsewhere merged; 1 conflict, ours kept (details in "
    + "Checklists.plist.conflicts.log, next to the data file)"

  @Test func aLongMessageIsCutSayingWhichKeyShowsItWhole() throws {
    var app = makeApp()
    _ = app.handle(
      .mergedFromElsewhere(
        MergedLists(model: app.dataModel, renumbered: [:], matchesFile: true), message: long),
      now: testNow)
    let lines = app.screen().components(separatedBy: "\n")
    let status = try #require(lines.last)
    #expect(status.hasSuffix("… M all of it"), "\(status)")
    #expect(status.hasPrefix("2 changes made elsewhere merged"))
    // A message that fits says nothing more.
    app.press(.character("u"))
    #expect(app.screen().components(separatedBy: "\n").last?.contains("all of it") == false)
  }

  @Test func theMessagesViewShowsEveryMessageWholeAndCloses() throws {
    var app = makeApp()
    #expect(!app.shownHints.contains { $0.actions == [.messages] })
    app.press(.character("M"))
    #expect(app.help?.context == .messages)
    #expect(app.screen().contains("No messages yet"))
    app.press(.escape)
    _ = app.handle(
      .mergedFromElsewhere(
        MergedLists(model: app.dataModel, renumbered: [:], matchesFile: true), message: long),
      now: testNow)
    app.press(.character("Z"))  // not a key: a second message
    app.press(.character("M"))
    let screen = app.screen()
    #expect(screen.contains(" Messages"))
    // Wrapped at spaces, in full, in the order they came.
    let joined = screen.components(separatedBy: "\n").map {
      $0.trimmingCharacters(in: .whitespaces)
    }.joined(separator: " ")
    #expect(joined.contains(long), "\(screen)")
    let first = try #require(joined.range(of: "2 changes made"))
    let second = try #require(joined.range(of: "Z: not a key here"))
    #expect(first.lowerBound < second.lowerBound)
    app.press(.character("q"))
    #expect(app.help == nil)
    // Once there are messages, the hints name the key where there is room.
    var wide = makeApp(width: 200)
    wide.press(.character("Z"))
    wide.press(.escape)
    #expect(wide.hintText(width: 200).contains("M messages"))
  }

  /// Done on a new item names every field set, the reminder and the note too.
  @Test func addingAnItemNamesEveryFieldSet() {
    var app = makeApp(checklistIndex: 1)
    app.press(.character("a"))
    app.type("Call")
    app.press(.tab)
    app.type("about the boiler")
    app.press(.tab, .character(" "), .enter)
    #expect(app.statusMessage == "Added \"Call\", due in 50 min, reminds, with a note")
  }

  /// `m` works on Today, Scheduled and a Checklist, and an 80-column status line names it
  /// there (it was the first hint to go).
  @Test func anEightyColumnStatusLineNamesMoveToList() throws {
    let groceries = sampleModel().lists.first { $0.name == "Groceries" }?.items ?? []
    let dated = groceries.map {
      var item = $0
      item.hasDueDate = true
      return item
    }
    let model = DataModel(lists: [
      Checklist(name: "Groceries", iconName: "Groceries", items: dated),
      Checklist(name: "Chores", iconName: "Chores"),
    ])
    for view in ["today", "scheduled", nil] {
      // Chores, then Groceries (the lists are in name order).
      var app = makeApp(model, checklistIndex: view == nil ? 1 : -1, openView: view, width: 80)
      if view == "scheduled" { app.press(.down) }
      let canMove = app.canPerform(.moveToList)
      #expect(canMove, "\(view ?? "list")")
      let hints = app.hintText(width: 80)
      #expect(
        hints.contains(view == nil ? "m move to list" : "m move"), "\(view ?? "list"): \(hints)")
      #expect(DisplayWidth.of(hints) <= 80)
    }
  }
}
