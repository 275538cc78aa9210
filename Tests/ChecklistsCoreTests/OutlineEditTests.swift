import Foundation
import Testing

@testable import ChecklistsCore

/// Indent, outdent, priority and checking a parent with its subtasks, as plain changes: each
/// applies, and its inverse brings everything back.
@Suite struct OutlineEditTests {
  static let day = Date(timeIntervalSinceReferenceDate: 800_000_000)

  static func item(_ text: String, _ id: Int, parent: Int? = nil, checked: Bool = false)
    -> ChecklistItem
  {
    var item = ChecklistItem(text: text, checked: checked, dueDate: day, itemID: id)
    item.parentItemID = parent
    return item
  }

  /// Trip ▸ (Passport ▸ Photo, Tickets), Groceries, Milk.
  static func model() -> DataModel {
    DataModel(lists: [
      Checklist(
        name: "Home",
        items: [
          item("Trip", 1), item("Passport", 2, parent: 1), item("Photo", 3, parent: 2),
          item("Tickets", 4, parent: 1), item("Groceries", 5), item("Milk", 6),
        ])
    ])
  }

  /// Each item as "text@depth", in list order.
  static func shape(_ model: DataModel) -> [String] {
    let list = model.lists[0]
    return zip(list.items, list.depths()).map { "\($0.text)@\($1)" }
  }

  /// Applies `changes`, checks the outline is consistent, then that the inverses (last first)
  /// give the model back; returns the shape after the changes.
  static func applyAndUndo(_ changes: [ModelChange], to model: DataModel) -> [String] {
    var changed = model
    let applied = changed.apply(changes)
    #expect(applied)
    #expect(changed.lists[0].outlineIsConsistent)
    let shape = shape(changed)
    var undone = changed
    let undid = undone.apply(changes.reversed().map(\.inverse))
    #expect(undid)
    #expect(undone == model)
    #expect(undone.lists[0].items == model.lists[0].items)
    return shape
  }

  @Test func indentGoesUnderTheSiblingAboveOneLevelAtATime() throws {
    let model = Self.model()
    let id = model.lists[0].id
    // Groceries goes under Trip, after Trip's subtasks: one level, not under Tickets.
    let groceries = try #require(try model.indent(listID: id, at: 4))
    #expect(
      Self.applyAndUndo([groceries], to: model) == [
        "Trip@0", "Passport@1", "Photo@2", "Tickets@1", "Groceries@1", "Milk@0",
      ])
    // Again: under Tickets, the subtask above it at its level.
    var once = model
    once.apply(groceries)
    let again = try #require(try once.indent(listID: id, at: 4))
    #expect(
      Self.applyAndUndo([again], to: once) == [
        "Trip@0", "Passport@1", "Photo@2", "Tickets@1", "Groceries@2", "Milk@0",
      ])
    // Tickets goes under Passport, after Photo.
    let tickets = try #require(try model.indent(listID: id, at: 3))
    #expect(
      Self.applyAndUndo([tickets], to: model) == [
        "Trip@0", "Passport@1", "Photo@2", "Tickets@2", "Groceries@0", "Milk@0",
      ])
  }

  @Test func indentTakesTheSubtasksAlong() throws {
    var model = Self.model()
    let id = model.lists[0].id
    // Milk under Groceries, then Groceries (with Milk) under Trip.
    model.apply(try #require(try model.indent(listID: id, at: 5)))
    let change = try #require(try model.indent(listID: id, at: 4))
    #expect(
      Self.applyAndUndo([change], to: model) == [
        "Trip@0", "Passport@1", "Photo@2", "Tickets@1", "Groceries@1", "Milk@2",
      ])
  }

  @Test func indentNeedsASiblingAbove() throws {
    let model = Self.model()
    let id = model.lists[0].id
    // The first item, and the first subtask of each parent.
    for index in [0, 1, 2] {
      #expect(throws: OutlineEditError.nothingAbove) { try model.indent(listID: id, at: index) }
    }
    #expect(try model.indent(listID: id, at: 6) == nil)
    #expect(try model.indent(listID: id + 99, at: 0) == nil)
    #expect(OutlineEditError.nothingAbove.message.contains("above"))
  }

  @Test func outdentLandsAfterTheOldParentsSubtree() throws {
    let model = Self.model()
    let id = model.lists[0].id
    // Passport (with Photo) leaves Trip: after Tickets, before Groceries; Tickets stays.
    let passport = try #require(try model.outdent(listID: id, at: 1))
    #expect(
      Self.applyAndUndo(passport, to: model) == [
        "Trip@0", "Tickets@1", "Passport@0", "Photo@1", "Groceries@0", "Milk@0",
      ])
    // Photo goes up one level only: a subtask of Trip, after Passport's subtree.
    let photo = try #require(try model.outdent(listID: id, at: 2))
    #expect(photo.count == 1)  // already Passport's last subtask: only its parent changes
    #expect(
      Self.applyAndUndo(photo, to: model) == [
        "Trip@0", "Passport@1", "Photo@1", "Tickets@1", "Groceries@0", "Milk@0",
      ])
    // The last subtask of a top-level item stays in place.
    let tickets = try #require(try model.outdent(listID: id, at: 3))
    #expect(
      Self.applyAndUndo(tickets, to: model) == [
        "Trip@0", "Passport@1", "Photo@2", "Tickets@0", "Groceries@0", "Milk@0",
      ])
    let moved = Self.shape(model).count
    #expect(moved == 6)
  }

  @Test func indentThenOutdentGivesTheListBack() throws {
    let model = Self.model()
    let id = model.lists[0].id
    for index in [3, 4, 5] {
      var changed = model
      changed.apply(try #require(try changed.indent(listID: id, at: index)))
      changed.apply(try #require(try changed.outdent(listID: id, at: index)))
      #expect(changed == model, "\(index)")
    }
  }

  /// Given the list's depths (a screen has them), the edits look only near the item: the same
  /// changes as reading the outline, for every item; depths of another length are not used.
  @Test func theListsDepthsGiveTheSameChanges() throws {
    var model = Self.model()
    let id = model.lists[0].id
    model.apply(try #require(try model.indent(listID: id, at: 5)))  // Milk under Groceries
    let depths = model.lists[0].depths()
    for index in 0..<6 {
      let indent = try? model.indent(listID: id, at: index)
      #expect(indent == (try? model.indent(listID: id, at: index, depths: depths)), "\(index)")
      let outdent = try? model.outdent(listID: id, at: index)
      #expect(outdent == (try? model.outdent(listID: id, at: index, depths: depths)), "\(index)")
      #expect(
        outdent == (try? model.outdent(listID: id, at: index, depths: [0])), "\(index)")
    }
  }

  @Test func outdentNeedsASubtask() throws {
    let model = Self.model()
    let id = model.lists[0].id
    for index in [0, 4, 5] {
      #expect(throws: OutlineEditError.alreadyTopLevel) {
        try model.outdent(listID: id, at: index)
      }
    }
    #expect(try model.outdent(listID: id, at: -1) == nil)
  }

  @Test func priorityIsSetAndCycledAndUndone() throws {
    var model = Self.model()
    let id = model.lists[0].id
    var levels: [PriorityLevel] = []
    for _ in 0..<4 {
      let change = try #require(model.cyclePriority(listID: id, at: 4))
      let before = model
      let applied = model.apply(change)
      #expect(applied)
      levels.append(model.lists[0].items[4].priorityLevel)
      var undone = model
      undone.apply(change.inverse)
      #expect(undone == before)
    }
    #expect(levels == [.low, .medium, .high, .none])
    #expect(model.lists[0].items[4].unknownFields[.priority] == nil)
    #expect(model.setPriority(listID: id, at: 4, to: .none) == nil)
    let high = try #require(model.setPriority(listID: id, at: 4, to: .high))
    model.apply(high)
    #expect(model.lists[0].items[4].priority == 1)
    // A phone's 3 is high already: setting high keeps it.
    var phone = model.lists[0].items[5]
    phone.priority = 3
    model.apply(try #require(model.replaceItem(listID: id, at: 5, with: phone)))
    #expect(model.setPriority(listID: id, at: 5, to: .high) == nil)
    #expect(model.cyclePriority(listID: id, at: 99) == nil)
  }

  @Test func checkingAParentChecksItsUncheckedSubtasks() throws {
    var model = Self.model()
    let id = model.lists[0].id
    // Photo is checked already: only Trip, Passport and Tickets change.
    var photo = model.lists[0].items[2]
    photo.checked = true
    model.apply(try #require(model.replaceItem(listID: id, at: 2, with: photo)))
    let schedule = RepeatSchedule(timeZone: .utc)
    let check = try #require(model.checkWithSubtasks(listID: id, at: 0, schedule: schedule))
    #expect(check.subtasks == 2)
    #expect(check.nextDueDate == nil)
    #expect(check.changes.count == 3)
    var checked = model
    let applied = checked.apply(check.changes)
    #expect(applied)
    #expect(checked.lists[0].items.prefix(4).allSatisfy { $0.checked })
    #expect(!checked.lists[0].items[4].checked)
    var undone = checked
    let undid = undone.apply(check.changes.reversed().map(\.inverse))
    #expect(undid)
    #expect(undone == model)
    // A checked parent, a parent whose subtasks are all checked, and an item without
    // subtasks are checked (or unchecked) as any item is.
    #expect(checked.checkWithSubtasks(listID: id, at: 0, schedule: schedule) == nil)
    #expect(model.checkWithSubtasks(listID: id, at: 1, schedule: schedule) == nil)
    #expect(model.checkWithSubtasks(listID: id, at: 4, schedule: schedule) == nil)
  }

  @Test func aRepeatingItemInTheSubtreeMovesOnInsteadOfBeingChecked() throws {
    var model = Self.model()
    let id = model.lists[0].id
    var trip = model.lists[0].items[0]
    trip.hasDueDate = true
    trip.repeatRule = .daily
    var tickets = model.lists[0].items[3]
    tickets.hasDueDate = true
    tickets.repeatRule = .daily
    model.apply(try #require(model.replaceItem(listID: id, at: 0, with: trip)))
    model.apply(try #require(model.replaceItem(listID: id, at: 3, with: tickets)))
    let schedule = RepeatSchedule(timeZone: .utc)
    let check = try #require(model.checkWithSubtasks(listID: id, at: 0, schedule: schedule))
    #expect(check.nextDueDate == Self.day.addingTimeInterval(86_400))
    var checked = model
    checked.apply(check.changes)
    let items = checked.lists[0].items
    #expect(!items[0].checked && items[0].dueDate == Self.day.addingTimeInterval(86_400))
    #expect(!items[3].checked && items[3].dueDate == Self.day.addingTimeInterval(86_400))
    #expect(items[1].checked && items[2].checked)
    checked.apply(check.changes.reversed().map(\.inverse))
    #expect(checked == model)
  }

  @Test func nextPriorityCyclesThroughEveryLevel() {
    var level = PriorityLevel.none
    var seen: [PriorityLevel] = []
    for _ in 0..<4 {
      level = level.next
      seen.append(level)
    }
    #expect(seen == [.low, .medium, .high, .none])
  }
}
