/// A box of terminal cells to draw a photo in.
public struct CellBox: Equatable, Sendable {
  /// Columns.
  public var columns: Int
  /// Rows.
  public var rows: Int

  /// Creates a box (each side at least 1).
  public init(columns: Int, rows: Int) {
    self.columns = max(1, columns)
    self.rows = max(1, rows)
  }
}

/// One cell of a half-block picture in 24-bit colour: the glyph's foreground paints the upper
/// half (`▀`), the background the lower half; a cell whose halves match is a space.
public struct BlockCell: Equatable, Sendable {
  /// `▀` or a space.
  public var glyph: Character
  /// The upper half's colour.
  public var foreground: RGBColor
  /// The lower half's colour.
  public var background: RGBColor
}

/// One cell of a half-block picture in the xterm 256-colour palette (indices 16–255).
public struct IndexedBlockCell: Equatable, Sendable {
  /// `▀` or a space.
  public var glyph: Character
  /// The upper half's palette index.
  public var foreground: UInt8
  /// The lower half's palette index.
  public var background: UInt8
}

/// A photo drawn with coloured half blocks: two pixels a cell, one above the other, so pixels
/// are square in cells about twice as high as wide.
public struct BlockPicture: Equatable, Sendable {
  /// Columns used (at most the box's).
  public var columns: Int
  /// Rows used (at most the box's).
  public var rows: Int
  /// The cells, row by row.
  public var cells: [BlockCell]

  /// The cell at column `x`, row `y`.
  public func cell(_ x: Int, _ y: Int) -> BlockCell { cells[y * columns + x] }

  /// The same picture in the xterm 256-colour palette.
  public func indexed() -> IndexedBlockPicture {
    IndexedBlockPicture(
      columns: columns, rows: rows,
      cells: cells.map { cell in
        let top = XTerm256.index(cell.foreground)
        let bottom = XTerm256.index(cell.background)
        return IndexedBlockCell(
          glyph: top == bottom ? " " : "▀", foreground: top, background: bottom)
      })
  }
}

/// A half-block picture in the xterm 256-colour palette.
public struct IndexedBlockPicture: Equatable, Sendable {
  /// Columns used.
  public var columns: Int
  /// Rows used.
  public var rows: Int
  /// The cells, row by row.
  public var cells: [IndexedBlockCell]

  /// The cell at column `x`, row `y`.
  public func cell(_ x: Int, _ y: Int) -> IndexedBlockCell { cells[y * columns + x] }
}

/// Draws pixels as half-block cells, the picture every colour terminal can show.
public enum HalfBlocks {
  /// The picture of `image` scaled to fit `box` (keeping its aspect ratio; the picture uses
  /// only the columns and rows it needs), transparent parts over `background`.
  public static func render(
    _ image: RGBAImage, box: CellBox, background: RGBColor = .black
  ) -> BlockPicture {
    var (width, height) = image.fittedSize(maxWidth: box.columns, maxHeight: box.rows * 2)
    // Whole cells: an odd height gains or loses one pixel row.
    if height % 2 == 1 { height = height > 1 ? height - 1 : 2 }
    width = max(1, width)
    let scaled = image.resized(width: width, height: height)
    let rows = height / 2
    var cells: [BlockCell] = []
    cells.reserveCapacity(width * rows)
    for row in 0..<rows {
      for column in 0..<width {
        let top = composite(scaled.pixel(column, row * 2), over: background)
        let bottom = composite(scaled.pixel(column, row * 2 + 1), over: background)
        cells.append(
          BlockCell(glyph: top == bottom ? " " : "▀", foreground: top, background: bottom))
      }
    }
    return BlockPicture(columns: width, rows: rows, cells: cells)
  }

  /// A pixel over a background by its alpha.
  static func composite(_ pixel: (color: RGBColor, alpha: UInt8), over background: RGBColor)
    -> RGBColor
  {
    let alpha = Int(pixel.alpha)
    if alpha == 255 { return pixel.color }
    func mix(_ front: UInt8, _ back: UInt8) -> UInt8 {
      UInt8((Int(front) * alpha + Int(back) * (255 - alpha) + 127) / 255)
    }
    return RGBColor(
      mix(pixel.color.red, background.red), mix(pixel.color.green, background.green),
      mix(pixel.color.blue, background.blue))
  }
}

/// The xterm 256-colour palette's fixed part: the 6×6×6 cube (16–231) and 24 greys (232–255).
/// The first 16 colours are left out: terminals' themes change them.
public enum XTerm256 {
  private static let levels: [Int] = [0, 95, 135, 175, 215, 255]

  /// The colour of a palette index from 16 to 255.
  public static func color(_ index: UInt8) -> RGBColor {
    if index >= 232 {
      let grey = UInt8(8 + 10 * Int(index - 232))
      return RGBColor(grey, grey, grey)
    }
    let cube = Int(max(index, 16)) - 16
    return RGBColor(
      UInt8(levels[cube / 36]), UInt8(levels[(cube / 6) % 6]), UInt8(levels[cube % 6]))
  }

  /// The nearest palette index (16–255) to a colour, by squared distance.
  public static func index(_ color: RGBColor) -> UInt8 {
    func nearestLevel(_ value: UInt8) -> Int {
      var best = 0
      for (index, level) in levels.enumerated()
      where abs(level - Int(value)) < abs(levels[best] - Int(value)) {
        best = index
      }
      return best
    }
    let cube =
      16 + 36 * nearestLevel(color.red) + 6 * nearestLevel(color.green)
      + nearestLevel(color.blue)
    let average = (Int(color.red) + Int(color.green) + Int(color.blue)) / 3
    let grey = 232 + min(23, max(0, (average - 8 + 5) / 10))
    return distance(color, Self.color(UInt8(grey))) < distance(color, Self.color(UInt8(cube)))
      ? UInt8(grey) : UInt8(cube)
  }

  private static func distance(_ a: RGBColor, _ b: RGBColor) -> Int {
    let red = Int(a.red) - Int(b.red)
    let green = Int(a.green) - Int(b.green)
    let blue = Int(a.blue) - Int(b.blue)
    return red * red + green * green + blue * blue
  }
}
