import ChecklistsTestSupport
import Foundation
import Testing

@testable import ChecklistsCore

/// A clock the tests move by hand.
private struct FakeClock {
  var now: Date
  mutating func advance(minutes: Double) { now = now.addingTimeInterval(minutes * 60) }
}

/// A model with one list "Home" and items built relative to `start`.
private struct ReminderFixture {
  static let start = DatesFixture.utc(2026, 12, 16, 12, 0)
  var model = DataModel()
  var listID: Checklist.ID = 0

  init() {
    let list = model.makeList(name: "Home")
    listID = list.id
    model.apply(model.insertList(list))
  }

  /// Adds an item due `minutes` after `start`; returns its index.
  @discardableResult
  mutating func add(_ text: String, minutes: Double, remind: Bool = true, checked: Bool = false)
    -> Int
  {
    let item = model.makeItem(
      text: text, checked: checked, dueDate: Self.start.addingTimeInterval(minutes * 60),
      shouldRemind: remind)
    let change = model.insertItem(item, listID: listID)!
    model.apply(change)
    return model.list(withID: listID)!.items.count - 1
  }

  /// Applies a change to the model and the scheduler alike.
  mutating func apply(_ change: ModelChange?, to scheduler: inout ReminderScheduler) {
    guard let change else {
      Issue.record("no change")
      return
    }
    let applied = model.apply(change)
    #expect(applied)
    scheduler.apply(change)
  }

  func item(_ index: Int) -> ChecklistItem { model.list(withID: listID)!.items[index] }
}

@Suite struct ReminderSchedulerTests {
  @Test func aSnoozedReminderFiresAgainOnceAtItsTimeWhileItsItemKeepsIt() {
    var fixture = ReminderFixture()
    let index = fixture.add("Pay rent", minutes: 10)
    var scheduler = ReminderScheduler(model: fixture.model, now: ReminderFixture.start)
    let due = ReminderFixture.start.addingTimeInterval(600)
    let fired = scheduler.fire(now: due)
    #expect(fired.map(\.text) == ["Pay rent"])
    let until = due.addingTimeInterval(600)
    scheduler.snooze(fired[0].key, until: until)
    #expect(scheduler.nextWakeUp(after: due) == until)
    #expect(scheduler.fire(now: until.addingTimeInterval(-1)).isEmpty)
    #expect(scheduler.fire(now: until).map(\.text) == ["Pay rent"])
    #expect(scheduler.fire(now: until.addingTimeInterval(60)).isEmpty)
    #expect(scheduler.nextWakeUp(after: until) == nil)
    // Snoozed again, then checked: nothing comes.
    scheduler.snooze(fired[0].key, until: until.addingTimeInterval(600))
    var item = fixture.model.lists[0].items[index]
    item.checked = true
    fixture.apply(
      fixture.model.replaceItem(listID: fixture.listID, at: index, with: item), to: &scheduler)
    #expect(scheduler.nextWakeUp(after: until) == nil)
    #expect(scheduler.fire(now: until.addingTimeInterval(900)).isEmpty)
    // A scheduler made again after a merge keeps the snooze.
    var remade = ReminderScheduler(model: fixture.model, now: until)
    remade.rememberSnoozed(scheduler.snoozed)
    #expect(remade.snoozed == scheduler.snoozed)
  }

  @Test func firesOnceWhenDue() {
    var fixture = ReminderFixture()
    fixture.add("Call mum", minutes: 10)
    fixture.add("Water plants", minutes: 10, remind: false)
    var clock = FakeClock(now: ReminderFixture.start)
    var scheduler = ReminderScheduler(model: fixture.model, now: clock.now)

    #expect(scheduler.fire(now: clock.now).isEmpty)
    clock.advance(minutes: 9)
    #expect(scheduler.fire(now: clock.now).isEmpty)
    clock.advance(minutes: 1)
    let fired = scheduler.fire(now: clock.now)
    #expect(fired.map(\.text) == ["Call mum"])
    #expect(fired.first?.listID == fixture.listID)
    #expect(fired.first?.key == ReminderKey(fixture.item(0)))
    clock.advance(minutes: 1)
    #expect(scheduler.pending(now: clock.now).isEmpty)
    #expect(scheduler.fire(now: clock.now).isEmpty)
  }

  @Test func checkedItemsNeverFire() {
    var fixture = ReminderFixture()
    fixture.add("Done already", minutes: 5, checked: true)
    let open = fixture.add("Open", minutes: 20)
    var scheduler = ReminderScheduler(model: fixture.model, now: ReminderFixture.start)
    #expect(scheduler.nextWakeUp(after: ReminderFixture.start) == fixture.item(open).dueDate)
    // Checking the open one before it is due disarms it too.
    fixture.apply(fixture.model.toggleItem(listID: fixture.listID, at: open), to: &scheduler)
    #expect(scheduler.nextWakeUp(after: ReminderFixture.start) == nil)
    #expect(scheduler.fire(now: ReminderFixture.start.addingTimeInterval(3600)).isEmpty)
  }

  @Test func editingTheDateRearms() {
    var fixture = ReminderFixture()
    let index = fixture.add("Dentist", minutes: 10)
    var clock = FakeClock(now: ReminderFixture.start)
    var scheduler = ReminderScheduler(model: fixture.model, now: clock.now)
    clock.advance(minutes: 10)
    #expect(scheduler.fire(now: clock.now).map(\.text) == ["Dentist"])

    var edited = fixture.item(index)
    edited.dueDate = clock.now.addingTimeInterval(30 * 60)
    let change = fixture.model.replaceItem(listID: fixture.listID, at: index, with: edited)
    fixture.apply(change, to: &scheduler)
    #expect(scheduler.nextWakeUp(after: clock.now) == edited.dueDate)
    clock.advance(minutes: 29)
    #expect(scheduler.fire(now: clock.now).isEmpty)
    clock.advance(minutes: 1)
    #expect(scheduler.fire(now: clock.now).map(\.key) == [ReminderKey(edited)])

    // Undo brings back the old date, which already fired: nothing rings again.
    fixture.apply(change?.inverse, to: &scheduler)
    #expect(scheduler.fire(now: clock.now).isEmpty)
    // Editing only the text keeps the key: no second ring either.
    var renamed = fixture.item(index)
    renamed.text = "Dentist at 3"
    fixture.apply(
      fixture.model.replaceItem(listID: fixture.listID, at: index, with: renamed), to: &scheduler)
    #expect(scheduler.fire(now: clock.now).isEmpty)
  }

  @Test func overdueAtLaunchDoesNotRing() {
    var fixture = ReminderFixture()
    let overdue = fixture.add("Overdue", minutes: -60)
    let checkedOverdue = fixture.add("Checked overdue", minutes: -30, checked: true)
    fixture.add("Later", minutes: 15)
    var scheduler = ReminderScheduler(model: fixture.model, now: ReminderFixture.start)
    #expect(scheduler.pending(now: ReminderFixture.start).isEmpty)
    #expect(scheduler.firedKeys.contains(ReminderKey(fixture.item(overdue))))
    // The same model without the launch rule would ring it.
    var fresh = ReminderScheduler()
    fresh.rebuild(from: fixture.model)
    #expect(fresh.pending(now: ReminderFixture.start).map(\.text) == ["Overdue"])
    // Unchecking an item that was overdue at launch does not ring it either.
    fixture.apply(
      fixture.model.toggleItem(listID: fixture.listID, at: checkedOverdue), to: &scheduler)
    #expect(scheduler.fire(now: ReminderFixture.start).isEmpty)
    #expect(
      scheduler.fire(now: ReminderFixture.start.addingTimeInterval(15 * 60)).map(\.text) == [
        "Later"
      ])
  }

  @Test func nextWakeUpIsTheEarliestFutureReminder() {
    var fixture = ReminderFixture()
    fixture.add("Past", minutes: -5)
    fixture.add("No reminder", minutes: 2, remind: false)
    fixture.add("Checked", minutes: 3, checked: true)
    fixture.add("Third", minutes: 40)
    fixture.add("First", minutes: 5)
    fixture.add("Second", minutes: 20)
    let start = ReminderFixture.start
    let scheduler = ReminderScheduler(model: fixture.model, now: start)
    #expect(scheduler.nextWakeUp(after: start) == start.addingTimeInterval(5 * 60))
    #expect(
      scheduler.nextWakeUp(after: start.addingTimeInterval(5 * 60))
        == start.addingTimeInterval(20 * 60))
    #expect(scheduler.nextWakeUp(after: start.addingTimeInterval(40 * 60)) == nil)
  }

  @Test func severalDueAtOnceComeOldestFirst() {
    var fixture = ReminderFixture()
    fixture.add("B", minutes: 20)
    fixture.add("A", minutes: 10)
    fixture.add("C", minutes: 30)
    var scheduler = ReminderScheduler(model: fixture.model, now: ReminderFixture.start)
    let later = ReminderFixture.start.addingTimeInterval(3600)
    #expect(scheduler.fire(now: later).map(\.text) == ["A", "B", "C"])
  }

  @Test func listChangesArmAndDisarm() {
    var fixture = ReminderFixture()
    var scheduler = ReminderScheduler(model: fixture.model, now: ReminderFixture.start)
    var list = fixture.model.makeList(name: "Work")
    list.insertItem(
      fixture.model.makeItem(
        text: "Report", dueDate: ReminderFixture.start.addingTimeInterval(600), shouldRemind: true))
    let insert = fixture.model.insertList(list)
    fixture.apply(insert, to: &scheduler)
    #expect(scheduler.armedCount == 1)
    #expect(scheduler.nextWakeUp(after: ReminderFixture.start) != nil)
    fixture.apply(insert.inverse, to: &scheduler)
    #expect(scheduler.armedCount == 0)
    #expect(scheduler.nextWakeUp(after: ReminderFixture.start) == nil)
  }

  /// Follows random edits incrementally and compares with a scheduler rebuilt from scratch.
  @Test func incrementalIndexMatchesARebuild() {
    var random = SeededGenerator(seed: 20_261_216)
    var fixture = ReminderFixture()
    for index in 0..<20 {
      fixture.add(
        "item \(index)", minutes: Double(random.next(below: 120)) - 30,
        remind: random.next(below: 3) > 0, checked: random.next(below: 4) == 0)
    }
    var clock = FakeClock(now: ReminderFixture.start)
    var scheduler = ReminderScheduler(model: fixture.model, now: clock.now)
    var history: [ModelChange] = []
    var rang = 0
    for _ in 0..<400 {
      let count = fixture.model.list(withID: fixture.listID)!.items.count
      let index = count == 0 ? 0 : random.next(below: count)
      var change: ModelChange?
      var undoing = false
      switch random.next(below: 6) {
      case 0:
        let item = fixture.model.makeItem(
          text: "new", dueDate: clock.now.addingTimeInterval(Double(random.next(below: 60)) * 60),
          shouldRemind: true)
        change = fixture.model.insertItem(item, listID: fixture.listID, at: index)
      case 1: change = fixture.model.deleteItem(listID: fixture.listID, at: index)
      case 2: change = fixture.model.toggleItem(listID: fixture.listID, at: index)
      case 3:
        if count > 0 {
          var item = fixture.item(index)
          item.dueDate = clock.now.addingTimeInterval(Double(random.next(below: 90)) * 60)
          item.shouldRemind.toggle()
          change = fixture.model.replaceItem(listID: fixture.listID, at: index, with: item)
        }
      case 4:
        undoing = true
        change = history.popLast()?.inverse
      default:
        change = fixture.model.moveItem(
          listID: fixture.listID, from: index, to: count == 0 ? 0 : random.next(below: count))
      }
      if let change, fixture.model.apply(change) {
        scheduler.apply(change)
        if !undoing { history.append(change) }
      }
      clock.advance(minutes: Double(random.next(below: 3)))
      var rebuilt = scheduler
      rebuilt.rebuild(from: fixture.model)
      #expect(scheduler.pending(now: clock.now) == rebuilt.pending(now: clock.now))
      #expect(scheduler.nextWakeUp(after: clock.now) == rebuilt.nextWakeUp(after: clock.now))
      #expect(scheduler.armedCount == rebuilt.armedCount)
      rang += scheduler.fire(now: clock.now).count
    }
    #expect(rang > 10)
  }
}
