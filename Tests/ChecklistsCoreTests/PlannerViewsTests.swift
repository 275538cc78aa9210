import Foundation
import Testing

@testable import ChecklistsCore

@Suite("Planner: the Today and Scheduled smart lists")
struct PlannerSmartListTests {
  typealias F = DatesFixture

  /// Wednesday 16 December 2026, 14:20 in Berlin.
  let now = F.berlinNow

  func model() -> DataModel {
    func item(_ text: String, _ due: Date, checked: Bool = false, dated: Bool = true, id: Int)
      -> ChecklistItem
    {
      ChecklistItem(text: text, checked: checked, dueDate: due, hasDueDate: dated, itemID: id)
    }
    let work = Checklist(
      name: "Work",
      items: [
        item("Report", F.local(F.berlin, 2026, 12, 16, 9, 0), id: 1),
        item("Done", F.local(F.berlin, 2026, 12, 15, 9, 0), checked: true, id: 2),
        item("Review", F.local(F.berlin, 2026, 12, 17, 10, 0), id: 3),
        item("Undated", F.local(F.berlin, 2026, 12, 16, 8, 0), dated: false, id: 4),
        item("Plan", F.local(F.berlin, 2027, 1, 4, 9, 0), id: 5),
      ])
    let home = Checklist(
      name: "Home",
      items: [
        item("Old bill", F.local(F.berlin, 2026, 12, 10, 9, 0), id: 6),
        item("Dinner", F.local(F.berlin, 2026, 12, 16, 19, 0), id: 7),
        ChecklistItem(
          text: "Call", dueDate: F.local(F.berlin, 2026, 12, 19, 11, 0), shouldRemind: true,
          itemID: 8),
        // 00:30 on Thursday in Berlin, still Wednesday evening in New York.
        item("Late", F.utc(2026, 12, 16, 23, 30), id: 9),
      ])
    return DataModel(lists: [work, home])
  }

  @Test func todayHasOverdueAndTodaysUncheckedItemsByDueDate() {
    let smart = SmartLists(timeZone: F.berlin)
    let rows = smart.today(model(), now: now)
    #expect(rows.map(\.item.text) == ["Old bill", "Report", "Dinner"])
    #expect(rows.map(\.listName) == ["Home", "Work", "Home"])
    #expect(smart.counts(model(), now: now).today == 3)
    // Each row says where its item lives.
    let report = rows[1]
    let list = model().lists[report.listIndex]
    #expect(list.id == report.listID)
    #expect(list.items[report.itemIndex] == report.item)
  }

  @Test func todayEndsAtLocalMidnight() {
    let newYork = SmartLists(timeZone: F.newYork)
    // 14:20 in Berlin is 08:20 in New York: "Late" (18:30 there) is due today.
    #expect(newYork.today(model(), now: now).map(\.item.text).contains("Late"))
    #expect(
      !SmartLists(timeZone: F.berlin).today(model(), now: now).map(\.item.text).contains("Late"))
  }

  @Test func scheduledGroupsByDay() {
    let smart = SmartLists(timeZone: F.berlin)
    let groups = smart.scheduled(model(), now: now)
    #expect(
      groups.map(\.title) == ["Overdue", "Today", "Tomorrow", "Sat 19 Dec", "Mon 4 Jan 2027"])
    #expect(
      groups.map { $0.rows.map(\.item.text) } == [
        ["Old bill", "Report"], ["Dinner"], ["Late", "Review"], ["Call"], ["Plan"],
      ])
    #expect(groups[3].section == .day(GregorianDays.days(year: 2026, month: 12, day: 19)))
    #expect(smart.counts(model(), now: now).scheduled == 7)
    #expect(groups.reduce(0) { $0 + $1.rows.count } == 7)
    // All Lists takes both counts from one pass.
    let counts = smart.counts(model(), now: now)
    #expect(counts.today == 3 && counts.scheduled == 7)
  }

  @Test func emptyViewsAreEmpty() {
    let empty = DataModel(lists: [
      Checklist(name: "L", items: [ChecklistItem(text: "a", itemID: 1)])
    ])
    let smart = SmartLists(timeZone: F.berlin)
    #expect(smart.today(empty, now: now).isEmpty)
    #expect(smart.scheduled(empty, now: now).isEmpty)
    #expect(smart.counts(empty, now: now).today == 0)
  }
}

@Suite("Planner: search across lists")
struct PlannerSearchTests {
  func model() -> DataModel {
    var latte = ChecklistItem(text: "Latte", itemID: 3)
    latte.note = "from the CAFÉ on the corner\nno sugar"
    return DataModel(lists: [
      Checklist(
        name: "Groceries",
        items: [
          ChecklistItem(text: "Café au lait", itemID: 1), ChecklistItem(text: "Eggs", itemID: 2),
          latte,
        ]),
      Checklist(
        name: "Trips",
        items: [
          ChecklistItem(text: "Book the cafe in Zürich", checked: true, itemID: 4),
          ChecklistItem(text: "Passport", itemID: 5),
        ]),
    ])
  }

  @Test(arguments: [
    ("Café", "cafe"), ("CAFÉ", "cafe"), ("café", "cafe"), ("Zürich", "zurich"),
    ("ÅNGSTRÖM", "angstrom"), ("Cafe\u{301}", "cafe"), ("ＣＡＦＥ", "cafe"), ("naïve", "naive"),
    ("plain ASCII", "plain ascii"),
  ])
  func foldingIgnoresCaseAndAccents(text: String, folded: String) {
    #expect(SearchFolding.fold(text) == Array(folded.utf8))
  }

  @Test func findsTextAndNotesInAnyCaseAndAccentGroupedByList() {
    let index = SearchIndex(model())
    for query in ["cafe", "CAFÉ", "Cafe", "café"] {
      let groups = index.groups(index.search(query))
      #expect(groups.map(\.listName) == ["Groceries", "Trips"])
      #expect(groups.map { $0.rows.map(\.item.itemID) } == [[1, 3], [4]])
    }
    #expect(index.search("sugar").count == 1)
    #expect(index.search("zurich").count == 1)
    #expect(index.search("nothing like this").isEmpty)
    #expect(index.search("").isEmpty)
    #expect(index.search("   ").isEmpty)
  }

  @Test func aMatchNeverSpansTwoItems() {
    // "lait" ends item 1 and "eggs" is item 2: "laiteggs" must not match across them.
    let index = SearchIndex(model())
    #expect(index.search("laiteggs").isEmpty)
    #expect(index.search("lait\u{0}eggs").isEmpty)
  }

  @Test func typingOnFiltersThePreviousResultsAndErasingSearchesAgain() {
    var session = SearchSession(model())
    #expect(session.update(query: "ca").count == 3)
    #expect(session.update(query: "caf").count == 3)
    #expect(session.update(query: "cafe ").count == 3)
    #expect(session.update(query: "cafe i").count == 1)
    #expect(session.groups.map { $0.rows.map(\.item.itemID) } == [[4]])
    // Backspace: the shorter query is searched afresh.
    #expect(session.update(query: "cafe").count == 3)
    #expect(session.update(query: "pass").count == 1)
    #expect(session.update(query: "").isEmpty)
    // The refined results equal a fresh search.
    let index = SearchIndex(model())
    let refined = index.refine(index.search("ca"), to: "cafe a")
    #expect(refined == index.search("cafe a"))
  }

  @Test func rowsPointIntoTheModel() throws {
    let model = model()
    let index = SearchIndex(model)
    let results = index.search("passport")
    let row = try #require(index.row(results, at: 0))
    #expect(model.list(withID: row.listID)?.items[row.itemIndex].text == "Passport")
    #expect(index.row(results, at: 1) == nil)
  }
}

@Suite("Planner: moving items between lists and clearing checked items, with undo")
struct PlannerChangeTests {
  func model() -> DataModel {
    DataModel(lists: [
      Checklist(
        name: "Groceries",
        items: [
          ChecklistItem(text: "Milk", checked: true, itemID: 1),
          ChecklistItem(text: "Eggs", itemID: 2),
          ChecklistItem(text: "Bread", checked: true, itemID: 3),
          ChecklistItem(text: "Tea", itemID: 4),
          ChecklistItem(text: "Jam", checked: true, itemID: 5),
        ]),
      Checklist(name: "Home", items: [ChecklistItem(text: "Lamp", itemID: 6)]),
    ])
  }

  func id(_ model: DataModel, _ name: String) -> Checklist.ID {
    model.lists.first { $0.name == name }?.id ?? -1
  }

  @Test func moveGoesToTheEndOfTheOtherListAndUndoPutsItBack() throws {
    var model = model()
    let before = model
    let change = try #require(
      model.moveItemToList(listID: id(model, "Groceries"), at: 1, toListID: id(model, "Home")))
    #expect(change.kind == .moveToList)
    #expect(applying(&model, change))
    #expect(model.lists[0].items.map(\.text) == ["Milk", "Bread", "Tea", "Jam"])
    #expect(model.lists[1].items.map(\.text) == ["Lamp", "Eggs"])
    #expect(model.lists[1].items[1].itemID == 2)
    #expect(model.lists[0].uncheckedCount == 1)
    #expect(model.lists[1].uncheckedCount == 2)
    #expect(change.listIDs == [id(model, "Groceries"), id(model, "Home")])
    #expect(applying(&model, change.inverse))
    #expect(model == before)
    #expect(change.inverse.isInverse && !change.inverse.inverse.isInverse)
    #expect(applying(&model, change))  // redo
    #expect(model.lists[1].items.map(\.text) == ["Lamp", "Eggs"])
  }

  @Test func moveToTheSameListOrAMissingOneIsNoChange() {
    let model = model()
    let groceries = id(model, "Groceries")
    #expect(model.moveItemToList(listID: groceries, at: 0, toListID: groceries) == nil)
    #expect(model.moveItemToList(listID: groceries, at: 0, toListID: 99) == nil)
    #expect(model.moveItemToList(listID: groceries, at: 9, toListID: id(model, "Home")) == nil)
  }

  @Test func aChangeThatNoLongerFitsChangesNothing() throws {
    var model = model()
    let change = try #require(
      model.moveItemToList(listID: id(model, "Groceries"), at: 0, toListID: id(model, "Home")))
    // The target list is deleted before the move is applied (e.g. redo after a merge).
    if let delete = model.deleteList(id: id(model, "Home")) { model.apply(delete) }
    let before = model
    #expect(!applying(&model, change))
    #expect(model == before)
  }

  @Test func clearDeletesTheCheckedItemsAndUndoRestoresTheirPlaces() throws {
    var model = model()
    let before = model
    let change = try #require(model.clearChecked(listID: id(model, "Groceries")))
    #expect(change.kind == .clearChecked)
    #expect(change.changes.count == 3)
    #expect(applying(&model, change))
    #expect(model.lists[0].items.map(\.text) == ["Eggs", "Tea"])
    #expect(model.lists[0].uncheckedCount == 2)
    #expect(model.clearChecked(listID: id(model, "Groceries")) == nil)
    #expect(applying(&model, change.inverse))
    #expect(model == before)
    #expect(model.lists[0].uncheckedCount == 2)
  }

  /// A checked parent goes, its unchecked subtasks stay under the nearest unchecked ancestor
  /// (top-level when there is none); undo puts everything back, nesting included.
  @Test func clearKeepsUncheckedSubtasksOfACheckedParentAndUndoNestsThemAgain() throws {
    func entry(_ text: String, _ id: Int, checked: Bool = false, under parent: Int? = nil)
      -> ChecklistItem
    {
      var item = ChecklistItem(text: text, checked: checked, itemID: id)
      item.parentItemID = parent
      return item
    }
    let trip = Checklist(
      name: "Trip", iconName: "Trips",
      items: [
        entry("Papers", 1), entry("Passport", 2, checked: true, under: 1),
        entry("Visa", 3, under: 2), entry("Photos", 4, checked: true, under: 3),
        entry("Tickets", 5, checked: true), entry("Seat", 6, under: 5),
      ])
    var model = DataModel(lists: [trip])
    let before = model
    let change = try #require(model.clearChecked(listID: model.lists[0].id))
    #expect(applying(&model, change))
    let items = model.lists[0].items
    #expect(items.map(\.text) == ["Papers", "Visa", "Seat"])
    #expect(items.map(\.parentItemID) == [nil, 1, nil])
    #expect(change.deletedItemCount == 3)
    #expect(applying(&model, change.inverse))
    #expect(model == before)
  }

  @Test func clearAfterChangesElsewhereStillFindsItsItems() throws {
    var model = model()
    let change = try #require(model.clearChecked(listID: id(model, "Groceries")))
    // An item added at the top elsewhere shifts every index: the one-by-one path finds them.
    let added = model.makeItem(text: "New", checked: true)
    if let insert = model.insertItem(added, listID: id(model, "Groceries"), at: 0) {
      model.apply(insert)
    }
    #expect(applying(&model, change))
    #expect(model.lists[0].items.map(\.text) == ["New", "Eggs", "Tea"])
    #expect(applying(&model, change.inverse))
    // Each comes back at its old index, counted as the list is now.
    #expect(model.lists[0].items.map(\.text) == ["Milk", "New", "Bread", "Eggs", "Jam", "Tea"])
  }

  @Test func clearingAHugeListIsOnePassAndExact() throws {
    let items = (0..<20_000).map { ChecklistItem(text: "i\($0)", checked: $0 % 3 != 0, itemID: $0) }
    var model = DataModel(lists: [Checklist(name: "Big", items: items)])
    let before = model
    let change = try #require(model.clearChecked(listID: model.lists[0].id))
    #expect(applying(&model, change))
    #expect(model.lists[0].items.map(\.itemID) == Array(stride(from: 0, to: 20_000, by: 3)))
    #expect(applying(&model, change.inverse))
    #expect(model == before)
  }

  @Test func renumberingReachesEveryPart() throws {
    let model = model()
    let change = try #require(
      model.moveItemToList(listID: id(model, "Groceries"), at: 1, toListID: id(model, "Home")))
    let renumbered = change.renumberingItems([2: 42])
    for part in renumbered.changes {
      switch part {
      case .deleteItem(_, _, let item), .insertItem(_, _, let item): #expect(item.itemID == 42)
      default: Issue.record("unexpected \(part)")
      }
    }
  }
}

/// Applies a change to `model` and says whether it applied (`#expect` cannot mutate).
func applying(_ model: inout DataModel, _ change: ModelChange) -> Bool {
  model.apply(change)
}

/// Applies a compound change to `model` and says whether it applied.
func applying(_ model: inout DataModel, _ change: CompoundChange) -> Bool {
  model.apply(change)
}
