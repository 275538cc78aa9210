/// A one-line text field that edits like readline, by grapheme cluster.
struct TextField: Equatable, Sendable {
  /// The text, one element per grapheme cluster.
  private(set) var characters: [Character]
  /// The cursor, as an index into `characters` (0…count).
  private(set) var cursor: Int

  /// Creates a field holding `text` with the cursor at its end.
  init(_ text: String = "") {
    characters = Array(text)
    cursor = characters.count
  }

  /// The text.
  var text: String { String(characters) }

  /// Whether the text is empty or only white space.
  var isBlank: Bool { characters.allSatisfy { $0.isWhitespace } }

  /// Replaces the text and puts the cursor at its end.
  mutating func setText(_ text: String) {
    characters = Array(text)
    cursor = characters.count
  }

  /// Inserts text at the cursor: newlines and tabs become spaces, control characters go.
  mutating func insert(_ text: String) {
    var clean: [Character] = []
    for character in text {
      if character == "\t" || character.isNewline {
        clean.append(" ")
      } else if character.unicodeScalars.contains(where: { SafeText.isControl($0.value) }) {
        let kept = character.unicodeScalars.filter { !SafeText.isControl($0.value) }
        clean.append(contentsOf: String(String.UnicodeScalarView(kept)))
      } else {
        clean.append(character)
      }
    }
    characters.insert(contentsOf: clean, at: cursor)
    cursor += clean.count
  }

  /// Applies an editing key; returns false when the key is not an editing key.
  mutating func handle(_ key: Key) -> Bool {
    switch key {
    case .character(let character): insert(String(character))
    case .left: cursor = max(cursor - 1, 0)
    case .right: cursor = min(cursor + 1, characters.count)
    case .home, .control("a"): cursor = 0
    case .end, .control("e"): cursor = characters.count
    case .backspace, .control("h"):
      if cursor > 0 {
        characters.remove(at: cursor - 1)
        cursor -= 1
      }
    case .delete, .control("d"):
      if cursor < characters.count { characters.remove(at: cursor) }
    case .control("u"):
      characters.removeSubrange(0..<cursor)
      cursor = 0
    case .control("k"):
      characters.removeSubrange(cursor..<characters.count)
    case .control("w"):
      var start = cursor
      while start > 0 && characters[start - 1].isWhitespace { start -= 1 }
      while start > 0 && !characters[start - 1].isWhitespace { start -= 1 }
      characters.removeSubrange(start..<cursor)
      cursor = start
    default: return false
    }
    return true
  }

  /// The first character shown in a box `width` columns wide so that the cursor stays visible.
  func firstVisible(width: Int) -> Int {
    guard width > 1 else { return cursor }
    var start = cursor
    var used = 0
    while start > 0 {
      let next = SafeText.width(of: characters[start - 1])
      if used + next > width - 1 { break }
      used += next
      start -= 1
    }
    if start > 0 { return start }
    return 0
  }
}

extension CellGrid {
  /// Draws a text field in `width` columns, scrolled so the cursor shows; sets `cursor` if focused.
  mutating func drawField(
    _ field: TextField, row: Int, column: Int, width: Int, style: CellStyle, focused: Bool
  ) {
    guard width > 0 else { return }
    fill(row: row, column: column, width: width, style: style)
    let start = field.firstVisible(width: width)
    var used = 0
    var cursorColumn = column
    for index in start..<field.characters.count {
      if index == field.cursor { cursorColumn = column + used }
      let piece = String(field.characters[index])
      let pieceWidth = SafeText.width(of: field.characters[index])
      if used + pieceWidth > width { break }
      draw(piece, row: row, column: column + used, width: pieceWidth, style: style, ellipsis: false)
      used += pieceWidth
    }
    if field.cursor >= field.characters.count { cursorColumn = column + used }
    if focused && row >= 0 && row < height {
      cursor = GridPosition(row: row, column: min(cursorColumn, max(self.width - 1, 0)))
    }
  }
}

extension TextField {
  /// The field's characters broken into lines of at most `width` columns (at a space when the
  /// line has one, else anywhere), as index ranges; the cursor's line and column with them.
  ///
  /// A cursor after a full last line gets a line of its own, so it is always on screen.
  func wrapped(width: Int) -> (lines: [Range<Int>], cursorLine: Int, cursorColumn: Int) {
    let width = max(width, 2)
    var lines: [Range<Int>] = []
    var start = 0
    while start < characters.count {
      var used = 0
      var end = start
      while end < characters.count {
        let next = SafeText.width(of: characters[end])
        if used + next > width { break }
        used += next
        end += 1
      }
      if end == start { end = start + 1 }
      if end < characters.count,
        let space = characters[start..<end].lastIndex(where: { $0 == " " }), space > start
      {
        end = space + 1
      }
      lines.append(start..<end)
      start = end
    }
    if lines.isEmpty { lines = [0..<0] }
    for (number, line) in lines.enumerated() where cursor < line.upperBound {
      return (lines, number, columns(line.lowerBound..<cursor))
    }
    let last = lines.count - 1
    let column = columns(lines[last])
    if column >= width && cursor == characters.count {
      lines.append(characters.count..<characters.count)
      return (lines, last + 1, 0)
    }
    return (lines, last, column)
  }

  private func columns(_ range: Range<Int>) -> Int {
    characters[range].reduce(0) { $0 + SafeText.width(of: $1) }
  }
}

extension CellGrid {
  /// Draws a text field over up to `maxLines` rows from `row`, wrapped to `width` columns and
  /// scrolled by whole lines so the cursor shows; sets `cursor` if focused. Returns the number
  /// of rows used.
  @discardableResult
  mutating func drawWrappedField(
    _ field: TextField, row: Int, column: Int, width: Int, maxLines: Int, style: CellStyle,
    focused: Bool
  ) -> Int {
    guard width > 0 else { return 0 }
    let layout = field.wrapped(width: width)
    let shown = max(min(layout.lines.count, maxLines), 1)
    let first = min(max(layout.cursorLine - shown + 1, 0), layout.lines.count - shown)
    for offset in 0..<shown {
      let y = row + offset
      fill(row: y, column: column, width: width, style: style)
      var used = 0
      for index in layout.lines[first + offset] {
        let pieceWidth = SafeText.width(of: field.characters[index])
        draw(
          String(field.characters[index]), row: y, column: column + used, width: pieceWidth,
          style: style, ellipsis: false)
        used += pieceWidth
      }
    }
    let cursorRow = row + layout.cursorLine - first
    if focused && cursorRow >= 0 && cursorRow < height {
      cursor = GridPosition(
        row: cursorRow, column: min(column + layout.cursorColumn, max(self.width - 1, 0)))
    }
    return shown
  }
}
