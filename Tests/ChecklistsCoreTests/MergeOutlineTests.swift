import Foundation
import Testing

@testable import ChecklistsCore

/// The three-way merge of subtasks, priorities and tags.
@Suite struct MergeOutlineTests {
  static let day = Date(timeIntervalSinceReferenceDate: 800_000_000)

  static func item(_ text: String, _ id: Int, parent: Int? = nil) -> ChecklistItem {
    var item = ChecklistItem(text: text, dueDate: day, itemID: id)
    item.parentItemID = parent
    return item
  }

  /// Trip ▸ Passport, Trip ▸ Tickets, Groceries.
  static func base() -> DataModel {
    var groceries = item("Groceries", 4)
    groceries.tags = ["home", "Errands"]
    return DataModel(lists: [
      Checklist(
        name: "Home",
        items: [
          item("Trip", 1), item("Passport", 2, parent: 1), item("Tickets", 3, parent: 1), groceries,
        ])
    ])
  }

  /// Theirs as a reload gives it: fresh run-time ids.
  static func fromDisk(_ model: DataModel) -> [Checklist] { DataModel(lists: model.lists).lists }

  static func edit(_ model: inout DataModel, _ text: String, _ edit: (inout ChecklistItem) -> Void)
  {
    let list = model.lists[0]
    guard let at = list.items.firstIndex(where: { $0.text == text }) else { return }
    var new = list.items[at]
    edit(&new)
    if let change = model.replaceItem(listID: list.id, at: at, with: new) { model.apply(change) }
  }

  static func delete(_ model: inout DataModel, _ text: String) {
    let list = model.lists[0]
    guard let at = list.items.firstIndex(where: { $0.text == text }),
      let change = model.deleteItem(listID: list.id, at: at)
    else { return }
    model.apply(change)
  }

  static func insert(_ model: inout DataModel, _ item: ChecklistItem, at index: Int) {
    if let change = model.insertItem(item, listID: model.lists[0].id, at: index) {
      model.apply(change)
    }
  }

  @Test func tagsMergeAsASet() throws {
    let base = Self.base()
    var ours = base
    Self.edit(&ours, "Groceries") { $0.tags = ["home", "Errands", "weekly"] }  // added
    var theirs = base
    Self.edit(&theirs, "Groceries") { $0.tags = ["Errands", "shop"] }  // removed home, added shop
    let result = ModelMerge.merge(base: base, ours: ours, theirs: Self.fromDisk(theirs))
    let groceries = try #require(result.model.lists[0].items.last)
    #expect(groceries.tags == ["Errands", "weekly", "shop"])
    #expect(result.report.conflicts.isEmpty)
  }

  @Test func aTagRemovedOnOneSideStaysRemovedWhileTheOtherAddsAnother() throws {
    let base = Self.base()
    var ours = base
    Self.edit(&ours, "Groceries") { $0.tags = ["home"] }  // removed Errands
    var theirs = base
    Self.edit(&theirs, "Groceries") { $0.tags = ["HOME", "errands", "later"] }  // respelled, added
    let result = ModelMerge.merge(base: base, ours: ours, theirs: Self.fromDisk(theirs))
    let groceries = try #require(result.model.lists[0].items.last)
    #expect(groceries.tags == ["home", "later"])
  }

  @Test func priorityAndParentMergePerField() throws {
    let base = Self.base()
    var ours = base
    Self.edit(&ours, "Tickets") { $0.priorityLevel = .high }
    var theirs = base
    Self.edit(&theirs, "Tickets") { $0.text = "Train tickets" }
    let result = ModelMerge.merge(base: base, ours: ours, theirs: Self.fromDisk(theirs))
    let tickets = result.model.lists[0].items[2]
    #expect(tickets.text == "Train tickets")
    #expect(tickets.priority == 1)
    #expect(tickets.parentItemID == 1)
    #expect(result.report.conflicts.isEmpty)
  }

  @Test func aChildWhoseParentWasDeletedElsewhereBecomesTopLevel() {
    let base = Self.base()
    var ours = base
    Self.edit(&ours, "Passport") { $0.checked = true }
    var theirs = base
    Self.delete(&theirs, "Trip")
    let result = ModelMerge.merge(base: base, ours: ours, theirs: Self.fromDisk(theirs))
    let items = result.model.lists[0].items
    #expect(items.map(\.text) == ["Passport", "Tickets", "Groceries"])
    #expect(items.allSatisfy { $0.parentItemID == nil })
    #expect(items[0].checked)
    #expect(result.model.lists[0].outlineIsConsistent)
  }

  @Test func aChildMadeHereUnderAParentDeletedElsewhereIsKeptTopLevel() {
    let base = Self.base()
    var ours = base
    Self.insert(&ours, Self.item("Visa", 10, parent: 1), at: 3)
    var theirs = base
    Self.delete(&theirs, "Trip")
    Self.delete(&theirs, "Passport")
    Self.delete(&theirs, "Tickets")
    let result = ModelMerge.merge(base: base, ours: ours, theirs: Self.fromDisk(theirs))
    let items = result.model.lists[0].items
    #expect(items.map(\.text) == ["Visa", "Groceries"])
    #expect(items[0].parentItemID == nil)
  }

  @Test func renumberedItemsKeepTheirChildren() throws {
    let base = Self.base()
    var ours = base
    Self.insert(&ours, Self.item("Camping", 5), at: 4)
    Self.insert(&ours, Self.item("Tent", 6, parent: 5), at: 5)
    var theirs = base
    // Theirs made items with the same ids: ours' are renumbered, children with them.
    Self.insert(&theirs, Self.item("Other", 5), at: 0)
    Self.insert(&theirs, Self.item("Other child", 6, parent: 5), at: 1)
    let result = ModelMerge.merge(base: base, ours: ours, theirs: Self.fromDisk(theirs))
    let items = result.model.lists[0].items
    let camping = try #require(items.first { $0.text == "Camping" })
    let tent = try #require(items.first { $0.text == "Tent" })
    let other = try #require(items.first { $0.text == "Other child" })
    #expect(camping.itemID != 5)
    #expect(tent.parentItemID == camping.itemID)
    #expect(other.parentItemID == 5)
    #expect(result.report.renumbered.count == 2)
    #expect(result.model.lists[0].outlineIsConsistent)
    // Undo entries follow the renumbering too.
    let change = ModelChange.insertItem(listID: 1, index: 5, item: Self.item("Tent", 6, parent: 5))
    let map = Dictionary(
      uniqueKeysWithValues: result.report.renumbered.map { ($0.oldID, $0.newID) })
    guard case .insertItem(_, _, let renumbered) = change.renumberingItems(map) else {
      Issue.record("still an insert")
      return
    }
    #expect(renumbered.itemID == tent.itemID)
    #expect(renumbered.parentItemID == camping.itemID)
  }

  @Test func aRepeatSetHereLosesItsDueDateRemovedElsewhere() {
    var base = Self.base()
    Self.edit(&base, "Groceries") {
      $0.hasDueDate = true
    }
    var ours = base
    Self.edit(&ours, "Groceries") { $0.repeatRule = RepeatRule(.weekly) }
    var theirs = base
    Self.edit(&theirs, "Groceries") { $0.hasDueDate = false }
    let result = ModelMerge.merge(base: base, ours: ours, theirs: Self.fromDisk(theirs))
    let groceries = result.model.lists[0].items[3]
    #expect(!groceries.showsDueDate)
    #expect(groceries.repeatRule == nil)
    #expect(groceries.tags == ["home", "Errands"])
  }
}
