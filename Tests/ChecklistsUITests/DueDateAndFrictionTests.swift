import ChecklistsCore
import Foundation
import Testing

@testable import ChecklistsUI

/// Rows that show due dates, kept fresh on an idle screen; keys and clicks that do what a
/// user expects.
@Suite struct DueDateRowTests {
  func datedModel() -> DataModel {
    var dated = item("Pay rent", dueInMinutes: 3, id: 1)
    dated.hasDueDate = true
    dated.dueDate = testNow.addingTimeInterval(2 * 60 + 58)
    let plain = item("Milk", dueInMinutes: -600, id: 2)
    var overdue = item("Call mum", dueInMinutes: -90, id: 3)
    overdue.hasDueDate = true
    return DataModel(lists: [Checklist(name: "Home", items: [plain, dated, overdue])])
  }

  @Test func anIdleScreenIsRedrawnWhenATimeOnItChanges() {
    var app = makeApp(datedModel(), checklistIndex: 0)
    #expect(app.grid().trimmedRow(2).hasSuffix("in 3 min"))
    // Due in 2 min 58 s: "in 3 min" until 2 min 30 s are left, then a tick redraws it.
    let change = testNow.addingTimeInterval(28)
    // The first wake-up is at once: the tick after the first screen builds the reminders.
    #expect(app.nextWakeUp(after: testNow) == testNow)
    _ = app.handle(.tick, now: testNow)
    #expect(app.nextWakeUp(after: testNow) == change)
    _ = app.handle(.tick, now: change)
    #expect(app.grid(now: change).trimmedRow(2).hasSuffix("in 2 min"))
    #expect(app.nextWakeUp(after: change) == change.addingTimeInterval(60))
    // Nothing dated on screen (a form is open): only reminders wake the app.
    app.press(.character("a"), now: change)
    #expect(app.nextWakeUp(after: change) == nil)
  }

  @Test func itemsWithADueDateShowItSortByItAndOverdueOnesStandOut() {
    var app = makeApp(datedModel(), checklistIndex: 0)
    let grid = app.grid()
    #expect(!grid.trimmedRow(1).contains("ago"))  // Milk: no due date given, none shown
    #expect(grid.trimmedRow(3).hasSuffix("1 h ago") || grid.trimmedRow(3).contains("today 06:40"))
    let overdueCell = grid[3, grid.width - 3]
    #expect(overdueCell.style.color == .overdue)
    app.press(.character("s"))
    #expect(app.open?.browser.rows == [2, 1, 0])
  }

  /// Two items on one day more than a week ahead show their times, in a list and under
  /// Scheduled's day heading; a narrow terminal still fits a form with the time.
  @Test func farItemsOnOneDayShowTheirTimes() {
    let day = testNow.addingTimeInterval(8 * 86_400 - 8 * 3600 - 600)  // Sat 23 Jan 00:00
    var early = item("Dentist", id: 1)
    early.dueDate = day.addingTimeInterval(8 * 3600)
    early.hasDueDate = true
    var late = item("Flight", id: 2)
    late.dueDate = day.addingTimeInterval(20 * 3600)
    late.hasDueDate = true
    let model = DataModel(lists: [Checklist(name: "Home", items: [early, late])])
    let list = makeApp(model, checklistIndex: 0).grid()
    #expect(list.trimmedRow(1).hasSuffix("Sat 23 Jan 08:00"))
    #expect(list.trimmedRow(2).hasSuffix("Sat 23 Jan 20:00"))
    let scheduled = makeApp(model, openView: "scheduled").screen()
    #expect(scheduled.contains("Sat 23 Jan\n"), "\(scheduled)")
    #expect(scheduled.contains("Sat 23 Jan 08:00") && scheduled.contains("Sat 23 Jan 20:00"))
    // 30 columns: a third of the row is 10, so the weekday and then the time go.
    let narrow = makeApp(model, openView: "scheduled", width: 30).grid()
    let rows = (0..<narrow.height).map { narrow.trimmedRow($0) }
    #expect(rows.contains { $0.hasSuffix("Sat 23 Jan") }, "\(rows)")
    let medium = makeApp(model, checklistIndex: 0, width: 26).grid()
    #expect(medium.trimmedRow(1).hasSuffix("23 Jan 08:00"), "\(medium.trimmedRow(1))")
  }

  @Test func theHintsSayWhatTheKeysDoHere() {
    var app = makeApp(datedModel(), checklistIndex: 0, width: 200)
    // On the first row K has nothing to move past: the hint names J only.
    #expect(app.screen().contains("J move"))
    app.press(.down)
    #expect(app.screen().contains("J/K move"))
    app.press(.up)
    #expect(!app.screen().contains("u undo"))
    app.press(.character("s"), .down)
    #expect(!app.screen().contains("J/K move"))
    #expect(app.screen().contains("s manual order"))
    app.press(.character("x"), .down)
    #expect(app.screen().contains("u undo"))
    app.press(.character("a"))
    #expect(!app.screen().contains("? help"))
    #expect(app.screen().contains("F1 help"))
    app.press(.function(1))
    #expect(app.help?.context == .itemForm)
  }

  @Test func aReminderWhileAFormIsOpenDoesNotOfferR() {
    var reminding = item("Stretch", dueInMinutes: 1, remind: true, id: 9)
    reminding.hasDueDate = true
    var app = makeApp(
      DataModel(lists: [Checklist(name: "Home", items: [reminding])]), checklistIndex: 0)
    app.press(.character("a"))
    _ = app.handle(.tick, now: testNow.addingTimeInterval(60))
    #expect(app.statusMessage?.contains("Reminder") == true)
    #expect(app.statusMessage?.contains("r shows it") == false)
  }
}

@Suite struct FrictionTests {
  @Test func ddDeletesOneItem() {
    var app = makeApp(checklistIndex: 1)
    app.press(.character("d"), .character("d"), now: testNow)
    #expect(app.openList?.items.map(\.text) == ["Bread", "Pay rent"])
    #expect(app.statusMessage?.contains("dd is not two") == true)
    // Half a second later, d deletes again.
    app.press(.character("d"), now: testNow.addingTimeInterval(0.6))
    #expect(app.openList?.items.map(\.text) == ["Pay rent"])
  }

  @Test func anUnknownKeySaysSo() {
    var app = makeApp(checklistIndex: 0)
    app.press(.character("Z"))
    #expect(app.statusMessage == "Z: not a key here — ? for help")
    app.press(.function(5))
    #expect(app.statusMessage == "F5: not a key here — ? for help")
    app.press(.down)
    #expect(app.statusMessage == "F5: not a key here — ? for help" || app.statusMessage == nil)
    // Any key without an action here says so, arrows and chords too; Esc stays quiet.
    app.press(.right)
    #expect(app.statusMessage == "Right: not a key here — ? for help")
    app.press(.control("x"))
    #expect(app.statusMessage == "Ctrl-X: not a key here — ? for help")
  }

  @Test func aClickOnTheSelectedRowOpensIt() {
    var app = makeApp()
    let click = { (row: Int, column: Int) in
      InputEvent.mouse(MouseEvent(kind: .press, position: GridPosition(row: row, column: column)))
    }
    // All Lists: Today and Scheduled on rows 1 and 2, the lists from row 3.
    _ = app.handle(click(4, 10), now: testNow)
    #expect(app.open == nil)
    #expect(app.allLists.selected == 1)
    _ = app.handle(click(4, 10), now: testNow)
    #expect(app.openList?.name == "Groceries")
    _ = app.handle(click(2, 10), now: testNow)
    #expect(openItemForm(app) == nil)
    _ = app.handle(click(2, 10), now: testNow)
    #expect(openItemForm(app)?.text.text == "Bread")
  }

  @Test func longListsShowWhereYouAre() {
    let items = (0..<500).map { item("Item \($0)", id: $0) }
    var app = makeApp(DataModel(lists: [Checklist(name: "Long", items: items)]), checklistIndex: 0)
    #expect(app.grid().trimmedRow(0).hasSuffix("1/500"))
    app.press(.end)
    #expect(app.grid().trimmedRow(0).hasSuffix("500/500"))
    #expect(!makeApp(checklistIndex: 0).grid().trimmedRow(0).contains("/3"))
  }

  @Test func editsSayWhatChanged() {
    var app = makeApp(checklistIndex: 1)
    app.press(.enter, .end)
    app.type(" x2")
    app.press(.enter)
    #expect(app.statusMessage == "Renamed \"Milk\" to \"Milk x2\"")
  }
}

extension CellGrid {
  /// A row without its leading and trailing blanks.
  fileprivate func trimmedRow(_ row: Int) -> String {
    rowText(row).trimmingCharacters(in: .whitespaces)
  }
}

/// The item form on screen, if any.
private func openItemForm(_ app: ChecklistsApp) -> ItemFormScreen? {
  if let form = app.itemForm { return form }
  return nil
}
