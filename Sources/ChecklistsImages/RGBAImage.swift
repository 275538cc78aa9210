/// A colour of 8 bits a channel.
public struct RGBColor: Hashable, Sendable, CustomStringConvertible {
  /// Red.
  public var red: UInt8
  /// Green.
  public var green: UInt8
  /// Blue.
  public var blue: UInt8

  /// Creates a colour.
  public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
    self.red = red
    self.green = green
    self.blue = blue
  }

  /// Black.
  public static let black = RGBColor(0, 0, 0)

  /// `#rrggbb`.
  public var description: String {
    "#" + [red, green, blue].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
  }
}

/// Pixels, 8 bits a channel, red-green-blue-alpha (not premultiplied), rows top to bottom.
public struct RGBAImage: Equatable, Sendable {
  /// Width in pixels.
  public let width: Int
  /// Height in pixels.
  public let height: Int
  /// `width * height * 4` bytes.
  public let pixels: [UInt8]

  /// An image from its pixels; nil when the count does not match the size.
  public init?(width: Int, height: Int, pixels: [UInt8]) {
    guard width > 0, height > 0, pixels.count == width * height * 4 else { return nil }
    self.width = width
    self.height = height
    self.pixels = pixels
  }

  /// An image whose pixel at (x, y) is `color(x, y)` (for tests and placeholders).
  public init(width: Int, height: Int, color: (Int, Int) -> (RGBColor, UInt8)) {
    precondition(width > 0 && height > 0, "an image has at least one pixel")
    var pixels = [UInt8]()
    pixels.reserveCapacity(width * height * 4)
    for y in 0..<height {
      for x in 0..<width {
        let (rgb, alpha) = color(x, y)
        pixels += [rgb.red, rgb.green, rgb.blue, alpha]
      }
    }
    self.width = width
    self.height = height
    self.pixels = pixels
  }

  /// The colour and alpha at (x, y).
  public func pixel(_ x: Int, _ y: Int) -> (color: RGBColor, alpha: UInt8) {
    let offset = (y * width + x) * 4
    return (RGBColor(pixels[offset], pixels[offset + 1], pixels[offset + 2]), pixels[offset + 3])
  }

  /// The image turned and mirrored as an EXIF orientation says, so that it shows upright.
  public func oriented(_ orientation: ExifOrientation) -> RGBAImage {
    if orientation == .up { return self }
    let (w, h) = (width, height)
    let swaps = orientation.swapsSides
    let outWidth = swaps ? h : w
    let outHeight = swaps ? w : h
    var out = [UInt8](repeating: 0, count: pixels.count)
    for y in 0..<outHeight {
      for x in 0..<outWidth {
        let source: (Int, Int)
        switch orientation {
        case .up: source = (x, y)
        case .upMirrored: source = (w - 1 - x, y)
        case .down: source = (w - 1 - x, h - 1 - y)
        case .downMirrored: source = (x, h - 1 - y)
        case .leftMirrored: source = (y, x)
        case .right: source = (y, h - 1 - x)
        case .rightMirrored: source = (w - 1 - y, h - 1 - x)
        case .left: source = (w - 1 - y, x)
        }
        let from = (source.1 * w + source.0) * 4
        let to = (y * outWidth + x) * 4
        out[to] = pixels[from]
        out[to + 1] = pixels[from + 1]
        out[to + 2] = pixels[from + 2]
        out[to + 3] = pixels[from + 3]
      }
    }
    return RGBAImage(unchecked: outWidth, outHeight, out)
  }

  /// The image at `newWidth`×`newHeight`: an area average when smaller, the nearest pixel when
  /// larger (so that a small image keeps sharp edges in big cells).
  public func resized(width newWidth: Int, height newHeight: Int) -> RGBAImage {
    precondition(newWidth > 0 && newHeight > 0, "an image has at least one pixel")
    if newWidth == width && newHeight == height { return self }
    var out = [UInt8](repeating: 0, count: newWidth * newHeight * 4)
    for y in 0..<newHeight {
      let top = y * height / newHeight
      let bottom = max(top + 1, (y + 1) * height / newHeight)
      for x in 0..<newWidth {
        let left = x * width / newWidth
        let right = max(left + 1, (x + 1) * width / newWidth)
        var sums = (0, 0, 0, 0)
        for sy in top..<bottom {
          for sx in left..<right {
            let offset = (sy * width + sx) * 4
            let alpha = Int(pixels[offset + 3])
            sums.0 += Int(pixels[offset]) * alpha
            sums.1 += Int(pixels[offset + 1]) * alpha
            sums.2 += Int(pixels[offset + 2]) * alpha
            sums.3 += alpha
          }
        }
        let count = (bottom - top) * (right - left)
        let to = (y * newWidth + x) * 4
        if sums.3 > 0 {
          out[to] = UInt8((sums.0 + sums.3 / 2) / sums.3)
          out[to + 1] = UInt8((sums.1 + sums.3 / 2) / sums.3)
          out[to + 2] = UInt8((sums.2 + sums.3 / 2) / sums.3)
          out[to + 3] = UInt8((sums.3 + count / 2) / count)
        }
      }
    }
    return RGBAImage(unchecked: newWidth, newHeight, out)
  }

  /// The size that fits this image in `maxWidth`×`maxHeight` keeping its aspect ratio, scaled up
  /// or down, at least 1×1.
  public func fittedSize(maxWidth: Int, maxHeight: Int) -> (width: Int, height: Int) {
    Self.fit(width: width, height: height, maxWidth: maxWidth, maxHeight: maxHeight)
  }

  /// The size that fits `width`×`height` in `maxWidth`×`maxHeight` keeping the aspect ratio.
  public static func fit(width: Int, height: Int, maxWidth: Int, maxHeight: Int) -> (
    width: Int, height: Int
  ) {
    let maxWidth = max(1, maxWidth)
    let maxHeight = max(1, maxHeight)
    if maxWidth * height <= maxHeight * width {
      return (maxWidth, max(1, min(maxHeight, (height * maxWidth + width / 2) / width)))
    }
    return (max(1, min(maxWidth, (width * maxHeight + height / 2) / height)), maxHeight)
  }

  private init(unchecked width: Int, _ height: Int, _ pixels: [UInt8]) {
    self.width = width
    self.height = height
    self.pixels = pixels
  }
}
