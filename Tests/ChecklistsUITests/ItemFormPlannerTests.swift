import ChecklistsCore
import Foundation
import Testing

@testable import ChecklistsUI

/// The item form's Notes field and Repeat row, and notes in a Checklist's rows.
@Suite struct ItemFormPlannerTests {
  func itemForm(_ app: ChecklistsApp) -> ItemFormScreen? {
    if let form = app.itemForm { return form }
    return nil
  }

  /// Home: "Bins" (due 30 minutes after `testNow`, weekly, with a two-line note) and "Milk"
  /// (no due date, no note).
  func homeModel(
    bins rule: RepeatRule? = .weekly, keptDay: Int? = nil, milkRule: String? = nil,
    milkNote: String = ""
  ) -> DataModel {
    var bins = item("Bins", dueInMinutes: 30, id: 1)
    bins.hasDueDate = true
    bins.repeatRule = rule
    bins.note = "Blue bin\nGreen bin"
    if let keptDay { bins.unknownFields[.repeatDay] = .integer(Int64(keptDay)) }
    var milk = item("Milk", id: 2)
    milk.hasDueDate = false
    milk.note = milkNote
    if let milkRule { milk.unknownFields[.repeatRule] = .string(milkRule) }
    return DataModel(lists: [Checklist(name: "Home", iconName: "Chores", items: [bins, milk])])
  }

  /// The note's cursor as (line, column) of its wrapped layout in a 60-column form.
  func noteCursor(_ app: ChecklistsApp) -> (line: Int, column: Int)? {
    guard let form = itemForm(app) else { return nil }
    let layout = form.note.wrapped(width: ChecklistsApp.formFieldWidth(width: app.width))
    return (layout.cursorLine, layout.cursorColumn)
  }

  // MARK: - Notes

  @Test func enterAddsALineAndCtrlDOrTabLeaveTheNote() {
    var app = makeApp(checklistIndex: 1)
    app.press(.character("a"))
    app.type("Call mum")
    app.press(.tab)
    #expect(itemForm(app)?.focus == .note)
    #expect(app.keyScreen == .note)
    app.type("Ask about")
    app.press(.enter)
    app.type("the trip")
    #expect(itemForm(app)?.note.text == "Ask about\nthe trip")
    #expect(app.hasForm)
    // The note's second line, under the first: the cursor after "the trip".
    #expect(app.grid().cursor == GridPosition(row: 5, column: 19))
    #expect(app.screen().contains("Enter new line  Tab next field  Esc cancel"))
    app.press(.backTab)
    #expect(itemForm(app)?.focus == .text)
    app.press(.tab)
    #expect(itemForm(app)?.focus == .note)
    app.press(.control("d"))
    #expect(itemForm(app)?.focus == .remind)
    // Ctrl-D left the field: it deleted nothing.
    #expect(itemForm(app)?.note.text == "Ask about\nthe trip")
    app.press(.backTab, .tab)
    #expect(itemForm(app)?.focus == .remind)
    app.press(.enter)
    let added = app.openList?.items.last
    #expect(added?.text == "Call mum")
    #expect(added?.note == "Ask about\nthe trip")
    #expect(app.statusMessage == "Added \"Call mum\", with a note")
  }

  @Test func upAndDownMoveByLineAndLeaveTheNoteAtItsEnds() {
    var app = makeApp(checklistIndex: 1)
    app.press(.character("a"), .tab)
    app.type("one")
    app.press(.enter)
    app.type("second line")
    app.press(.enter)
    app.type("3")
    app.press(.up)
    #expect(noteCursor(app)! == (1, 1))
    app.press(.end, .up)
    // From column 11 to the end of "one".
    #expect(noteCursor(app)! == (0, 3))
    app.press(.up)
    #expect(itemForm(app)?.focus == .text)
    app.press(.down)
    #expect(itemForm(app)?.focus == .note)
    app.press(.down, .down)
    #expect(noteCursor(app)! == (2, 1))
    app.press(.down)
    #expect(itemForm(app)?.focus == .remind)
    #expect(itemForm(app)?.note.text == "one\nsecond line\n3")
    // A line longer than the field wraps: Down moves within it, then to the next line.
    app.press(.up, .home)
    app.type(String(repeating: "word ", count: 12))
    app.press(.home)
    #expect(noteCursor(app)! == (2, 0))
    app.press(.down)
    #expect(noteCursor(app)! == (3, 0))
    app.press(.down)
    #expect(itemForm(app)?.focus == .remind)
  }

  /// Wide and combining characters count by the columns they take, never by `count`.
  @Test func linesMoveByDisplayColumns() {
    var app = makeApp(checklistIndex: 1)
    app.press(.character("a"), .tab)
    app.type("日本")
    app.press(.enter)
    app.type("e\u{301}x")
    #expect(noteCursor(app)! == (1, 2))
    app.press(.up)
    #expect(noteCursor(app)! == (0, 2))
    app.type("!")
    #expect(itemForm(app)?.note.text == "日!本\ne\u{301}x")
    #expect(app.grid().cursor == GridPosition(row: 4, column: 14))
  }

  @Test func readlineKeysWorkOnTheCursorsLine() {
    var app = makeApp(checklistIndex: 1)
    app.press(.character("a"), .tab)
    app.type("alpha")
    app.press(.enter)
    app.type("beta")
    app.press(.control("a"))
    app.type(">")
    #expect(itemForm(app)?.note.text == "alpha\n>beta")
    app.press(.control("e"), .control("u"))
    #expect(itemForm(app)?.note.text == "alpha\n")
    app.press(.backspace, .home, .right, .control("k"))
    #expect(itemForm(app)?.note.text == "a")
    app.press(.enter)
    app.type("b")
    app.press(.up, .end, .control("k"))
    // Ctrl-K at a line's end joins the next line.
    #expect(itemForm(app)?.note.text == "ab")
    app.press(.home, .delete)
    #expect(itemForm(app)?.note.text == "b")
    app.press(.control("w"))
    #expect(itemForm(app)?.note.text == "b")
  }

  /// A note the field shows otherwise (a tab made visible, CR LF as one break, blank lines at
  /// the end) is not rewritten by a form closed without touching it.
  @Test func aNoteTheFieldShowsOtherwiseStaysWhenLeftAlone() throws {
    let note = "x\ty\r\nz\n\n"
    var app = makeApp(homeModel(milkNote: note), checklistIndex: 0)
    app.press(.down, .character("e"), .enter)
    #expect(app.openList?.items.last?.note == note)
    #expect(app.statusMessage == "No changes")
    // Changed in the form, it is saved as the field holds it.
    app.press(.character("e"), .tab)
    app.type("!")
    app.press(.control("d"), .enter)
    #expect(app.openList?.items.last?.note == "x\ty\nz\n\n!")
  }

  @Test func editingAnExistingNote() throws {
    var app = makeApp(homeModel(), checklistIndex: 0)
    app.press(.character("e"), .tab)
    #expect(itemForm(app)?.note.text == "Blue bin\nGreen bin")
    app.press(.up, .control("e"))
    app.type(" on Tuesdays")
    app.press(.control("d"), .enter)
    let bins = try #require(app.openList?.items.first)
    #expect(bins.note == "Blue bin on Tuesdays\nGreen bin")
    #expect(bins.repeatRule == .weekly)
    #expect(app.statusMessage == "\"Bins\": note changed")
    // Blank lines at the end are not kept; a note of blanks is no note.
    app.press(.character("e"), .tab, .enter, .enter, .character(" "), .control("d"), .enter)
    #expect(app.openList?.items.first?.note == "Blue bin on Tuesdays\nGreen bin")
    #expect(app.statusMessage == "No changes")
    app.press(.character("e"), .tab)
    for _ in 0..<40 { app.press(.backspace) }
    app.type("  ")
    app.press(.enter, .control("d"), .enter)
    #expect(app.openList?.items.first?.note == "")
    #expect(app.openList?.items.first?.unknownFields[.note] == nil)
    #expect(app.statusMessage == "\"Bins\": note removed")
  }

  @Test func aPasteKeepsItsLineBreaksInTheNoteOnly() {
    var app = makeApp(checklistIndex: 1)
    app.press(.character("a"))
    _ = app.handle(.paste("Milk\r\n"), now: testNow)
    _ = app.handle(.paste(" and\nbread\n"), now: testNow)
    // In the one-line Text field a line break is a space, and the ones a paste ends with go.
    #expect(itemForm(app)?.text.text == "Milk and bread")
    app.press(.tab)
    _ = app.handle(.paste("one\r\ntwo\rthree\n\n\tfour\u{07}"), now: testNow)
    #expect(itemForm(app)?.note.text == "one\ntwo\nthree\n\n four")
    app.press(.tab, .tab)
    _ = app.handle(.paste("tomorrow 9am\n"), now: testNow)
    #expect(itemForm(app)?.dueText.text == "tomorrow 9am")
    #expect(itemForm(app)?.dueError == nil)
    // On the Repeat row a paste does nothing.
    app.press(.tab)
    let before = itemForm(app)
    _ = app.handle(.paste("weekly\n"), now: testNow)
    #expect(itemForm(app) == before)
  }

  // MARK: - Repeat

  @Test func theRepeatPickerOpensMovesPicksAndCloses() {
    var app = makeApp(homeModel(), checklistIndex: 0)
    app.press(.down, .character("e"), .backTab, .backTab, .backTab, .backTab)
    #expect(app.keyScreen == .repeat)
    #expect(app.screen().contains("Repeat    Never"))
    #expect(itemForm(app)?.repeatChoices.count == 7)
    app.press(.enter)
    #expect(app.repeatPicker?.selected == 0)
    #expect(app.keyScreen == .picker)
    #expect(app.helpContext == .repeatPicker)
    app.press(.character("j"), .character("j"), .character("j"))
    #expect(app.repeatPicker?.selected == 3)
    #expect(app.screen().contains("Every 2 weeks"))
    app.press(.escape)
    #expect(app.repeatPicker?.selected == nil)
    #expect(itemForm(app)?.repeatRule == nil)
    #expect(app.hasForm)
    app.press(.character(" "), .character("G"), .character("k"), .enter)
    #expect(app.repeatPicker?.selected == nil)
    #expect(itemForm(app)?.repeatRule == .monthly)
    #expect(itemForm(app)?.focus == .repeat)
    #expect(app.screen().contains("Repeat    Monthly  needs a due date"))
    // Left/Right and -/+ change it without the picker, round the choices.
    app.press(.right)
    #expect(itemForm(app)?.repeatRule == .yearly)
    app.press(.right)
    #expect(itemForm(app)?.repeatRule == nil)
    app.press(.left, .character("-"), .character("-"), .character("+"))
    #expect(itemForm(app)?.repeatRule == .monthly)
    // Done without a due date is refused.
    app.press(.tab, .tab, .enter)
    #expect(app.hasForm)
    #expect(app.statusMessage == "Repeat needs a due date")
    #expect(app.screen().contains("Repeat needs a due date"))
    app.press(.backTab, .backTab, .backTab)
    app.type("tomorrow 9am")
    #expect(app.screen().contains("Monthly  then Tue 16 Feb 2027, 09:00"))
    app.press(.enter)
    #expect(!app.hasForm)
    let milk = app.openList?.items.last
    #expect(milk?.repeatRule == .monthly)
    #expect(milk?.repeats == true)
    #expect(app.statusMessage == "\"Milk\": due tomorrow 09:00; repeats monthly")
  }

  /// A rule set with the CLI that the picker does not offer is offered too, after the others.
  @Test func theItemsOwnRuleIsAChoice() {
    let rule = RepeatRule(.daily, interval: 3)
    var app = makeApp(homeModel(bins: rule), checklistIndex: 0)
    app.press(.character("e"), .backTab, .backTab, .backTab, .backTab)
    #expect(app.screen().contains("Repeat    Every 3 days  then Mon 18 Jan 2027, 08:40"))
    app.press(.enter)
    #expect(itemForm(app)?.repeatChoices.count == 8)
    #expect(app.repeatPicker?.selected == 7)
    app.press(.character("g"), .enter)
    #expect(itemForm(app)?.repeatRule == nil)
    app.press(.character("+"))
    #expect(itemForm(app)?.repeatRule == .daily)
    app.press(.character("-"), .character("-"))
    #expect(itemForm(app)?.repeatRule == rule)
  }

  /// Edits that leave the Repeat row alone keep what the item had: a rule this version cannot
  /// read, and the day a monthly series keeps.
  @Test func anUntouchedRepeatIsKeptAsItWas() throws {
    let model = homeModel(bins: .monthly, keptDay: 31, milkRule: "every other full moon")
    var app = makeApp(model, checklistIndex: 0)
    app.press(.character("e"), .tab, .control("e"))
    app.type("!")
    app.press(.control("d"), .enter)
    let bins = try #require(app.openList?.items.first)
    #expect(bins.unknownFields[.repeatDay] == .integer(31))
    #expect(bins.repeatRule == .monthly)
    app.press(.down, .character("e"))
    #expect(itemForm(app)?.repeatRule == nil)
    app.type("!")
    app.press(.enter)
    let milk = try #require(app.openList?.items.last)
    #expect(milk.text == "Milk!")
    #expect(milk.unknownFields[.repeatRule] == .string("every other full moon"))
  }

  @Test func editMessagesNameNoteAndRepeatChanges() {
    let app = makeApp(homeModel(), checklistIndex: 0)
    let bins = homeModel().lists[0].items[0]
    func message(_ change: (inout ChecklistItem) -> Void) -> String {
      var new = bins
      change(&new)
      return app.editMessage(from: bins, to: new, now: testNow)
    }
    #expect(message { $0.note = "Only blue" } == "\"Bins\": note changed")
    #expect(message { $0.note = "" } == "\"Bins\": note removed")
    #expect(message { $0.repeatRule = nil } == "\"Bins\": no longer repeats")
    #expect(message { $0.repeatRule = .weekdays } == "\"Bins\": repeats on weekdays")
    #expect(
      message { $0.repeatRule = RepeatRule(.weekly, interval: 2) }
        == "\"Bins\": repeats every 2 weeks")
    #expect(
      message {
        $0.text = "Bins out"
        $0.note = ""
        $0.repeatRule = .daily
      } == "Renamed \"Bins\" to \"Bins out\"; note removed; repeats daily")
    let milk = homeModel().lists[0].items[1]
    var noted = milk
    noted.note = "Oat"
    #expect(app.editMessage(from: milk, to: noted, now: testNow) == "\"Milk\": note added")
  }

  @Test func undoOfAnEditOfNoteAndRepeat() throws {
    var app = makeApp(homeModel(), checklistIndex: 0)
    app.press(.character("e"), .tab, .enter)
    app.type("Brown bin")
    app.press(.tab, .tab, .tab, .character("-"), .tab, .tab, .enter)
    let bins = try #require(app.openList?.items.first)
    #expect(bins.note == "Blue bin\nGreen bin\nBrown bin")
    #expect(bins.repeatRule == .weekdays)
    #expect(app.statusMessage == "\"Bins\": note changed; repeats on weekdays")
    app.press(.character("u"))
    #expect(app.dataModel == homeModel())
    #expect(app.statusMessage == "Undid: edit \"Bins\"")
    app.press(.control("r"))
    #expect(app.openList?.items.first?.note == "Blue bin\nGreen bin\nBrown bin")
    #expect(app.openList?.items.first?.repeatRule == .weekdays)
  }

  // MARK: - Keys

  /// `+`/`-` can move to other signs, chords and F keys, never to a key that types or edits a
  /// date (a letter, a digit, Backspace, Ctrl-U, Left…).
  @Test func dayStepsTakeNoKeyThatTypesOrEditsADate() {
    let text = """
      bind due <BS> day-later
      bind due <C-u> day-earlier
      bind due t day-later
      bind due 7 day-later
      bind due <Left> day-earlier
      bind due <Space> day-later
      bind due = day-later
      bind due _ day-earlier
      bind due <C-n> day-later
      bind due <F5> day-earlier
      """
    let (table, problems) = KeyTable.configured(by: ConfigFile.parse(text))
    #expect(problems.map(\.line) == [1, 2, 3, 4, 5, 6])
    #expect(
      problems.first?.message
        == "<BS> on due would stop dates being typed and edited in the Due Date field (bind a "
        + "sign such as + or -, a Ctrl chord such as <C-n>, or an F key)")
    #expect(table.action(for: .character("="), on: .due) == .dayLater)
    #expect(table.action(for: .function(5), on: .due) == .dayEarlier)
  }

  @Test func bindLinesOnTheNewScreens() {
    let text = """
      bind note <F2> new-line
      bind note <Enter> done
      bind note x next-field
      bind note <C-k> next-field
      bind form <F3> new-line
      bind repeat n next-repeat
      bind note <C-d> none
      """
    let (table, problems) = KeyTable.configured(by: ConfigFile.parse(text))
    #expect(problems.map(\.line) == [3, 4, 5])
    #expect(problems.first?.message.contains("would shadow typing") == true)
    #expect(problems.last?.message == "new-line does nothing on form (it works on note)")
    var app = ChecklistsApp(
      model: homeModel(), checklistIndex: 0, options: AppOptions(timeZone: .utc, keys: table),
      size: (60, 15), now: testNow)
    app.press(.character("e"), .backTab, .backTab, .backTab, .backTab, .character("n"))
    #expect(itemForm(app)?.repeatRule == RepeatRule(.weekly, interval: 2))
    app.press(.tab, .tab, .tab, .tab, .tab)
    app.press(.function(2))
    app.type("Brown")
    // Ctrl-D is unbound on the note: it neither leaves nor deletes.
    app.press(.home, .control("d"))
    #expect(itemForm(app)?.focus == .note)
    #expect(itemForm(app)?.note.text == "Blue bin\nGreen bin\nBrown")
    app.press(.enter)
    #expect(!app.hasForm)
    #expect(app.openList?.items.first?.note == "Blue bin\nGreen bin\nBrown")
  }

  @Test func helpListsTheNotesAndRepeatKeys() {
    var app = makeApp(homeModel(), checklistIndex: 0, width: 100, height: 60)
    app.press(.character("e"), .function(1))
    let screen = app.screen()
    #expect(screen.contains("In the Notes field"))
    #expect(screen.contains("   Enter       start a new line in the note"))
    #expect(screen.contains("   Tab Ctrl-D  next field"))
    #expect(
      screen.contains("   Up          line up in the note (from its first line: the field above)"))
    #expect(screen.contains("On the Repeat row"))
    #expect(screen.contains("   Enter Space  choose how the item repeats (Never, daily, weekly…)"))
    #expect(screen.contains("   Right +      the next choice of Repeat, without the picker"))
  }

  // MARK: - Screens

  @Test func formWithANoteAndARepeatAt100x30() {
    var app = makeApp(homeModel(), checklistIndex: 0, width: 100, height: 30)
    app.press(.character("e"), .tab)
    #expect(
      app.screen() == """
         Edit Item                                                                                     Home

         Text      Bins

         Notes     Blue bin
                   Green bin

         Remind Me ○ Off

         Due Date  2027-01-15 08:40
                   → Fri 15 Jan 2027, 08:40

         Repeat    Weekly  then Fri 22 Jan 2027, 08:40

         Priority  None

         Tags

         Photo     None










        Enter new line  Tab next field  Esc cancel  Shift-Tab previous field  F1 help
        """)
  }

  /// The Notes counter counts the note's lines ("Blue bin", "Green bin"), not the rows they
  /// wrap to.
  @Test func formInATinyTerminal() {
    var app = makeApp(homeModel(), checklistIndex: 0, width: 20, height: 5)
    app.press(.character("e"))
    #expect(
      app.screen() == """
         Edit Item     Home
         Text      Bins
         Notes     Blue
         +1 more   bin
        Esc cancel
        """)
    app.press(.tab)
    #expect(
      app.screen() == """
         Edit Item     Home
         Notes     bin
         2/2       Green
                   bin
        Esc cancel
        """)
    app.press(.tab, .tab, .tab)
    #expect(
      app.screen() == """
         Edit Item     Home
         Due Date   08:40
                   → Fri …
         Repeat    Weekly
        Esc cancel
        """)
    app.press(.enter)
    #expect(
      app.screen() == """
         Edit Item     Home
         Repeat    Weekly
                    Week…
                    Week…
        Enter pick  Esc back
        """)
  }

  @Test func aRowShowsTheNotesFirstLineDimmed() {
    let model = homeModel(milkNote: "\n  Oat, not soy\u{1B}[31m\nsecond line")
    let app = makeApp(model, checklistIndex: 0)
    #expect(
      app.screen() == """
         Home — 2 of 2 remaining
         ·  Bins  Blue bin                              ↻ in 30 min
         ·  Milk  Oat, not soy␛[31m











        Space check  a add  e edit  d delete  Esc back  ? help
        """)
    let grid = app.grid()
    let row = grid.rowText(2)
    let column = row.distance(from: row.startIndex, to: row.range(of: "Oat")!.lowerBound)
    #expect(grid[2, column].style.color == .dim)
    #expect(grid[2, column].style.attributes.contains(.dim))
    #expect(grid[2, 4].style.color == .normal)
  }
}
