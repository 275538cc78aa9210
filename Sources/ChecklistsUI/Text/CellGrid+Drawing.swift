extension CellGrid {
  /// Draws `text` at a row from `column`, within `width` columns; returns the columns used.
  ///
  /// Text that does not fit ends with `…` when `ellipsis` is on (never splitting a character);
  /// without it, a wide character that does not fit in the last column becomes a blank.
  /// Control characters from the data are drawn as visible symbols in `ColorRole.control`.
  @discardableResult
  public mutating func draw(
    _ text: String, row: Int, column: Int, width: Int, style: CellStyle = .plain,
    ellipsis: Bool = true
  ) -> Int {
    let width = min(width, self.width - column)
    guard width > 0, row >= 0, row < height else { return 0 }
    var placed: [(column: Int, width: Int)] = []
    var used = 0
    var overflow = false
    outer: for character in text {
      for unit in SafeText.units(of: character) {
        if used + unit.width > width {
          overflow = true
          break outer
        }
        var cellStyle = style
        if unit.isSubstitute { cellStyle.color = .control }
        self[row, column + used] = Cell(text: unit.text, style: cellStyle)
        if unit.width == 2 { self[row, column + used + 1] = Cell(text: "", style: cellStyle) }
        placed.append((column + used, unit.width))
        used += unit.width
      }
    }
    guard overflow else { return used }
    if ellipsis {
      while used + 1 > width, let last = placed.popLast() {
        used -= last.width
        for offset in 0..<last.width {
          self[row, last.column + offset] = Cell(text: " ", style: style)
        }
      }
      if used + 1 <= width {
        self[row, column + used] = Cell(text: "…", style: style)
        used += 1
      }
    }
    while used < width {
      self[row, column + used] = Cell(text: " ", style: style)
      used += 1
    }
    return used
  }

  /// Fills `width` columns of a row from `column` with blanks in `style`.
  public mutating func fill(row: Int, column: Int, width: Int, style: CellStyle) {
    guard width > 0 else { return }
    for offset in 0..<width { self[row, column + offset] = Cell(text: " ", style: style) }
  }

  /// Draws text right-aligned so that it ends just before `end`; returns its first column.
  @discardableResult
  public mutating func drawRightAligned(
    _ text: String, row: Int, end: Int, maxWidth: Int, style: CellStyle = .plain
  ) -> Int {
    let width = min(DisplayWidth.of(text), maxWidth)
    let start = end - width
    draw(text, row: row, column: start, width: width, style: style)
    return start
  }
}
