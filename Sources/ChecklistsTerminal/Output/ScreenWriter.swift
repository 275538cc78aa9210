import CNcursesw
import ChecklistsUI

/// Writes a `CellGrid` to curses, only the cells that changed since the last frame.
struct ScreenWriter {
  private var previous: CellGrid?

  /// Forgets the last frame: the next flush writes every cell and repaints the screen.
  mutating func invalidate() {
    previous = nil
  }

  /// Writes `grid` (changed cells only), places or hides the cursor and updates the screen.
  mutating func flush(_ grid: CellGrid, to terminal: Terminal) {
    let window = terminal.window
    let palette = terminal.palette
    let old = previous?.width == grid.width && previous?.height == grid.height ? previous : nil
    if old == nil { clearok(window, true) }
    let rows = min(grid.height, Int(cn_getmaxy(window)))
    let columns = min(grid.width, Int(cn_getmaxx(window)))
    var exact: [(row: Int, column: Int, cell: Cell)] = []
    for row in 0..<rows {
      for column in 0..<columns {
        let cell = grid[row, column]
        if let old, old[row, column] == cell { continue }
        if cell.style.hasExactColors {
          // Curses gets the glyph in plain colours; its colours are written after the update.
          exact.append((row, column, cell))
          write(Cell(text: cell.text, style: .plain), row: row, column: column, palette, window)
          continue
        }
        if cell.text.isEmpty {
          // The right half of a wide character: curses drew it with the left half, unless the
          // cell to the left is not wide for curses, then a blank keeps the screen honest.
          let left = grid[row, column - 1]
          if column > 0, !left.text.isEmpty, Self.cursesWidth(of: left.text) >= 2 { continue }
          write(Cell(text: " ", style: cell.style), row: row, column: column, palette, window)
          continue
        }
        write(cell, row: row, column: column, palette, window)
      }
    }
    if let cursor = grid.cursor, cursor.row < rows, cursor.column < columns {
      curs_set(1)
      wmove(window, Int32(cursor.row), Int32(cursor.column))
    } else {
      curs_set(0)
      wmove(window, Int32(max(rows - 1, 0)), 0)
    }
    wnoutrefresh(window)
    doupdate()
    if !exact.isEmpty {
      let cursor = grid.cursor.flatMap { $0.row < rows && $0.column < columns ? $0 : nil }
      terminal.writeBytes(
        Self.exactColorBytes(
          exact, cursor: cursor ?? GridPosition(row: max(rows - 1, 0), column: 0)))
    }
    previous = grid
  }

  /// Cells with exact colours as the terminal's own sequences (SGR 38/48 with 24-bit or
  /// 256-colour values), each after a cursor move; then the attributes reset and the cursor
  /// back where curses left it, so that curses' idea of the terminal stays true.
  static func exactColorBytes(_ cells: [(row: Int, column: Int, cell: Cell)], cursor: GridPosition)
    -> String
  {
    var out = ""
    out.reserveCapacity(cells.count * 40)
    var last: CellStyle?
    for (row, column, cell) in cells {
      out += "\u{1B}[\(row + 1);\(column + 1)H"
      if cell.style != last {
        out += "\u{1B}[0"
        if let foreground = cell.style.foreground { out += ";" + sgr(foreground, base: 38) }
        if let background = cell.style.background { out += ";" + sgr(background, base: 48) }
        out += "m"
        last = cell.style
      }
      out += String(CellText.scalars(for: cell.text).map(Character.init))
    }
    out += "\u{1B}[0m\u{1B}[\(cursor.row + 1);\(cursor.column + 1)H"
    return out
  }

  private static func sgr(_ color: CellColor, base: Int) -> String {
    switch color {
    case .rgb(let red, let green, let blue): return "\(base);2;\(red);\(green);\(blue)"
    case .palette(let index): return "\(base);5;\(index)"
    }
  }

  private func write(
    _ cell: Cell, row: Int, column: Int, _ palette: Palette, _ window: UnsafeMutablePointer<WINDOW>
  ) {
    let attributes = palette.cursesAttributes(for: cell.style)
    let pair = palette.look(for: cell.style.color).pair
    var scalars = CellText.scalars(for: cell.text)
    var character = cchar_t()
    if !Self.set(&character, scalars, attributes, pair) {
      scalars = [scalars[0]]
      if !Self.set(&character, scalars, attributes, pair) {
        _ = Self.set(&character, ["?"], attributes, pair)
      }
    }
    mvwadd_wch(window, Int32(row), Int32(column), &character)
  }

  private static func set(
    _ character: inout cchar_t, _ scalars: [Unicode.Scalar], _ attributes: attr_t, _ pair: Int16
  ) -> Bool {
    var wide: [wchar_t] = scalars.map { wchar_t(bitPattern: $0.value) }
    wide.append(0)
    return setcchar(&character, wide, attributes, pair, nil) == OK
  }

  /// How many columns curses gives a grapheme (its first scalar).
  static func cursesWidth(of text: String) -> Int {
    guard let first = text.unicodeScalars.first else { return 0 }
    return Int(cn_wcwidth(wchar_t(bitPattern: first.value)))
  }
}
