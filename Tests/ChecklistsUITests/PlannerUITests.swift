import ChecklistsCore
import Foundation
import Testing

@testable import ChecklistsUI

/// Repeating items, clearing checked items, and the undo of changes made as one.
@Suite struct PlannerUITests {
  /// Groceries with a weekly item "Bins" due 30 minutes after `testNow` (Fri 15 Jan 2027),
  /// keeping the 31st as its day when `keptDay`.
  func repeatingModel(keptDay: Bool = false) -> DataModel {
    var bins = item("Bins", dueInMinutes: 30, id: 9)
    bins.hasDueDate = true
    bins.repeatRule = .weekly
    if keptDay { bins.unknownFields[.repeatDay] = .integer(31) }
    return DataModel(lists: [
      Checklist(
        name: "Groceries", iconName: "Groceries",
        items: [
          item("Milk", id: 1), item("Bread", checked: true, id: 2),
          item("Pay rent", dueInMinutes: 30, remind: true, id: 3), bins,
        ]),
      Checklist(name: "Chores", iconName: "Chores"),
      Checklist(name: "Trips", iconName: "Trips", items: [item("Passport", checked: true, id: 4)]),
    ])
  }

  @Test func checkingARepeatingItemMovesItToTheNextDate() throws {
    var app = makeApp(repeatingModel(), checklistIndex: 1)
    app.press(.end, .character(" "))
    let bins = try #require(app.openList?.items.last)
    #expect(bins.text == "Bins" && !bins.checked)
    #expect(bins.dueDate == testNow.addingTimeInterval(30 * 60 + 7 * 86_400))
    #expect(app.statusMessage == "Next: Fri 22 Jan")
    app.press(.character("u"))
    #expect(app.dataModel == repeatingModel())
    // It was a check, and undo says so.
    #expect(app.statusMessage == "Undid: check \"Bins\"")
  }

  /// In Today a checked item leaves the view: the status line says so, and undo brings it back.
  @Test func checkingInTodaySaysWhatLeftTheViewAndUndoBringsItBack() throws {
    var app = makeApp(repeatingModel())
    app.press(.home, .enter)
    #expect(app.planner?.kind == .today)
    #expect(app.screen().contains("Pay rent"))
    // The first item row of Today (past any heading).
    let rent = try #require(app.planner?.selectable.firstIndex { _ in true })
    app.planner?.selected = rent
    app.press(.character(" "))
    let text = try #require(app.statusMessage)
    #expect(text.hasPrefix("Checked \"") && text.hasSuffix("(u undoes)"))
    app.press(.character("u"))
    #expect(app.dataModel == repeatingModel())
  }

  /// A click in the check column of Today checks the item, and says so as the key does.
  @Test func clickingToCheckInTodaySaysWhatLeftTheView() throws {
    var app = makeApp(repeatingModel())
    app.press(.home, .enter)
    #expect(app.planner?.kind == .today)
    let view = try #require(app.planner)
    let rent = try #require(view.selectable.first)
    _ = app.handle(
      .mouse(MouseEvent(kind: .press, position: GridPosition(row: rent - view.top + 1, column: 1))),
      now: testNow)
    let text = try #require(app.statusMessage)
    #expect(text.hasPrefix("Checked \"") && text.hasSuffix("(u undoes)"))
    app.press(.character("u"))
    #expect(app.dataModel == repeatingModel())
  }

  @Test func rowsOfRepeatingItemsShowTheRepeatMark() {
    let app = makeApp(repeatingModel(), checklistIndex: 1)
    #expect(app.screen().contains("↻"))
    let ascii = makeApp(repeatingModel(), checklistIndex: 1, ascii: true)
    #expect(ascii.screen().contains("(r)"))
    #expect(!makeApp(checklistIndex: 1).screen().contains("↻"))
  }

  @Test func editingTheDateByHandForgetsTheKeptDay() throws {
    let model = repeatingModel(keptDay: true)
    var app = makeApp(model, checklistIndex: 1)
    app.press(.end, .character("e"), .tab, .tab, .tab, .character("+"), .enter)
    let bins = try #require(app.openList?.items.last)
    #expect(bins.unknownFields[.repeatDay] == nil)
    #expect(bins.dueDate == testNow.addingTimeInterval(30 * 60 + 86_400))
    #expect(bins.repeatRule == .weekly)
  }

  @Test func clearCheckedAsksWithTheCountThenUndoes() {
    var app = makeApp(checklistIndex: 1)
    app.press(.character("C"))
    #expect(app.screen().contains("Clear 1 checked item of \"Groceries\"? y/n"))
    app.press(.character("y"))
    #expect(app.openList?.items.map(\.text) == ["Milk", "Pay rent"])
    #expect(app.statusMessage == "Cleared 1 checked item (u undoes)")
    app.press(.character("u"))
    #expect(app.dataModel == sampleModel())
    #expect(app.statusMessage == "Undid: clear 1 checked item")
    app.press(.control("r"))
    #expect(app.openList?.items.map(\.text) == ["Milk", "Pay rent"])
    #expect(app.statusMessage == "Redid: clear 1 checked item")
  }

  @Test func clearCheckedKeepsItemsOnAnyOtherKey() {
    var app = makeApp(checklistIndex: 1)
    app.press(.character("C"), .character("n"))
    #expect(app.dataModel == sampleModel())
    #expect(app.statusMessage == "Kept the checked items")
  }

  @Test func clearCheckedWithNothingCheckedSaysSo() {
    var app = makeApp(checklistIndex: 0)
    app.press(.character("C"))
    #expect(app.confirmation == nil)
    #expect(app.statusMessage == "No checked items to clear")
  }

  @Test func moveToListPicksAListAndUndoes() {
    var app = makeApp(checklistIndex: 1)
    app.press(.character("m"))
    #expect(app.keyScreen == .picker)
    #expect(
      app.screen().hasPrefix(
        """
         Move "Milk" to
         🧹 Chores
         ✈  Trips
        """))
    app.press(.character("j"), .enter)
    #expect(app.listPicker == nil)
    #expect(app.openList?.name == "Groceries")
    #expect(app.openList?.items.map(\.text) == ["Bread", "Pay rent"])
    #expect(
      app.dataModel.lists.first { $0.name == "Trips" }?.items.map(\.text) == ["Passport", "Milk"])
    #expect(app.statusMessage == "Moved \"Milk\" to \"Trips\" (u undoes)")
    app.press(.character("u"))
    #expect(app.dataModel == sampleModel())
    #expect(app.statusMessage == "Undid: move \"Milk\" to \"Trips\"")
    #expect(app.openList?.name == "Groceries" && app.selectedItemIndex == 0)
    app.press(.control("r"))
    #expect(app.openList?.name == "Trips" && app.selectedItemIndex == 1)
    #expect(app.statusMessage == "Redid: move \"Milk\" to \"Trips\"")
  }

  @Test func moveToListEscapeKeepsTheItem() {
    var app = makeApp(checklistIndex: 1)
    app.press(.character("m"), .escape)
    #expect(app.listPicker == nil && app.dataModel == sampleModel())
    #expect(app.keyScreen == .checklist)
  }
}
