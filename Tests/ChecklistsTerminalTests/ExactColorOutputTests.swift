import ChecklistsUI
import Testing

@testable import ChecklistsTerminal

/// A photo's cells written as the terminal's own colour sequences after curses' update.
@Suite struct ExactColorOutputTests {
  @Test func cellsGetCursorMovesAndColoursOnlyWhenTheyChange() {
    let red = CellStyle(foreground: .rgb(255, 0, 0), background: .rgb(255, 0, 0))
    let blue = CellStyle(foreground: .rgb(0, 0, 255), background: .palette(21))
    let bytes = ScreenWriter.exactColorBytes(
      [
        (2, 10, Cell(text: " ", style: red)), (2, 11, Cell(text: " ", style: red)),
        (3, 10, Cell(text: "▀", style: blue)),
      ], cursor: GridPosition(row: 29, column: 0))
    #expect(
      bytes
        == "\u{1B}[3;11H\u{1B}[0;38;2;255;0;0;48;2;255;0;0m \u{1B}[3;12H "
        + "\u{1B}[4;11H\u{1B}[0;38;2;0;0;255;48;5;21m▀\u{1B}[0m\u{1B}[30;1H")
  }

  @Test func controlCharactersNeverReachTheTerminal() {
    let style = CellStyle(foreground: .palette(196))
    let bytes = ScreenWriter.exactColorBytes(
      [(0, 0, Cell(text: "\u{1B}", style: style))], cursor: GridPosition(row: 0, column: 0))
    #expect(bytes == "\u{1B}[1;1H\u{1B}[0;38;5;196m?\u{1B}[0m\u{1B}[1;1H")
  }

  @Test func imagesAreDeletedThenPlacedAndTheCursorGoesBack() {
    let old = GridImage(
      image: TerminalImage(bytes: Array("OLD".utf8), removal: .delete(Array("DEL".utf8))),
      row: 2, column: 5, columns: 10, rows: 4)
    let sixel = GridImage(
      image: TerminalImage(bytes: Array("SIX".utf8), removal: .overdraw), row: 0, column: 0,
      columns: 1, rows: 1)
    let new = GridImage(
      image: TerminalImage(bytes: Array("NEW".utf8), removal: .overdraw), row: 3, column: 7,
      columns: 10, rows: 4)
    let bytes = ScreenWriter.imageBytes(
      removed: [old, sixel], added: [new], cursor: GridPosition(row: 9, column: 1))
    #expect(String(decoding: bytes, as: UTF8.self) == "DEL\u{1B}[4;8HNEW\u{1B}[10;2H")
  }
}
