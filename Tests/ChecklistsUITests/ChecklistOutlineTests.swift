import ChecklistsCore
import Foundation
import Testing

@testable import ChecklistsUI

/// Subtasks, folds and priorities on the Checklist screen: each key, its message and its undo.
@Suite struct ChecklistOutlineTests {
  /// Trip: Pack (Socks, Shirts under it), Tickets, Book hotel.
  static func tripModel() -> DataModel {
    var socks = item("Socks", id: 2)
    socks.parentItemID = 1
    var shirts = item("Shirts", id: 3)
    shirts.parentItemID = 1
    return DataModel(lists: [
      Checklist(
        name: "Trip", iconName: "Trips",
        items: [
          item("Pack", id: 1), socks, shirts, item("Tickets", id: 4), item("Book hotel", id: 5),
        ])
    ])
  }

  static func tripApp(width: Int = 60, ascii: Bool = false) -> ChecklistsApp {
    makeApp(tripModel(), checklistIndex: 0, width: width, height: 10, ascii: ascii)
  }

  /// The open list's texts, with two spaces a level.
  static func outline(_ app: ChecklistsApp) -> [String] {
    guard let list = app.openList else { return [] }
    let depths = list.depths()
    return list.items.indices.map {
      String(repeating: "  ", count: depths[$0]) + list.items[$0].text
    }
  }

  static let trip = ["Pack", "  Socks", "  Shirts", "Tickets", "Book hotel"]

  @Test func indentMakesASubtaskOfTheItemAboveAndOneUndoLiftsItOut() {
    var app = Self.tripApp()
    app.press(.down, .down, .down)
    app.press(.character(">"))
    #expect(Self.outline(app) == ["Pack", "  Socks", "  Shirts", "  Tickets", "Book hotel"])
    #expect(app.statusMessage == "Indented \"Tickets\" under \"Pack\"")
    #expect(app.selectedItemIndex == 3)
    app.press(.tab)  // again: under Shirts, one level deeper
    #expect(Self.outline(app) == ["Pack", "  Socks", "  Shirts", "    Tickets", "Book hotel"])
    app.press(.character("u"))
    #expect(app.statusMessage == "Undid: indent \"Tickets\"")
    app.press(.character("u"))
    #expect(Self.outline(app) == Self.trip)
    app.press(.control("r"))
    #expect(app.statusMessage == "Redid: indent \"Tickets\"")
    #expect(Self.outline(app) == ["Pack", "  Socks", "  Shirts", "  Tickets", "Book hotel"])
  }

  @Test func indentWithNothingAboveSaysWhy() {
    var app = Self.tripApp()
    app.press(.character(">"))
    #expect(Self.outline(app) == Self.trip)
    #expect(
      app.statusMessage == "Cannot indent \"Pack\": no item above at its level to make it a "
        + "subtask of")
    #expect(app.canPerform(.outdent) == false)
  }

  @Test func outdentLiftsTheSubtaskAfterItsParentsSubtasksAsOneUndo() {
    var app = Self.tripApp()
    app.press(.down)
    #expect(app.canPerform(.outdent))
    app.press(.character("<"))
    #expect(Self.outline(app) == ["Pack", "  Shirts", "Socks", "Tickets", "Book hotel"])
    #expect(app.statusMessage == "Outdented \"Socks\"")
    #expect(app.selectedItemIndex == 2)
    app.press(.character("u"))
    #expect(app.statusMessage == "Undid: outdent \"Socks\"")
    #expect(Self.outline(app) == Self.trip)
    app.press(.down, .backTab)  // Shirts is the last subtask: only its parent changes
    #expect(Self.outline(app) == ["Pack", "  Socks", "Shirts", "Tickets", "Book hotel"])
    app.press(.character("u"))
    #expect(app.statusMessage == "Undid: outdent \"Shirts\"")
    #expect(Self.outline(app) == Self.trip)
  }

  @Test func foldHidesTheSubtasksAndKeepsThemByItem() {
    var app = Self.tripApp()
    app.press(.character("o"))
    #expect(app.open?.browser.rows == [0, 3, 4])
    #expect(app.screen().contains("▸ Pack"))
    app.press(.down)
    #expect(app.selectedItemIndex == 3)
    // A fold follows its item when the list changes: Tickets moves above Pack.
    app.press(.character("K"))
    #expect(Self.outline(app) == ["Tickets", "Pack", "  Socks", "  Shirts", "Book hotel"])
    #expect(app.open?.browser.rows == [0, 1, 4])
    app.press(.character("+"))
    #expect(app.open?.browser.rows == nil)
    #expect(app.screen().contains("▾ Pack"))
    app.press(.character("-"))
    #expect(app.open?.browser.rows == [0, 1, 4])
    app.press(.down)
    app.press(.character("o"))
    #expect(app.open?.browser.rows == nil)
    // Folds apply in manual order without a filter.
    app.press(.character("-"), .character("s"))
    #expect(app.open?.browser.rows?.count == 5)
    app.press(.character("o"))
    #expect(app.statusMessage == "Folds apply in manual order without a filter")
    app.press(.character("s"))
    #expect(app.open?.browser.rows == [0, 1, 4])
  }

  @Test func undoRevealsAnItemAFoldHides() {
    var app = Self.tripApp()
    app.press(.down, .character("!"))
    #expect(app.openList?.items[1].priorityLevel == .low)
    #expect(app.statusMessage == "Priority of \"Socks\": low (!)")
    app.press(.up, .character("o"))
    #expect(app.open?.browser.rows == [0, 3, 4])
    app.press(.character("u"))
    #expect(app.statusMessage == "Undid: set the priority of \"Socks\"")
    #expect(app.openList?.items[1].priorityLevel == PriorityLevel.none)
    #expect(app.open?.browser.rows == nil)
    #expect(app.selectedItemIndex == 1)
  }

  @Test func priorityCyclesThroughTheMarks() {
    var app = Self.tripApp()
    app.press(.character("!"), .character("!"), .character("!"))
    #expect(app.openList?.items[0].priorityLevel == .high)
    #expect(app.statusMessage == "Priority of \"Pack\": high (!!!)")
    #expect(app.screen().contains("▾ !!! Pack"))
    app.press(.character("!"))
    #expect(app.statusMessage == "No priority for \"Pack\"")
    app.press(.character("u"))
    #expect(app.openList?.items[0].priorityLevel == .high)
  }

  @Test func spaceOnAParentChecksItsSubtasksAndOneUndoBringsThemBack() {
    var app = Self.tripApp()
    app.press(.character(" "))
    #expect(app.openList?.items.prefix(3).allSatisfy(\.checked) == true)
    #expect(app.openList?.items[3].checked == false)
    #expect(app.statusMessage == "Checked \"Pack\" and its 2 subtasks (u undoes)")
    app.press(.character("u"))
    #expect(app.statusMessage == "Undid: check \"Pack\" and its 2 subtasks")
    #expect(app.openList?.items.contains(where: \.checked) == false)
    // With every subtask checked, Space checks the parent alone, as any item.
    app.press(.down, .character(" "), .down, .character(" "), .up, .up, .character(" "))
    #expect(app.openList?.items.prefix(3).allSatisfy(\.checked) == true)
    app.press(.character(" "))
    #expect(app.openList?.items[0].checked == false)
    #expect(app.openList?.items[1].checked == true)
  }

  /// A click on a parent's check mark does what Space does.
  @Test func clickOnAParentsCheckMarkChecksItsSubtasks() {
    var app = Self.tripApp()
    _ = app.handle(
      .mouse(MouseEvent(kind: .press, position: GridPosition(row: 1, column: 1))), now: testNow)
    #expect(app.openList?.items.prefix(3).allSatisfy(\.checked) == true)
    #expect(app.statusMessage == "Checked \"Pack\" and its 2 subtasks (u undoes)")
  }

  @Test func moveTakesTheSubtasksPastTheNeighbouringSiblingsSubtree() {
    var app = Self.tripApp()
    app.press(.character("J"))
    #expect(Self.outline(app) == ["Tickets", "Pack", "  Socks", "  Shirts", "Book hotel"])
    #expect(app.selectedItemIndex == 1)
    app.press(.character("J"))
    #expect(Self.outline(app) == ["Tickets", "Book hotel", "Pack", "  Socks", "  Shirts"])
    app.press(.character("J"))  // the last at its level stays
    #expect(Self.outline(app) == ["Tickets", "Book hotel", "Pack", "  Socks", "  Shirts"])
    app.press(.character("u"))
    #expect(app.statusMessage == "Undid: move \"Pack\" with its subtasks")
    #expect(Self.outline(app) == ["Tickets", "Pack", "  Socks", "  Shirts", "Book hotel"])
    // A subtask moves among its siblings only.
    app.press(.down, .character("J"))
    #expect(Self.outline(app) == ["Tickets", "Pack", "  Shirts", "  Socks", "Book hotel"])
    app.press(.character("J"))
    #expect(Self.outline(app) == ["Tickets", "Pack", "  Shirts", "  Socks", "Book hotel"])
    // Book hotel goes above Pack's whole subtree.
    app.press(.down, .character("K"))
    #expect(Self.outline(app) == ["Tickets", "Book hotel", "Pack", "  Shirts", "  Socks"])
  }

  @Test func deleteOfAParentAsksAndOneUndoBringsAllBack() {
    var app = Self.tripApp()
    app.press(.character("d"))
    #expect(app.confirmation == .deleteWithSubtasks(app.openList?.id ?? -1, itemID: 1))
    #expect(app.statusMessage == "Delete \"Pack\" and its 2 subtasks? y/n")
    app.press(.character("n"))
    #expect(app.statusMessage == "Kept the item and its subtasks")
    #expect(Self.outline(app) == Self.trip)
    app.press(.character("d"), .character("y"))
    #expect(Self.outline(app) == ["Tickets", "Book hotel"])
    #expect(app.statusMessage == "Deleted \"Pack\" and its 2 subtasks (u undoes)")
    app.press(.character("u"))
    #expect(app.statusMessage == "Undid: delete \"Pack\" and its 2 subtasks")
    #expect(Self.outline(app) == Self.trip)
    app.press(.control("r"))
    #expect(Self.outline(app) == ["Tickets", "Book hotel"])
    // An item without subtasks goes at once, as always.
    app.press(.character("d"))
    #expect(app.confirmation == nil)
    #expect(Self.outline(app) == ["Book hotel"])
  }

  @Test func rowsShowIndentFoldMarksPriorityAndTags() {
    var items = Self.tripModel().lists[0].items
    items[0].priorityLevel = .high
    items[2].tags = ["clothes", "soon"]
    items[3].priorityLevel = .low
    let model = DataModel(lists: [Checklist(name: "Trip", iconName: "Trips", items: items)])
    var app = makeApp(model, checklistIndex: 0, width: 40, height: 8)
    app.press(.down)
    #expect(
      app.screen() == """
         Trip — 5 of 5 remaining
         ·  ▾ !!! Pack
         ·      Socks
         ·      Shirts #clothes #soon
         ·    ! Tickets
         ·    Book hotel

        Space check  a add  Esc back  ? help
        """)
    // Narrow: the tags go first, then the text is cut; the marks stay.
    _ = app.handle(.resize(width: 22, height: 8), now: testNow)
    #expect(
      app.screen() == """
         Trip — 5 of 5 remai…
         ·  ▾ !!! Pack
         ·      Socks
         ·      Shirts
         ·    ! Tickets
         ·    Book hotel

        Space check  ? help
        """)
    // ASCII marks, folded; with a filter the rows are flat (folds aside) with their marks.
    var ascii = makeApp(model, checklistIndex: 0, width: 40, height: 8, ascii: true)
    ascii.press(.character("o"))
    #expect(
      ascii.screen() == """
         Trip - 5 of 5 remaining
        [ ] + !!! Pack
        [ ]   ! Tickets
        [ ]   Book hotel



        Space check  a add  Esc back  ? help
        """)
    ascii.press(.character("/"))
    ascii.type("s")
    ascii.press(.enter)
    #expect(
      ascii.screen() == """
         Trip - 5 of 5 remaining      filter: s
        [ ] Socks
        [ ] Shirts #clothes #soon
        [ ] ! Tickets



        Space check  a add  ? help
        """)
  }

  /// On a parent the hints offer the fold (dropped first when the line is full); a list
  /// without subtasks shows the hints it always did.
  @Test func hintsOfferTheFoldOnAParentOnly() {
    var app = Self.tripApp(width: 120)
    #expect(
      app.screen().components(separatedBy: "\n").last
        == "Space check  a add  e edit  d delete  J move  s by due date  / filter  o fold  "
        + "Esc back  ? help")
    app.press(.character("o"))
    #expect(app.screen().contains("o unfold"))
    app.press(.down)
    #expect(
      app.screen().components(separatedBy: "\n").last
        == "Space check  a add  e edit  d delete  J/K move  s by due date  / filter  Esc back  "
        + "? help")
  }
}
