import ChecklistsCore
import Foundation
import Testing

@testable import ChecklistsUI

/// An item with a due date set by the user, `minutes` after `testNow`.
private func dated(
  _ text: String, _ minutes: Double, checked: Bool = false, id: Int, repeating: RepeatRule? = nil
) -> ChecklistItem {
  var made = item(text, checked: checked, dueInMinutes: minutes, id: id)
  made.hasDueDate = true
  made.repeatRule = repeating
  return made
}

/// Two lists with items due yesterday, today, tomorrow and later (testNow is Fri 15 Jan 2027,
/// 08:10 UTC).
private func plannerModel() -> DataModel {
  DataModel(lists: [
    Checklist(
      name: "Groceries", iconName: "Groceries",
      items: [
        dated("Milk", 60, id: 1), item("Bread", id: 2),
        dated("Café beans", 60 * 30, id: 3), dated("Old coupon", -60 * 20, id: 4),
        dated("Paid", 30, checked: true, id: 5),
      ]),
    Checklist(
      name: "Chores", iconName: "Chores",
      items: [
        dated("Bins out", 60 * 12, id: 6, repeating: .weekly),
        dated("Descale the cafe machine", 60 * 24 * 6, id: 7),
      ]),
  ])
}

extension ChecklistsApp {
  /// The list with this name (lists are kept in name order).
  fileprivate func list(_ name: String) -> Checklist {
    dataModel.lists.first { $0.name == name } ?? Checklist(name: "missing")
  }
}

@Suite struct PlannerViewTests {
  @Test func allListsCountsTodayAndScheduled() {
    let app = makeApp(plannerModel())
    let screen = app.screen()
    // Today: Old coupon (overdue), Milk, Bins out (20:10 today); Scheduled adds two more.
    #expect(app.grid().rowText(1).contains("Today") && app.grid().rowText(1).contains("3 items"))
    #expect(
      app.grid().rowText(2).contains("Scheduled") && app.grid().rowText(2).contains("5 items"))
    #expect(screen.contains("Groceries"))
    let empty = makeApp(DataModel(lists: [Checklist(name: "Empty")]))
    #expect(empty.grid().rowText(1).contains("Nothing due"))
    #expect(empty.grid().rowText(2).contains("Nothing due"))
  }

  @Test func todaySnapshot() {
    var app = makeApp(plannerModel())
    app.press(.home, .enter)
    #expect(
      app.screen() == """
         Today — 3 items
         ·  Old coupon                   Groceries  yesterday 12:10
         ·  Milk                         Groceries      today 09:10
         ·  Bins out                        Chores    ↻ today 20:10










        Space check  Enter show in list  e edit  Esc back  ? help
        """)
  }

  @Test func scheduledSnapshotGroupsByDay() {
    var app = makeApp(plannerModel(), width: 70, height: 14)
    app.press(.home, .down, .enter)
    #expect(
      app.screen() == """
         Scheduled — 5 items
         Overdue
         ·  Old coupon                             Groceries  yesterday 12:10
         Today
         ·  Milk                                   Groceries      today 09:10
         ·  Bins out                                  Chores    ↻ today 20:10
         Tomorrow
         ·  Café beans                             Groceries   tomorrow 14:10
         Thu 21 Jan
         ·  Descale the cafe machine                  Chores        Thu 08:10



        Space check  Enter show in list  e edit  d delete  Esc back  ? help
        """)
  }

  @Test func spaceChecksInItsListAndUndoBringsTheRowBack() {
    var app = makeApp(plannerModel())
    app.press(.home, .enter, .down)
    #expect(app.planner?.selected == 1)
    app.press(.character(" "))
    #expect(app.list("Groceries").items[0].checked)
    #expect(app.planner?.selectable.count == 2)
    // Gone from the rows; the status line says what left and how to bring it back.
    #expect(app.statusMessage == "Checked \"Milk\" (u undoes)")
    let rows = app.screen().split(separator: "\n").filter { !$0.contains("Checked \"Milk\"") }
    #expect(!rows.contains { $0.contains("Milk") })
    app.press(.character("u"))
    #expect(app.list("Groceries").items[0].checked == false)
    #expect(
      app.planner?.selectedLine == .item(listID: app.list("Groceries").id, itemID: 1, itemIndex: 0))
    #expect(app.planner?.kind == .today)
    // Back on All Lists the count follows.
    app.press(.character(" "), .escape)
    #expect(app.planner == nil && app.smartSelected == .today)
    #expect(app.grid().rowText(1).contains("2 items"))
  }

  @Test func checkingARepeatingItemMovesItOutOfToday() {
    var app = makeApp(plannerModel())
    app.press(.home, .enter, .character("G"))
    app.press(.character(" "))
    let bins = app.list("Chores").items[0]
    #expect(bins.checked == false)
    #expect(bins.dueDate == testNow.addingTimeInterval(60 * 12 * 60 + 7 * 86_400))
    #expect(app.statusMessage?.hasPrefix("Next:") == true)
    #expect(app.planner?.selectable.count == 2)
  }

  @Test func editAndDeleteActInTheItemsList() {
    var app = makeApp(plannerModel())
    app.press(.home, .enter, .down, .character("e"))
    guard let form = app.itemForm else {
      Issue.record("no item form")
      return
    }
    #expect(form.text.text == "Milk" && form.listID == app.list("Groceries").id)
    app.press(.control("u"))
    app.type("Oat milk")
    app.press(.enter)
    #expect(!app.hasForm && app.planner?.kind == .today)
    #expect(app.list("Groceries").items[0].text == "Oat milk")
    #expect(app.screen().contains("Oat milk"))
    app.press(.character("d"))
    #expect(app.list("Groceries").items.contains { $0.itemID == 1 } == false)
    #expect(app.planner?.selectable.count == 2)
    app.press(.character("u"))
    #expect(app.list("Groceries").items[0].text == "Oat milk")
    #expect(app.planner?.selectable.count == 3)
  }

  @Test func moveToAnotherListFromToday() {
    var app = makeApp(plannerModel())
    app.press(.home, .enter, .down, .character("m"))
    #expect(app.listPicker != nil)
    app.press(.enter)
    #expect(app.list("Chores").items.last?.text == "Milk")
    #expect(app.planner?.kind == .today)
    #expect(app.screen().contains("Chores"))
  }

  @Test func enterShowsTheItemInItsListAndBackReturns() {
    var app = makeApp(plannerModel())
    app.press(.home, .enter, .character("G"), .enter)
    #expect(app.openList?.name == "Chores")
    #expect(app.selectedItemIndex == 0)
    app.press(.escape)
    #expect(app.open == nil && app.planner?.kind == .today)
    #expect(app.planner?.selected == 2)
    app.press(.character("h"))
    #expect(app.planner == nil && app.smartSelected == .today)
  }

  @Test func viewsAreNotLists() {
    var app = makeApp(plannerModel())
    app.press(.home, .character("e"))
    #expect(!app.hasForm)
    #expect(app.statusMessage?.contains("cannot be renamed or deleted") == true)
    app.press(.character("d"))
    #expect(app.confirmation == nil)
  }

  @Test func aSearchStartedOnScheduledGoesBackThere() {
    var app = makeApp(plannerModel())
    app.press(.home, .down, .enter, .character("/"))
    app.type("milk")
    #expect(app.planner?.kind == .search)
    app.press(.escape)
    #expect(app.planner?.kind == .scheduled && app.planner?.selectable.count == 5)
    app.press(.character("/"))
    app.type("milk")
    app.press(.enter, .escape)
    #expect(app.planner?.kind == .scheduled)
    app.press(.escape)
    #expect(app.planner == nil && app.smartSelected == .scheduled)
  }

  @Test func qInTheListPickerSaysHowToLeaveIt() {
    var app = makeApp(plannerModel())
    app.press(.home, .enter, .down, .character("m"))
    #expect(app.press(.character("q")).isEmpty)
    #expect(app.listPicker != nil)
    #expect(app.statusMessage == "Enter moves the item there, Esc goes back without moving it")
  }

  @Test func nothingDueSaysSo() {
    var app = makeApp(DataModel(lists: [Checklist(name: "Empty")]))
    app.press(.home, .enter)
    #expect(app.screen().contains("Nothing due today"))
    app.press(.escape, .down, .enter)
    #expect(app.screen().contains("Nothing scheduled"))
  }

  @Test func searchFindsAcrossListsIgnoringAccentsAndJumps() {
    var app = makeApp(plannerModel())
    app.press(.character("/"))
    #expect(app.screen().contains("Type to search"))
    app.type("CAFE")
    // "cafe" finds "Descale the cafe machine" in Chores and "Café beans" in Groceries.
    let lines = app.planner?.lines ?? []
    #expect(
      lines == [
        .heading("Chores"), .item(listID: app.list("Chores").id, itemID: 7, itemIndex: 1),
        .heading("Groceries"), .item(listID: app.list("Groceries").id, itemID: 3, itemIndex: 2),
      ])
    #expect(app.screen().contains("Search \"CAFE\" — 2 found"))
    app.press(.enter, .enter)
    #expect(app.openList?.name == "Chores" && app.selectedItemIndex == 1)
    app.press(.escape)
    #expect(app.planner?.kind == .search && app.planner?.query.text == "CAFE")
    // `/` again edits the query; Esc closes the search.
    app.press(.character("/"), .backspace, .backspace)
    #expect(app.planner?.query.text == "CA")
    app.press(.escape)
    #expect(app.planner == nil)
  }

  @Test func searchFindsNotesAndListNames() {
    var bins = dated("Bins out", 60 * 12, id: 6)
    bins.note = "Green bin on Tuesdays"
    let model = DataModel(lists: [
      Checklist(name: "Groceries", items: [item("Milk", id: 1)]),
      Checklist(name: "Chores", items: [bins]),
    ])
    var app = makeApp(model)
    app.press(.character("/"))
    app.type("tuesday")
    #expect(app.planner?.selectable.count == 1)
    app.press(.escape, .character("/"))
    app.type("groc")
    #expect(app.planner?.lines.first == .heading("Lists"))
    app.press(.enter, .enter)
    #expect(app.openList?.name == "Groceries")
  }

  @Test func todayFollowsTheClockAtMidnight() {
    var app = makeApp(plannerModel())
    app.press(.home, .enter)
    #expect(app.planner?.selectable.count == 3)
    let midnight = app.nextMidnight(after: testNow)
    #expect(app.nextWakeUp(after: testNow).map { $0 <= midnight } == true)
    // Past midnight, Café beans (tomorrow 14:10) is due today.
    _ = app.handle(.tick, now: midnight.addingTimeInterval(1))
    #expect(app.planner?.selectable.count == 4)
  }
}

@Suite struct UndoAfterMergeTests {
  @Test func undoTakesBackOnlyWhatTheEditChanged() {
    var app = makeApp(checklistIndex: 1)
    // Groceries: Milk is the first row. Check it here…
    app.press(.character(" "))
    #expect(app.openList?.items[0].checked == true)
    // …then another program renames it and adds a note, and the app merges that in.
    var model = app.dataModel
    let listIndex = model.index(ofList: app.open?.listID ?? -1) ?? 1
    var milk = model.lists[listIndex].items[0]
    milk.text = "Oat milk"
    milk.note = "from the corner shop"
    _ = model.apply(
      .replaceItem(
        listID: model.lists[listIndex].id, index: 0, old: model.lists[listIndex].items[0], new: milk
      ))
    _ = app.handle(
      .mergedFromElsewhere(
        MergedLists(model: model, renumbered: [:], matchesFile: true), message: "merged"),
      now: testNow)
    #expect(app.openList?.items[0].text == "Oat milk")
    app.press(.character("u"))
    #expect(app.statusMessage == "Undid: check \"Oat milk\"")
    // The check is taken back; the rename and the note made elsewhere stay.
    let item = app.openList?.items[0]
    #expect(item?.checked == false)
    #expect(item?.text == "Oat milk")
    #expect(item?.note == "from the corner shop")
    app.press(.control("r"))
    #expect(app.openList?.items[0].checked == true)
    #expect(app.openList?.items[0].text == "Oat milk")
  }

  /// An undo of an edit whose field was changed again elsewhere since leaves the newer value,
  /// and says so; an undo of a check on an item moved to another list elsewhere applies there.
  @Test func undoLeavesNewerChangesAndFollowsMovedItems() throws {
    var app = makeApp(checklistIndex: 1)
    app.press(.enter)
    app.type(" A")
    app.press(.enter)
    #expect(app.openList?.items[0].text == "Milk A")
    let groceries = try #require(app.open?.listID)
    var model = app.dataModel
    var milk = try #require(model.list(withID: groceries)?.items[0])
    milk.text = "Milk B"
    _ = model.apply(try #require(model.replaceItem(listID: groceries, at: 0, with: milk)))
    merge(model, into: &app)
    app.press(.character("u"))
    #expect(app.openList?.items[0].text == "Milk B")
    #expect(app.statusMessage == "Undid: edit \"Milk A\" (text changed elsewhere since, kept)")

    app = makeApp(checklistIndex: 1)
    app.press(.character(" "))
    model = app.dataModel
    let trips = try #require(model.lists.first { $0.name == "Trips" }?.id)
    milk = try #require(model.list(withID: groceries)?.items[0])
    #expect(milk.checked)
    _ = model.apply(try #require(model.deleteItem(listID: groceries, at: 0)))
    _ = model.apply(try #require(model.insertItem(milk, listID: trips)))
    merge(model, into: &app)
    app.press(.character("u"))
    #expect(app.statusMessage == "Undid: check \"Milk\"")
    #expect(app.dataModel.list(withID: trips)?.items.last?.checked == false)
    app.press(.control("r"))
    #expect(app.dataModel.list(withID: trips)?.items.last?.checked == true)
  }

  /// An undo of an add, or of a move to another list, when the item was moved (and changed)
  /// elsewhere since: it takes the item from where it is now, and a move puts back that
  /// version. They were refused as "deleted elsewhere" and dropped from the history.
  @Test func undoOfAnAddOrAMoveFollowsTheItemMovedElsewhere() throws {
    var app = makeApp(checklistIndex: 1)
    let groceries = try #require(app.open?.listID)
    app.press(.character("a"))
    app.type("Tea")
    app.press(.enter)
    #expect(
      app.dataModel.list(withID: groceries)?.items.map(\.text) == [
        "Milk", "Bread", "Pay rent", "Tea",
      ])
    var model = app.dataModel
    let trips = try #require(model.lists.first { $0.name == "Trips" }?.id)
    var tea = try #require(model.list(withID: groceries)?.items[3])
    tea.text = "Green tea"
    _ = model.apply(try #require(model.deleteItem(listID: groceries, at: 3)))
    _ = model.apply(try #require(model.insertItem(tea, listID: trips)))
    merge(model, into: &app)
    app.press(.character("u"))
    #expect(app.statusMessage == "Undid: add \"Tea\"")
    #expect(!app.dataModel.lists.flatMap(\.items).contains { $0.itemID == tea.itemID })
    // Redo puts back what the undo took: the item as it was elsewhere, where it was.
    app.press(.control("r"))
    #expect(app.statusMessage == "Redid: add \"Green tea\"")
    #expect(app.dataModel.list(withID: trips)?.items.last == tea)
    #expect(app.dataModel.lists.flatMap(\.items).filter { $0.itemID == tea.itemID }.count == 1)

    app = makeApp(checklistIndex: 1)
    app.press(.character("m"), .character("j"), .enter)
    #expect(app.statusMessage == "Moved \"Milk\" to \"Trips\" (u undoes)")
    model = app.dataModel
    let chores = try #require(model.lists.first { $0.name == "Chores" }?.id)
    let tripsList = try #require(model.list(withID: trips))
    var milk = try #require(tripsList.items.last)
    milk.text = "Oat milk"
    _ = model.apply(try #require(model.deleteItem(listID: trips, at: tripsList.items.count - 1)))
    _ = model.apply(try #require(model.insertItem(milk, listID: chores)))
    merge(model, into: &app)
    app.press(.character("u"))
    #expect(app.statusMessage == "Undid: move \"Milk\" to \"Trips\"")
    #expect(app.openList?.name == "Groceries")
    #expect(app.openList?.items.map(\.text) == ["Oat milk", "Bread", "Pay rent"])
    let all = app.dataModel.lists.flatMap(\.items)
    #expect(all.filter { $0.itemID == milk.itemID }.count == 1)
  }

  /// A list renamed elsewhere stays sorted by due date (the app remembers it by name).
  @Test func aListRenamedElsewhereStaysSortedByDue() throws {
    var app = makeApp(checklistIndex: 1)
    app.press(.character("s"))
    #expect(app.sortByDue == ["Groceries"])
    let groceries = try #require(app.open?.listID)
    var model = app.dataModel
    _ = model.apply(
      try #require(model.editList(id: groceries, name: "Shopping", iconName: "Groceries")))
    merge(model, into: &app)
    #expect(app.sortByDue == ["Shopping"])
  }

  /// An undo of a delete whose item a merge kept (changed elsewhere) would make a second copy
  /// with the same itemID: it is refused, and says why.
  @Test func anUndoOfADeletedItemThatAMergeKeptSaysSo() throws {
    var app = makeApp(checklistIndex: 1)
    let groceries = try #require(app.open?.listID)
    let milk = try #require(app.openList?.items[0])
    app.press(.character("d"))
    var model = app.dataModel
    var kept = milk
    kept.note = "changed"
    _ = model.apply(try #require(model.insertItem(kept, listID: groceries, at: 0)))
    merge(model, into: &app)
    app.press(.character("u"))
    #expect(
      app.statusMessage
        == "Could not undo delete \"Milk\": the item is there again, kept after a change elsewhere")
    let ids = app.dataModel.lists.flatMap(\.items).map(\.itemID)
    #expect(ids.filter { $0 == milk.itemID }.count == 1)
  }

  /// Clearing checked items, one of which a merge then kept (unchecked elsewhere): the undo
  /// brings back the others where they were and says so; it used to refuse them all.
  @Test func anUndoOfClearingBringsBackTheItemsAMergeDidNotKeep() throws {
    var app = makeApp(checklistIndex: 1)
    let groceries = try #require(app.open?.listID)
    app.press(.character(" "))  // Milk checked; Bread was
    let milk = try #require(app.openList?.items.first)
    app.press(.character("C"), .character("y"))
    #expect(app.openList?.items.map(\.text) == ["Pay rent"])
    var model = app.dataModel
    var kept = milk
    kept.checked = false
    _ = model.apply(try #require(model.insertItem(kept, listID: groceries, at: 0)))
    merge(model, into: &app)
    #expect(app.openList?.items.map(\.text) == ["Milk", "Pay rent"])
    app.press(.character("u"))
    #expect(app.openList?.items.map(\.text) == ["Milk", "Bread", "Pay rent"])
    #expect(app.openList?.items.first?.checked == false)
    #expect(
      app.statusMessage
        == "Undid: clear 2 checked items (1 was there again, kept after a change elsewhere)")
    // Redo clears what the undo brought back.
    app.press(.control("r"))
    #expect(app.openList?.items.map(\.text) == ["Milk", "Pay rent"])
  }

  /// The list picker of `m` follows a merge: a list deleted elsewhere goes, one made
  /// elsewhere comes, the highlighted list stays; with no other list it closes.
  @Test func theListPickerFollowsListsDeletedAndMadeElsewhere() throws {
    var app = makeApp(checklistIndex: 1)  // Groceries; targets Chores, Trips
    app.press(.character("m"), .character("j"))
    let trips = try #require(app.dataModel.lists.first { $0.name == "Trips" }?.id)
    let chores = try #require(app.dataModel.lists.first { $0.name == "Chores" }?.id)
    #expect(app.listPicker?.targets == [chores, trips] && app.listPicker?.selected == 1)
    var model = app.dataModel
    _ = model.apply(try #require(model.deleteList(id: chores)))
    _ = model.apply(.insertList(model.makeList(name: "Work")))
    merge(model, into: &app)
    let names = app.listPicker?.targets.compactMap { app.dataModel.list(withID: $0)?.name }
    #expect(names == ["Trips", "Work"])
    #expect(app.listPicker.map { $0.targets[$0.selected] } == trips)
    app.press(.enter)
    #expect(app.statusMessage == "Moved \"Milk\" to \"Trips\" (u undoes)")
    // No other list left: the picker closes.
    app.press(.character("m"))
    model = app.dataModel
    for list in model.lists where list.id != app.open?.listID {
      _ = model.apply(try #require(model.deleteList(id: list.id)))
    }
    merge(model, into: &app)
    #expect(app.listPicker == nil)
  }

  /// The lists as another program left them, merged in.
  private func merge(_ model: DataModel, into app: inout ChecklistsApp) {
    _ = app.handle(
      .mergedFromElsewhere(
        MergedLists(model: model, renumbered: [:], matchesFile: true), message: "merged"),
      now: testNow)
  }

  /// The list of a change being undone was deleted elsewhere: undo brings the list back first
  /// (the deletion made elsewhere is undoable), then undoes the change in it.
  @Test func anUndoWhoseListWasDeletedElsewhereBringsTheListBackFirst() throws {
    var app = makeApp(checklistIndex: 1)
    app.press(.character(" "))
    let listID = try #require(app.open?.listID)
    var model = app.dataModel
    let list = try #require(model.list(withID: listID))
    let deleted = model.apply(.deleteList(list))
    #expect(deleted)
    merge(model, into: &app)
    app.press(.character("u"))
    #expect(app.status?.text == "Undid: delete list \"\(list.name)\"")
    #expect(app.dataModel.list(withID: listID)?.items.first?.checked == true)
    app.press(.character("u"))
    #expect(app.status?.text == "Undid: check \"Milk\"")
    #expect(app.dataModel.list(withID: listID)?.items.first?.checked == false)
  }

  @Test func anUndoWhoseItemWasDeletedElsewhereSaysSo() throws {
    var app = makeApp(checklistIndex: 1)
    app.press(.character(" "))
    let listID = try #require(app.open?.listID)
    var model = app.dataModel
    let milk = try #require(model.list(withID: listID)?.items.first)
    let deleted = model.apply(.deleteItem(listID: listID, index: 0, item: milk))
    #expect(deleted)
    merge(model, into: &app)
    app.press(.character("u"))
    #expect(app.status?.text.hasSuffix(": the item was deleted elsewhere") == true)
    #expect(app.status?.isError == true)
    // Redo has nothing to say: the undo did not happen.
    app.press(.control("r"))
    #expect(app.status?.text == "Nothing to redo")
  }

  @Test func anUndoOfADeletedListThatAMergeKeptSaysSo() throws {
    var app = makeApp(checklistIndex: 1)
    let before = app.dataModel
    let listID = try #require(app.open?.listID)
    let name = try #require(before.list(withID: listID)?.name)
    // Back on All Lists, where the open list stays selected, it is deleted here…
    app.press(.escape)
    #expect(app.open == nil)
    app.press(.character("d"), .character("y"))
    #expect(app.dataModel.list(withID: listID) == nil)
    // …while another program changed it, so the merge keeps it, and undo cannot put it back.
    merge(before, into: &app)
    #expect(app.dataModel.list(withID: listID) != nil)
    app.press(.character("u"))
    #expect(
      app.status?.text
        == "Could not undo delete list \"\(name)\": the list is there again, kept after a change "
        + "elsewhere")
  }
}
