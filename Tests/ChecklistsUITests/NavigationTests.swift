import ChecklistsCore
import Foundation
import Testing

@testable import ChecklistsUI

@Suite struct AllListsTests {
  /// Today or Scheduled open at quit opens again at the next start; a search, a list or All
  /// Lists is remembered as before (the list by its index).
  @Test func todayAndScheduledAreRememberedForTheNextStart() {
    var app = makeApp()
    #expect(app.openView == nil)
    app.press(.home)
    app.press(.enter)
    #expect(app.planner?.kind == .today && app.openView == "today")
    var again = makeApp(checklistIndex: app.checklistIndex, openView: app.openView)
    #expect(again.planner?.kind == .today)
    again.press(.escape)
    #expect(again.planner == nil && again.smartSelected == .today && again.openView == nil)
    #expect(makeApp(openView: "scheduled").planner?.kind == .scheduled)
    // A list to reopen wins; an unknown name opens nothing.
    #expect(makeApp(checklistIndex: 1, openView: "today").planner == nil)
    #expect(makeApp(openView: "search").planner == nil)
  }

  /// Jumping from the last of many lists to Today shows the first lists again under Today and
  /// Scheduled, and the title's "n/total" counts lists only, so it is not shown there.
  @Test func jumpingToTodayShowsTheFirstListsAndNoListCount() {
    let lists = (1...40).map { Checklist(name: "List \($0)", iconName: "Folder") }
    var app = makeApp(DataModel(lists: lists))
    app.press(.end)
    #expect(app.screen().contains("List 40"))
    #expect(app.screen().contains("40/40"))
    app.press(.home)
    #expect(app.smartSelected == .today)
    let screen = app.screen()
    #expect(screen.contains("List 1 ") && screen.contains("List 2 "))
    #expect(!screen.contains("List 40"))
    #expect(!screen.contains("/40"))
    // The next row down is the first list, after Scheduled.
    app.press(.down, .down)
    #expect(app.smartSelected == nil && app.allLists.selected == 0)
    #expect(app.screen().contains("1/40"))
  }

  @Test func startsOnAllListsOrOnTheSavedList() {
    #expect(makeApp().checklistIndex == -1)
    let app = makeApp(checklistIndex: 1)
    #expect(app.checklistIndex == 1)
    #expect(app.openList?.name == "Groceries")
    #expect(makeApp(checklistIndex: 7).checklistIndex == -1)
  }

  @Test func firstRunMakesAndOpensAList() {
    let app = ChecklistsApp(
      model: DataModel(), isFirstRun: true, options: AppOptions(timeZone: .utc), size: (60, 15),
      now: testNow)
    #expect(app.dataModel.lists.map(\.name) == ["List"])
    #expect(app.checklistIndex == 0)
    #expect(app.isDirty)
  }

  @Test func movesTheSelection() {
    var app = makeApp()
    app.press(.down)
    #expect(app.allLists.selected == 1)
    app.press(.character("j"), .character("j"))
    #expect(app.allLists.selected == 2)
    app.press(.up)
    #expect(app.allLists.selected == 1)
    app.press(.character("k"))
    #expect(app.allLists.selected == 0)
    // Above the lists: Scheduled, then Today.
    app.press(.character("k"))
    #expect(app.smartSelected == .scheduled)
    app.press(.up)
    #expect(app.smartSelected == .today)
    app.press(.end)
    #expect(app.smartSelected == nil && app.allLists.selected == 2)
    app.press(.home)
    #expect(app.smartSelected == .today)
    app.press(.character("G"))
    #expect(app.smartSelected == nil && app.allLists.selected == 2)
    app.press(.character("g"), .pageDown)
    #expect(app.allLists.selected == 2)
    app.press(.pageUp)
    #expect(app.smartSelected == .today)
    app.press(.down, .down)
    #expect(app.smartSelected == nil && app.allLists.selected == 0)
  }

  @Test(arguments: [Key.enter, .character("l"), .right])
  func opensTheSelectedList(_ key: Key) {
    var app = makeApp()
    app.press(.down, key)
    #expect(app.checklistIndex == 1)
    #expect(app.openList?.name == "Groceries")
  }

  @Test func addsAList() {
    var app = makeApp()
    app.press(.character("a"))
    app.type("Birthdays")
    app.press(.enter)
    #expect(!app.hasForm)
    #expect(app.dataModel.lists.map(\.name) == ["Birthdays", "Chores", "Groceries", "Trips"])
    #expect(app.dataModel.lists[0].iconName == "Folder")
    #expect(app.allLists.selected == 0)
    #expect(app.isDirty)
  }

  @Test func emptyListNameIsRefused() {
    var app = makeApp()
    app.press(.character("a"))
    app.type("   ")
    app.press(.enter)
    #expect(app.hasForm)
    #expect(app.statusMessage == "The list needs a name")
    #expect(app.dataModel.lists.count == 3)
    app.press(.escape)
    #expect(!app.hasForm)
    #expect(app.dataModel == sampleModel())
  }

  @Test func editsNameAndIconThroughThePicker() {
    var app = makeApp()
    app.press(.character("e"), .control("u"))
    app.type("Housework")
    app.press(.tab, .enter)
    guard app.listForm != nil else {
      Issue.record("no list form")
      return
    }
    #expect(app.iconPicker?.selected == IconName.allCases.firstIndex(of: .chores))
    app.press(.down, .enter)
    // Picking moves the focus on to the name: Enter is Done, not the picker again.
    if let form = app.listForm { #expect(form.focus == .name) }
    app.press(.enter)
    #expect(!app.hasForm)
    #expect(app.statusMessage == "Renamed list \"Chores\" to \"Housework\"; icon Drinks")
    let list = app.dataModel.lists.first { $0.name == "Housework" }
    #expect(list?.iconName == "Drinks")
    #expect(list?.items.isEmpty == true)
  }

  @Test func iconPickerEscGoesBackWithoutPicking() {
    var app = makeApp()
    app.press(.character("e"), .tab, .character(" "), .down, .escape, .escape)
    #expect(!app.hasForm)
    #expect(app.dataModel == sampleModel())
  }

  @Test func deleteAsksFirst() {
    var app = makeApp()
    app.press(.down, .character("d"))
    #expect(app.statusMessage == "Delete list \"Groceries\" with 3 items? y/n")
    app.press(.character("n"))
    #expect(app.dataModel.lists.count == 3)
    app.press(.delete, .character("y"))
    #expect(app.dataModel.lists.map(\.name) == ["Chores", "Trips"])
    #expect(app.statusMessage == "Deleted list \"Groceries\" (u undoes)")
    app.press(.character("u"))
    #expect(app.dataModel == sampleModel())
    #expect(app.statusMessage == "Undid: delete list \"Groceries\"")
  }

  /// A long name of wide letters is cut by columns, not letters, so that the question ends on
  /// screen with its y/n, at any width the question can fit in.
  @Test(arguments: [80, 60, 45])
  func aQuestionNamingAWideNameKeepsItsYesNo(width: Int) {
    let name = "夏休みにポルトガルとスペインへ持っていくもののリスト二〇二七年版です"
    let model = DataModel(lists: [
      Checklist(name: name, items: [ChecklistItem(text: "Tent", checked: true, itemID: 1)])
    ])
    var app = makeApp(model, width: width)
    app.press(.down, .character("d"))
    let deleteRow = app.grid().rowText(app.height - 1)
    #expect(deleteRow.hasPrefix("Delete list \"夏休み"), "\(deleteRow)")
    #expect(deleteRow.trimmingCharacters(in: .whitespaces).hasSuffix("…\" with 1 item? y/n"))
    app.press(.character("n"), .enter, .character("C"))
    let clearRow = app.grid().rowText(app.height - 1)
    #expect(clearRow.trimmingCharacters(in: .whitespaces).hasSuffix("…\"? y/n"), "\(clearRow)")
    // A name of 40 columns is not cut; one of 41 is, to 39 and the ellipsis.
    let forty = String(repeating: "ab", count: 20)
    #expect(app.quoted(forty) == "\"\(forty)\"")
    #expect(app.quoted(forty + "c") == "\"\(forty.dropLast())…\"")
    #expect(
      app.quoted(String(repeating: "日", count: 21)) == "\"\(String(repeating: "日", count: 19))…\"")
  }

  @Test func globalKeys() {
    var app = makeApp()
    #expect(app.press(.character("q")) == [.quit])
    #expect(app.press(.control("c")) == [.quit])
    #expect(app.press(.control("s")) == [.save])
    #expect(app.press(.control("z")) == [.suspend])
  }

  @Test(arguments: [Key.escape, .character("q"), .character("?")])
  func helpOpensAndCloses(_ key: Key) {
    var app = makeApp()
    app.press(.character("?"))
    #expect(app.help == HelpScreen(context: .allLists))
    #expect(app.screen().contains("add a list"))
    #expect(app.press(key) == [])
    #expect(app.help == nil)
  }

  @Test func emptyStateExplainsHowToAdd() {
    let app = makeApp(DataModel())
    #expect(app.screen().contains("Press a to add a list"))
  }
}

@Suite struct ChecklistScreenTests {
  func groceries() -> ChecklistsApp { makeApp(checklistIndex: 1) }

  @Test(arguments: [Key.character(" "), .character("x")])
  func togglesTheSelectedItem(_ key: Key) {
    var app = groceries()
    app.press(key)
    #expect(app.openList?.items[0].checked == true)
    #expect(app.openList?.uncheckedCount == 1)
    app.press(key)
    #expect(app.openList?.items[0].checked == false)
    #expect(app.openList?.uncheckedCount == 2)
  }

  @Test func addsAnItemQuickly() {
    var app = groceries()
    app.press(.character("a"))
    app.type("Eggs")
    app.press(.enter)
    let list = app.openList
    #expect(list?.items.last?.text == "Eggs")
    #expect(list?.items.last?.checked == false)
    #expect(list?.items.last?.shouldRemind == false)
    #expect(list?.items.last?.itemID == 5)
    #expect(list?.items.last?.dueDate == Date(timeIntervalSince1970: 1_800_003_600))
    #expect(app.selectedItemIndex == 3)
  }

  @Test func qIsTextInATextField() {
    var app = groceries()
    app.press(.character("a"))
    #expect(app.press(.character("q")) == [])
    app.press(.enter)
    #expect(app.openList?.items.last?.text == "q")
  }

  @Test func emptyTextIsRefused() {
    var app = groceries()
    app.press(.character("a"), .character(" "), .enter)
    #expect(app.hasForm)
    #expect(app.statusMessage == "The item needs some text")
    #expect(app.openList?.items.count == 3)
  }

  @Test(arguments: [Key.character("e"), .enter])
  func editsAnItem(_ key: Key) {
    var app = groceries()
    app.press(key, .end)
    app.type(" (oat)")
    app.press(.enter)
    #expect(app.openList?.items[0].text == "Milk (oat)")
  }

  @Test func escCancelsAnEdit() {
    var app = groceries()
    app.press(.enter, .control("u"))
    app.type("changed")
    app.press(.tab, .tab, .character(" "), .escape)
    #expect(!app.hasForm)
    #expect(app.dataModel == sampleModel())
    #expect(!app.isDirty)
  }

  @Test func remindMeAndDueDateDays() {
    var app = groceries()
    app.press(.character("a"))
    app.type("Call mum")
    app.press(
      .down, .down, .character(" "), .down, .character("+"), .character("+"), .character("-"))
    app.press(.enter)
    let added = app.openList?.items.last
    #expect(added?.shouldRemind == true)
    #expect(added?.dueDate == Date(timeIntervalSince1970: 1_800_003_600 + 86_400))
  }

  @Test func unreadableDueDateIsRefused() {
    var app = groceries()
    app.press(.character("a"))
    app.type("Call mum")
    app.press(.backTab, .backTab, .backTab, .backTab, .backTab, .control("u"))
    app.type("blorp")
    app.press(.enter)
    #expect(app.hasForm)
    #expect(app.statusMessage?.hasPrefix("Can't read the due date") == true)
    #expect(app.screen().contains("blorp"))
    #expect(app.openList?.items.count == 3)
  }

  @Test(arguments: [Key.character("d"), .delete])
  func deletesAnItem(_ key: Key) {
    var app = groceries()
    app.press(key)
    #expect(app.openList?.items.map(\.text) == ["Bread", "Pay rent"])
    #expect(app.statusMessage == "Deleted \"Milk\" (u undoes)")
    app.press(.character("u"))
    #expect(app.statusMessage == "Undid: delete \"Milk\"")
    #expect(app.dataModel == sampleModel())
  }

  @Test func movesItemsWithJAndK() {
    var app = groceries()
    app.press(.character("J"))
    #expect(app.openList?.items.map(\.text) == ["Bread", "Milk", "Pay rent"])
    #expect(app.selectedItemIndex == 1)
    app.press(.character("J"), .character("J"))
    #expect(app.openList?.items.map(\.text) == ["Bread", "Pay rent", "Milk"])
    app.press(.character("K"))
    #expect(app.openList?.items.map(\.text) == ["Bread", "Milk", "Pay rent"])
  }

  @Test func sortsByDueDate() {
    var app = groceries()
    app.press(.character("s"))
    #expect(app.sortByDue == ["Groceries"])
    #expect(app.open?.browser.rows == [2, 0, 1])
    app.press(.character("J"))
    #expect(app.statusMessage?.contains("switch to manual order (s)") == true)
    #expect(app.openList?.items.map(\.text) == ["Milk", "Bread", "Pay rent"])
    app.press(.character("s"))
    #expect(app.sortByDue.isEmpty)
    #expect(app.open?.browser.rows == nil)
  }

  @Test(arguments: [Key.escape, .character("h"), .left])
  func goesBack(_ key: Key) {
    var app = groceries()
    app.press(key)
    #expect(app.checklistIndex == -1)
    #expect(app.allLists.selected == 1)
  }

  @Test func emptyStateExplainsHowToAdd() {
    let app = makeApp(checklistIndex: 0)
    #expect(app.screen().contains("Press a to add an item"))
  }

  @Test func helpListsTheChecklistKeys() {
    var app = groceries()
    app.press(.character("?"))
    #expect(app.help?.context == .checklist)
    app.press(.pageDown, .end, .home, .down, .up)
    #expect(app.help?.top == 0)
    app.press(.escape)
    #expect(app.checklistIndex == 1)
  }

  @Test func pasteInsertsIntoTheField() {
    var app = groceries()
    app.press(.character("a"))
    _ = app.handle(.paste("Line one\nline\ttwo\u{1B}"), now: testNow)
    app.press(.enter)
    #expect(app.openList?.items.last?.text == "Line one line two")
  }

  @Test func selectionStaysVisibleAfterResize() {
    let many = (0..<100).map { item("Item \($0)", id: $0) }
    var app = makeApp(DataModel(lists: [Checklist(name: "Big", items: many)]), checklistIndex: 0)
    app.press(.end)
    _ = app.handle(.resize(width: 30, height: 6), now: testNow)
    let browser = app.open?.browser
    #expect(browser?.selected == 99)
    #expect(browser.map { $0.top <= 99 && 99 < $0.top + 4 } == true)
    #expect(app.grid().rowText(4).contains("Item 99"))
    for size in [(0, 0), (1, 1), (5, 2), (19, 4), (20, 5)] {
      _ = app.handle(.resize(width: size.0, height: size.1), now: testNow)
      _ = app.grid()
    }
  }
}

@Suite struct MouseTests {
  @Test func clickSelectsAndTheCheckColumnToggles() {
    var app = makeApp(checklistIndex: 1)
    _ = app.handle(
      .mouse(MouseEvent(kind: .press, position: GridPosition(row: 3, column: 10))), now: testNow)
    #expect(app.selectedItemIndex == 2)
    #expect(app.openList?.items[2].checked == false)
    _ = app.handle(
      .mouse(MouseEvent(kind: .press, position: GridPosition(row: 2, column: 1))), now: testNow)
    #expect(app.selectedItemIndex == 1)
    #expect(app.openList?.items[1].checked == false)
  }

  @Test func wheelScrolls() {
    let many = (0..<100).map { item("Item \($0)", id: $0) }
    var app = makeApp(DataModel(lists: [Checklist(name: "Big", items: many)]), checklistIndex: 0)
    _ = app.handle(
      .mouse(MouseEvent(kind: .wheelDown, position: GridPosition(row: 3, column: 3))), now: testNow)
    #expect(app.open?.browser.top == 3)
    #expect(app.open?.browser.selected == 3)
    _ = app.handle(
      .mouse(MouseEvent(kind: .wheelUp, position: GridPosition(row: 3, column: 3))), now: testNow)
    #expect(app.open?.browser.top == 0)
  }

  func click(_ app: inout ChecklistsApp, row: Int, column: Int = 20, kind: MouseEvent.Kind = .press)
  {
    let event = MouseEvent(kind: kind, position: GridPosition(row: row, column: column))
    _ = app.handle(.mouse(event), now: testNow)
  }

  @Test func clicksInTheItemForm() {
    var app = makeApp(checklistIndex: 1)
    app.press(.character("a"))
    click(&app, row: 6)
    guard let form = app.itemForm else {
      Issue.record("no item form")
      return
    }
    #expect(form.focus == .remind)
    #expect(form.remind)
    click(&app, row: 8)
    if let form = app.itemForm { #expect(form.focus == .due) }
    click(&app, row: 4)
    if let form = app.itemForm { #expect(form.focus == .note) }
    click(&app, row: 2)
    if let form = app.itemForm { #expect(form.focus == .text) }
    // A click on Repeat opens its picker; a click on a choice picks it; the wheel moves.
    click(&app, row: 11)
    if let form = app.itemForm {
      #expect(form.focus == .repeat && app.repeatPicker?.selected == 0)
    }
    click(&app, row: 12, kind: .wheelDown)
    guard let open = app.itemForm,
      let repeatRow = app.itemFormLayout(open, width: 60, height: 15).places[.repeat]?.row
    else { return }
    #expect(app.repeatPicker?.selected == 1)
    // The form scrolled to show the picker under the Repeat row: its second choice (Never
    // is the first).
    #expect(repeatRow < 11)
    click(&app, row: repeatRow + 2)
    if let form = app.itemForm {
      #expect(app.repeatPicker == nil && form.repeatRule == .daily)
    }
  }

  @Test func clicksInTheListFormPickAnIcon() {
    var app = makeApp()
    app.press(.character("a"))
    app.type("Cats")
    click(&app, row: 4)
    click(&app, row: 5, kind: .wheelDown)
    click(&app, row: 5 + 8)
    guard let form = app.listForm else {
      Issue.record("no list form")
      return
    }
    #expect(app.iconPicker == nil)
    #expect(form.iconName == "Photos")
    click(&app, row: 2)
    app.press(.enter)
    #expect(app.dataModel.lists.first { $0.name == "Cats" }?.iconName == "Photos")
  }

  @Test func wheelScrollsHelp() {
    var app = makeApp(checklistIndex: 1)
    app.press(.character("?"))
    click(&app, row: 5, kind: .wheelDown)
    #expect(app.help?.top == 3)
    click(&app, row: 5, kind: .wheelUp)
    click(&app, row: 5, kind: .wheelUp)
    #expect(app.help?.top == 0)
  }

  @Test func clickOnAllListsSelects() {
    var app = makeApp()
    _ = app.handle(
      .mouse(MouseEvent(kind: .press, position: GridPosition(row: 5, column: 5))), now: testNow)
    #expect(app.allLists.selected == 2)
    _ = app.handle(
      .mouse(MouseEvent(kind: .press, position: GridPosition(row: 9, column: 5))), now: testNow)
    #expect(app.allLists.selected == 2)
    _ = app.handle(
      .mouse(MouseEvent(kind: .press, position: GridPosition(row: 2, column: 5))), now: testNow)
    #expect(app.smartSelected == .scheduled)
    _ = app.handle(
      .mouse(MouseEvent(kind: .press, position: GridPosition(row: 2, column: 5))), now: testNow)
    #expect(app.planner?.kind == .scheduled)
  }
}

@Suite struct LargeListTests {
  func bigApp(_ count: Int, sortByDue: Set<String> = []) -> ChecklistsApp {
    let items = (0..<count).map {
      item(
        "Item \($0)", checked: $0 % 2 == 0, dueInMinutes: Double(count - $0), remind: $0 % 3 == 0,
        id: $0)
    }
    return makeApp(
      DataModel(lists: [Checklist(name: "Big", items: items)]), checklistIndex: 0,
      sortByDue: sortByDue)
  }

  @Test func pagesThroughAChecklist() {
    var app = bigApp(100)
    app.press(.pageDown)
    #expect(app.selectedItemIndex == 13)
    app.press(.pageDown, .character("j"))
    #expect(app.selectedItemIndex == 27)
    app.press(.pageUp, .character("k"))
    #expect(app.selectedItemIndex == 13)
    app.press(.character("G"))
    #expect(app.selectedItemIndex == 99)
    #expect(app.grid().rowText(13).contains("Item 99"))
    app.press(.character("g"))
    #expect(app.selectedItemIndex == 0)
    app.press(.end, .home)
    #expect(app.open?.browser.top == 0)
  }

  @Test func aHundredThousandItems() {
    var app = bigApp(100_000)
    #expect(app.screen().contains("Big — 50000 of 100000 remaining"))
    app.press(.end, .character("x"))
    #expect(app.openList?.uncheckedCount == 49_999)
    #expect(app.grid().rowText(13).contains("Item 99999"))
    app.press(.character("u"))
    #expect(app.openList?.uncheckedCount == 50_000)
    app.press(.character("/"))
    app.type("Item 9999")
    #expect(app.open?.browser.rows?.count == 11)
    app.press(.enter, .character("s"))
    #expect(app.open?.browser.rows?.first == 99_999)
    app.press(.escape)
    #expect(app.open?.browser.rows?.count == 100_000)
    #expect(app.selectedItemIndex == 99_999)
  }
}

@Suite struct StatusHintTests {
  @Test(arguments: [40, 60, 80, 100])
  func hintsFitTheWidthAsWholeWordsAndKeepHelp(width: Int) {
    for index in [-1, 0] {
      let app = makeApp(checklistIndex: index, width: width)
      let hints =
        app.screen().split(separator: "\n", omittingEmptySubsequences: false)
        .last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
      #expect(!hints.contains("…") && !hints.contains("~"), "\(width): \(hints)")
      #expect(hints.hasSuffix("? help"), "\(width): \(hints)")
    }
  }
}

@Suite struct ViPagingKeyTests {
  @Test func ctrlFBPageAndCtrlDUHalfPage() {
    let items = (0..<100).map { item("Item \($0)", id: $0) }
    var app = makeApp(DataModel(lists: [Checklist(name: "Long", items: items)]), checklistIndex: 0)
    let page = app.contentRows
    #expect(page > 2)
    app.press(.control("f"))
    #expect(app.open?.browser.selected == page)
    app.press(.control("d"))
    #expect(app.open?.browser.selected == page + page / 2)
    app.press(.control("u"))
    #expect(app.open?.browser.selected == page)
    app.press(.control("b"))
    #expect(app.open?.browser.selected == 0)
  }
}

/// A terminal too small to draw in shows only "Terminal too small": keys, pastes and clicks
/// change nothing there, except quitting, Ctrl-C, saving and suspending.
@Suite struct TooSmallTerminalTests {
  @Test func onlyQuitSaveAndSuspendActWhileNothingCanBeSeen() {
    var app = makeApp(checklistIndex: 1)
    _ = app.handle(.resize(width: 10, height: 3), now: testNow)
    #expect(app.screen().hasPrefix("Terminal"))
    let before = app.openList?.items
    #expect(before?.count == 3)
    app.press(.character("d"), .character(" "), .character("a"), .enter, .character("x"))
    _ = app.handle(.paste("/tmp/photo.jpg"), now: testNow)
    _ = app.handle(
      .mouse(MouseEvent(kind: .press, position: GridPosition(row: 1, column: 1))), now: testNow)
    #expect(app.openList?.items == before)
    #expect(!app.hasForm && app.help == nil)
    #expect(app.press(.control("z")) == [.suspend])
    // Big enough again: the list as it was, and keys act.
    _ = app.handle(.resize(width: 60, height: 15), now: testNow)
    app.press(.character(" "))
    #expect(app.openList?.items.first?.checked == true)
    _ = app.handle(.resize(width: 10, height: 3), now: testNow)
    #expect(app.press(.control("s")) == [.save])
    #expect(app.press(.character("q")).contains(.quit))
  }
}
