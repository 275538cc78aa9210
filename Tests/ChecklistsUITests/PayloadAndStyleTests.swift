import ChecklistsCore
import Foundation
import Testing

@testable import ChecklistsUI

@Suite struct ControlPayloadTests {
  static let payloads = [
    "\u{1B}]0;evil\u{07}", "\u{1B}]52;c;ZXZpbA==\u{07}", "\u{1B}[2J",
    "nul\u{00}del\u{7F}c1\u{9B}31m",
    "\u{202E}txt.exe\u{202C}", "hidden\u{200B}\u{2060}\u{FEFF}",
  ]

  func assertSafe(_ grid: CellGrid, _ context: String) {
    for cell in grid.cells {
      for scalar in cell.text.unicodeScalars {
        let value = scalar.value
        #expect(!SafeText.isControl(value), "\(context): U+\(String(value, radix: 16))")
        #expect(!(0x202A...0x202E).contains(value) && !(0x2066...0x2069).contains(value))
        #expect(value != 0x200B && value != 0x2060 && value != 0xFEFF)
      }
    }
  }

  @Test(arguments: payloads) func payloadNeverReachesACell(_ payload: String) {
    let model = DataModel(lists: [
      Checklist(
        name: payload, iconName: payload,
        items: [item(payload, id: 1), item("x" + payload, dueInMinutes: -5, remind: true, id: 2)])
    ])
    var app = makeApp(model)
    assertSafe(app.grid(), "All Lists")
    app.press(.enter)
    assertSafe(app.grid(), "Checklist")
    app.press(.character("d"))
    assertSafe(app.grid(), "status after delete")
    app.press(.character("u"), .enter)
    assertSafe(app.grid(), "item form")
    app.press(.escape, .escape, .character("e"))
    assertSafe(app.grid(), "list form")
    app.press(.escape, .character("/"))
    _ = app.handle(.paste(payload), now: testNow)
    assertSafe(app.grid(), "filter")
    _ = app.handle(.saveFinished(SaveOutcome(succeeded: false, message: payload)), now: testNow)
    assertSafe(app.grid(), "save message")
  }

  @Test func controlsAreShownAsPictures() {
    let model = DataModel(lists: [Checklist(name: "\u{1B}[2J list")])
    let app = makeApp(model)
    #expect(app.grid().rowText(3).contains("␛[2J list"))
  }
}

@Suite struct StyleTests {
  @Test func overdueUncheckedReminderIsHighlighted() {
    let model = DataModel(lists: [
      Checklist(
        name: "L",
        items: [
          item("late", dueInMinutes: -5, remind: true, id: 1),
          item("done", checked: true, dueInMinutes: -5, remind: true, id: 2),
          item("later", dueInMinutes: 5, remind: true, id: 3),
        ])
    ])
    var app = makeApp(model, checklistIndex: 0)
    app.press(.end)
    let grid = app.grid()
    #expect(grid[1, 58].style.color == .overdue)
    #expect(grid[2, 58].style.color != .overdue)
    #expect(grid[2, 4].style.attributes.contains(.dim))
    #expect(grid[2, 1].text == "✔")
    #expect(grid[3, 4].style.color == .selection)
    #expect(grid[0, 0].style.color == .title)
    #expect(grid[14, 0].style.color == .status)
  }
}
