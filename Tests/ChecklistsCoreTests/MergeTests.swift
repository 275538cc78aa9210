import ChecklistsTestSupport
import Foundation
import Testing

@testable import ChecklistsCore

/// Builders for merge tests: a base model, and edits applied to copies of it.
private enum Fixture {
  static let day = Date(timeIntervalSinceReferenceDate: 800_000_000)

  static func base() -> DataModel {
    DataModel(lists: [
      Checklist(
        name: "Groceries", iconName: "Groceries",
        items: [
          ChecklistItem(text: "Milk", dueDate: day, itemID: 1),
          ChecklistItem(text: "Eggs", dueDate: day, itemID: 2),
          ChecklistItem(text: "Bread", dueDate: day, itemID: 3),
          ChecklistItem(text: "Tea", dueDate: day, itemID: 4),
        ]),
      Checklist(
        name: "Trips", iconName: "Trips",
        items: [
          ChecklistItem(text: "Passport", dueDate: day, itemID: 5),
          ChecklistItem(text: "Tickets", dueDate: day, itemID: 6),
        ]),
    ])
  }

  static func listID(_ model: DataModel, _ name: String) -> Checklist.ID {
    model.lists.first { $0.name == name }?.id ?? -1
  }

  static func index(_ model: DataModel, _ list: String, _ text: String) -> Int {
    model.lists.first { $0.name == list }?.items.firstIndex { $0.text == text } ?? -1
  }

  /// Applies `edit` to the item `text` of `list`.
  static func edit(
    _ model: inout DataModel, _ list: String, _ text: String,
    _ edit: (inout ChecklistItem) -> Void
  ) {
    let id = listID(model, list)
    let at = index(model, list, text)
    guard let old = model.list(withID: id)?.items[at] else { return }
    var new = old
    edit(&new)
    if let change = model.replaceItem(listID: id, at: at, with: new) { model.apply(change) }
  }

  static func delete(_ model: inout DataModel, _ list: String, _ text: String) {
    if let change = model.deleteItem(listID: listID(model, list), at: index(model, list, text)) {
      model.apply(change)
    }
  }

  static func add(_ model: inout DataModel, _ list: String, _ text: String, at: Int? = nil) {
    let item = model.makeItem(text: text, dueDate: day)
    if let change = model.insertItem(item, listID: listID(model, list), at: at) {
      model.apply(change)
    }
  }

  static func move(_ model: inout DataModel, _ list: String, _ text: String, to: Int) {
    if let change = model.moveItem(
      listID: listID(model, list), from: index(model, list, text), to: to)
    {
      model.apply(change)
    }
  }

  static func rename(_ model: inout DataModel, _ list: String, to name: String) {
    let id = listID(model, list)
    let icon = model.list(withID: id)?.iconName ?? ""
    if let change = model.editList(id: id, name: name, iconName: icon) { model.apply(change) }
  }

  /// Theirs as it comes from the file: fresh run-time ids, as a reload gives.
  static func fromDisk(_ model: DataModel) -> [Checklist] {
    DataModel(lists: model.lists.reversed()).lists
  }

  static func texts(_ model: DataModel, _ list: String) -> [String] {
    model.lists.first { $0.name == list }?.items.map(\.text) ?? []
  }
}

@Suite struct ModelMergeTests {
  fileprivate typealias F = Fixture

  @Test func differentFieldsOnEachSideAreBothKept() {
    let base = F.base()
    var ours = base
    F.edit(&ours, "Groceries", "Milk") { $0.checked = true }
    var theirs = base
    F.edit(&theirs, "Groceries", "Milk") { $0.text = "Oat milk" }
    let result = ModelMerge.merge(base: base, ours: ours, theirs: F.fromDisk(theirs))
    let milk = result.model.lists[0].items[0]
    #expect(milk.text == "Oat milk")
    #expect(milk.checked)
    #expect(result.report.conflicts.isEmpty)
    #expect(result.report.changesFromElsewhere == 1)
    #expect(result.model.lists[0].uncheckedCount == 3)
  }

  @Test func aNoteChangedOnBothSidesLogsTheOtherNotesWords() throws {
    let base = F.base()
    var ours = base
    F.edit(&ours, "Groceries", "Milk") { $0.note = "2 litres" }
    var theirs = base
    F.edit(&theirs, "Groceries", "Milk") { $0.note = "oat, not cow\nfrom the corner shop" }
    let result = ModelMerge.merge(base: base, ours: ours, theirs: F.fromDisk(theirs))
    #expect(result.model.lists[0].items[0].note == "2 litres")
    let conflict = try #require(result.report.conflicts.first)
    #expect(conflict.kept == "\"2 litres\"")
    // One log line: the lost note's words, its newline written as \n.
    #expect(conflict.other == "\"oat, not cow\\nfrom the corner shop\"")
  }

  @Test func sameFieldChangedOnBothSidesKeepsOursAndReportsTheirs() throws {
    let base = F.base()
    var ours = base
    F.edit(&ours, "Groceries", "Milk") { $0.text = "Milk 2L" }
    var theirs = base
    F.edit(&theirs, "Groceries", "Milk") { $0.text = "Oat milk" }
    let result = ModelMerge.merge(base: base, ours: ours, theirs: F.fromDisk(theirs))
    #expect(result.model.lists[0].items[0].text == "Milk 2L")
    let conflict = try #require(result.report.conflicts.first)
    #expect(conflict.field == "text")
    #expect(conflict.kept == "\"Milk 2L\"")
    #expect(conflict.other == "\"Oat milk\"")
    let lines = result.report.logLines(stamp: "T", file: "Checklists.plist")
    #expect(
      lines == [
        "T Checklists.plist: list \"Groceries\", item \"Milk 2L\", text: kept \"Milk 2L\"; "
          + "the other change was \"Oat milk\""
      ])
    #expect(
      result.report.summary(logName: "Checklists.plist.conflicts.log")
        == "1 conflict: kept your change (details in Checklists.plist.conflicts.log)")
  }

  /// Deletions made elsewhere are said apart from other changes (a file put back from an older
  /// copy deletes what was added since: the user must see that).
  @Test func deletionsFromElsewhereAreSaidApart() {
    let base = F.base()
    var theirs = base
    F.delete(&theirs, "Groceries", "Milk")
    var result = ModelMerge.merge(base: base, ours: base, theirs: F.fromDisk(theirs))
    #expect(result.report.summary(logName: nil) == "1 deletion made elsewhere merged")
    F.edit(&theirs, "Trips", "Passport") { $0.checked = true }
    result = ModelMerge.merge(base: base, ours: base, theirs: F.fromDisk(theirs))
    #expect(
      result.report.summary(logName: nil)
        == "2 changes made elsewhere merged (1 of them a deletion)")
    #expect(result.report.deletionsFromElsewhere == 1)
    // A whole list deleted elsewhere counts once.
    var listGone = base
    if let delete = listGone.deleteList(id: F.listID(listGone, "Trips")) {
      _ = listGone.apply(delete)
    }
    result = ModelMerge.merge(base: base, ours: base, theirs: F.fromDisk(listGone))
    #expect(result.report.summary(logName: nil) == "1 deletion made elsewhere merged")
  }

  @Test func sameChangeOnBothSidesIsNoConflict() {
    let base = F.base()
    var ours = base
    F.edit(&ours, "Trips", "Passport") { $0.checked = true }
    let result = ModelMerge.merge(base: base, ours: ours, theirs: F.fromDisk(ours))
    #expect(result.report.isEmpty)
    #expect(result.model == ours)
  }

  @Test func editedOnOneSideDeletedOnTheOtherStays() {
    let base = F.base()
    var ours = base
    F.edit(&ours, "Groceries", "Eggs") { $0.text = "Eggs x12" }
    F.delete(&ours, "Groceries", "Tea")
    var theirs = base
    F.delete(&theirs, "Groceries", "Eggs")
    F.edit(&theirs, "Groceries", "Tea") { $0.checked = true }
    F.delete(&theirs, "Groceries", "Bread")
    let result = ModelMerge.merge(base: base, ours: ours, theirs: F.fromDisk(theirs))
    #expect(F.texts(result.model, "Groceries") == ["Milk", "Eggs x12", "Tea"])
    #expect(result.report.keptItems.map(\.text) == ["Eggs x12", "Tea"])
    #expect(
      result.report.keptItems.map(\.reason) == [
        "deleted elsewhere, changed here", "deleted here, changed elsewhere",
      ])
  }

  /// A file back from being unreadable (an older copy put back): what it lacks stays (items
  /// and whole lists), its older values of what both have are not taken as changes, and only
  /// what it adds comes in.
  @Test func whatARestoredFileLacksStays() throws {
    let base = F.base()
    var ours = base
    F.add(&ours, "Groceries", "Butter")
    var theirs = base
    F.delete(&theirs, "Groceries", "Eggs")
    F.edit(&theirs, "Groceries", "Tea") { $0.checked = true }
    let trips = try #require(theirs.deleteList(id: F.listID(theirs, "Trips")))
    _ = theirs.apply(trips)
    _ = theirs.apply(theirs.insertList(theirs.makeList(name: "Chores")))
    F.add(&theirs, "Chores", "Sweep")
    let restored = ModelMerge.merge(
      base: base, ours: ours, theirs: F.fromDisk(theirs), keepingWhatTheirsLacks: true)
    #expect(F.texts(restored.model, "Groceries") == ["Milk", "Eggs", "Bread", "Tea", "Butter"])
    #expect(F.texts(restored.model, "Chores") == ["Sweep"])
    #expect(restored.model.lists.first { $0.name == "Groceries" }?.items[3].checked == false)
    #expect(F.texts(restored.model, "Trips") == ["Passport", "Tickets"])
    #expect(restored.report.keptMissingFromFile == 3)
    #expect(restored.report.keptItems.isEmpty)
    // An item deleted here after the copy was made (its itemID is older than base's next one)
    // stays deleted.
    var later = base
    F.delete(&later, "Groceries", "Bread")
    let again = ModelMerge.merge(
      base: later, ours: later, theirs: F.fromDisk(base), keepingWhatTheirsLacks: true)
    #expect(F.texts(again.model, "Groceries") == ["Milk", "Eggs", "Tea"])
    // The same file otherwise counts as two deletions made elsewhere.
    let usual = ModelMerge.merge(base: base, ours: ours, theirs: F.fromDisk(theirs))
    #expect(F.texts(usual.model, "Groceries") == ["Milk", "Bread", "Tea", "Butter"])
    #expect(F.texts(usual.model, "Trips") == [])
    #expect(usual.report.keptMissingFromFile == 0)
  }

  @Test func addedOnBothSidesBothStayAndOursIsRenumbered() {
    let base = F.base()
    var ours = base
    F.add(&ours, "Groceries", "Butter")
    var theirs = base
    F.add(&theirs, "Groceries", "Cheese")
    #expect(ours.lists[0].items.last?.itemID == theirs.lists[0].items.last?.itemID)
    let result = ModelMerge.merge(base: base, ours: ours, theirs: F.fromDisk(theirs))
    let items = result.model.lists[0].items
    #expect(items.map(\.text) == ["Milk", "Eggs", "Bread", "Tea", "Butter", "Cheese"])
    #expect(Set(items.map(\.itemID)).count == items.count)
    #expect(result.report.renumbered.count == 1)
    #expect(result.report.renumbered.first?.text == "Butter")
    #expect(result.report.renumbered.first?.oldID == 7)
    #expect(result.model.nextItemID > items.map(\.itemID).max() ?? 0)
  }

  @Test func anItemMovedOnOneSideKeepsItsPlaceAfterItsNeighbour() {
    let base = F.base()
    var ours = base
    F.add(&ours, "Groceries", "Butter", at: 0)
    var theirs = base
    F.move(&theirs, "Groceries", "Tea", to: 1)  // Milk, Tea, Eggs, Bread
    let result = ModelMerge.merge(base: base, ours: ours, theirs: F.fromDisk(theirs))
    #expect(F.texts(result.model, "Groceries") == ["Butter", "Milk", "Tea", "Eggs", "Bread"])
    // And the other way round: ours' move with theirs' add.
    let reverse = ModelMerge.merge(base: base, ours: theirs, theirs: F.fromDisk(ours))
    #expect(F.texts(reverse.model, "Groceries") == ["Butter", "Milk", "Tea", "Eggs", "Bread"])
  }

  @Test func bothMovedTheSameItemOursWins() {
    let base = F.base()
    var ours = base
    F.move(&ours, "Groceries", "Tea", to: 0)
    var theirs = base
    F.move(&theirs, "Groceries", "Tea", to: 2)
    let result = ModelMerge.merge(base: base, ours: ours, theirs: F.fromDisk(theirs))
    #expect(F.texts(result.model, "Groceries") == ["Tea", "Milk", "Eggs", "Bread"])
  }

  @Test func aListRenamedOnOneSideAndEditedOnTheOtherIsOneList() {
    let base = F.base()
    var ours = base
    F.add(&ours, "Groceries", "Butter")
    var theirs = base
    F.rename(&theirs, "Groceries", to: "Shopping")
    F.edit(&theirs, "Shopping", "Milk") { $0.checked = true }
    let result = ModelMerge.merge(base: base, ours: ours, theirs: F.fromDisk(theirs))
    #expect(result.model.lists.map(\.name) == ["Shopping", "Trips"])
    #expect(F.texts(result.model, "Shopping") == ["Milk", "Eggs", "Bread", "Tea", "Butter"])
    #expect(result.model.lists[0].items[0].checked)
    // The list keeps ours' run-time id, so the screen stays on it.
    #expect(result.model.lists[0].id == F.listID(ours, "Groceries"))
  }

  @Test func listRenamedDifferentlyOnBothSidesKeepsOurs() {
    let base = F.base()
    var ours = base
    F.rename(&ours, "Trips", to: "Travel")
    var theirs = base
    F.rename(&theirs, "Trips", to: "Journeys")
    let result = ModelMerge.merge(base: base, ours: ours, theirs: F.fromDisk(theirs))
    #expect(result.model.lists.map(\.name) == ["Groceries", "Travel"])
    #expect(result.report.conflicts.map(\.field) == ["name"])
  }

  @Test func aListDeletedOnOneSideAndChangedOnTheOtherStaysWhole() {
    let base = F.base()
    var ours = base
    if let change = ours.deleteList(id: F.listID(ours, "Trips")) { ours.apply(change) }
    var theirs = base
    F.add(&theirs, "Trips", "Sunscreen")
    let result = ModelMerge.merge(base: base, ours: ours, theirs: F.fromDisk(theirs))
    #expect(F.texts(result.model, "Trips") == ["Passport", "Tickets", "Sunscreen"])
    #expect(result.report.keptLists == ["Trips"])
    // It keeps its id: an undo of the delete here sees the list is there again (it added a
    // second "Trips").
    #expect(result.model.lists.first { $0.name == "Trips" }?.id == F.listID(base, "Trips"))
    // Deleted here, untouched there: gone.
    let untouched = ModelMerge.merge(base: base, ours: ours, theirs: F.fromDisk(base))
    #expect(untouched.model.lists.map(\.name) == ["Groceries"])
  }

  @Test func listsAddedOnBothSidesUnderOneNameAreOneList() {
    let base = F.base()
    var ours = base
    let oursList = ours.makeList(name: "Chores")
    ours.apply(ours.insertList(oursList))
    F.add(&ours, "Chores", "Dishes")
    var theirs = base
    let theirsList = theirs.makeList(name: "Chores")
    theirs.apply(theirs.insertList(theirsList))
    F.add(&theirs, "Chores", "Laundry")
    let result = ModelMerge.merge(base: base, ours: ours, theirs: F.fromDisk(theirs))
    #expect(result.model.lists.map(\.name) == ["Chores", "Groceries", "Trips"])
    #expect(F.texts(result.model, "Chores") == ["Dishes", "Laundry"])
    #expect(Set(result.model.lists.map(\.id)).count == 3)
  }

  @Test func theirsNewListGetsAFreshRunTimeID() {
    let base = F.base()
    var theirs = base
    let list = theirs.makeList(name: "Work")
    theirs.apply(theirs.insertList(list))
    var ours = base
    let mine = ours.makeList(name: "Home")
    ours.apply(ours.insertList(mine))
    let result = ModelMerge.merge(base: base, ours: ours, theirs: F.fromDisk(theirs))
    #expect(result.model.lists.map(\.name) == ["Groceries", "Home", "Trips", "Work"])
    #expect(Set(result.model.lists.map(\.id)).count == 4)
    var next = result.model
    let another = next.makeList(name: "Later")
    #expect(!result.model.lists.map(\.id).contains(another.id))
  }

  @Test func extraKeysMergeKeyByKey() {
    var base = F.base()
    F.edit(&base, "Groceries", "Milk") { $0.unknownFields = ["a": .integer(1), "b": .integer(1)] }
    var ours = base
    F.edit(&ours, "Groceries", "Milk") { $0.unknownFields["a"] = .integer(2) }
    var theirs = base
    F.edit(&theirs, "Groceries", "Milk") { $0.unknownFields["b"] = .integer(3) }
    let result = ModelMerge.merge(base: base, ours: ours, theirs: F.fromDisk(theirs))
    #expect(result.model.lists[0].items[0].unknownFields == ["a": .integer(2), "b": .integer(3)])
  }

  @Test func remindersAndCountsFollowTheResult() {
    let base = F.base()
    var ours = base
    F.edit(&ours, "Groceries", "Milk") { $0.checked = true }
    var theirs = base
    F.edit(&theirs, "Groceries", "Eggs") {
      $0.shouldRemind = true
      $0.dueDate = F.day.addingTimeInterval(3600)
    }
    let result = ModelMerge.merge(base: base, ours: ours, theirs: F.fromDisk(theirs))
    let scheduler = ReminderScheduler(model: result.model, now: F.day)
    #expect(scheduler.nextWakeUp(after: F.day) == F.day.addingTimeInterval(3600))
    #expect(result.model.lists[0].subtitle == "3 Remaining")
  }

  @Test func aMoveBetweenListsIsAFieldToo() {
    let base = F.base()
    // Theirs moves Tea to Trips; ours edits Tea's text.
    var theirs = base
    let tea = theirs.lists[0].items[3]
    F.delete(&theirs, "Groceries", "Tea")
    theirs.apply(.insertItem(listID: F.listID(theirs, "Trips"), index: 0, item: tea))
    var ours = base
    F.edit(&ours, "Groceries", "Tea") { $0.text = "Green tea" }
    let result = ModelMerge.merge(base: base, ours: ours, theirs: F.fromDisk(theirs))
    #expect(F.texts(result.model, "Groceries") == ["Milk", "Eggs", "Bread"])
    #expect(F.texts(result.model, "Trips") == ["Green tea", "Passport", "Tickets"])
  }

  @Test func duplicateItemIDsInAFileStillMerge() {
    let base = DataModel(lists: [
      Checklist(
        name: "L",
        items: [
          ChecklistItem(text: "a", dueDate: F.day, itemID: 1),
          ChecklistItem(text: "b", dueDate: F.day, itemID: 1),
        ])
    ])
    var ours = base
    F.edit(&ours, "L", "b") { $0.checked = true }
    var theirs = base
    F.edit(&theirs, "L", "a") { $0.text = "A" }
    let result = ModelMerge.merge(base: base, ours: ours, theirs: F.fromDisk(theirs))
    #expect(F.texts(result.model, "L") == ["A", "b"])
    #expect(result.model.lists[0].items[1].checked)
  }
}

/// Random edit scripts applied to two copies of a random model, then merged.
@Suite struct ModelMergePropertyTests {
  static func randomModel(_ random: inout SeededGenerator) -> DataModel {
    var lists: [Checklist] = []
    var id = 0
    for index in 0..<Int.random(in: 1...5, using: &random) {
      var items: [ChecklistItem] = []
      for _ in 0..<Int.random(in: 0...8, using: &random) {
        items.append(
          ChecklistItem(
            text: "item \(id)", checked: Bool.random(using: &random),
            dueDate: Fixture.day, itemID: id))
        id += 1
      }
      lists.append(Checklist(name: "list \(index)", items: items))
    }
    return DataModel(lists: lists)
  }

  /// What one side did to an item, to check the merge against.
  struct Edits {
    var added: [Int: String] = [:]  // new items still there: itemID -> text

    mutating func delete(_ item: ChecklistItem) {
      added.removeValue(forKey: item.itemID)
    }

    mutating func change(_ item: ChecklistItem, _ field: String, _ value: String) {
      if added[item.itemID] != nil && field == "text" { added[item.itemID] = value }
    }
  }

  static func randomEdits(
    _ model: inout DataModel, tag: String, _ random: inout SeededGenerator
  ) -> Edits {
    var edits = Edits()
    for step in 0..<Int.random(in: 0...12, using: &random) {
      guard !model.lists.isEmpty else { break }
      let listIndex = Int.random(in: 0..<model.lists.count, using: &random)
      let list = model.lists[listIndex]
      switch Int.random(in: 0..<10, using: &random) {
      case 0 where !list.items.isEmpty:
        let at = Int.random(in: 0..<list.items.count, using: &random)
        edits.delete(list.items[at])
        if let change = model.deleteItem(listID: list.id, at: at) { model.apply(change) }
      case 1 where !list.items.isEmpty, 2 where !list.items.isEmpty:
        let at = Int.random(in: 0..<list.items.count, using: &random)
        var item = list.items[at]
        item.text = "\(item.text) \(tag)\(step)"
        edits.change(item, "text", item.text)
        if let change = model.replaceItem(listID: list.id, at: at, with: item) {
          model.apply(change)
        }
      case 3 where !list.items.isEmpty:
        let at = Int.random(in: 0..<list.items.count, using: &random)
        if let change = model.toggleItem(listID: list.id, at: at) { model.apply(change) }
        let item = model.lists[listIndex].items[at]
        edits.change(item, "checked", "\(item.checked)")
      case 4 where list.items.count > 1:
        let from = Int.random(in: 0..<list.items.count, using: &random)
        let to = Int.random(in: 0..<list.items.count, using: &random)
        if let change = model.moveItem(listID: list.id, from: from, to: to) { model.apply(change) }
      case 5 where model.lists.count > 1 && Int.random(in: 0..<4, using: &random) == 0:
        for item in list.items { edits.delete(item) }
        if let change = model.deleteList(id: list.id) { model.apply(change) }
      case 6 where Int.random(in: 0..<3, using: &random) == 0:
        let name = "\(list.name) \(tag)\(step)"
        if let change = model.editList(id: list.id, name: name, iconName: list.iconName) {
          model.apply(change)
        }
      default:
        let text = "new \(tag)\(step)"
        let item = model.makeItem(text: text, dueDate: Fixture.day)
        edits.added[item.itemID] = text
        if let change = model.insertItem(
          item, listID: list.id,
          at: Int.random(in: 0...list.items.count, using: &random))
        {
          model.apply(change)
        }
      }
    }
    return edits
  }

  @Test(arguments: 0..<8)
  func everySurvivingItemAndEveryFieldChangeIsKept(seedBlock: Int) {
    for seed in (seedBlock * 250)..<((seedBlock + 1) * 250) {
      var random = SeededGenerator(seed: UInt64(seed))
      let base = Self.randomModel(&random)
      var ours = base
      let oursEdits = Self.randomEdits(&ours, tag: "o", &random)
      var theirsModel = base
      let theirsEdits = Self.randomEdits(&theirsModel, tag: "t", &random)
      let result = ModelMerge.merge(
        base: base, ours: ours, theirs: Fixture.fromDisk(theirsModel))
      let merged = result.model
      var byID: [Int: ChecklistItem] = [:]
      var texts = Set<String>()
      for list in merged.lists {
        for item in list.items {
          #expect(byID[item.itemID] == nil, "seed \(seed): duplicate id \(item.itemID)")
          byID[item.itemID] = item
          texts.insert(item.text)
        }
      }
      // New items of both sides are all there.
      for text in oursEdits.added.values.sorted() + theirsEdits.added.values.sorted() {
        #expect(texts.contains(text), "seed \(seed): lost new item \(text)")
      }
      // Every base item that neither side deleted is there, and so is every item deleted on
      // one side and changed on the other; every field change not overridden is there, and
      // every overridden one is reported.
      let oursFinal = Self.itemsByID(ours)
      let theirsFinal = Self.itemsByID(theirsModel)
      for list in base.lists {
        for item in list.items {
          let o = oursFinal[item.itemID]
          let t = theirsFinal[item.itemID]
          if o == nil && t == nil { continue }
          if o == nil && t == item { continue }
          if t == nil && o == item { continue }
          guard let got = byID[item.itemID] else {
            Issue.record("seed \(seed): lost item \(item.text)")
            continue
          }
          for field in [\ChecklistItem.text, \ChecklistItem.checked]
            as [PartialKeyPath<ChecklistItem>]
          {
            let name = field == \ChecklistItem.text ? "text" : "checked"
            let value = { (x: ChecklistItem?) -> String? in x.map { "\($0[keyPath: field])" } }
            let baseValue = value(item)
            if let mine = value(o), mine != baseValue {
              #expect(value(got) == mine, "seed \(seed): ours' \(name) lost")
              if let other = value(t), other != baseValue, other != mine {
                #expect(
                  result.report.conflicts.contains { $0.field == name },
                  "seed \(seed): overridden \(name) not reported")
              }
            } else if let other = value(t), other != baseValue {
              #expect(value(got) == other, "seed \(seed): theirs' \(name) lost")
            }
          }
        }
      }
      // Merging is stable: a side that changed nothing gives the other side.
      #expect(
        ModelMerge.merge(base: base, ours: ours, theirs: Fixture.fromDisk(base)).model == ours,
        "seed \(seed): theirs unchanged")
      let takeTheirs = ModelMerge.merge(
        base: base, ours: base, theirs: Fixture.fromDisk(theirsModel)
      ).model
      #expect(takeTheirs == theirsModel, "seed \(seed): ours unchanged")
      #expect(
        ModelMerge.merge(base: base, ours: ours, theirs: Fixture.fromDisk(ours)).model == ours,
        "seed \(seed): same on both sides")
    }
  }

  static func itemsByID(_ model: DataModel) -> [Int: ChecklistItem] {
    var items: [Int: ChecklistItem] = [:]
    for list in model.lists {
      for item in list.items { items[item.itemID] = item }
    }
    return items
  }
}
