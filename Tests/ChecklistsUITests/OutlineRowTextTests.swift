import ChecklistsCore
import Foundation
import Testing

@testable import ChecklistsUI

/// The pieces of an item's row in a list with subtasks: indentation, fold mark, priority
/// marks, text and tags, in display columns.
@Suite struct OutlineRowTextTests {
  static let unicode = OutlineGlyphs(ascii: false)
  static let ascii = OutlineGlyphs(ascii: true)

  static func layout(
    _ text: String, depth: Int = 0, fold: FoldMark = .none, priority: PriorityLevel = .none,
    tags: [String] = [], width: Int = 40, glyphs: OutlineGlyphs = unicode
  ) -> OutlineRowLayout {
    OutlineRowText.layout(
      text: text, depth: depth, fold: fold, priority: priority, tags: tags, width: width,
      glyphs: glyphs)
  }

  /// The row drawn alone into a grid of `width` columns, as text.
  static func drawn(_ text: String, _ layout: OutlineRowLayout) -> String {
    var grid = CellGrid(width: layout.width, height: 1)
    OutlineRowText.draw(
      layout, text: text, row: 0, column: 0, styles: .init(all: .plain), into: &grid)
    return grid.snapshot
  }

  @Test func aListWithoutSubtasksHasNoFoldColumn() {
    let plain = Self.layout("Milk")
    #expect(plain.textColumn == 0 && plain.textWidth == 4 && plain.end == 4)
    #expect(Self.drawn("Milk", plain) == "Milk")
    let marked = Self.layout("Milk", priority: .high, tags: ["work", "home"])
    #expect(marked.marks == "!!!" && marked.textColumn == 4)
    #expect(marked.tags == "#work #home" && marked.tagsColumn == 9)
    #expect(marked.end == 20)
    #expect(Self.drawn("Milk", marked) == "!!! Milk #work #home")
    #expect(Self.drawn("Milk", Self.layout("Milk", priority: .low)) == "! Milk")
    #expect(Self.drawn("Milk", Self.layout("Milk", priority: .medium)) == "!! Milk")
  }

  @Test func depthIndentsTwoColumnsALevelAfterTheFoldColumn() {
    let parent = Self.layout("Trip", fold: .open)
    #expect(parent.indent == 0 && parent.foldWidth == 2 && parent.textColumn == 2)
    #expect(Self.drawn("Trip", parent) == "▾ Trip")
    #expect(Self.drawn("Photo", Self.layout("Photo", depth: 2, fold: .leaf)) == "      Photo")
    let folded = Self.layout("Passport", depth: 1, fold: .folded, priority: .medium)
    #expect(folded.indent == 2 && folded.marksColumn == 4 && folded.textColumn == 7)
    #expect(Self.drawn("Passport", folded) == "  ▸ !! Passport")
    #expect(
      Self.drawn("Passport", Self.layout("Passport", depth: 1, fold: .folded, glyphs: Self.ascii))
        == "  + Passport")
    #expect(Self.drawn("Trip", Self.layout("Trip", fold: .open, glyphs: Self.ascii)) == "- Trip")
  }

  @Test func wideTextAndTagsAreMeasuredInColumns() {
    // 牛乳 and パン are two columns a character: 4 + 1 + 4 columns.
    let layout = Self.layout("牛乳 パン", fold: .leaf, tags: ["東京", "🛒"], width: 30)
    #expect(layout.textColumn == 2 && layout.textWidth == 9)
    #expect(layout.tagsColumn == 12)
    #expect(layout.tags == "#東京 #🛒")
    #expect(layout.end == 12 + 5 + 1 + 3)
    #expect(Self.drawn("牛乳 パン", layout) == "  牛乳 パン #東京 #🛒")
  }

  /// A narrow row: the tags go first (from the last), then the text is cut; the marks stay.
  @Test func aNarrowRowDropsTagsThenCutsTheText() {
    let text = "Buy 牛乳"  // 8 columns
    let tags = ["work", "家"]  // "#work" 5, "#家" 3
    let full = Self.layout(text, fold: .folded, priority: .high, tags: tags, width: 25)
    #expect(full.tags == "#work #家" && full.tagsLeftOut == 0)
    #expect(Self.drawn(text, full) == "▸ !!! Buy 牛乳 #work #家")  // 24 columns
    let lastTagGone = Self.layout(text, fold: .folded, priority: .high, tags: tags, width: 21)
    #expect(lastTagGone.tags == "#work" && lastTagGone.tagsLeftOut == 1)
    #expect(Self.drawn(text, lastTagGone) == "▸ !!! Buy 牛乳 #work")
    let noTags = Self.layout(text, fold: .folded, priority: .high, tags: tags, width: 16)
    #expect(noTags.tags.isEmpty && noTags.tagsLeftOut == 2 && !noTags.textIsCut)
    #expect(Self.drawn(text, noTags) == "▸ !!! Buy 牛乳")
    #expect(!Self.layout(text, fold: .folded, priority: .high, tags: tags, width: 14).textIsCut)
    let oneShort = Self.layout(text, fold: .folded, priority: .high, tags: tags, width: 13)
    #expect(oneShort.textIsCut && oneShort.textWidth == 7)
    #expect(Self.drawn(text, oneShort) == "▸ !!! Buy 牛…")
    // Cutting the text never splits a wide character: 6 columns are "Buy " and the ellipsis.
    let cut = Self.layout(text, fold: .folded, priority: .high, tags: tags, width: 12)
    #expect(cut.textIsCut && cut.textWidth == 6)
    #expect(Self.drawn(text, cut) == "▸ !!! Buy …")
    let wider = Self.layout(text, fold: .folded, priority: .high, tags: tags, width: 14)
    #expect(Self.drawn(text, wider) == "▸ !!! Buy 牛乳")
    let tiny = Self.layout(text, fold: .folded, priority: .high, tags: tags, width: 7)
    #expect(Self.drawn(text, tiny) == "▸ !!! …")
    // The marks stay even where nothing else fits.
    #expect(
      Self.drawn(text, Self.layout(text, fold: .folded, priority: .high, width: 6)) == "▸ !!!")
    #expect(Self.drawn(text, Self.layout(text, fold: .folded, priority: .high, width: 3)) == "▸ !")
  }

  /// Deep subtasks take at most half the row for their indentation.
  @Test func indentationTakesAtMostHalfTheRow() {
    let deep = Self.layout("Photo", depth: 10, fold: .leaf, width: 20)
    #expect(deep.indent == 10 && deep.textColumn == 12)
    #expect(Self.drawn("Photo", deep) == "            Photo")
    let narrow = Self.layout("Photo", depth: 10, fold: .leaf, priority: .high, width: 9)
    #expect(narrow.indent == 2)
    #expect(Self.layout("Photo", depth: 10, fold: .leaf, priority: .high, width: 7).indent == 0)
    #expect(Self.layout("Photo", depth: 3, fold: .leaf, width: 40).indent == 6)
    #expect(Self.layout("", depth: 1, fold: .open, width: 0).end == 0)
  }

  /// An item's layout reads its text, priority and tags, and an outline row its fold mark.
  @Test func anItemsRowInAChecklist() throws {
    var trip = ChecklistItem(text: "Trip", dueDate: Date(), itemID: 1)
    trip.priorityLevel = .high
    trip.tags = ["travel"]
    var passport = ChecklistItem(text: "Passport 🛂", dueDate: Date(), itemID: 2)
    passport.parentItemID = 1
    let list = Checklist(name: "Home", items: [trip, passport])
    var rows = OutlineRows(list: list)
    var grid = CellGrid(width: 30, height: 3)
    for screenRow in 0..<2 {
      let row = try #require(rows.row(screenRow))
      let item = list.items[row.index]
      let fold = FoldMark(row, listHasSubtasks: rows.hasSubtasks)
      let layout = OutlineRowText.layout(
        for: item, depth: row.depth, fold: fold, width: 26, glyphs: Self.unicode)
      grid.draw(" · ", row: screenRow, column: 0, width: 3)
      OutlineRowText.draw(
        layout, text: item.text, row: screenRow, column: 4, styles: .init(all: .plain),
        into: &grid)
    }
    rows.fold(0)
    let folded = try #require(rows.row(0))
    let layout = OutlineRowText.layout(
      for: trip, depth: 0, fold: FoldMark(folded, listHasSubtasks: true), width: 26,
      glyphs: Self.ascii)
    grid.draw("[ ]", row: 2, column: 0, width: 3)
    OutlineRowText.draw(
      layout, text: trip.text, row: 2, column: 4, styles: .init(all: .plain), into: &grid)
    #expect(
      grid.snapshot == """
         ·  ▾ !!! Trip #travel
         ·      Passport 🛂
        [ ] + !!! Trip #travel
        """)
    #expect(FoldMark(folded, listHasSubtasks: false) == .none)
  }
}
