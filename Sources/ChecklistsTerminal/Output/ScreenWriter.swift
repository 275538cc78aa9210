import CNcursesw
import ChecklistsUI

/// Writes a `CellGrid` to curses, only the cells that changed since the last frame.
struct ScreenWriter {
  private var previous: CellGrid?
  /// The terminal images on screen now.
  private var shownImages: [GridImage] = []

  /// Forgets the last frame: the next flush writes every cell and repaints the screen.
  mutating func invalidate() {
    previous = nil
  }

  /// Writes `grid` (changed cells only), places or hides the cursor and updates the screen.
  mutating func flush(_ grid: CellGrid, to terminal: Terminal) {
    let window = terminal.window
    let palette = terminal.palette
    let old = previous?.width == grid.width && previous?.height == grid.height ? previous : nil
    if old == nil {
      // A whole frame: the window is blanked first, and its blank cells (most of a screen)
      // need no writing; the terminal is cleared and repainted from it.
      werase(window)
      clearok(window, true)
    }
    let rows = min(grid.height, Int(cn_getmaxy(window)))
    let columns = min(grid.width, Int(cn_getmaxx(window)))
    var exact: [(row: Int, column: Int, cell: Cell)] = []
    var looks = LastLook()
    for row in 0..<rows {
      for column in 0..<columns {
        let cell = grid[row, column]
        if let old {
          if old[row, column] == cell { continue }
        } else if cell.text == " " && cell.style == .plain {
          continue
        }
        if cell.style.hasExactColors {
          // Curses gets the glyph in plain colours; its colours are written after the update.
          exact.append((row, column, cell))
          write(
            Cell(text: cell.text, style: .plain), row: row, column: column, &looks, palette, window,
            terminal.emojiSequences)
          continue
        }
        if cell.text.isEmpty {
          // The right half of a wide character: curses drew it with the left half, unless the
          // cell to the left is not wide for curses, then a blank keeps the screen honest.
          let left = grid[row, column - 1]
          if column > 0, !left.text.isEmpty, Self.cursesWidth(of: left.text) >= 2 { continue }
          write(
            Cell(text: " ", style: cell.style), row: row, column: column, &looks, palette, window,
            terminal.emojiSequences)
          continue
        }
        write(cell, row: row, column: column, &looks, palette, window, terminal.emojiSequences)
      }
    }
    if let cursor = grid.cursor, cursor.row < rows, cursor.column < columns {
      curs_set(1)
      wmove(window, Int32(cursor.row), Int32(cursor.column))
    } else {
      curs_set(0)
      wmove(window, Int32(max(rows - 1, 0)), 0)
    }
    // Images that went away: sixels are covered by drawing their rows again, kitty's are
    // deleted after the update; new ones are written over the updated cells.
    let removed = old == nil ? shownImages : shownImages.filter { !grid.images.contains($0) }
    let added = old == nil ? grid.images : grid.images.filter { !shownImages.contains($0) }
    for image in removed where image.image.removal == .overdraw {
      wredrawln(window, Int32(image.row), Int32(image.rows))
    }
    wnoutrefresh(window)
    doupdate()
    let cursor =
      grid.cursor.flatMap { $0.row < rows && $0.column < columns ? $0 : nil }
      ?? GridPosition(row: max(rows - 1, 0), column: 0)
    if !exact.isEmpty {
      terminal.writeBytes(Self.exactColorBytes(exact, cursor: cursor))
    }
    if !removed.isEmpty || !added.isEmpty {
      terminal.writeBytes(Self.imageBytes(removed: removed, added: added, cursor: cursor))
    }
    shownImages = grid.images
    previous = grid
  }

  /// Removes every image from the terminal (suspend, exit): kitty's are deleted; sixels go
  /// with the screen the program leaves.
  mutating func removeImages(from terminal: Terminal) {
    let deletes = shownImages.compactMap { image -> [UInt8]? in
      if case .delete(let bytes) = image.image.removal { return bytes }
      return nil
    }
    shownImages = []
    previous = nil
    guard !deletes.isEmpty else { return }
    terminal.writeBytes(Array(deletes.joined()))
  }

  /// The bytes that delete `removed` images (those that can be) and draw `added` ones at their
  /// top-left cells, then put the cursor back where curses left it.
  static func imageBytes(removed: [GridImage], added: [GridImage], cursor: GridPosition)
    -> [UInt8]
  {
    var out: [UInt8] = []
    for image in removed {
      if case .delete(let bytes) = image.image.removal { out += bytes }
    }
    for image in added {
      out += Array("\u{1B}[\(image.row + 1);\(image.column + 1)H".utf8)
      out += image.image.bytes
    }
    out += Array("\u{1B}[\(cursor.row + 1);\(cursor.column + 1)H".utf8)
    return out
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

  /// The curses attributes and colour pair of the last style written: neighbouring cells mostly
  /// share one, so the palette is asked once per run of a style.
  private struct LastLook {
    var style: CellStyle?
    var attributes: attr_t = 0
    var pair: Int16 = 0

    mutating func of(_ style: CellStyle, in palette: Palette) -> (attr_t, Int16) {
      if style != self.style {
        self.style = style
        attributes = palette.cursesAttributes(for: style)
        pair = palette.look(for: style.color).pair
      }
      return (attributes, pair)
    }
  }

  /// Writes one cell. Its scalars go to curses from a buffer on the stack: a full frame is
  /// thousands of cells.
  private func write(
    _ cell: Cell, row: Int, column: Int, _ looks: inout LastLook, _ palette: Palette,
    _ window: UnsafeMutablePointer<WINDOW>, _ sequences: EmojiSequences
  ) {
    let (attributes, pair) = looks.of(cell.style, in: palette)
    var character = cchar_t()
    if let whole = CellText.wholeSequence(cell.text, drawn: sequences) {
      // setcchar keeps a cluster only up to its first spacing scalar (the 💻 of 👩‍💻, the
      // skin tone): the first one sets the look, then the cell holds them all, which curses
      // writes out as they are, in the columns of the first.
      var first: [wchar_t] = [wchar_t(bitPattern: whole[0].value), 0]
      if setcchar(&character, &first, attributes, pair, nil) == OK {
        withUnsafeMutableBytes(of: &character.chars) { raw in
          let chars = raw.bindMemory(to: wchar_t.self)
          for (index, scalar) in whole.enumerated() where index < chars.count {
            chars[index] = wchar_t(bitPattern: scalar.value)
          }
        }
        mvwadd_wch(window, Int32(row), Int32(column), &character)
        return
      }
    }
    withUnsafeTemporaryAllocation(of: wchar_t.self, capacity: CellText.maximumScalars + 1) {
      wide in
      let count = CellText.fill(wide, with: cell.text)
      // A grapheme curses refuses keeps its first scalar; a lone scalar it refuses shows "?".
      if setcchar(&character, wide.baseAddress, attributes, pair, nil) == OK { return }
      if count > 1 {
        wide[1] = 0
        if setcchar(&character, wide.baseAddress, attributes, pair, nil) == OK { return }
      }
      wide[0] = 0x3F
      wide[1] = 0
      _ = setcchar(&character, wide.baseAddress, attributes, pair, nil)
    }
    mvwadd_wch(window, Int32(row), Int32(column), &character)
  }

  /// How many columns curses gives a grapheme (its first scalar).
  static func cursesWidth(of text: String) -> Int {
    guard let first = text.unicodeScalars.first else { return 0 }
    return Int(cn_wcwidth(wchar_t(bitPattern: first.value)))
  }
}
