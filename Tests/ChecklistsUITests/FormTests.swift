import ChecklistsCore
import Foundation
import Testing

@testable import ChecklistsUI

@Suite struct ItemFormTests {
  func itemForm(_ app: ChecklistsApp) -> ItemFormScreen? {
    if let form = app.itemForm { return form }
    return nil
  }

  @Test func tabAndArrowsMoveBetweenFields() {
    var app = makeApp(checklistIndex: 1)
    app.press(.character("a"))
    #expect(itemForm(app)?.focus == .text)
    app.press(.tab)
    #expect(itemForm(app)?.focus == .note)
    app.press(.tab)
    #expect(itemForm(app)?.focus == .remind)
    app.press(.down)
    #expect(itemForm(app)?.focus == .due)
    app.press(.tab)
    #expect(itemForm(app)?.focus == .repeat)
    app.press(.tab)
    #expect(itemForm(app)?.focus == .priority)
    app.press(.tab)
    #expect(itemForm(app)?.focus == .tags)
    app.press(.tab)
    #expect(itemForm(app)?.focus == .photo)
    app.press(.tab)
    #expect(itemForm(app)?.focus == .text)
    app.press(.backTab)
    #expect(itemForm(app)?.focus == .photo)
    app.press(.up, .up, .up, .up, .up)
    #expect(itemForm(app)?.focus == .remind)
    // Up from the Remind Me row enters the (empty) note; Up again leaves it for the Text.
    app.press(.up)
    #expect(itemForm(app)?.focus == .note)
    app.press(.up)
    #expect(itemForm(app)?.focus == .text)
  }

  @Test func spaceTogglesRemindMeOnlyOnItsRow() {
    var app = makeApp(checklistIndex: 1)
    app.press(.character("a"), .character(" "))
    #expect(itemForm(app)?.remind == false)
    #expect(itemForm(app)?.text.text == " ")
    app.press(.tab, .tab, .character(" "))
    #expect(itemForm(app)?.remind == true)
    #expect(app.screen().contains("● On"))
  }

  @Test func helpAndQuitFromTheRemindRow() {
    var app = makeApp(checklistIndex: 1)
    app.press(.character("e"), .tab, .tab, .character("?"))
    #expect(app.help?.context == .itemForm)
    app.press(.escape)
    #expect(app.help == nil)
    #expect(itemForm(app) != nil)
    // q would lose the half-typed item: it only says how to leave.
    #expect(app.press(.character("q")) == [])
    #expect(itemForm(app) != nil)
    #expect(app.statusMessage == "Enter saves, Esc cancels; q quits from the lists")
    #expect(app.press(.control("c"), .control("c")) == [.quit])
  }

  /// Ctrl-C in a half-filled form keeps the form and the draft and says how to leave; only a
  /// second Ctrl-C right after quits.
  @Test func ctrlCInAFormKeepsTheDraft() {
    var app = makeApp(checklistIndex: 1)
    app.press(.character("a"))
    app.type("Oat mi")
    #expect(app.press(.control("c")) == [])
    #expect(itemForm(app)?.text.text == "Oat mi")
    #expect(
      app.statusMessage == "Enter saves the item, Esc cancels it; Ctrl-C again quits without it")
    app.type("lk")
    // Any other key in between: the next Ctrl-C asks again.
    #expect(app.press(.control("c")) == [])
    app.press(.enter)
    #expect(app.openList?.items.last?.text == "Oat milk")
    // Outside a form, Ctrl-C quits at once.
    #expect(app.press(.control("c")) == [.quit])
  }

  @Test func readlineKeysInTheTextField() {
    var app = makeApp(checklistIndex: 1)
    app.press(.character("a"))
    app.type("buy oat milk")
    app.press(.control("w"), .control("a"), .control("k"))
    #expect(itemForm(app)?.text.text == "")
    app.type("日本e\u{301}")
    app.press(.left, .backspace)
    #expect(itemForm(app)?.text.text == "日e\u{301}")
    #expect(app.grid().cursor == GridPosition(row: 2, column: 13))
    app.press(.control("e"), .control("u"))
    #expect(itemForm(app)?.text.text == "")
  }

  @Test func pasteIntoTheDueDateFieldReadsItAgain() {
    var app = makeApp(checklistIndex: 1)
    app.press(.character("a"), .backTab, .backTab, .backTab, .backTab, .backTab, .control("u"))
    _ = app.handle(.paste("nonsense"), now: testNow)
    #expect(itemForm(app)?.dueDate == nil)
    #expect(itemForm(app)?.dueError != nil)
    app.press(.control("u"))
    _ = app.handle(.paste("now"), now: testNow)
    #expect(itemForm(app)?.dueDate == testNow)
    #expect(app.screen().contains("→ Fri 15 Jan 2027, 08:10"))
  }

  /// `+`/`-` move a typed date that parses a day; where the key makes a date of its own
  /// ("+2h") or the text does not parse yet, it is text.
  @Test func plusAndMinusMoveATypedDate() {
    var app = makeApp(checklistIndex: 1)
    app.press(.character("a"), .backTab, .backTab, .backTab, .backTab, .backTab)
    app.type("tomorrow 9am")
    #expect(itemForm(app)?.dueDate == Date(timeIntervalSince1970: 1_800_090_000))
    app.press(.character("+"))
    #expect(itemForm(app)?.dueText.text == "2027-01-17 09:00")
    #expect(itemForm(app)?.dueError == nil)
    app.press(.character("-"), .character("-"))
    #expect(itemForm(app)?.dueText.text == "2027-01-15 09:00")
    app.press(.control("u"))
    app.type("+2h")
    #expect(itemForm(app)?.dueText.text == "+2h")
    #expect(itemForm(app)?.dueDate == testNow.addingTimeInterval(7200))
    app.press(.control("u"))
    app.type("2027-01-")
    app.type("-")
    #expect(itemForm(app)?.dueText.text == "2027-01--")
    #expect(itemForm(app)?.dueDate == nil)
    // Not past the years the field takes.
    app.press(.control("u"))
    app.type("0001-01-01 09:00")
    app.press(.character("-"))
    #expect(itemForm(app)?.dueText.text == "0001-01-01 09:00")
    app.press(.character("+"))
    #expect(itemForm(app)?.dueText.text == "0001-01-02 09:00")
    app.press(.control("u"))
    app.type("9999-12-31 09:00")
    app.press(.character("+"))
    #expect(itemForm(app)?.dueText.text == "9999-12-31 09:00")
  }

  @Test func anEmptyDueDateIsNoDueDate() {
    var app = makeApp(checklistIndex: 1)
    app.press(.character("a"))
    app.type("Soap")
    #expect(itemForm(app)?.dueText.text == "")
    app.press(.enter)
    let soap = app.openList?.items.last
    #expect(soap?.hasDueDate == false)
    #expect(soap?.showsDueDate == false)
    // Remind Me fills an empty field with the next whole hour.
    app.press(.character("a"))
    app.type("Call")
    app.press(.tab, .tab, .character(" "))
    #expect(itemForm(app)?.dueText.text == "2027-01-15 09:00")
    app.press(.tab, .control("u"), .enter)
    #expect(app.statusMessage == "Remind Me needs a due date")
    app.type("mon 17:00")
    app.press(.enter)
    let call = app.openList?.items.last
    #expect(call?.hasDueDate == true)
    #expect(call?.shouldRemind == true)
    #expect(app.statusMessage == "Added \"Call\", due Mon 17:00, reminds")
    // Clearing the field takes the due date away; the message says what changed.
    app.press(.enter, .tab, .tab, .character(" "), .tab, .control("u"), .enter)
    #expect(app.openList?.items.last?.showsDueDate == false)
    #expect(app.statusMessage == "\"Call\": no due date; reminder off")
  }

  @Test func typingIntoRemindMesDateReplacesItAndArrowsKeepIt() throws {
    var app = makeApp(checklistIndex: 1)
    app.press(.character("a"))
    app.type("Call")
    app.press(.tab, .tab, .character(" "), .tab)
    #expect(itemForm(app)?.dueText.text == "2027-01-15 09:00")
    // Drawn selected: the date's cells are reversed, the field after it is not.
    let grid = app.grid()
    let dueRow = (0..<grid.height).first { grid.rowText($0).contains("2027-01-15 09:00") }
    let row = try #require(dueRow)
    let line = Array(grid.rowText(row))
    let start = try #require(line.indices.first { String(line[$0...]).hasPrefix("2027") })
    #expect(grid[row, start].style.attributes.contains(.reverse))
    #expect(!grid[row, start + 17].style.attributes.contains(.reverse))
    app.type("tomorrow")
    #expect(itemForm(app)?.dueText.text == "tomorrow")
    #expect(itemForm(app)?.dueSelected == false)
    // Typed after an arrow key, the text is added to the date, for editing.
    app.press(.escape)
    app.press(.character("a"))
    app.type("Dentist")
    app.press(.tab, .tab, .character(" "), .tab, .left, .backspace, .character("5"))
    #expect(itemForm(app)?.dueText.text == "2027-01-15 09:50")
    // Backspace clears it as a whole; a paste replaces it too.
    app.press(.escape)
    app.press(.character("a"))
    app.type("Shop")
    app.press(.tab, .tab, .character(" "), .tab, .backspace)
    #expect(itemForm(app)?.dueText.text == "")
    app.press(.escape, .character("a"))
    app.type("Paste")
    app.press(.tab, .tab, .character(" "), .tab)
    _ = app.handle(.paste("fri 17:00"), now: testNow)
    #expect(itemForm(app)?.dueText.text == "fri 17:00")
  }

  /// Control characters in a note are drawn made visible, as in the Text field, and Done
  /// without an edit leaves the note as it was.
  @Test func controlCharactersInANoteAreDrawnVisible() throws {
    var boiler = item("Boiler", id: 9)
    boiler.note = "code\u{1B}[31m red\tend"
    let model = DataModel(lists: [Checklist(name: "Home", iconName: "Folder", items: [boiler])])
    var app = makeApp(model, checklistIndex: 0)
    app.press(.enter)
    let screen = app.screen()
    #expect(screen.contains("code␛[31m red␉end"), "\(screen)")
    app.press(.enter)
    #expect(app.openList?.items[0].note == "code\u{1B}[31m red\tend")
  }

  @Test func editingKeepsTheItemIDAndCheckedState() {
    var app = makeApp(checklistIndex: 1)
    app.press(.down, .enter, .character("!"), .enter)
    let bread = app.openList?.items[1]
    #expect(bread?.text == "Bread!")
    #expect(bread?.checked == true)
    #expect(bread?.itemID == 2)
  }

  /// Done writes only what the form changed: fields changed elsewhere while the form was open
  /// (and merged in) stay, and the form shows them at once; a field changed on both sides
  /// keeps the form's, and says so.
  @Test func doneKeepsWhatWasChangedElsewhereWhileTheFormWasOpen() throws {
    var app = makeApp(checklistIndex: 1)
    app.press(.enter)
    #expect(itemForm(app)?.original?.text == "Milk")
    app.press(.character("!"))
    let due = testNow.addingTimeInterval(86_400)
    try changeFirstItemElsewhere(in: &app) { milk in
      milk.text = "Oat milk"
      milk.dueDate = due
      milk.hasDueDate = true
      milk.note = "from the corner shop"
    }
    // The fields the form left alone show what came; the text typed in stays.
    #expect(itemForm(app)?.text.text == "Milk!")
    #expect(itemForm(app)?.dueText.text == "2027-01-16 08:10")
    #expect(itemForm(app)?.dueDate == due)
    #expect(itemForm(app)?.note.text == "from the corner shop")
    #expect(app.screen().contains("2027-01-16 08:10"))
    app.press(.enter)
    let item = try #require(app.openList?.items[0])
    #expect(item.text == "Milk!")
    #expect(item.dueDate == due)
    #expect(item.hasDueDate)
    #expect(item.note == "from the corner shop")
    #expect(app.statusMessage?.hasPrefix("Renamed") == true)
    #expect(app.statusMessage?.hasSuffix("(kept yours: text also changed elsewhere)") == true)
    // A form left as it was changes nothing, whatever was merged meanwhile.
    app.press(.enter)
    try changeFirstItemElsewhere(in: &app) { $0.shouldRemind = true }
    app.press(.enter)
    #expect(app.statusMessage == "No changes")
    #expect(app.openList?.items[0].shouldRemind == true)
  }

  /// The open list is deleted elsewhere while an item form is open on it: Done puts the list
  /// back with the edit (a merge keeps a list changed on one side), and says so at once.
  @Test func doneKeepsTheListDeletedElsewhereWhileAnItemFormWasOpen() throws {
    for adding in [false, true] {
      var app = makeApp(checklistIndex: 1)
      app.press(adding ? .character("a") : .enter)
      app.type(adding ? "Jam" : "!")
      let groceries = try #require(app.open?.listID)
      var model = app.dataModel
      _ = model.apply(try #require(model.deleteList(id: groceries)))
      mergeFromElsewhere(model, into: &app)
      #expect(app.dataModel.list(withID: groceries) == nil)
      #expect(
        app.statusMessage
          == "merged; List \"Groceries\" was deleted elsewhere: Done keeps it with this item")
      app.press(.enter)
      let list = try #require(app.dataModel.lists.first { $0.name == "Groceries" })
      let texts = list.items.map(\.text)
      #expect(
        texts == (adding ? ["Milk", "Bread", "Pay rent", "Jam"] : ["Milk!", "Bread", "Pay rent"]))
      #expect(app.openList?.name == "Groceries")
      #expect(app.statusMessage?.hasPrefix("Kept list \"Groceries\" (deleted elsewhere); ") == true)
      #expect(app.isDirty)
    }
  }

  /// Done on a form whose list was deleted elsewhere: with no change the list stays deleted;
  /// with one, the list comes back without the items moved out of it meanwhile, and one `u`
  /// takes back both.
  @Test func aListKeptByDoneIsOneUndoStepAndHoldsNoItemTwice() throws {
    var app = makeApp(checklistIndex: 1)
    let groceries = try #require(app.open?.listID)
    app.press(.enter)
    var model = app.dataModel
    _ = model.apply(try #require(model.deleteList(id: groceries)))
    mergeFromElsewhere(model, into: &app)
    app.press(.enter)
    #expect(app.statusMessage == "List \"Groceries\" was deleted elsewhere; nothing changed in it")
    #expect(!app.dataModel.lists.contains { $0.name == "Groceries" })
    #expect(app.open == nil)

    app = makeApp(checklistIndex: 1)
    app.press(.down, .enter)
    app.type("!")
    // Elsewhere: Milk goes to Trips, then Groceries is deleted.
    model = app.dataModel
    let trips = try #require(model.lists.first { $0.name == "Trips" }?.id)
    let milk = try #require(model.list(withID: groceries)?.items[0])
    _ = model.apply(try #require(model.deleteItem(listID: groceries, at: 0)))
    _ = model.apply(try #require(model.insertItem(milk, listID: trips)))
    _ = model.apply(try #require(model.deleteList(id: groceries)))
    mergeFromElsewhere(model, into: &app)
    app.press(.enter)
    let kept = try #require(app.dataModel.lists.first { $0.name == "Groceries" })
    #expect(kept.items.map(\.text) == ["Bread!", "Pay rent"])
    let ids = app.dataModel.lists.flatMap(\.items).map(\.itemID)
    #expect(Set(ids).count == ids.count)
    app.press(.character("u"))
    #expect(!app.dataModel.lists.contains { $0.name == "Groceries" })
    #expect(app.statusMessage == "Undid: keep list \"Groceries\" and edit \"Bread!\"")
    app.press(.control("r"))
    #expect(
      app.dataModel.lists.first { $0.name == "Groceries" }?.items.map(\.text) == [
        "Bread!", "Pay rent",
      ])
  }

  /// The list is deleted and then put back elsewhere (under a new identity) while an add form
  /// is open on it: Done adds to the list that is back, and no second copy appears.
  @Test func aListPutBackElsewhereIsFollowed() throws {
    var app = makeApp(checklistIndex: 1)
    app.press(.character("a"))
    app.type("Jam")
    let groceries = try #require(app.open?.listID)
    var model = app.dataModel
    let old = try #require(model.list(withID: groceries))
    _ = model.apply(try #require(model.deleteList(id: groceries)))
    mergeFromElsewhere(model, into: &app)
    // Put back: the same list read again from the file gets a new identity.
    var back = model.makeList(name: old.name, iconName: old.iconName)
    back.setItems(old.items)
    _ = model.apply(model.insertList(back))
    mergeFromElsewhere(model, into: &app)
    #expect(app.statusMessage == "merged")
    app.press(.enter)
    let named = app.dataModel.lists.filter { $0.name == "Groceries" }
    #expect(named.count == 1)
    #expect(named.first?.items.map(\.text) == ["Milk", "Bread", "Pay rent", "Jam"])
    #expect(app.statusMessage == "Added \"Jam\"")
  }

  /// Two lists of one name; the one whose form is open is deleted elsewhere: Done puts it
  /// back instead of changing the other one (the form moved to it by its name).
  @Test func aFormDoesNotMoveToAnotherListOfTheSameName() throws {
    var model = sampleModel()
    _ = model.apply(model.insertList(model.makeList(name: "Groceries", iconName: "Inbox")))
    var app = makeApp(model)
    let lists = app.dataModel.lists.filter { $0.name == "Groceries" }
    #expect(lists.count == 2)
    let first = try #require(lists.first?.id)
    let other = try #require(lists.last?.id)
    app.openList(id: first)
    app.press(.character("a"))
    app.type("Jam")
    model = app.dataModel
    _ = model.apply(try #require(model.deleteList(id: first)))
    mergeFromElsewhere(model, into: &app)
    #expect(
      app.statusMessage
        == "merged; List \"Groceries\" was deleted elsewhere: Done keeps it with this item")
    app.press(.enter)
    #expect(app.dataModel.list(withID: other)?.items.isEmpty == true)
    let named = app.dataModel.lists.filter { $0.name == "Groceries" }
    #expect(named.count == 2)
    #expect(named.contains { $0.items.map(\.text) == ["Milk", "Bread", "Pay rent", "Jam"] })
  }

  /// The item is moved to another list elsewhere while its form is open: Done edits it there,
  /// once (no copy left behind with the same item ID).
  @Test func doneFollowsAnItemMovedElsewhereWhileTheFormWasOpen() throws {
    var app = makeApp(checklistIndex: 1)
    app.press(.enter)
    app.type("!")
    var model = app.dataModel
    let groceries = try #require(app.open?.listID)
    let trips = try #require(model.lists.first { $0.name == "Trips" }?.id)
    let milk = try #require(model.list(withID: groceries)?.items[0])
    _ = model.apply(try #require(model.deleteItem(listID: groceries, at: 0)))
    _ = model.apply(try #require(model.insertItem(milk, listID: trips)))
    mergeFromElsewhere(model, into: &app)
    #expect(
      app.statusMessage == "merged; \"Milk\" was moved to \"Trips\" elsewhere: Done edits it there")
    let effects = app.press(.enter)
    // The conflicts log keeps the story.
    #expect(
      effects.contains(
        .logConflict(
          "list \"Trips\", item \"Milk!\": moved there from \"Groceries\" elsewhere while its "
            + "form was open here; the form's edit went with it")), "\(effects)")
    let all = app.dataModel.lists.flatMap(\.items)
    #expect(all.filter { $0.itemID == milk.itemID }.map(\.text) == ["Milk!"])
    #expect(app.dataModel.list(withID: trips)?.items.last?.text == "Milk!")
    #expect(app.openList?.items.map(\.text) == ["Bread", "Pay rent"])
  }

  /// The item is moved to another list elsewhere and its form's Done comes before the app saw
  /// the move: the save's merge makes it one item, in the list it was moved to, with the edit.
  @Test func doneBeforeAMoveElsewhereIsMergedIsOneItemInTheNewList() throws {
    var app = makeApp(checklistIndex: 1)
    let base = app.dataModel
    app.press(.enter)
    app.type("!")
    app.press(.enter)
    var theirs = base
    let groceries = try #require(app.open?.listID)
    let trips = try #require(theirs.lists.first { $0.name == "Trips" }?.id)
    let milk = try #require(theirs.list(withID: groceries)?.items[0])
    _ = theirs.apply(try #require(theirs.deleteItem(listID: groceries, at: 0)))
    _ = theirs.apply(try #require(theirs.insertItem(milk, listID: trips)))
    let merged = ModelMerge.merge(base: base, ours: app.dataModel, theirs: theirs.lists)
    let all = merged.model.lists.flatMap(\.items)
    #expect(all.filter { $0.itemID == milk.itemID }.map(\.text) == ["Milk!"])
    #expect(merged.model.lists.first { $0.name == "Trips" }?.items.last?.text == "Milk!")
  }

  /// Another program changes the open list's first item with `edit`, and the app merges it in.
  private func changeFirstItemElsewhere(
    in app: inout ChecklistsApp, _ edit: (inout ChecklistItem) -> Void
  ) throws {
    var model = app.dataModel
    let listIndex = try #require(model.index(ofList: app.open?.listID ?? -1))
    let old = model.lists[listIndex].items[0]
    var new = old
    edit(&new)
    _ = model.apply(.replaceItem(listID: model.lists[listIndex].id, index: 0, old: old, new: new))
    mergeFromElsewhere(model, into: &app)
  }

  /// The app merges `model`, as made by another program.
  private func mergeFromElsewhere(_ model: DataModel, into app: inout ChecklistsApp) {
    _ = app.handle(
      .mergedFromElsewhere(
        MergedLists(model: model, renumbered: [:], matchesFile: true), message: "merged"),
      now: testNow)
  }

  /// Done on an item deleted elsewhere puts it back where it was, and its reminder, which rang
  /// before (here: due at launch), does not ring again. It went to the end of the list and rang.
  @Test func anItemKeptByDoneStaysInPlaceAndDoesNotRingAgain() throws {
    var bread = item("Bread", id: 2)
    bread.dueDate = testNow.addingTimeInterval(-600)
    bread.shouldRemind = true
    bread.hasDueDate = true
    let list = Checklist(
      name: "Groceries", iconName: "Groceries",
      items: [item("Milk", id: 1), bread, item("Tea", id: 3)])
    var app = makeApp(DataModel(lists: [list]), checklistIndex: 0)
    let groceries = try #require(app.open?.listID)
    app.press(.down, .enter)
    app.type("!")
    var model = app.dataModel
    _ = model.apply(try #require(model.deleteItem(listID: groceries, at: 1)))
    mergeFromElsewhere(model, into: &app)
    let effects = app.press(.enter, now: testNow.addingTimeInterval(60))
    #expect(!effects.contains(.bell))
    #expect(app.statusMessage == "Kept \"Bread!\": it was deleted elsewhere while you edited it")
    #expect(app.openList?.items.map(\.text) == ["Milk", "Bread!", "Tea"])
    #expect(app.selectedItemIndex == 1)
    _ = app.handle(.tick, now: testNow.addingTimeInterval(120))
    #expect(app.statusMessage?.contains("Reminder") != true)
  }

  /// Done in the list form changes only the fields the form changed: a rename made elsewhere
  /// while only the icon was changed here stays, and so does an icon chosen elsewhere while
  /// only the name was changed here. Done put the old values back.
  @Test func theListFormKeepsWhatChangedElsewhereInFieldsItLeftAlone() throws {
    var app = makeApp()
    let groceries = try #require(app.dataModel.lists.first { $0.name == "Groceries" })
    // Only the icon changes here; the name changes elsewhere.
    app.press(.down, .character("e"), .tab, .enter, .down, .enter)
    var model = app.dataModel
    _ = model.apply(
      try #require(
        model.editList(id: groceries.id, name: "Food", iconName: groceries.iconName)))
    mergeFromElsewhere(model, into: &app)
    app.press(.enter)
    let food = try #require(app.dataModel.list(withID: groceries.id))
    #expect(food.name == "Food")
    #expect(food.iconName != groceries.iconName)
    // Only the name changes here; the icon changes elsewhere.
    app.press(.character("e"))
    app.type("!")
    var other = app.dataModel
    _ = other.apply(try #require(other.editList(id: groceries.id, name: "Food", iconName: "Trips")))
    mergeFromElsewhere(other, into: &app)
    app.press(.enter)
    let renamed = try #require(app.dataModel.list(withID: groceries.id))
    #expect(renamed.name == "Food!")
    #expect(renamed.iconName == "Trips")
  }

  /// A form taller than the screen scrolls by whole fields: the Text field is not left as
  /// blank rows above the field in focus.
  @Test func aScrolledFormLeavesNoBlankRowsAtTheTop() throws {
    let words = (0..<45).map { "word\($0)" }.joined(separator: " ")
    var long = item(words, id: 1)
    long.note = "tent\nstove\nmatches"
    let list = Checklist(name: "W", iconName: "Trips", items: [long])
    var app = makeApp(DataModel(lists: [list]), checklistIndex: 0, width: 80, height: 15)
    app.press(.enter, .tab, .tab, .tab)
    let lines = app.screen().split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines[2].hasPrefix(" Notes     tent"), "\(app.screen())")
    #expect(app.screen().contains(" Due Date"))
  }

  /// Text that shows nothing (a zero-width space) is no text.
  @Test func invisibleTextIsNoText() {
    var app = makeApp(checklistIndex: 1)
    app.press(.character("a"))
    app.type("\u{200B}")
    app.press(.enter)
    #expect(app.statusMessage == "The item needs some text")
    #expect(app.hasForm)
  }

  /// An item that came without text (a task synced with no title) can be edited without
  /// giving it one; text taken away is still refused.
  @Test func anItemWithoutTextCanBeEditedAsItIs() {
    let model = DataModel(lists: [
      Checklist(name: "Tasks", items: [item("", id: 1), item("Milk", id: 2)])
    ])
    var app = makeApp(model, checklistIndex: 0)
    app.press(.character("e"), .tab)
    app.type("from the phone")
    app.press(.control("d"), .enter)
    #expect(!app.hasForm, "\(app.statusMessage ?? "")")
    #expect(app.openList?.items.first?.note == "from the phone")
    #expect(app.openList?.items.first?.text == "")
    app.press(.down, .character("e"))
    for _ in 0..<4 { app.press(.backspace) }
    app.press(.enter)
    #expect(app.statusMessage == "The item needs some text")
  }

  @Test func unchangedEditSaysSo() {
    var app = makeApp(checklistIndex: 1)
    app.press(.enter, .enter)
    #expect(app.statusMessage == "No changes")
    #expect(!app.isDirty)
  }
}

@Suite struct ListFormTests {
  func listForm(_ app: ChecklistsApp) -> ListFormScreen? {
    if let form = app.listForm { return form }
    return nil
  }

  @Test func pickerKeys() {
    var app = makeApp()
    app.press(.character("a"), .tab, .enter)
    #expect(app.iconPicker?.selected == IconName.allCases.firstIndex(of: .folder))
    app.press(.character("g"))
    #expect(app.iconPicker?.selected == 0)
    app.press(.up)
    #expect(app.iconPicker?.selected == 0)
    app.press(.character("G"), .down)
    #expect(app.iconPicker?.selected == 9)
    app.press(.home, .character("j"), .character("j"), .character("k"))
    #expect(app.iconPicker?.selected == 1)
    app.press(.end, .character(" "))
    #expect(listForm(app)?.iconName == "Trips")
    #expect(app.iconPicker?.selected == nil)
    // Picking moves on to the name, where Enter is Done.
    #expect(listForm(app)?.focus == .name)
    app.press(.tab, .character(" "), .character("?"))
    #expect(app.help?.context == .iconPicker)
    app.press(.character("?"), .escape, .backTab)
    #expect(listForm(app)?.focus == .name)
    app.type("Holidays")
    app.press(.enter)
    #expect(app.dataModel.lists.last?.name == "Trips")
    #expect(app.dataModel.lists.first { $0.name == "Holidays" }?.iconName == "Trips")
  }

  /// A new list, or a rename, to a name another list has (in any case) asks first: n keeps
  /// the form open to change the name, y makes it.
  @Test func aNameAnotherListHasAsksFirst() throws {
    var app = makeApp()
    app.press(.character("a"))
    app.type("groceries")
    app.press(.enter)
    #expect(app.confirmation == .duplicateListName("Groceries"))
    #expect(
      app.screen().components(separatedBy: "\n").last
        == "A list named \"Groceries\" exists: have two of that name? y/n")
    app.press(.character("n"))
    #expect(app.statusMessage == "Not saved: give the list another name")
    #expect(listForm(app)?.name.text == "groceries")
    app.press(.enter, .character("y"))
    #expect(!app.hasForm)
    #expect(app.dataModel.lists.filter { $0.name.lowercased() == "groceries" }.count == 2)
    // A rename to another list's name asks too; keeping the list's own name does not.
    app = makeApp()
    app.press(.down, .character("e"))
    #expect(listForm(app)?.name.text == "Groceries")
    app.press(.enter)
    #expect(app.confirmation == nil && !app.hasForm)
    app.press(.character("e"), .control("u"))
    app.type("trips")
    app.press(.enter)
    #expect(app.confirmation == .duplicateListName("Trips"))
    app.press(.escape)
    #expect(listForm(app) != nil)
  }

  /// The list is deleted elsewhere while its form is open: Done puts it back, renamed.
  @Test func doneKeepsAListDeletedElsewhereWhileItsFormWasOpen() throws {
    var app = makeApp()
    app.press(.down, .character("e"))
    #expect(listForm(app)?.name.text == "Groceries")
    app.type(" 2")
    let groceries = try #require(listForm(app)?.listID)
    var model = app.dataModel
    _ = model.apply(try #require(model.deleteList(id: groceries)))
    _ = app.handle(
      .mergedFromElsewhere(
        MergedLists(model: model, renumbered: [:], matchesFile: true), message: "merged"),
      now: testNow)
    #expect(app.statusMessage == "merged; List \"Groceries\" was deleted elsewhere: Done keeps it")
    app.press(.enter)
    let list = try #require(app.dataModel.lists.first { $0.name == "Groceries 2" })
    #expect(list.items.map(\.text) == ["Milk", "Bread", "Pay rent"])
    #expect(
      app.statusMessage == "Kept list \"Groceries 2\": it was deleted elsewhere while you edited it"
    )
  }

  @Test func ctrlCInTheListFormNamesTheList() {
    var app = makeApp()
    app.press(.character("e"), .control("c"))
    #expect(
      app.statusMessage == "Enter saves the list, Esc cancels it; Ctrl-C again quits without it")
    #expect(listForm(app) != nil)
  }

  /// In the icon picker `q` neither quits nor speaks of the form: it says how to leave the picker.
  @Test func qInTheIconPickerSaysHowToLeaveThePicker() {
    var app = makeApp()
    app.press(.character("e"), .tab, .enter)
    #expect(app.iconPicker != nil)
    #expect(app.press(.character("q")) == [])
    #expect(app.statusMessage == "Enter picks, Esc goes back; q quits from the lists")
    #expect(app.iconPicker != nil)
    app.press(.escape)
    #expect(app.iconPicker == nil)
    #expect(listForm(app) != nil)
  }

  @Test func escCancelsAndQDoesNotQuitOnTheIconRow() {
    var app = makeApp()
    app.press(.character("e"), .character("x"), .tab)
    #expect(app.press(.character("q")) == [])
    #expect(app.statusMessage == "Enter saves, Esc cancels; q quits from the lists")
    app.press(.character("?"))
    #expect(app.help?.context == .listForm)
    app.press(.escape, .escape)
    #expect(!app.hasForm)
    #expect(app.dataModel == sampleModel())
    #expect(app.statusMessage == "Cancelled")
  }

  @Test func pasteGoesIntoTheName() {
    var app = makeApp()
    app.press(.character("a"))
    _ = app.handle(.paste("Road\ntrip"), now: testNow)
    app.press(.enter)
    #expect(app.dataModel.lists.contains { $0.name == "Road trip" })
  }
}
