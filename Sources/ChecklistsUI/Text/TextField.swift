/// A one-line text field that edits like readline, by grapheme cluster.
public struct TextField: Equatable, Sendable {
  /// The text, one element per grapheme cluster.
  public private(set) var characters: [Character]
  /// The cursor, as an index into `characters` (0…count).
  public private(set) var cursor: Int

  /// Creates a field holding `text` with the cursor at its end.
  public init(_ text: String = "") {
    characters = Array(text)
    cursor = characters.count
  }

  /// The text.
  public var text: String { String(characters) }

  /// Whether the text is empty or only white space.
  public var isBlank: Bool { characters.allSatisfy { $0.isWhitespace } }

  /// Replaces the text and puts the cursor at its end.
  public mutating func setText(_ text: String) {
    characters = Array(text)
    cursor = characters.count
  }

  /// Inserts text at the cursor: newlines and tabs become spaces, control characters go.
  public mutating func insert(_ text: String) {
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
  public mutating func handle(_ key: Key) -> Bool {
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
  public func firstVisible(width: Int) -> Int {
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
  public mutating func drawField(
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
