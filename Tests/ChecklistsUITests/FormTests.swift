import ChecklistsCore
import Foundation
import Testing

@testable import ChecklistsUI

@Suite struct ItemFormTests {
  func itemForm(_ app: ChecklistsApp) -> ItemForm? {
    if case .item(let form) = app.form { return form }
    return nil
  }

  @Test func tabAndArrowsMoveBetweenFields() {
    var app = makeApp(checklistIndex: 1)
    app.press(.character("a"))
    #expect(itemForm(app)?.focus == .text)
    app.press(.tab)
    #expect(itemForm(app)?.focus == .remind)
    app.press(.down)
    #expect(itemForm(app)?.focus == .due)
    app.press(.tab)
    #expect(itemForm(app)?.focus == .text)
    app.press(.backTab)
    #expect(itemForm(app)?.focus == .due)
    app.press(.up)
    #expect(itemForm(app)?.focus == .remind)
  }

  @Test func spaceTogglesRemindMeOnlyOnItsRow() {
    var app = makeApp(checklistIndex: 1)
    app.press(.character("a"), .character(" "))
    #expect(itemForm(app)?.remind == false)
    #expect(itemForm(app)?.text.text == " ")
    app.press(.tab, .character(" "))
    #expect(itemForm(app)?.remind == true)
    #expect(app.screen().contains("● On"))
  }

  @Test func helpAndQuitFromTheRemindRow() {
    var app = makeApp(checklistIndex: 1)
    app.press(.character("e"), .tab, .character("?"))
    #expect(app.help?.context == .itemForm)
    app.press(.escape)
    #expect(app.help == nil)
    #expect(itemForm(app) != nil)
    // q would lose the half-typed item: it only says how to leave.
    #expect(app.press(.character("q")) == [])
    #expect(itemForm(app) != nil)
    #expect(app.statusMessage == "Enter saves, Esc cancels; q quits from the lists")
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
    app.press(.character("a"), .backTab, .control("u"))
    _ = app.handle(.paste("nonsense"), now: testNow)
    #expect(itemForm(app)?.dueDate == nil)
    #expect(itemForm(app)?.dueError != nil)
    app.press(.control("u"))
    _ = app.handle(.paste("now"), now: testNow)
    #expect(itemForm(app)?.dueDate == testNow)
    #expect(app.screen().contains("→ Fri 15 Jan 2027, 08:10"))
  }

  @Test func plusAndMinusAreTextOnceTheFieldIsEdited() {
    var app = makeApp(checklistIndex: 1)
    app.press(.character("a"), .backTab, .backspace, .character("+"))
    #expect(itemForm(app)?.dueText.text == "2027-01-15 09:0+")
  }

  @Test func editingKeepsTheItemIDAndCheckedState() {
    var app = makeApp(checklistIndex: 1)
    app.press(.down, .enter, .character("!"), .enter)
    let bread = app.openList?.items[1]
    #expect(bread?.text == "Bread!")
    #expect(bread?.checked == true)
    #expect(bread?.itemID == 2)
  }

  @Test func unchangedEditSaysSo() {
    var app = makeApp(checklistIndex: 1)
    app.press(.enter, .enter)
    #expect(app.statusMessage == "No changes")
    #expect(!app.isDirty)
  }
}

@Suite struct ListFormTests {
  func listForm(_ app: ChecklistsApp) -> ListForm? {
    if case .list(let form) = app.form { return form }
    return nil
  }

  @Test func pickerKeys() {
    var app = makeApp()
    app.press(.character("a"), .tab, .enter)
    #expect(listForm(app)?.picker == IconName.allCases.firstIndex(of: .folder))
    app.press(.character("g"))
    #expect(listForm(app)?.picker == 0)
    app.press(.up)
    #expect(listForm(app)?.picker == 0)
    app.press(.character("G"), .down)
    #expect(listForm(app)?.picker == 9)
    app.press(.home, .character("j"), .character("j"), .character("k"))
    #expect(listForm(app)?.picker == 1)
    app.press(.end, .character(" "))
    #expect(listForm(app)?.iconName == "Trips")
    #expect(listForm(app)?.picker == nil)
    app.press(.character(" "), .character("?"))
    #expect(app.help?.context == .iconPicker)
    app.press(.character("?"), .escape, .backTab)
    #expect(listForm(app)?.focus == .name)
    app.type("Holidays")
    app.press(.enter)
    #expect(app.dataModel.lists.last?.name == "Trips")
    #expect(app.dataModel.lists.first { $0.name == "Holidays" }?.iconName == "Trips")
  }

  @Test func escCancelsAndQDoesNotQuitOnTheIconRow() {
    var app = makeApp()
    app.press(.character("e"), .character("x"), .tab)
    #expect(app.press(.character("q")) == [])
    #expect(app.statusMessage == "Enter saves, Esc cancels; q quits from the lists")
    app.press(.character("?"))
    #expect(app.help?.context == .listForm)
    app.press(.escape, .escape)
    #expect(app.form == nil)
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
