/// A colour role; the terminal layer maps roles to colour pairs (or to attributes without colour).
public enum ColorRole: UInt8, CaseIterable, Sendable {
  case normal, title, selection, status, error, dim, accent, overdue, checked, control
}

/// Text attributes of a cell.
public struct TextAttributes: OptionSet, Hashable, Sendable {
  public let rawValue: UInt8
  /// Creates attributes from raw bits.
  public init(rawValue: UInt8) { self.rawValue = rawValue }
  public static let bold = TextAttributes(rawValue: 1 << 0)
  public static let dim = TextAttributes(rawValue: 1 << 1)
  public static let reverse = TextAttributes(rawValue: 1 << 2)
  public static let underline = TextAttributes(rawValue: 1 << 3)
}

/// An exact colour for a cell of a picture (a photo's half blocks), beside the roles.
public enum CellColor: Hashable, Sendable {
  /// 24-bit colour.
  case rgb(UInt8, UInt8, UInt8)
  /// An index into the xterm 256-colour palette.
  case palette(UInt8)
}

/// How a cell looks.
public struct CellStyle: Hashable, Sendable {
  /// The colour role.
  public var color: ColorRole
  /// Bold, dim, reverse, underline.
  public var attributes: TextAttributes
  /// Exact foreground and background colours (a photo's cells), drawn instead of the role's.
  public var foreground: CellColor?
  public var background: CellColor?

  /// Creates a style.
  public init(
    color: ColorRole = .normal, attributes: TextAttributes = [], foreground: CellColor? = nil,
    background: CellColor? = nil
  ) {
    self.color = color
    self.attributes = attributes
    self.foreground = foreground
    self.background = background
  }

  /// Whether the cell has exact colours (the terminal layer writes them itself).
  public var hasExactColors: Bool { foreground != nil || background != nil }

  /// Plain text.
  public static let plain = CellStyle()
}

/// One screen cell.
///
/// `text` is one grapheme cluster that is safe to write to a terminal (no control characters),
/// " " for a blank cell, or "" for the right half of a two-column character in the cell before.
public struct Cell: Hashable, Sendable {
  /// The grapheme shown, " " when blank, "" when covered by the wide character to the left.
  public var text: String
  /// How it looks.
  public var style: CellStyle

  /// Creates a cell.
  public init(text: String = " ", style: CellStyle = .plain) {
    self.text = text
    self.style = style
  }

  /// A blank cell.
  static let blank = Cell()
}

/// A position on the screen, 0-based.
public struct GridPosition: Hashable, Sendable {
  /// The row, from the top.
  public var row: Int
  /// The column, from the left.
  public var column: Int

  /// Creates a position.
  public init(row: Int, column: Int) {
    self.row = row
    self.column = column
  }
}

/// The screen drawn in memory: views draw into it, the terminal layer flushes it.
public struct CellGrid: Equatable, Sendable {
  /// Columns.
  public let width: Int
  /// Rows.
  public let height: Int
  /// Row-major cells, `width * height` of them.
  public private(set) var cells: [Cell]
  /// Where the terminal cursor should be shown (a text field being edited), or nil to hide it.
  public var cursor: GridPosition?
  /// Terminal images drawn over the cells (photos in kitty, sixel or iTerm2 form).
  public var images: [GridImage] = []

  /// Creates a blank grid; negative sizes count as zero.
  public init(width: Int, height: Int) {
    self.width = max(width, 0)
    self.height = max(height, 0)
    self.cells = Array(repeating: .blank, count: self.width * self.height)
    self.cursor = nil
  }

  /// The cell at a position; positions outside the grid read as blank and ignore writes.
  public subscript(row: Int, column: Int) -> Cell {
    get {
      guard row >= 0, row < height, column >= 0, column < width else { return .blank }
      return cells[row * width + column]
    }
    set {
      guard row >= 0, row < height, column >= 0, column < width else { return }
      cells[row * width + column] = newValue
    }
  }

  /// Blanks every cell and hides the cursor.
  public mutating func clear() {
    for index in cells.indices { cells[index] = .blank }
    cursor = nil
  }

  /// A row as plain text (wide characters once, trailing blanks kept): for snapshots and tests.
  func rowText(_ row: Int) -> String {
    guard row >= 0, row < height else { return "" }
    var text = ""
    for column in 0..<width {
      text += cells[row * width + column].text
    }
    return text
  }

  /// The whole grid as text, one line per row, trailing blanks trimmed: for snapshot tests.
  var snapshot: String {
    (0..<height).map { row -> String in
      var line = rowText(row)
      while line.last == " " { line.removeLast() }
      return line
    }.joined(separator: "\n")
  }
}
