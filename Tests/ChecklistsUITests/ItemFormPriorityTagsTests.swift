import ChecklistsCore
import Foundation
import Testing

@testable import ChecklistsUI

/// The item form's Priority and Tags fields, a subtask's row in Today and Scheduled, and the
/// order by due date with priorities.
@Suite struct ItemFormPriorityTagsTests {
  /// Home: "Bins" (due 30 minutes after `testNow`, priority `priority` as stored, tags `tags`).
  func homeModel(priority: Int = 0, tags: [String] = []) -> DataModel {
    var bins = item("Bins", dueInMinutes: 30, id: 1)
    bins.hasDueDate = true
    bins.priority = priority
    bins.tags = tags
    return DataModel(lists: [Checklist(name: "Home", iconName: "Chores", items: [bins])])
  }

  /// The edit form of Home's first item, focused on `field`.
  func editing(_ model: DataModel, at field: ItemFormScreen.Field) -> ChecklistsApp {
    var app = makeApp(model, checklistIndex: 0, width: 80, height: 24)
    app.press(.character("e"))
    while let focus = app.itemForm?.focus, focus != field { app.press(.tab) }
    return app
  }

  @Test func theFieldsCopyTheItemInAndShowIt() {
    let app = editing(homeModel(priority: 5, tags: ["work", "to do"]), at: .text)
    #expect(app.itemForm?.priority == .medium)
    #expect(app.itemForm?.tags.text == "#work #to do")
    let screen = app.screen()
    #expect(screen.contains(" Priority  !! Medium"))
    #expect(screen.contains(" Tags      #work #to do"))
  }

  @Test func rightLeftAndLettersSetThePriorityAndDoneSavesIt() throws {
    var app = editing(homeModel(), at: .priority)
    #expect(app.keyScreen == .form)
    #expect(app.screen().contains(" Priority  None  Left/Right, h m l n"))
    app.press(.right)
    #expect(app.itemForm?.priority == .low)
    app.press(.character("+"), .character("+"))
    #expect(app.itemForm?.priority == .high)
    #expect(app.screen().contains(" Priority  !!! High"))
    app.press(.right)
    #expect(app.itemForm?.priority == PriorityLevel.none)
    app.press(.left, .character("m"))
    #expect(app.itemForm?.priority == .medium)
    app.press(.character("m"))
    #expect(app.statusMessage == "Priority: !! Medium")
    app.press(.character("z"))
    #expect(app.statusMessage?.contains("not a key here") == true)
    app.press(.character("h"), .enter)
    let saved = try #require(app.dataModel.lists.first?.items.first)
    #expect(saved.priority == 1)
    #expect(app.statusMessage == "\"Bins\": high priority")
  }

  @Test func helpNamesThePriorityAndTagsKeys() {
    var app = makeApp(homeModel(), checklistIndex: 0, width: 100, height: 60)
    app.press(.character("e"), .function(1))
    let screen = app.screen()
    #expect(screen.contains("Priority"))
    #expect(screen.contains("h m l n pick one by name"))
    #expect(screen.contains("names separated by spaces or commas, # optional"))
  }

  /// A phone's priority 3 (high) stays 3 through an edit that leaves the priority alone, and
  /// through one that steps away and back.
  @Test func aStoredPriorityStaysUntilTheLevelChanges() throws {
    var app = editing(homeModel(priority: 3), at: .text)
    #expect(app.itemForm?.priority == .high)
    app.type(" out")
    app.press(.enter)
    #expect(app.dataModel.lists.first?.items.first?.priority == 3)
    app = editing(app.dataModel, at: .priority)
    app.press(.right, .left, .enter)
    #expect(app.dataModel.lists.first?.items.first?.priority == 3)
    app = editing(app.dataModel, at: .priority)
    app.press(.left, .enter)
    #expect(app.dataModel.lists.first?.items.first?.priority == 5)
  }

  @Test func tagsAreTypedWithOrWithoutHashAndDedupedIgnoringCase() throws {
    var app = editing(homeModel(), at: .tags)
    app.type("#work, home Work  #errands")
    app.press(.enter)
    let saved = try #require(app.dataModel.lists.first?.items.first)
    #expect(saved.tags == ["work", "home", "errands"])
    #expect(app.statusMessage == "\"Bins\": tags #work #home #errands")
    // Cleared: no tags, the key gone.
    app = editing(app.dataModel, at: .tags)
    app.press(.control("u"), .enter)
    #expect(app.dataModel.lists.first?.items.first?.unknownFields[.tags] == nil)
    #expect(app.statusMessage == "\"Bins\": no tags")
  }

  /// A tag another app wrote with a space in it stays whole when the form leaves the tags alone.
  @Test func untouchedTagsStayAsStored() {
    var app = editing(homeModel(tags: ["to do", "#odd"]), at: .text)
    app.type("!")
    app.press(.enter)
    #expect(app.dataModel.lists.first?.items.first?.tags == ["to do", "#odd"])
  }

  @Test func anItemAddedWithPriorityAndTagsSaysSo() throws {
    var app = makeApp(homeModel(), checklistIndex: 0, width: 80, height: 24)
    app.press(.character("a"))
    app.type("Call mum")
    while app.itemForm?.focus != .priority { app.press(.tab) }
    app.press(.character("l"), .tab)
    app.type("family")
    app.press(.enter)
    let added = try #require(app.dataModel.lists.first?.items.last)
    #expect(added.priority == 9 && added.tags == ["family"])
    #expect(app.statusMessage == "Added \"Call mum\", low priority, #family")
  }

  /// Merges `change` made to Home's first item elsewhere.
  func changeElsewhere(_ app: inout ChecklistsApp, _ change: (inout ChecklistItem) -> Void) throws {
    var model = app.dataModel
    let list = try #require(model.lists.first)
    let old = try #require(list.items.first)
    var new = old
    change(&new)
    _ = model.apply(.replaceItem(listID: list.id, index: 0, old: old, new: new))
    _ = app.handle(
      .mergedFromElsewhere(
        MergedLists(model: model, renumbered: [:], matchesFile: true), message: "merged"),
      now: testNow)
  }

  /// A priority and tags changed elsewhere while the form is open show in the form when it left
  /// them alone; changed in the form too, Done keeps the form's and names them.
  @Test func changesMadeElsewhereShowUnlessTheFormChangedThem() throws {
    var app = editing(homeModel(priority: 9, tags: ["home"]), at: .text)
    try changeElsewhere(&app) {
      $0.priority = 1
      $0.tags = ["home", "urgent"]
    }
    #expect(app.itemForm?.priority == .high)
    #expect(app.itemForm?.tags.text == "#home #urgent")
    app.press(.enter)
    #expect(app.dataModel.lists.first?.items.first?.priority == 1)
    #expect(app.dataModel.lists.first?.items.first?.tags == ["home", "urgent"])

    app = editing(app.dataModel, at: .priority)
    app.press(.character("m"), .tab)
    app.type(" later")
    try changeElsewhere(&app) {
      $0.priority = 9
      $0.tags = ["elsewhere"]
    }
    #expect(app.itemForm?.priority == .medium)
    #expect(app.itemForm?.tags.text == "#home #urgent later")
    app.press(.enter)
    let saved = try #require(app.dataModel.lists.first?.items.first)
    #expect(saved.priority == 5 && saved.tags == ["home", "urgent", "later"])
    #expect(
      app.statusMessage?.hasSuffix("(kept yours: priority, tags also changed elsewhere)") == true)
  }

  /// The smallest terminal the form works in still reaches the new rows, one at a time.
  @Test func theNewRowsShowInASmallTerminal() {
    var app = makeApp(homeModel(priority: 1, tags: ["a"]), checklistIndex: 0, width: 20, height: 5)
    app.press(.character("e"))
    while app.itemForm?.focus != .priority { app.press(.tab) }
    #expect(app.screen().contains("Priority  !!! Hi…"))
    app.press(.tab)
    #expect(app.screen().contains("Tags      #a"))
  }

  // MARK: - Today and Scheduled

  /// Home: "Move house" with its subtask "Buy tape" (high priority, tagged), both due today.
  func subtaskModel() -> DataModel {
    var parent = item("Move house", dueInMinutes: 30, id: 1)
    parent.hasDueDate = true
    var child = item("Buy tape", dueInMinutes: 60, id: 2)
    child.hasDueDate = true
    child.parentItemID = 1
    child.priority = 1
    child.tags = ["errands"]
    return DataModel(lists: [Checklist(name: "Home", iconName: "Chores", items: [parent, child])])
  }

  @Test func aSubtaskShowsItsParentDimmedAndItsMarksAndTags() throws {
    var app = makeApp(subtaskModel(), width: 70, height: 8)
    app.press(.home, .enter)
    #expect(app.planner?.kind == .today)
    let screen = app.screen()
    #expect(screen.contains("Move house"))
    let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
    let row = try #require(lines.firstIndex { $0.contains("Buy tape") })
    #expect(lines[row].contains("!!! Buy tape #errands  — Move house"))
    // The parent's text is dimmed; the marks stand out.
    let grid = app.grid()
    let line = String(lines[row])
    let dash = try #require(line.range(of: "— Move house"))
    let column = line.distance(from: line.startIndex, to: dash.lowerBound)
    #expect(grid[row, column + 2].style.attributes.contains(.dim))
    #expect(grid[row, 4].style.attributes.contains(.bold))
    // The parent was found once, when the lines were made.
    let hints = try #require(app.planner?.parentHints.first?.value)
    #expect(hints == [1: 0])
  }

  @Test func theParentShowsInScheduledAndSearchToo() {
    var app = makeApp(subtaskModel(), width: 70, height: 10)
    app.press(.home, .down, .enter)
    #expect(app.planner?.kind == .scheduled)
    #expect(app.screen().contains("Buy tape #errands  — Move house"))
    let ascii = makeApp(subtaskModel(), width: 70, height: 10, ascii: true)
    var viewAscii = ascii
    viewAscii.press(.home, .down, .enter)
    #expect(viewAscii.screen().contains("Buy tape #errands  - Move house"))
    var search = makeApp(subtaskModel(), width: 70, height: 10)
    search.press(.character("/"))
    search.type("tape")
    #expect(search.planner?.kind == .search)
    #expect(search.planner?.parentHints.isEmpty == true)
    #expect(search.screen().contains("!!! Buy tape #errands  — Move house"))
  }

  /// A parent hint made stale by an insert before it follows the shift.
  @Test func parentHintsFollowShiftedItems() {
    var view = PlannerView(kind: .today)
    view.parentHints = [5: [1: 3, 2: 0]]
    view.shiftHints(listID: 5, from: 1, by: 1)
    #expect(view.parentHints[5] == [1: 4, 2: 0])
  }

  // MARK: - Order by due date

  @Test func byDueDateTiesAndUndatedItemsGoByPriority() {
    func dated(_ text: String, _ minutes: Double?, _ priority: Int, id: Int) -> ChecklistItem {
      var made = item(text, dueInMinutes: minutes ?? 0, id: id)
      made.hasDueDate = minutes != nil
      made.priority = priority
      return made
    }
    let items = [
      dated("plain", nil, 0, id: 1), dated("low undated", nil, 9, id: 2),
      dated("later", 120, 0, id: 3), dated("soon", 60, 0, id: 4),
      dated("soon high", 60, 2, id: 5), dated("high undated", nil, 1, id: 6),
      dated("medium undated", nil, 5, id: 7), dated("plain 2", nil, 0, id: 8),
    ]
    let order = RowOrder.compute(items: items, byDue: true, filter: nil)
    #expect(
      order.dueOrder?.map { items[$0].text } == [
        "soon high", "soon", "later", "high undated", "medium undated", "low undated", "plain",
        "plain 2",
      ])
    // Kept up to date change by change: a priority changed moves the item.
    var changed = items
    changed[0].priority = 1
    let updated = RowOrder.update(
      order, filter: nil,
      change: .replaceItem(listID: 1, index: 0, old: items[0], new: changed[0]), items: changed)
    #expect(updated == RowOrder.compute(items: changed, byDue: true, filter: nil))
    #expect(updated?.dueOrder?.prefix(4).map { changed[$0].text }.last == "plain")
  }
}
