import Foundation
import Testing

@testable import ChecklistsCore

@Suite struct NaturalOrderTests {
  @Test func sortsCaseInsensitivelyWithNumbersInNaturalOrder() {
    let names = ["list 10", "Zoo", "list 9", "apple", "List 2", "Ärger", "list 09", "Banana"]
    let sorted = names.sorted(by: NaturalOrder.areInIncreasingOrder)
    #expect(
      sorted == ["apple", "Ärger", "Banana", "List 2", "list 9", "list 09", "list 10", "Zoo"])
  }

  /// Accents do not move a name away from its letter; a name that differs only by them sorts
  /// after the one without, and a folded letter can decide on its own (ß is ss).
  @Test func accentsSortWithTheirLetter() {
    let names = ["älpha", "list 10", "alpha", "Ålborg", "Oslo", "Øresund", "Straße", "Strasse 2"]
    let sorted = names.sorted(by: NaturalOrder.areInIncreasingOrder)
    #expect(
      sorted == ["Ålborg", "alpha", "älpha", "list 10", "Øresund", "Oslo", "Straße", "Strasse 2"])
    for a in names {
      for b in names where a != b {
        #expect(
          NaturalOrder.areInIncreasingOrder(a, b) != NaturalOrder.areInIncreasingOrder(b, a))
      }
    }
  }

  /// Letters that are two letters in one sort as the two (Æ as ae, Œ as oe, Ĳ as ij) and eth
  /// with d, as Foundation's `localizedStandardCompare` (the iPhone app's sort) puts them; they
  /// sorted after z. Search finds them the same way.
  @Test func ligaturesSortAsTheirLetters() {
    let names = [
      "Zulu", "Æble", "Œuvre", "Ðoor", "ĳssel", "apple", "door", "Ijs", "oeuvre", "Þing",
    ]
    let sorted = names.sorted(by: NaturalOrder.areInIncreasingOrder)
    #expect(
      sorted == [
        "Æble", "apple", "door", "Ðoor", "Ijs", "ĳssel", "oeuvre", "Œuvre", "Zulu", "Þing",
      ])
    let byFoundation = names.sorted { $0.localizedStandardCompare($1) == .orderedAscending }
    #expect(sorted == byFoundation)
    for (text, folded) in [
      ("Æble", "aeble"), ("ǽ", "ae"), ("Œuvre", "oeuvre"), ("ĳ", "ij"), ("Ðoor", "door"),
    ] {
      #expect(SearchFolding.fold(text) == Array(folded.utf8), "\(text)")
    }
  }

  @Test func isATotalOrder() {
    #expect(
      NaturalOrder.areInIncreasingOrder("A", "a") != NaturalOrder.areInIncreasingOrder("a", "A"))
    #expect(!NaturalOrder.areInIncreasingOrder("same", "same"))
    #expect(NaturalOrder.areInIncreasingOrder("x", "x1"))
    #expect(NaturalOrder.areInIncreasingOrder("9", "10"))
    #expect(
      NaturalOrder.areInIncreasingOrder("99999999999999999999999", "100000000000000000000000"))
  }
}

@Suite struct DataModelTests {
  /// A file whose largest item ID is Int.max (damaged, or made so) gives new items the
  /// smallest IDs no item has: they all got Int.max, the same ID as that item.
  @Test func newItemsAfterTheLargestIDGetUnusedOnes() throws {
    var model = DataModel(lists: [
      Checklist(
        name: "Odd",
        items: [
          ChecklistItem(text: "max", itemID: Int.max), ChecklistItem(text: "zero", itemID: 0),
          ChecklistItem(text: "two", itemID: 2),
        ])
    ])
    #expect(model.nextItemID == Int.max)
    let listID = try #require(model.lists.first?.id)
    var ids: [Int] = []
    for text in ["a", "b", "c"] {
      let item = model.makeItem(text: text)
      ids.append(item.itemID)
      model.apply(try #require(model.insertItem(item, listID: listID)))
    }
    #expect(ids == [1, 3, 4])
    let all = model.lists.flatMap(\.items).map(\.itemID)
    #expect(Set(all).count == all.count)
    // Made before they are added (as import makes a whole list first): still all different.
    let made = (0..<3).map { _ in model.makeItem(text: "later") }.map(\.itemID)
    #expect(made == [5, 6, 7])
  }

  /// Two writers that each added an item to such a file: the merge gives the one it renumbers
  /// an ID no item has; it took Int.max, the ID of the item already there.
  @Test func aMergeOfItemsAddedAfterTheLargestIDKeepsThemApart() throws {
    let base = DataModel(lists: [
      Checklist(name: "Odd", items: [ChecklistItem(text: "max", itemID: Int.max)])
    ])
    let listID = try #require(base.lists.first?.id)
    var ours = base
    var theirs = base
    let mine = ours.makeItem(text: "ours")
    ours.apply(try #require(ours.insertItem(mine, listID: listID)))
    let other = theirs.makeItem(text: "theirs")
    theirs.apply(try #require(theirs.insertItem(other, listID: listID)))
    #expect(mine.itemID == other.itemID)
    let merged = ModelMerge.merge(base: base, ours: ours, theirs: theirs.lists).model
    let ids = merged.lists.flatMap(\.items).map(\.itemID)
    #expect(merged.lists.flatMap(\.items).map(\.text).sorted() == ["max", "ours", "theirs"])
    #expect(Set(ids).count == 3, "\(ids)")
  }

  private func sample() -> DataModel {
    DataModel(lists: [
      Checklist(
        name: "Groceries", iconName: "Groceries",
        items: [
          ChecklistItem(text: "Milk", checked: true, itemID: 4),
          ChecklistItem(text: "Eggs", itemID: 7),
        ]),
      Checklist(name: "birthdays", iconName: "Birthdays"),
      Checklist(name: "Trips", items: [ChecklistItem(text: "Passport", itemID: 2)]),
    ])
  }

  @Test func keepsListsSortedAndNumbersItemsAboveTheFile() {
    var model = sample()
    #expect(model.lists.map(\.name) == ["birthdays", "Groceries", "Trips"])
    #expect(Set(model.lists.map(\.id)).count == 3)
    #expect(model.nextItemID == 8)
    let item = model.makeItem(text: "Bread")
    #expect(item.itemID == 8)
    #expect(model.nextItemID == 9)
    #expect(DataModel(lists: [], nextItemID: 42).nextItemID == 42)
  }

  @Test func theListsGiveTheNextItemIDBackUnlessTheNewestItemsAreGone() throws {
    var model = sample()
    #expect(model.listsGiveNextItemID)
    #expect(DataModel().listsGiveNextItemID)
    #expect(!DataModel(lists: [], nextItemID: 42).listsGiveNextItemID)
    // A new item keeps it so; deleting that newest item does not (its ID must not come back).
    let groceries = try #require(model.lists.first { $0.name == "Groceries" })
    let item = model.makeItem(text: "Bread")
    model.apply(try #require(model.insertItem(item, listID: groceries.id)))
    #expect(model.listsGiveNextItemID)
    let index = try #require(
      model.lists.first { $0.id == groceries.id }?.items.firstIndex { $0.itemID == item.itemID })
    model.apply(try #require(model.deleteItem(listID: groceries.id, at: index)))
    #expect(!model.listsGiveNextItemID)
  }

  @Test func subtitlesFollowTheApp() {
    let model = sample()
    #expect(model.lists.map(\.subtitle) == ["(No Items)", "1 Remaining", "1 Remaining"])
    var groceries = model.lists[1]
    groceries.replaceItem(at: 1, with: ChecklistItem(text: "Eggs", checked: true, itemID: 7))
    #expect(groceries.subtitle == "All Done!")
    #expect(groceries.uncheckedCount == 0)
  }

  @Test func everyChangeIsUndoneByItsInverse() throws {
    var model = sample()
    let original = model
    let groceries = model.lists[1].id
    var newList = model.makeList(name: "Chores", iconName: "Chores")
    newList.insertItem(model.makeItem(text: "Dishes"))
    // Each change is made against the model as it is at that point, as the UI does.
    let steps: [(inout DataModel) -> ModelChange?] = [
      { $0.insertList(newList) },
      { $0.editList(id: groceries, name: "aaa shop", iconName: "Inbox") },
      { model in model.insertItem(model.makeItem(text: "Bread"), listID: groceries, at: 0) },
      { $0.toggleItem(listID: groceries, at: 1) },
      { $0.moveItem(listID: groceries, from: 0, to: 2) },
      { $0.deleteItem(listID: groceries, at: 1) },
      { $0.deleteList(id: $0.lists[2].id) },
    ]
    var applied: [ModelChange] = []
    var states = [model]
    for step in steps {
      let change = try #require(step(&model))
      let didApply = model.apply(change)
      #expect(didApply)
      applied.append(change)
      states.append(model)
    }
    #expect(model.lists.map(\.name) == ["aaa shop", "birthdays", "Trips"])
    for (change, state) in zip(applied.reversed(), states.dropLast().reversed()) {
      let didUndo = model.apply(change.inverse)
      #expect(didUndo)
      #expect(model == state)
    }
    #expect(model == original)
    #expect(model.lists.map(\.uncheckedCount) == original.lists.map(\.uncheckedCount))
  }

  @Test func refusesChangesThatDoNotFit() {
    var model = sample()
    let before = model
    let missingList = model.apply(
      .deleteItem(listID: 999, index: 0, item: ChecklistItem(text: "", itemID: 0)))
    #expect(!missingList)
    let emptyList = model.apply(.moveItem(listID: model.lists[0].id, itemID: 0, from: 0, to: 1))
    #expect(!emptyList)
    #expect(model.deleteItem(listID: model.lists[0].id, at: 0) == nil)
    #expect(model.editList(id: model.lists[0].id, name: "birthdays", iconName: "Birthdays") == nil)
    #expect(model == before)
  }

  @Test func renameResortsAndKeepsIdentity() throws {
    var model = sample()
    let trips = model.lists[2].id
    let applied = model.apply(
      try #require(model.editList(id: trips, name: "A trip", iconName: "Trips")))
    #expect(applied)
    #expect(model.lists[0].id == trips)
    #expect(model.lists[0].name == "A trip")
  }
}
