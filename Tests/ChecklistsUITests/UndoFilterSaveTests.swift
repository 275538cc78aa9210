import ChecklistsCore
import Foundation
import Testing

@testable import ChecklistsUI

@Suite struct UndoRedoTests {
  /// Runs `keys` from the Groceries list, then checks undo restores the start and redo the end.
  func roundTrip(
    from checklistIndex: Int = 1, _ keys: [Key], text: String = "", then more: [Key] = [],
    undid: String
  ) {
    var app = makeApp(checklistIndex: checklistIndex)
    for key in keys { app.press(key) }
    app.type(text)
    for key in more { app.press(key) }
    let changed = app.dataModel
    #expect(changed != sampleModel())
    app.press(.escape, .escape)
    app.press(.character("u"))
    #expect(app.dataModel == sampleModel())
    #expect(app.statusMessage == "Undid: \(undid)")
    app.press(.control("r"))
    #expect(app.dataModel == changed)
    #expect(app.statusMessage == "Redid: \(undid)")
  }

  @Test func addItem() {
    roundTrip([.character("a")], text: "Eggs", then: [.enter], undid: "add \"Eggs\"")
  }

  @Test func deleteItem() { roundTrip([.down, .character("d")], undid: "delete \"Bread\"") }

  @Test func editItem() {
    roundTrip(
      [.character("e"), .control("u")], text: "Oat milk", then: [.enter],
      undid: "edit \"Oat milk\"")
  }

  @Test func toggleItem() { roundTrip([.character("x")], undid: "check \"Milk\"") }

  @Test func uncheckItem() { roundTrip([.down, .character(" ")], undid: "uncheck \"Bread\"") }

  @Test func moveItem() { roundTrip([.character("J")], undid: "move \"Milk\"") }

  @Test func addList() {
    roundTrip(from: -1, [.character("a")], text: "Zoo", then: [.enter], undid: "add list \"Zoo\"")
  }

  @Test func editList() {
    roundTrip(
      from: -1, [.character("e"), .control("u")], text: "Aaa", then: [.enter],
      undid: "rename list \"Chores\" to \"Aaa\"")
  }

  @Test func deleteList() {
    roundTrip(from: -1, [.end, .character("d"), .character("y")], undid: "delete list \"Trips\"")
  }

  @Test func undoNavigatesToTheAffectedRow() {
    var app = makeApp(checklistIndex: 1)
    app.press(.end, .character("d"), .escape)
    #expect(app.checklistIndex == -1)
    app.press(.character("u"))
    #expect(app.checklistIndex == 1)
    #expect(app.selectedItemIndex == 2)
  }

  @Test func undoOfAListChangeShowsAllLists() {
    var app = makeApp()
    app.press(.end, .character("d"), .character("y"), .character("l"))
    #expect(app.checklistIndex == 1)
    app.press(.character("u"))
    #expect(app.checklistIndex == -1)
    #expect(app.allLists.selected == 2)
  }

  @Test func renamingKeepsDueDateSorting() {
    var app = makeApp(checklistIndex: 1, sortByDue: ["Groceries"])
    app.press(.escape, .character("e"), .control("u"))
    app.type("Food")
    app.press(.enter)
    #expect(app.sortByDue == ["Food"])
    app.press(.character("u"))
    #expect(app.sortByDue == ["Groceries"])
  }

  @Test func nothingToUndo() {
    var app = makeApp()
    app.press(.character("u"))
    #expect(app.statusMessage == "Nothing to undo")
    app.press(.control("r"))
    #expect(app.statusMessage == "Nothing to redo")
  }

  @Test func aNewChangeClearsRedo() {
    var app = makeApp(checklistIndex: 1)
    app.press(.character("x"), .character("u"), .down, .character("x"), .control("r"))
    #expect(app.statusMessage == "Nothing to redo")
  }
}

@Suite struct FilterTests {
  @Test func filtersItemsAsYouType() {
    var app = makeApp(checklistIndex: 1)
    app.press(.character("/"))
    app.type("R")
    #expect(app.open?.browser.rows == [1, 2])
    app.type("e")
    #expect(app.open?.browser.rows == [1, 2])
    app.type("n")
    #expect(app.open?.browser.rows == [2])
    #expect(app.selectedItemIndex == 2)
    app.press(.enter)
    #expect(app.open?.browser.filter == "Ren")
    #expect(app.open?.browser.filterField == nil)
    app.press(.character("x"))
    #expect(app.openList?.items[2].checked == true)
    #expect(app.screen().contains("filter: Ren"))
    app.press(.escape)
    #expect(app.open?.browser.filter == nil)
    #expect(app.selectedItemIndex == 2)
    #expect(app.checklistIndex == 1)
  }

  /// The filter finds an item by its note too, as search does.
  @Test func theFilterLooksAtNotes() {
    var beans = item("Café beans", id: 1)
    beans.note = "Ethiopian, 250 g"
    let list = Checklist(
      name: "Groceries", iconName: "Groceries", items: [item("Milk", id: 0), beans])
    var app = makeApp(DataModel(lists: [list]), checklistIndex: 0)
    app.press(.character("/"))
    app.type("ethiop")
    #expect(app.open?.browser.rows == [1])
    // An item that changes keeps to the same rule.
    app.press(.enter, .character("x"))
    #expect(app.open?.browser.rows == [1])
  }

  @Test func escWhileTypingASearchCloses() {
    var app = makeApp()
    app.press(.down, .down)
    app.press(.character("/"))
    app.type("tr")
    // "tr" finds the list Trips by name (no item has it).
    #expect(app.planner?.lines == [.heading("Lists"), .list(app.dataModel.lists[2].id)])
    app.press(.escape)
    #expect(app.planner == nil)
    #expect(app.allLists.selected == 2 && app.smartSelected == nil)
  }

  @Test func noMatchSaysSo() {
    var app = makeApp()
    app.press(.character("/"))
    app.type("zzz")
    app.press(.enter)
    #expect(app.screen().contains("Nothing matches \"zzz\""))
    app.press(.enter, .character("e"), .character("d"))
    #expect(!app.hasForm)
    #expect(app.dataModel == sampleModel())
  }

  @Test func addingAnItemThatIsFilteredOutClearsTheFilterToShowIt() {
    var app = makeApp(checklistIndex: 1)
    app.press(.character("/"))
    app.type("milk")
    app.press(.enter, .character("a"))
    app.type("Eggs")
    app.press(.enter)
    #expect(app.open?.browser.filter == nil)
    #expect(app.selectedItemIndex == 3)
  }
}

@Suite struct SaveTests {
  @Test func saveFinishedClearsDirty() {
    var app = makeApp(checklistIndex: 1)
    app.press(.character("x"))
    #expect(app.isDirty)
    #expect(app.press(.control("s")) == [.save])
    _ = app.handle(.saveFinished(SaveOutcome(succeeded: true, message: "Saved")), now: testNow)
    #expect(!app.isDirty)
    #expect(app.statusMessage == "Saved")
  }

  @Test func aChangeDuringTheSaveKeepsDirty() {
    var app = makeApp(checklistIndex: 1)
    app.press(.character("x"), .control("s"), .character("x"))
    _ = app.handle(.saveFinished(SaveOutcome(succeeded: true, message: "Saved")), now: testNow)
    #expect(app.isDirty)
  }

  @Test func failedSaveShowsTheErrorAndStaysDirty() {
    var app = makeApp(checklistIndex: 1)
    app.press(.character("x"), .control("s"))
    let message = "Save failed: No space left on device"
    _ = app.handle(.saveFinished(SaveOutcome(succeeded: false, message: message)), now: testNow)
    #expect(app.isDirty)
    #expect(app.status == StatusMessage(text: message, isError: true))
    #expect(app.grid().rowText(14).hasPrefix(message))
    #expect(app.grid()[14, 0].style.color == .error)
  }

  @Test func aFailedSaveAtQuitAsksRetrySaveElsewhereOrRescue() {
    var app = makeApp(checklistIndex: 1, width: 120)
    app.press(.character("x"))
    #expect(app.press(.character("q")) == [.quit])
    _ = app.handle(.quitSaveFailed("No space left on device"), now: testNow)
    #expect(app.grid().rowText(13).hasPrefix("No space left on device"))
    #expect(
      app.grid().rowText(14).hasPrefix(
        "Not saved: r retry · w save elsewhere · q quit with a rescue copy · Esc stay"))
    // Keys of the screen below do nothing meanwhile.
    #expect(app.press(.character("x"), .character("a")) == [])
    #expect(app.isDirty)
    #expect(app.press(.character("r")) == [.quit])
    _ = app.handle(.quitSaveFailed("No space left on device"), now: testNow)
    #expect(app.press(.character("w")) == [])
    #expect(app.grid().rowText(14).hasPrefix("Save the lists to: "))
    app.type("~/elsewhere.plist")
    _ = app.handle(.paste("x"), now: testNow)
    #expect(app.press(.enter) == [.saveCopyAndQuit(path: "~/elsewhere.plistx")])
    _ = app.handle(.quitSaveFailed("Could not save /x: Permission denied"), now: testNow)
    #expect(app.press(.character("q")) == [.quitWithRescueCopy])
    _ = app.handle(.quitSaveFailed("No space left on device"), now: testNow)
    #expect(app.press(.escape) == [])
    #expect(app.statusMessage?.hasPrefix("Not quitting") == true)
    #expect(app.isDirty)
  }

  @Test func focusLostSavesOnlyWhenDirty() {
    var app = makeApp(checklistIndex: 1)
    #expect(app.handle(.focusLost, now: testNow) == [])
    app.press(.character("x"))
    #expect(app.handle(.focusLost, now: testNow) == [.save])
    #expect(app.handle(.focusGained, now: testNow) == [])
  }
}

@Suite struct ReminderTests {
  @Test func firesOnceWhenDue() {
    var app = makeApp()
    let due = testNow.addingTimeInterval(30 * 60)
    // The first tick, at once, builds the reminders (after the first screen).
    #expect(app.nextWakeUp(after: testNow) == testNow)
    #expect(app.handle(.tick, now: testNow).sounds == [])
    #expect(app.nextWakeUp(after: testNow) == due)
    #expect(app.handle(.tick, now: due.addingTimeInterval(-1)).sounds == [])
    #expect(app.statusMessage == nil)
    #expect(app.handle(.tick, now: due).sounds == [.bell])
    #expect(app.statusMessage == "⏰ Reminder: \"Pay rent\" (Groceries) — r shows it, z snoozes it")
    #expect(app.handle(.tick, now: due.addingTimeInterval(60)).sounds == [])
    // All Lists still wakes at midnight, when Today's count may change.
    #expect(app.nextWakeUp(after: due) == app.nextMidnight(after: due))
    app.press(.character("r"), now: due)
    #expect(app.checklistIndex == 1)
    #expect(app.selectedItemIndex == 2)
  }

  @Test func bellCanBeOff() {
    var app = makeApp(ascii: true, bell: false)
    let due = testNow.addingTimeInterval(30 * 60)
    #expect(app.handle(.tick, now: due).sounds == [])
    #expect(app.statusMessage?.hasPrefix("(!) Reminder: \"Pay rent\"") == true)
  }

  @Test func checkedItemsDoNotFire() {
    var app = makeApp(checklistIndex: 1)
    app.press(.end, .character("x"))
    let due = testNow.addingTimeInterval(30 * 60)
    #expect(app.handle(.tick, now: due).sounds == [])
    app.press(.character("x"), now: due)
    #expect(app.handle(.tick, now: due.addingTimeInterval(1)).sounds == [])
  }

  @Test func aNewReminderIsScheduled() {
    var app = makeApp(checklistIndex: 0)
    app.press(.character("a"))
    app.type("Stretch")
    app.press(.tab, .tab, .character(" "), .enter)
    let due = Date(timeIntervalSince1970: 1_800_003_600)
    #expect(app.session.reminders.nextDue == testNow.addingTimeInterval(30 * 60))
    _ = app.handle(.tick, now: testNow.addingTimeInterval(30 * 60))
    #expect(app.session.reminders.nextDue == due)
    #expect(app.handle(.tick, now: due).sounds == [.bell])
    #expect(app.statusMessage?.contains("\"Stretch\" (Chores)") == true)
  }

  @Test func remindersAlreadyPastAtStartDoNotFire() {
    var app = makeApp(now: testNow.addingTimeInterval(3600))
    #expect(app.handle(.tick, now: testNow.addingTimeInterval(3700)).sounds == [])
    #expect(app.press(.character("r")) == [])
    #expect(app.statusMessage == "No reminder has fired yet")
  }
}

@Suite struct ReminderStatusTests {
  @Test func aKeyPressedAsAReminderFiresDoesNotHideIt() {
    var app = makeApp()
    let due = testNow.addingTimeInterval(30 * 60)
    #expect(app.handle(.key(.down), now: due).sounds == [.bell])
    #expect(app.statusMessage?.contains("Pay rent") == true)
  }
}

@Suite struct OverlappingSaveTests {
  @Test func savesFinishInTheOrderAskedFor() {
    var app = makeApp(checklistIndex: 1)
    app.press(.character("x"), .control("s"), .character("x"), .control("s"))
    _ = app.handle(.saveFinished(SaveOutcome(succeeded: true, message: "Saved")), now: testNow)
    #expect(app.isDirty)
    _ = app.handle(.saveFinished(SaveOutcome(succeeded: false, message: "failed")), now: testNow)
    #expect(app.isDirty)
    app.press(.control("s"))
    _ = app.handle(.saveFinished(SaveOutcome(succeeded: true, message: "Saved")), now: testNow)
    #expect(!app.isDirty)
  }
}

@Suite struct ReminderReArmTests {
  @Test func aNewDueDateArmsTheReminderAgain() {
    var app = makeApp(checklistIndex: 1)
    let due = testNow.addingTimeInterval(30 * 60)
    #expect(app.handle(.tick, now: due).sounds == [.bell])
    app.press(
      .end, .enter, .backTab, .backTab, .backTab, .backTab, .backTab, .character("+"), .enter,
      now: due)
    let later = due.addingTimeInterval(86_400)
    #expect(app.session.reminders.nextDue == later)
    #expect(app.handle(.tick, now: later.addingTimeInterval(-1)).sounds == [])
    #expect(app.handle(.tick, now: later).sounds == [.bell])
  }

  @Test func aDueDateSetInThePastRingsAtOnce() {
    var app = makeApp(checklistIndex: 1)
    app.press(.end, .enter, .backTab, .backTab, .backTab, .backTab, .backTab, .character("-"))
    #expect(app.press(.enter).sounds == [.bell])
    #expect(app.statusMessage?.contains("Pay rent") == true)
    #expect(app.handle(.tick, now: testNow.addingTimeInterval(30 * 60)).sounds == [])
  }

  @Test func changingOnlyTheTextDoesNotRingAgain() {
    var app = makeApp(checklistIndex: 1)
    let due = testNow.addingTimeInterval(30 * 60)
    #expect(app.handle(.tick, now: due).sounds == [.bell])
    app.press(.end, .enter, .character("!"), now: due)
    #expect(app.press(.enter, now: due) == [])
    #expect(app.handle(.tick, now: due.addingTimeInterval(60)) == [])
  }
}

extension [Effect] {
  /// The bells among the effects (a reminder's report to the driver left out).
  var sounds: [Effect] { filter { $0 == .bell } }
}
