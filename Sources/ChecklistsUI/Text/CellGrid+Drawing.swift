extension CellGrid {
  /// Draws `text` at a row from `column`, within `width` columns; returns the columns used.
  ///
  /// Text that does not fit ends with `…` when `ellipsis` is on (never splitting a character);
  /// without it, a wide character that does not fit in the last column becomes a blank.
  /// Control characters from the data are drawn as visible symbols in `ColorRole.control`.
  @discardableResult
  mutating func draw(
    _ text: String, row: Int, column: Int, width: Int, style: CellStyle = .plain,
    ellipsis: Bool = true
  ) -> Int {
    let width = min(width, self.width - column)
    guard width > 0, row >= 0, row < height else { return 0 }
    var used = 0
    var overflow = false
    // Below U+0300 no two scalars form one grapheme cluster except CR LF, and every printable
    // one is one column: such a scalar followed by another below U+0300 is a cell of its own,
    // with no clustering needed (ASCII and the Latin letters of most European text).
    let scalars = text.unicodeScalars
    var index = scalars.startIndex
    while index != scalars.endIndex {
      let value = scalars[index].value
      guard value < 0x300, !SafeText.isControl(value) else { break }
      let next = scalars.index(after: index)
      if next != scalars.endIndex && scalars[next].value >= 0x300 { break }
      if used + 1 > width {
        overflow = true
        break
      }
      let cellText = value < 0x7F ? Self.asciiText[Int(value - 0x20)] : String(scalars[index])
      self[row, column + used] = Cell(text: cellText, style: style)
      used += 1
      index = next
    }
    let rest = text[index...]
    if !overflow {
      outer: for character in rest {
        if let unitWidth = SafeText.plainWidth(of: character) {
          if used + unitWidth > width {
            overflow = true
            break
          }
          self[row, column + used] = Cell(text: String(character), style: style)
          if unitWidth == 2 { self[row, column + used + 1] = Cell(text: "", style: style) }
          used += unitWidth
          continue
        }
        for unit in SafeText.units(of: character) {
          if used + unit.width > width {
            overflow = true
            break outer
          }
          var cellStyle = style
          if unit.isSubstitute { cellStyle.color = .control }
          self[row, column + used] = Cell(text: unit.text, style: cellStyle)
          if unit.width == 2 { self[row, column + used + 1] = Cell(text: "", style: cellStyle) }
          used += unit.width
        }
      }
    }
    guard overflow else { return used }
    if ellipsis {
      // Take back whole characters (a wide one ends in a "" cell) until "…" fits.
      while used + 1 > width && used > 0 {
        let cellWidth = used >= 2 && self[row, column + used - 1].text.isEmpty ? 2 : 1
        for offset in 1...cellWidth {
          self[row, column + used - offset] = Cell(text: " ", style: style)
        }
        used -= cellWidth
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

  /// One-character strings for printable ASCII, made once.
  private static let asciiText: [String] = (0x20..<0x7F).map {
    String(UnicodeScalar(UInt8($0)))
  }

  /// Fills `width` columns of a row from `column` with blanks in `style`.
  mutating func fill(row: Int, column: Int, width: Int, style: CellStyle) {
    guard width > 0 else { return }
    for offset in 0..<width { self[row, column + offset] = Cell(text: " ", style: style) }
  }

  /// Draws text right-aligned so that it ends just before `end`; returns its first column.
  @discardableResult
  mutating func drawRightAligned(
    _ text: String, row: Int, end: Int, maxWidth: Int, style: CellStyle = .plain
  ) -> Int {
    let width = min(DisplayWidth.of(text), maxWidth)
    let start = end - width
    draw(text, row: row, column: start, width: width, style: style)
    return start
  }
}
