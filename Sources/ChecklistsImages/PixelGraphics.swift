import CImageCodecs
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The size of one terminal cell in pixels (from `TIOCGWINSZ`'s pixel fields, or a guess).
public struct CellPixelSize: Equatable, Sendable {
  /// Width in pixels.
  public var width: Int
  /// Height in pixels.
  public var height: Int

  /// Creates a size (each side at least 1).
  public init(width: Int, height: Int) {
    self.width = max(1, width)
    self.height = max(1, height)
  }

  /// What most terminals use at common font sizes, for when the terminal does not say.
  public static let typical = CellPixelSize(width: 10, height: 20)

  /// The cell size from a window size in cells and pixels (`TIOCGWINSZ`); `typical` when the
  /// terminal reports no pixels.
  public static func from(columns: Int, rows: Int, pixelWidth: Int, pixelHeight: Int)
    -> CellPixelSize
  {
    guard columns > 0, rows > 0, pixelWidth >= columns, pixelHeight >= rows else {
      return typical
    }
    return CellPixelSize(width: pixelWidth / columns, height: pixelHeight / rows)
  }
}

/// The kitty graphics protocol: images sent as base64 pixels in chunks, placed at the cursor,
/// deleted by id.
public enum KittyGraphics {
  /// Bytes of base64 a chunk carries (the protocol's limit).
  static let chunkSize = 4096

  /// Sends `image` and places it at the cursor over `box` (scaled by the terminal to those
  /// cells), under `id`; the cursor does not move (`C=1`) and the terminal answers nothing
  /// (`q=2`).
  public static func transmit(_ image: RGBAImage, id: UInt32, box: CellBox) -> [UInt8] {
    let payload = Data(image.pixels).base64EncodedString()
    var out: [UInt8] = []
    out.reserveCapacity(payload.utf8.count + payload.utf8.count / chunkSize * 16 + 128)
    var start = payload.startIndex
    var first = true
    repeat {
      let end =
        payload.index(start, offsetBy: chunkSize, limitedBy: payload.endIndex)
        ?? payload.endIndex
      let more = end < payload.endIndex ? 1 : 0
      var control = "m=\(more)"
      if first {
        control =
          "a=T,f=32,s=\(image.width),v=\(image.height),i=\(id),c=\(box.columns),"
          + "r=\(box.rows),C=1,q=2,\(control)"
      }
      out += Array("\u{1B}_G\(control);".utf8)
      out += Array(payload[start..<end].utf8)
      out += [0x1B, 0x5C]
      start = end
      first = false
    } while start < payload.endIndex
    return out
  }

  /// Deletes the image `id` and frees its data (`a=d,d=I`).
  public static func delete(id: UInt32) -> [UInt8] {
    Array("\u{1B}_Ga=d,d=I,i=\(id),q=2\u{1B}\\".utf8)
  }

  /// Deletes every image placement on the screen (`a=d,d=A`): for suspend and exit.
  public static let deleteAll: [UInt8] = Array("\u{1B}_Ga=d,d=A,q=2\u{1B}\\".utf8)
}

/// Sixel and iTerm2 inline images, encoded by chafa.
public enum ChafaGraphics {
  /// Sixel bytes for `image` drawn over `box` cells of `cell` pixels.
  public static func sixel(_ image: RGBAImage, box: CellBox, cell: CellPixelSize)
    throws(ImageError) -> [UInt8]
  {
    try render(Int32(CL_CHAFA_SIXELS), image, box: box, cell: cell)
  }

  /// iTerm2 inline-image bytes (`ESC ] 1337 ; File=…`) for `image` over `box`.
  public static func iterm2(_ image: RGBAImage, box: CellBox, cell: CellPixelSize)
    throws(ImageError) -> [UInt8]
  {
    try render(Int32(CL_CHAFA_ITERM2), image, box: box, cell: cell)
  }

  private static func render(
    _ mode: Int32, _ image: RGBAImage, box: CellBox, cell: CellPixelSize
  ) throws(ImageError) -> [UInt8] {
    var out: UnsafeMutablePointer<UInt8>?
    var size = 0
    var message = [CChar](repeating: 0, count: 200)
    let status = image.pixels.withUnsafeBufferPointer { pixels in
      message.withUnsafeMutableBufferPointer { text in
        cl_chafa_render(
          mode, pixels.baseAddress, UInt32(image.width), UInt32(image.height),
          Int32(box.columns), Int32(box.rows), Int32(cell.width), Int32(cell.height), &out,
          &size, text.baseAddress, text.count)
      }
    }
    defer { cl_bytes_free(out) }
    try ImageDecoder.check(
      status, message: ImageDecoder.text(message), width: image.width, height: image.height)
    guard let out else { throw ImageError(.outOfMemory) }
    return [UInt8](UnsafeBufferPointer(start: out, count: size))
  }
}
