import ChecklistsCore

/// Which photo: an item's stored copy, or a file about to be attached.
public enum PhotoReference: Hashable, Sendable {
  /// A photo in the Photos folder.
  case stored(PhotoName)
  /// A file the user chose (not yet copied).
  case file(String)
}

/// A photo to draw in a box of cells, in the given colours.
public struct PhotoRequest: Hashable, Sendable {
  /// The photo.
  public var photo: PhotoReference
  /// The box, in cells.
  public var columns: Int
  public var rows: Int

  /// Creates a request.
  public init(photo: PhotoReference, columns: Int, rows: Int) {
    self.photo = photo
    self.columns = columns
    self.rows = rows
  }
}

/// How photos are drawn in the grid.
public enum PhotoColors: Sendable, Equatable {
  /// Half blocks in 24-bit colour.
  case trueColor
  /// Half blocks in the xterm 256-colour palette.
  case palette256
}

/// A photo drawn as cells (half blocks with exact colours), or why it cannot be.
public struct PhotoPicture: Equatable, Sendable {
  /// The picture's size in cells (at most the box's).
  public var columns: Int
  public var rows: Int
  /// Row-major cells: the glyph and its exact colours.
  public var cells: [Cell]
  /// The caption ("[photo 4032×3024 JPEG]"), or the reason it cannot be shown.
  public var caption: String
  /// Whether `caption` is an error ("cannot read this image: …").
  public var isError: Bool
  /// A terminal image (kitty, sixel, iTerm2) covering `columns`×`rows` cells, written at the
  /// box's top-left cell instead of cells.
  public var image: TerminalImage?

  /// Creates a picture.
  public init(columns: Int, rows: Int, cells: [Cell], caption: String, isError: Bool = false) {
    self.columns = columns
    self.rows = rows
    self.cells = cells
    self.caption = caption
    self.isError = isError
  }

  /// A terminal image of `columns`×`rows` cells.
  public static func image(_ image: TerminalImage, columns: Int, rows: Int, caption: String)
    -> PhotoPicture
  {
    var picture = PhotoPicture(columns: columns, rows: rows, cells: [], caption: caption)
    picture.image = image
    return picture
  }

  /// A picture that is only words (an error, or text mode).
  public static func text(_ caption: String, isError: Bool) -> PhotoPicture {
    PhotoPicture(columns: 0, rows: 0, cells: [], caption: caption, isError: isError)
  }
}

/// A picture drawn by the terminal itself (kitty's graphics, sixels, iTerm2's images).
public struct TerminalImage: Hashable, Sendable {
  /// How an image goes away when its box does.
  public enum Removal: Hashable, Sendable {
    /// Writing these bytes deletes it (kitty's `a=d`).
    case delete([UInt8])
    /// Drawing the cells under it again covers it (sixel, iTerm2).
    case overdraw
  }

  /// The bytes that draw it at the cursor.
  public var bytes: [UInt8]
  /// How it is removed.
  public var removal: Removal

  /// Creates an image.
  public init(bytes: [UInt8], removal: Removal) {
    self.bytes = bytes
    self.removal = removal
  }
}

/// A terminal image placed on the grid.
public struct GridImage: Hashable, Sendable {
  /// The image.
  public var image: TerminalImage
  /// Its top-left cell and size in cells.
  public var row: Int
  public var column: Int
  public var columns: Int
  public var rows: Int

  /// Creates a placement.
  public init(image: TerminalImage, row: Int, column: Int, columns: Int, rows: Int) {
    self.image = image
    self.row = row
    self.column = column
    self.columns = columns
    self.rows = rows
  }
}
