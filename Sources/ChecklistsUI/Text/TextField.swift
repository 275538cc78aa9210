/// A text field that edits like readline, by grapheme cluster: one line (a newline typed or
/// pasted becomes a space), or several lines (`multiline`: newlines are kept as `\n`).
struct TextField: Equatable, Sendable {
  /// The text, one element per grapheme cluster.
  private(set) var characters: [Character]
  /// The cursor, as an index into `characters` (0…count).
  private(set) var cursor: Int
  /// Whether the text may hold line breaks (the Notes field).
  let multiline: Bool

  /// Creates a field holding `text` with the cursor at its end.
  init(_ text: String = "", multiline: Bool = false) {
    self.multiline = multiline
    characters = []
    cursor = 0
    setText(text)
  }

  /// The text.
  var text: String { String(characters) }

  /// Whether the text shows nothing: empty, white space, or invisible characters only.
  var isBlank: Bool { text.showsNothing }

  /// Replaces the text and puts the cursor at its end. The text is kept as it is (control
  /// characters are drawn made visible, as data), but for a multi-line field's line breaks
  /// (CR LF, CR, LF…), each one `\n`.
  mutating func setText(_ text: String) {
    characters = multiline ? text.map { $0.isNewline ? "\n" : $0 } : Array(text)
    cursor = characters.count
  }

  /// Inserts text at the cursor: control characters go, tabs become spaces, and so do
  /// newlines in a one-line field (where the newlines a paste ends with are dropped); a
  /// multi-line field keeps each line break (CR LF, CR, LF…) as one `\n`.
  mutating func insert(_ text: String) {
    var clean = Self.cleaned(text, multiline: multiline)
    if !multiline {
      let trailing = text.reversed().prefix(while: \.isNewline).count
      clean.removeLast(min(trailing, clean.count))
    }
    characters.insert(contentsOf: clean, at: cursor)
    cursor += clean.count
  }

  private static func cleaned(_ text: String, multiline: Bool) -> [Character] {
    var clean: [Character] = []
    for character in text {
      if character.isNewline {
        clean.append(multiline ? "\n" : " ")
      } else if character == "\t" {
        clean.append(" ")
      } else if character.unicodeScalars.contains(where: { SafeText.isControl($0.value) }) {
        let kept = character.unicodeScalars.filter { !SafeText.isControl($0.value) }
        clean.append(contentsOf: String(String.UnicodeScalarView(kept)))
      } else {
        clean.append(character)
      }
    }
    return clean
  }

  /// Applies an editing key; returns false when the key is not an editing key.
  ///
  /// In a multi-line field Home/End, Ctrl-A/E, Ctrl-U and Ctrl-K work on the cursor's line
  /// (Ctrl-K at a line's end joins the next line, as in Emacs), and Ctrl-D is not an editing
  /// key: the Notes field leaves with it, as a shell's input ends with it.
  mutating func handle(_ key: Key) -> Bool {
    if multiline, let handled = handleOnLine(key) { return handled }
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
  /// line has one, else anywhere; always at a `\n`, which no line includes), as index ranges;
  /// the cursor's line and column with them.
  ///
  /// A cursor after a full line that ends its paragraph gets a line of its own, so it is
  /// always on screen.
  func wrapped(width: Int) -> (lines: [Range<Int>], cursorLine: Int, cursorColumn: Int) {
    let width = max(width, 2)
    var lines: [Range<Int>] = []
    var cursorLine = 0
    var cursorColumn = 0
    var paragraph = 0
    while true {
      var end = paragraph
      while end < characters.count && characters[end] != "\n" { end += 1 }
      let first = lines.count
      var start = paragraph
      while start < end {
        var used = 0
        var lineEnd = start
        while lineEnd < end {
          let next = SafeText.width(of: characters[lineEnd])
          if used + next > width { break }
          used += next
          lineEnd += 1
        }
        if lineEnd == start { lineEnd = start + 1 }
        if lineEnd < end,
          let space = characters[start..<lineEnd].lastIndex(where: { $0 == " " }), space > start
        {
          lineEnd = space + 1
        }
        lines.append(start..<lineEnd)
        start = lineEnd
      }
      if lines.count == first { lines.append(paragraph..<paragraph) }
      if cursor >= paragraph && cursor <= end {
        if let number = (first..<lines.count).first(where: { cursor < lines[$0].upperBound }) {
          cursorLine = number
          cursorColumn = columns(lines[number].lowerBound..<cursor)
        } else {
          cursorLine = lines.count - 1
          cursorColumn = columns(lines[cursorLine])
          if cursorColumn >= width {
            lines.append(end..<end)
            cursorLine += 1
            cursorColumn = 0
          }
        }
      }
      guard end < characters.count else { break }
      paragraph = end + 1
    }
    return (lines, cursorLine, cursorColumn)
  }

  private func columns(_ range: Range<Int>) -> Int {
    characters[range].reduce(0) { $0 + SafeText.width(of: $1) }
  }

  /// Moves the cursor `offset` lines (as `wrapped(width:)` breaks them) up or down, to the
  /// column nearest the one it is at; false when there is no such line.
  mutating func moveLines(by offset: Int, width: Int) -> Bool {
    let layout = wrapped(width: width)
    let target = layout.cursorLine + offset
    guard offset != 0, target >= 0, target < layout.lines.count else { return false }
    let line = layout.lines[target]
    // A line that wraps on ends before its last character (after it is the next line).
    let endsParagraph = line.upperBound == characters.count || characters[line.upperBound] == "\n"
    let last =
      endsParagraph && columns(line) < max(width, 2)
      ? line.upperBound : max(line.upperBound - 1, line.lowerBound)
    var position = line.lowerBound
    var used = 0
    while position < last {
      let next = SafeText.width(of: characters[position])
      if used + next > layout.cursorColumn { break }
      used += next
      position += 1
    }
    cursor = position
    return true
  }

  /// The start of the line the cursor is on (after the `\n` before it).
  private var lineStart: Int {
    var start = cursor
    while start > 0 && characters[start - 1] != "\n" { start -= 1 }
    return start
  }

  /// The end of the line the cursor is on (at the `\n` after it, or the end).
  private var lineEnd: Int {
    var end = cursor
    while end < characters.count && characters[end] != "\n" { end += 1 }
    return end
  }

  /// The keys that work on the cursor's line in a multi-line field; nil for the others.
  fileprivate mutating func handleOnLine(_ key: Key) -> Bool? {
    switch key {
    case .home, .control("a"): cursor = lineStart
    case .end, .control("e"): cursor = lineEnd
    case .control("u"):
      let start = lineStart
      characters.removeSubrange(start..<cursor)
      cursor = start
    case .control("k"):
      let end = lineEnd
      characters.removeSubrange(cursor..<(end == cursor ? min(end + 1, characters.count) : end))
    case .control("d"): return false
    default: return nil
    }
    return true
  }
}

extension CellGrid {
  /// Draws a text field over up to `maxLines` rows from `row`, wrapped to `width` columns and
  /// scrolled by whole lines so the cursor shows (or from its first line, `fromTop`, when it
  /// is not focused); sets `cursor` if focused. Returns the number of rows used.
  @discardableResult
  mutating func drawWrappedField(
    _ field: TextField, row: Int, column: Int, width: Int, maxLines: Int, style: CellStyle,
    focused: Bool, fromTop: Bool = false
  ) -> Int {
    guard width > 0 else { return 0 }
    let layout = field.wrapped(width: width)
    let shown = max(min(layout.lines.count, maxLines), 1)
    let first =
      fromTop && !focused
      ? 0 : min(max(layout.cursorLine - shown + 1, 0), layout.lines.count - shown)
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
