import ChecklistsCore
import ChecklistsTestSupport
import Foundation
import Testing

@testable import ChecklistsUI

/// Folding a checklist's outline: which rows show, their depths and fold marks.
@Suite struct OutlineRowsTests {
  static let day = Date(timeIntervalSinceReferenceDate: 800_000_000)

  static func item(_ text: String, _ id: Int, parent: Int? = nil) -> ChecklistItem {
    var item = ChecklistItem(text: text, dueDate: day, itemID: id)
    item.parentItemID = parent
    return item
  }

  /// 0 Trip ▸ (1 Passport ▸ 2 Photo, 3 Tickets), 4 Groceries ▸ 5 Milk, 6 Call.
  static let list = Checklist(
    name: "Home",
    items: [
      item("Trip", 10), item("Passport", 11, parent: 10), item("Photo", 12, parent: 11),
      item("Tickets", 13, parent: 10), item("Groceries", 14), item("Milk", 15, parent: 14),
      item("Call", 16),
    ])

  @Test func rowsCarryDepthAndFoldMarks() throws {
    let rows = OutlineRows(list: Self.list)
    #expect(rows.visible == Array(0..<7))
    #expect(!rows.hidesAny)
    #expect(rows.browserRows == nil)
    #expect(rows.hasSubtasks)
    #expect(rows.depths == [0, 1, 2, 1, 0, 1, 0])
    let trip = try #require(rows.row(0))
    #expect(trip == .init(index: 0, depth: 0, hasChildren: true, isFolded: false, hiddenCount: 0))
    #expect(rows.row(2)?.hasChildren == false)
    #expect(rows.row(6)?.hasChildren == false)
    #expect(rows.row(7) == nil)
    #expect(rows.parent(of: 2) == 1)
    #expect(rows.parent(of: 3) == 0)
    #expect(rows.parent(of: 4) == nil)
    #expect(rows.subtreeEnd(of: 0) == 4)
    #expect(!OutlineRows(list: Checklist(name: "Flat", items: [Self.item("A", 1)])).hasSubtasks)
  }

  @Test func foldingOneHidesItsSubtreeAndUnfoldingKeepsInnerFolds() throws {
    var rows = OutlineRows(list: Self.list)
    let changed1 = rows.fold(1)
    #expect(changed1)
    #expect(rows.visible == [0, 1, 3, 4, 5, 6])
    #expect(
      rows.row(1) == .init(index: 1, depth: 1, hasChildren: true, isFolded: true, hiddenCount: 1))
    let changed2 = rows.fold(0)
    #expect(changed2)
    #expect(rows.visible == [0, 4, 5, 6])
    #expect(rows.row(0)?.hiddenCount == 3)
    #expect(rows.browserRows == [0, 4, 5, 6])
    // Photo is hidden; its row is Trip's.
    #expect(rows.row(ofIndex: 2) == nil)
    #expect(rows.row(showing: 2) == 0)
    #expect(rows.row(showing: 5) == 2)
    // Unfolding Trip shows Passport still folded.
    let changed3 = rows.unfold(0)
    #expect(changed3)
    #expect(rows.visible == [0, 1, 3, 4, 5, 6])
    #expect(rows.folded == [11])
    let changed4 = rows.toggle(1)
    #expect(changed4)
    #expect(rows.visible == Array(0..<7))
    // Nothing to fold: a leaf, a folded item again, out of range.
    let changed5 = rows.fold(2)
    #expect(!changed5)
    let changed6 = rows.fold(99)
    #expect(!changed6)
    let changed7 = rows.unfold(2)
    #expect(!changed7)
    let changed8 = rows.fold(4)
    #expect(changed8)
    let changed9 = rows.fold(4)
    #expect(!changed9)
    #expect(rows.visible == [0, 1, 2, 3, 4, 6])
  }

  @Test func foldAllShowsTopLevelItemsAndUnfoldAllEverything() {
    var rows = OutlineRows(list: Self.list)
    rows.foldAll()
    #expect(rows.visible == [0, 4, 6])
    #expect(rows.folded == [10, 11, 14])
    rows.unfold(0)
    #expect(rows.visible == [0, 1, 3, 4, 6])
    rows.unfoldAll()
    #expect(rows.visible == Array(0..<7))
    #expect(rows.folded.isEmpty)
  }

  @Test func revealUnfoldsTheAncestors() {
    var rows = OutlineRows(list: Self.list)
    rows.foldAll()
    let changed10 = rows.reveal(2)
    #expect(changed10)
    #expect(rows.visible == [0, 1, 2, 3, 4, 6])
    #expect(rows.folded == [14])
    let changed11 = rows.reveal(2)
    #expect(!changed11)
  }

  @Test func foldsAreKeptByItemIDAcrossChanges() throws {
    var model = DataModel(lists: [Self.list])
    let id = model.lists[0].id
    var rows = OutlineRows(list: model.lists[0])
    rows.fold(4)  // Groceries
    // Checking an item keeps the rows as they are.
    let check = try #require(model.toggleItem(listID: id, at: 0))
    model.apply(check)
    let changed12 = rows.follow(check, in: model.lists[0])
    #expect(!changed12)
    #expect(rows.visible == [0, 1, 2, 3, 4, 6])
    // Deleting Trip's subtree moves Groceries up: still folded.
    for change in try #require(model.deleteSubtree(listID: id, at: 0)) {
      model.apply(change)
      rows.follow(change, in: model.lists[0])
    }
    #expect(rows.visible == [0, 2])
    #expect(rows.row(0)?.isFolded == true)
    // Milk leaves Groceries: the fold of an item without subtasks is dropped.
    for change in try #require(try model.outdent(listID: id, at: 1)) {
      model.apply(change)
      rows.follow(change, in: model.lists[0])
    }
    #expect(rows.visible == [0, 1, 2])
    #expect(rows.folded.isEmpty)
  }

  /// A list without subtasks follows adds and deletes without reading its outline again: the
  /// rows are the rows made afresh; the first subtask makes them again.
  @Test func aFlatListFollowsAddsAndDeletes() throws {
    var model = DataModel(lists: [
      Checklist(name: "Flat", items: (1...5).map { ChecklistItem(text: "\($0)", itemID: $0) })
    ])
    let id = model.lists[0].id
    var rows = OutlineRows(list: model.lists[0])
    var steps: [ModelChange] = [
      .insertItem(listID: id, index: 2, item: ChecklistItem(text: "new", itemID: 9)),
      .insertItem(listID: id, index: 6, item: ChecklistItem(text: "last", itemID: 10)),
      .deleteItem(listID: id, index: 0, item: model.lists[0].items[0]),
    ]
    var child = ChecklistItem(text: "child", itemID: 11)
    child.parentItemID = 2
    steps.append(.insertItem(listID: id, index: 1, item: child))
    for change in steps {
      let applied = model.apply(change)
      let followed = rows.follow(change, in: model.lists[0])
      #expect(applied && followed)
      #expect(rows == OutlineRows(list: model.lists[0]))
    }
    #expect(rows.hasSubtasks)
    let last = model.lists[0].items.count - 1
    let delete = ModelChange.deleteItem(listID: id, index: last, item: model.lists[0].items[last])
    let deleted = model.apply(delete)
    #expect(deleted)
    rows.follow(delete, in: model.lists[0])
    #expect(rows == OutlineRows(list: model.lists[0]))
  }

  /// Random outlines and random folds: the rows kept step by step are the rows made afresh
  /// from the same folds, and a naive reading of the outline.
  @Test func stepByStepMatchesMadeAfresh() {
    var random = SeededGenerator(seed: 34)
    for round in 0..<200 {
      let count = 1 + random.next(below: 40)
      var depths: [Int] = []
      for index in 0..<count {
        let deepest = index == 0 ? 0 : depths[index - 1] + 1
        depths.append(random.next(below: deepest + 1))
      }
      let ids = (0..<count).map { 100 + $0 }
      var rows = OutlineRows(depths: depths, itemIDs: ids)
      for _ in 0..<30 {
        let index = random.next(below: count)
        switch random.next(below: 10) {
        case 0: rows.foldAll()
        case 1: rows.unfoldAll()
        case 2: rows.reveal(index)
        case 3, 4, 5: rows.fold(index)
        default: rows.unfold(index)
        }
        let fresh = OutlineRows(depths: depths, itemIDs: ids, folded: rows.folded)
        #expect(rows == fresh, "round \(round)")
        #expect(rows.visible == Self.naiveVisible(depths: depths, ids: ids, folded: rows.folded))
      }
    }
  }

  /// An item shows when no item before it that is folded has it in its subtree.
  static func naiveVisible(depths: [Int], ids: [Int], folded: Set<Int>) -> [Int] {
    depths.indices.filter { index in
      // Walk up through the ancestors.
      var current = index
      while depths[current] > 0 {
        var up = current - 1
        while depths[up] >= depths[current] { up -= 1 }
        if folded.contains(ids[up]) { return false }
        current = up
      }
      return true
    }
  }
}
