import ChecklistsCore

/// What to draw for a photo in a box of cells.
public enum PhotoOutput: Equatable, Sendable {
  /// Half-block cells in 24-bit colour.
  case cells(BlockPicture)
  /// Half-block cells in the xterm 256-colour palette.
  case paletteCells(IndexedBlockPicture)
  /// Bytes to write with the cursor at the box's top-left cell (kitty, sixel, iTerm2); the
  /// image covers `columns`×`rows` cells.
  case escape(bytes: [UInt8], columns: Int, rows: Int)
  /// A line of text: `[photo 4032×3024 JPEG]`.
  case text(String)
}

/// The one place the screens ask for a photo's picture: how large to decode it, and what to
/// draw for it in each mode. Every call is a pure function of its arguments (apart from the
/// file and cache reads of `load`) and may run on a worker thread.
public enum PhotoView {
  /// The pixel size to decode at for a mode and box; nil for text (no pixels needed).
  public static func pixelSize(mode: GraphicsMode, box: CellBox, cell: CellPixelSize) -> (
    width: Int, height: Int
  )? {
    switch mode {
    case .text: return nil
    case .blocks: return (box.columns, box.rows * 2)
    case .kitty, .sixel, .iterm2: return (box.columns * cell.width, box.rows * cell.height)
    }
  }

  /// What to draw for a decoded photo. Pixel protocols get the image fitted to the box's
  /// pixels; `imageID` names a kitty image so that it can be deleted
  /// (`KittyGraphics.delete(id:)`).
  public static func render(
    _ decoded: DecodedImage, mode: GraphicsMode, box: CellBox,
    cell: CellPixelSize = .typical, imageID: UInt32 = 1, background: RGBColor = .black
  ) throws(ImageError) -> PhotoOutput {
    switch mode {
    case .text:
      return .text(decoded.info.caption)
    case .blocks(let depth):
      let picture = HalfBlocks.render(decoded.image, box: box, background: background)
      return depth == .trueColor ? .cells(picture) : .paletteCells(picture.indexed())
    case .kitty, .sixel, .iterm2:
      let (maxWidth, maxHeight) = (box.columns * cell.width, box.rows * cell.height)
      let (width, height) = decoded.image.fittedSize(maxWidth: maxWidth, maxHeight: maxHeight)
      let image = decoded.image.resized(width: width, height: height)
      let columns = min(box.columns, (width + cell.width - 1) / cell.width)
      let rows = min(box.rows, (height + cell.height - 1) / cell.height)
      let used = CellBox(columns: columns, rows: rows)
      let bytes: [UInt8]
      switch mode {
      case .kitty: bytes = KittyGraphics.transmit(image, id: imageID, box: used)
      case .sixel: bytes = try ChafaGraphics.sixel(image, box: used, cell: cell)
      default: bytes = try ChafaGraphics.iterm2(image, box: used, cell: cell)
      }
      return .escape(bytes: bytes, columns: used.columns, rows: used.rows)
    }
  }

  /// Reads and decodes an item's photo for a mode and box, through the thumbnail cache when
  /// one is given (a miss decodes the file and stores the result).
  public static func load(
    _ name: PhotoName, library: PhotoLibrary, cache: ThumbnailCache?, mode: GraphicsMode,
    box: CellBox, cell: CellPixelSize = .typical
  ) throws(ImageError) -> DecodedImage {
    let status: FileStatus
    do {
      status = try library.status(of: name)
    } catch {
      throw ImageError(.file(error))
    }
    guard let (width, height) = pixelSize(mode: mode, box: box, cell: cell) else {
      let bytes: [UInt8]
      do {
        bytes = try library.read(name)
      } catch {
        throw ImageError(.file(error))
      }
      let info = try ImageDecoder.probe(bytes)
      // Text needs no pixels: one transparent pixel stands for them.
      let pixel = RGBAImage(width: 1, height: 1) { _, _ in (.black, 0) }
      return DecodedImage(info: info, image: pixel)
    }
    if let cache, let entry = cache.read(for: name, width: width, height: height, source: status),
      let decoded = ThumbnailEntry.decode(entry)
    {
      return decoded
    }
    let bytes: [UInt8]
    do {
      bytes = try library.read(name)
    } catch {
      throw ImageError(.file(error))
    }
    let decoded = try ImageDecoder.decode(bytes, maxWidth: width, maxHeight: height)
    if let cache, let entry = try? ThumbnailEntry.encode(decoded) {
      try? cache.store(entry, for: name, width: width, height: height, source: status)
    }
    return decoded
  }
}

/// A thumbnail cache entry: `checklists-thumbnail 1 <format> <width> <height> <orientation>\n`
/// then a PNG of the upright, scaled pixels.
enum ThumbnailEntry {
  static let magic = "checklists-thumbnail 1"

  static func encode(_ decoded: DecodedImage) throws(ImageError) -> [UInt8] {
    let info = decoded.info
    let header =
      "\(magic) \(info.format.rawValue) \(info.storedWidth) \(info.storedHeight) "
      + "\(info.orientation.rawValue)\n"
    return Array(header.utf8) + (try ImageDecoder.encodePNG(decoded.image))
  }

  static func decode(_ entry: [UInt8]) -> DecodedImage? {
    guard let newline = entry.prefix(128).firstIndex(of: 0x0A) else { return nil }
    let words = String(decoding: entry[..<newline], as: UTF8.self).split(separator: " ")
    guard words.count == 6, "\(words[0]) \(words[1])" == magic,
      let format = PhotoFormat(rawValue: String(words[2])),
      let width = Int(words[3]), let height = Int(words[4]),
      let orientation = Int(words[5]).flatMap(ExifOrientation.init(rawValue:)),
      let png = try? ImageDecoder.decode(
        Array(entry[(newline + 1)...]), maxWidth: .max / 4, maxHeight: .max / 4)
    else { return nil }
    let info = ImageInfo(
      format: format, storedWidth: width, storedHeight: height, orientation: orientation)
    return DecodedImage(info: info, image: png.image)
  }
}
