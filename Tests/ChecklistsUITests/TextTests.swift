import ChecklistsCore
import Foundation
import Testing

@testable import ChecklistsUI

@Suite struct DisplayWidthTests {
  @Test func asciiIsOneColumn() {
    #expect(DisplayWidth.of("Milk") == 4)
  }

  @Test func wideAndEmojiAreTwoColumns() {
    #expect(DisplayWidth.of("日本") == 4)
    #expect(DisplayWidth.of(Character("🛒")) == 2)
    #expect(DisplayWidth.of(Character("👍🏽")) == 2)
    #expect(DisplayWidth.of(Character("🇩🇪")) == 2)
    #expect(DisplayWidth.of(Character("❤️")) == 2)
    #expect(DisplayWidth.of(Character("👨‍👩‍👧")) == 2)
    #expect(DisplayWidth.of(Character("Ａ")) == 2)
  }

  @Test func combiningMarksAddNothing() {
    #expect(DisplayWidth.of("e\u{301}") == 1)
    #expect(DisplayWidth.of("Cafe\u{301}") == 4)
    #expect(DisplayWidth.of(Character("\u{1100}\u{1161}")) == 2)
  }

  @Test func loneCombiningMarkGetsABase() {
    let units = SafeText.units(of: Character("\u{301}"))
    #expect(units.map(\.text) == ["\u{25CC}\u{301}"])
    #expect(units.map(\.width) == [1])
  }
}

@Suite struct SafeTextTests {
  static let payloads = [
    "\u{1B}]0;evil\u{07}", "\u{1B}]52;c;ZXZpbA==\u{07}", "\u{1B}[2J", "a\u{00}b\u{7F}c\u{9B}d",
    "\r\n", "\u{202E}gnp.exe", "zero\u{200B}width\u{FEFF}", "\u{1B}\u{301}",
  ]

  @Test(arguments: payloads) func noControlCharacterReachesACell(_ payload: String) {
    var grid = CellGrid(width: 40, height: 1)
    grid.draw(payload, row: 0, column: 0, width: 40)
    for cell in grid.cells {
      for scalar in cell.text.unicodeScalars {
        #expect(!SafeText.isControl(scalar.value), "control U+\(String(scalar.value, radix: 16))")
        #expect(!SafeText.isDropped(scalar.value, inEmoji: false))
      }
    }
  }

  @Test func controlsBecomeControlPictures() {
    #expect(SafeText.sanitized("\u{1B}[2J") == "␛[2J")
    #expect(SafeText.sanitized("a\u{07}") == "a␇")
    #expect(SafeText.sanitized("\u{7F}\u{85}") == "␡\u{FFFD}")
    #expect(SafeText.sanitized("\u{202E}abc\u{2066}") == "abc")
  }

  @Test func substitutesAreDrawnInTheControlRole() {
    var grid = CellGrid(width: 5, height: 1)
    grid.draw("a\u{1B}", row: 0, column: 0, width: 5)
    #expect(grid[0, 0].style.color == .normal)
    #expect(grid[0, 1].style.color == .control)
    #expect(grid[0, 1].text == "␛")
  }

  /// The drawing fast path for one-scalar characters gives exactly what `units(of:)` gives, for
  /// every scalar of Unicode.
  @Test func thePlainWidthFastPathAgreesWithUnitsForEveryScalar() {
    var plain = 0
    var mismatches: [String] = []
    for value in UInt32(0)...0x10_FFFF {
      guard let scalar = Unicode.Scalar(value) else { continue }
      let character = Character(scalar)
      guard let width = SafeText.plainWidth(of: character) else { continue }
      plain += 1
      let expected = [DisplayUnit(text: String(character), width: width, isSubstitute: false)]
      if SafeText.units(of: character) != expected, mismatches.count < 10 {
        mismatches.append(String(value, radix: 16))
      }
    }
    #expect(mismatches.isEmpty, "U+\(mismatches)")
    #expect(plain > 200_000)
    #expect(SafeText.plainWidth(of: "\u{1B}") == nil)
    #expect(SafeText.plainWidth(of: "\u{200D}") == nil)
    #expect(SafeText.plainWidth(of: "\u{0301}") == nil)
    #expect(SafeText.plainWidth(of: "e\u{0301}") == nil)
    #expect(SafeText.plainWidth(of: "漢") == 2)
  }

  @Test func emojiJoinersAreKept() {
    #expect(SafeText.sanitized("👨‍👩‍👧") == "👨‍👩‍👧")
  }
}

@Suite struct DrawingTests {
  /// Drawing takes shortcuts for ASCII, Latin letters and one-scalar characters; whatever the
  /// text, its cells are the safe units of its grapheme clusters, in order, substitutes in the
  /// control role.
  @Test func cellsAreTheSafeUnitsOfEveryClusterInOrder() {
    let pieces = [
      "a", "Z", " ", "é", "e", "\u{301}", "ö", "\r\n", "\r", "\n", "\u{1B}", "\u{7F}", "\u{85}",
      "\u{AD}", "ÿ", "\u{2FF}", "\u{300}", "\u{363}", "漢", "字", "🥚", "👨‍👩‍👧", "🇩🇪", "\u{1F1E9}",
      "\u{200D}", "\u{202E}", "각", "\u{1100}", "\u{1161}", "\u{FE0F}", "\u{2028}", "\u{600}", "q",
    ]
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    for _ in 0..<2_000 {
      let text = (0...next(12)).map { _ in pieces[next(pieces.count)] }.joined()
      var expected: [Cell] = []
      for character in text {
        for unit in SafeText.units(of: character) {
          let style = CellStyle(color: unit.isSubstitute ? .control : .normal)
          expected.append(Cell(text: unit.text, style: style))
          if unit.width == 2 { expected.append(Cell(text: "", style: style)) }
        }
      }
      var grid = CellGrid(width: 80, height: 1)
      let used = grid.draw(text, row: 0, column: 0, width: 80, style: CellStyle(color: .normal))
      #expect(used == expected.count)
      let drawn = (0..<expected.count).map { grid[0, $0] }
      #expect(drawn == expected, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
      #expect((expected.count..<80).allSatisfy { grid[0, $0].text == " " })
    }
  }

  @Test func truncationEndsWithEllipsis() {
    var grid = CellGrid(width: 6, height: 1)
    grid.draw("Groceries", row: 0, column: 0, width: 6)
    #expect(grid.rowText(0) == "Groce…")
  }

  @Test func truncationNeverSplitsAWideCharacter() {
    var grid = CellGrid(width: 6, height: 1)
    grid.draw("日本語です", row: 0, column: 0, width: 6)
    #expect(grid.rowText(0) == "日本… ")
    #expect(grid[0, 1].text == "")
  }

  @Test func wideCharacterAtTheLastColumnBecomesBlank() {
    var grid = CellGrid(width: 3, height: 1)
    grid.draw("a日本", row: 0, column: 0, width: 3, ellipsis: false)
    #expect(grid.rowText(0) == "a日")
    var narrow = CellGrid(width: 2, height: 1)
    narrow.draw("a日", row: 0, column: 0, width: 2, ellipsis: false)
    #expect(narrow.rowText(0) == "a ")
  }

  @Test func textThatFitsIsNotCut() {
    var grid = CellGrid(width: 5, height: 1)
    #expect(grid.draw("Milk", row: 0, column: 0, width: 5) == 4)
    #expect(grid.rowText(0) == "Milk ")
  }

  @Test func drawingOutsideTheGridIsIgnored() {
    var grid = CellGrid(width: 1, height: 1)
    grid.draw("日本", row: 0, column: 0, width: 5)
    grid.draw("x", row: 3, column: -2, width: 5)
    #expect(grid.snapshot == "…")
  }
}

@Suite struct TextFieldTests {
  @Test func insertsAtTheCursorByGraphemeCluster() {
    var field = TextField("Cafe\u{301}")
    #expect(field.characters.count == 4)
    _ = field.handle(.left)
    _ = field.handle(.character("x"))
    #expect(field.text == "Cafxe\u{301}")
    _ = field.handle(.right)
    _ = field.handle(.backspace)
    #expect(field.text == "Cafx")
  }

  @Test func readlineKeys() {
    var field = TextField("buy some milk")
    _ = field.handle(.control("w"))
    #expect(field.text == "buy some ")
    _ = field.handle(.control("a"))
    _ = field.handle(.delete)
    #expect(field.text == "uy some ")
    _ = field.handle(.right)
    _ = field.handle(.control("k"))
    #expect(field.text == "u")
    _ = field.handle(.control("e"))
    _ = field.handle(.character("p"))
    _ = field.handle(.home)
    _ = field.handle(.end)
    _ = field.handle(.left)
    _ = field.handle(.control("u"))
    #expect(field.text == "p")
    #expect(field.cursor == 0)
    #expect(field.handle(.function(1)) == false)
  }

  @Test func pasteTurnsNewlinesAndTabsIntoSpacesAndDropsControls() {
    var field = TextField()
    field.insert("a\nb\tc\u{1B}[2Jd\r\ne")
    #expect(field.text == "a b c[2Jd e")
  }

  @Test func scrollsToKeepTheCursorVisible() {
    var grid = CellGrid(width: 5, height: 1)
    let field = TextField("abcdefgh")
    grid.drawField(field, row: 0, column: 0, width: 5, style: .plain, focused: true)
    #expect(grid.rowText(0) == "efgh ")
    #expect(grid.cursor == GridPosition(row: 0, column: 4))
    var wide = CellGrid(width: 5, height: 1)
    var field2 = TextField("日本語")
    _ = field2.handle(.home)
    wide.drawField(field2, row: 0, column: 0, width: 5, style: .plain, focused: true)
    #expect(wide.rowText(0) == "日本 ")
    #expect(wide.cursor == GridPosition(row: 0, column: 0))
    _ = field2.handle(.end)
    wide.drawField(field2, row: 0, column: 0, width: 5, style: .plain, focused: true)
    #expect(wide.cursor == GridPosition(row: 0, column: 4))
  }
}
