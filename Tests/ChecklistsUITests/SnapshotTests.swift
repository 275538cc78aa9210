import ChecklistsCore
import Foundation
import Testing

@testable import ChecklistsUI

@Suite struct SnapshotTests {
  func wideModel() -> DataModel {
    DataModel(lists: [
      Checklist(
        name: "買い物 🛒 shopping list with a very long name indeed", iconName: "Groceries",
        items: [
          item("牛乳を買う", id: 1),
          item("Café au lait", checked: true, id: 2),
          item("👨‍👩‍👧 family dinner 🍝 with 日本語 text that is far too long to fit", id: 3),
          item("Pay rent", dueInMinutes: -90, remind: true, id: 4),
          item("e\u{301}te\u{301}", dueInMinutes: 60 * 24, remind: true, id: 5),
        ]),
      Checklist(name: "Chores", iconName: "Chores"),
    ])
  }

  @Test func allLists() {
    let app = makeApp()
    #expect(
      app.screen() == """
         Checklists
         📌 Today                                            1 item
         📆 Scheduled                                        1 item
         🧹 Chores                                       (No Items)
         🛒 Groceries                                   2 Remaining
         ✈  Trips                                         All Done!








        Enter open  a add  e edit  d delete  q quit  ? help
        """)
  }

  @Test func allListsInAscii() {
    let app = makeApp(width: 40, height: 6, ascii: true)
    #expect(
      app.screen() == """
         Checklists                         1/3
         [today]  Today                  1 item
         [sched]  Scheduled              1 item
         [chore]  Chores             (No Items)
         [groc]   Groceries         2 Remaining
        Enter open  a add  q quit  ? help
        """)
  }

  @Test func checklistWithWideCharacters() {
    var app = makeApp(wideModel(), checklistIndex: 1)
    app.press(.down)
    #expect(
      app.screen() == """
         買い物 🛒 shopping list with a very lo… — 4 of 5 remaining
         ·  牛乳を買う
         ✔  Café au lait
         ·  👨‍👩‍👧 family dinner 🍝 with 日本語 text that is far too l…
         ·  Pay rent                                    today 06:40
         ·  été                                      tomorrow 08:10








        Space check  a add  e edit  d delete  Esc back  ? help
        """)
  }

  @Test func editItemForm() {
    var app = makeApp(wideModel(), checklistIndex: 1)
    app.press(.down, .enter)
    #expect(
      app.screen() == """
         Edit Item

         Text      Café au lait

         Notes

         Remind Me ○ Off

         Due Date
                   none: type one (tomorrow 9am, fri 17:00, +2h)

         Repeat    Never

         Priority  None
        Enter done  Esc cancel  Tab next field  F1 help
        """)
  }

  @Test func addItemFormWrapsLongText() {
    var app = makeApp(wideModel(), checklistIndex: 1)
    app.press(.character("a"))
    app.type("日本語のテキストはとても長いのでスクロールが必要です")
    #expect(app.grid().cursor == GridPosition(row: 3, column: 17))
    #expect(
      app.screen() == """
         Add Item

         Text      日本語のテキストはとても長いのでスクロールが必
                   要です

         Notes

         Remind Me ○ Off

         Due Date
                   none: type one (tomorrow 9am, fri 17:00, +2h)

         Repeat    Never

        Enter done  Esc cancel  Tab next field  F1 help
        """)
  }

  @Test func listFormIconPicker() {
    var app = makeApp(wideModel(), checklistIndex: 1)
    app.press(.escape, .character("e"), .tab, .enter, .down)
    #expect(
      app.screen() == """
         Edit List

         Name       🛒 shopping list with a very long name indeed

         Icon      🛒 Groceries
                       No Icon
                    📅 Appointments
                    🎂 Birthdays
                    🧹 Chores
                    🍹 Drinks
                    📁 Folder
                    🛒 Groceries
                    📥 Inbox
                    📷 Photos
        Enter pick  Esc back  ? help
        """)
  }

  @Test func tinyTerminal() {
    let app = makeApp(width: 10, height: 3)
    #expect(
      app.screen() == """
        Terminal …


        """)
  }

  /// Generated from the key table (J and K pair up as the table's keys do), and the status
  /// line offers only the scroll direction that does something (Up does nothing at the top).
  @Test func helpScreen() {
    var app = makeApp(checklistIndex: 1)
    app.press(.character("?"))
    #expect(
      app.screen() == """
         Help                                            Esc closes
         Keys: Checklist

           Space x        check / uncheck the item (or click its
                          check mark)
           a              add an item
           e Enter        edit the item
           d Delete       delete the item (undo brings it back; the
                          same letter again within 0.5 s is
                          ignored)
           J/K            move the item down / up (manual order
                          only)
           s              sort by due date (items with a due date
                          first) / manual order
        Esc close  Down scroll
        """)
  }

  @Test func asciiFilteredChecklist() {
    var app = makeApp(checklistIndex: 1, width: 40, height: 8, ascii: true)
    app.press(.character("/"))
    app.type("e")
    #expect(
      app.screen() == """
         Groceries - 2 of 3 remaining filter: e
        [x] Bread
        [ ] Pay rent                  in 30 min




        /e
        """)
  }
}

@Suite struct AsciiTests {
  @Test func asciiModeDrawsOnlyAsciiForItsOwnMarks() {
    for size in [(60, 15), (10, 3)] {
      var app = makeApp(width: size.0, height: size.1, ascii: true)
      var screens = [app.screen()]
      app.press(.down, .enter)
      screens.append(app.screen())
      app.press(.character("a"))
      screens.append(app.screen())
      app.press(.escape, .escape, .character("e"), .tab, .enter)
      screens.append(app.screen())
      for screen in screens {
        #expect(screen.unicodeScalars.allSatisfy { $0.isASCII }, "\(screen)")
      }
    }
  }
}
