import ChecklistsCore
import ChecklistsTestSupport
import Foundation
import Testing

@testable import ChecklistsUI

@Suite struct PropertyTests {
  static let words = ["Milk", "日本", "Café", "🛒 cart", "e\u{301}", "rent", "\u{1B}[2J", "a b"]
  static let characters: [Character] = [
    "a", "b", "x", " ", "J", "K", "d", "y", "n", "e", "u", "s", "/", "?", "q", "h", "l", "j", "k",
    "g", "G", "+", "-", "r", "日", "é", "🛒", "\u{301}",
  ]
  static let keys: [Key] = [
    .enter, .escape, .tab, .backTab, .backspace, .delete, .up, .down, .left, .right, .home, .end,
    .pageUp, .pageDown, .control("r"), .control("s"), .control("u"), .control("k"), .control("w"),
    .control("a"), .control("e"), .control("z"), .function(1),
  ]

  func randomModel(_ rng: inout SeededGenerator) -> DataModel {
    var lists: [Checklist] = []
    var nextID = 0
    for listNumber in 0..<Int.random(in: 0...5, using: &rng) {
      var items: [ChecklistItem] = []
      for _ in 0..<Int.random(in: 0...40, using: &rng) {
        let text = (Self.words.randomElement(using: &rng) ?? "") + " \(nextID)"
        items.append(
          ChecklistItem(
            text: text, checked: Bool.random(using: &rng),
            dueDate: testNow.addingTimeInterval(Double(Int.random(in: -3600...7200, using: &rng))),
            shouldRemind: Bool.random(using: &rng), itemID: nextID))
        nextID += 1
      }
      let name = "\(Self.words.randomElement(using: &rng) ?? "") list \(listNumber)"
      let icon = IconName.allCases.randomElement(using: &rng)?.rawValue ?? "No Icon"
      lists.append(Checklist(name: name, iconName: icon, items: items))
    }
    return DataModel(lists: lists)
  }

  func randomEvent(_ rng: inout SeededGenerator) -> InputEvent {
    switch Int.random(in: 0..<100, using: &rng) {
    case 0..<45:
      return .key(.character(Self.characters.randomElement(using: &rng) ?? "a"))
    case 45..<85:
      return .key(Self.keys.randomElement(using: &rng) ?? .enter)
    case 85..<88:
      return .paste((Self.words.randomElement(using: &rng) ?? "") + "\n\t\u{07}")
    case 88..<90:
      return .resize(
        width: Int.random(in: 0...90, using: &rng), height: Int.random(in: 0...30, using: &rng))
    case 90..<94:
      let kinds: [MouseEvent.Kind] = [.press, .wheelUp, .wheelDown]
      return .mouse(
        MouseEvent(
          kind: kinds.randomElement(using: &rng) ?? .press,
          position: GridPosition(
            row: Int.random(in: -1...30, using: &rng), column: Int.random(in: -1...90, using: &rng))
        ))
    case 94..<96:
      return .saveFinished(SaveOutcome(succeeded: Bool.random(using: &rng), message: "saved"))
    case 96..<98:
      return .focusLost
    default:
      return .tick
    }
  }

  func checkInvariants(_ app: ChecklistsApp) {
    let lists = app.dataModel.lists
    let listRows = app.allLists.rowCount(total: lists.count)
    #expect(app.allLists.selected >= 0 && app.allLists.selected <= max(listRows - 1, 0))
    if let open = app.open {
      guard let list = app.dataModel.list(withID: open.listID) else {
        Issue.record("open list is missing")
        return
      }
      let rows = open.browser.rowCount(total: list.items.count)
      #expect(open.browser.selected >= 0 && open.browser.selected <= max(rows - 1, 0))
      if let mapped = open.browser.rows {
        #expect(mapped.allSatisfy { $0 >= 0 && $0 < list.items.count })
      }
      #expect(app.checklistIndex == app.dataModel.index(ofList: open.listID))
    } else {
      #expect(app.checklistIndex == -1)
    }
  }

  @Test(arguments: [UInt64(1), 2, 3, 4])
  func randomSessionsKeepTheStateSound(seed: UInt64) {
    var rng = SeededGenerator(seed: seed)
    let loaded = randomModel(&rng)
    var app = makeApp(loaded, checklistIndex: loaded.lists.isEmpty ? -1 : 0)
    var now = testNow
    for step in 0..<25_000 {
      now = now.addingTimeInterval(Double(Int.random(in: 0...5, using: &rng)))
      _ = app.handle(randomEvent(&rng), now: now)
      checkInvariants(app)
      if step % 97 == 0 {
        for list in app.dataModel.lists {
          #expect(list.uncheckedCount == list.items.filter { !$0.checked }.count)
        }
        if let open = app.open, let list = app.dataModel.list(withID: open.listID) {
          let expected = RowOrder.compute(
            items: list.items, byDue: app.sortByDue.contains(list.name),
            filter: open.browser.filter)
          #expect(open.dueOrder == expected.dueOrder)
          // The outline follows every change; its rows show in manual order without a filter.
          let outline = OutlineRows(list: list, folded: open.outline.folded)
          #expect(open.outline == outline)
          #expect(open.browser.rows == (open.showsOutline ? outline.browserRows : expected.rows))
        }
        var grid = CellGrid(width: app.width, height: app.height)
        app.render(into: &grid, now: now)
        #expect(
          grid.cells.allSatisfy {
            !$0.text.unicodeScalars.contains { SafeText.isControl($0.value) }
          })
      }
    }
    // Leave any form, help, prompt or filter, then undo everything and redo everything (in a
    // terminal big enough: a too small one takes no keys).
    _ = app.handle(.resize(width: 60, height: 15), now: now)
    for _ in 0..<4 { _ = app.handle(.key(.escape), now: now) }
    _ = app.handle(.key(.character("n")), now: now)
    for _ in 0..<4 { _ = app.handle(.key(.escape), now: now) }
    #expect(!app.hasForm && app.help == nil && app.confirmation == nil && !app.isTypingFilter)
    let final = app.dataModel
    var undos = 0
    while !app.session.undoStack.isEmpty {
      let before = app.session.undoStack.count
      _ = app.handle(.key(.character("u")), now: now)
      #expect(app.session.undoStack.count == before - 1, "\(app.statusMessage ?? "")")
      checkInvariants(app)
      undos += 1
    }
    #expect(app.dataModel == loaded, "undo-all did not return to the loaded model")
    // Redo as many steps as were undone (older undone steps may wait beyond them).
    for _ in 0..<undos {
      let before = app.session.redoStack.count
      _ = app.handle(.key(.control("r")), now: now)
      #expect(app.session.redoStack.count == before - 1, "\(app.statusMessage ?? "")")
      checkInvariants(app)
    }
    #expect(app.dataModel == final, "redo-all did not return to the final model")
    #expect(undos > 0)
  }
}

@Suite struct RowOrderTests {
  @Test(arguments: [UInt64(11), 12, 13, 14, 15, 16])
  func incrementalUpdatesMatchAFullComputation(seed: UInt64) {
    var rng = SeededGenerator(seed: seed)
    let texts = ["apple", "Banana", "cherry", "APPLE pie", "日本", "1 egg", "e\u{301}clair"]
    let filters: [String?] = [nil, "a", "apple", "1", "É"]
    let filter = filters.randomElement(using: &rng) ?? nil
    let byDue = Bool.random(using: &rng)
    var model = DataModel(lists: [Checklist(name: "L")])
    let listID = model.lists[0].id
    func randomItem(_ model: inout DataModel) -> ChecklistItem {
      model.makeItem(
        text: texts.randomElement(using: &rng) ?? "", checked: Bool.random(using: &rng),
        dueDate: testNow.addingTimeInterval(Double(Int.random(in: 0...20, using: &rng) * 60)),
        shouldRemind: Bool.random(using: &rng))
    }
    var order = RowOrder.compute(items: [], byDue: byDue, filter: filter)
    for _ in 0..<1500 {
      let count = model.lists[0].items.count
      var change: ModelChange?
      switch Int.random(in: 0..<10, using: &rng) {
      case 0..<4:
        let made = randomItem(&model)
        change = model.insertItem(made, listID: listID, at: Int.random(in: 0...count, using: &rng))
      case 4..<6 where count > 0:
        change = model.deleteItem(listID: listID, at: Int.random(in: 0..<count, using: &rng))
      case 6..<9 where count > 0:
        var replacement = randomItem(&model)
        let index = Int.random(in: 0..<count, using: &rng)
        replacement.itemID = model.lists[0].items[index].itemID
        change = model.replaceItem(listID: listID, at: index, with: replacement)
      case 9 where count > 1:
        change = model.moveItem(
          listID: listID, from: Int.random(in: 0..<count, using: &rng),
          to: Int.random(in: 0..<count, using: &rng))
      default: break
      }
      guard let change, model.apply(change) else { continue }
      let items = model.lists[0].items
      let full = RowOrder.compute(items: items, byDue: byDue, filter: filter)
      order = RowOrder.update(order, filter: filter, change: change, items: items) ?? full
      #expect(order == full)
      if order != full { return }
    }
  }
}
