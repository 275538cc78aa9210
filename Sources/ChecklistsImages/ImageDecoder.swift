import CImageCodecs
import ChecklistsCore

/// What an image is, from its header: format, size and orientation.
public struct ImageInfo: Equatable, Sendable {
  /// The format.
  public var format: PhotoFormat
  /// The size as stored in the file.
  public var storedWidth: Int
  /// The size as stored in the file.
  public var storedHeight: Int
  /// The EXIF orientation (`.up` when none).
  public var orientation: ExifOrientation

  /// The width as shown (upright).
  public var width: Int { orientation.swapsSides ? storedHeight : storedWidth }
  /// The height as shown (upright).
  public var height: Int { orientation.swapsSides ? storedWidth : storedHeight }

  /// The plain-text stand-in for the photo: `[photo 4032×3024 JPEG]`.
  public var caption: String { "[photo \(width)×\(height) \(format.displayName)]" }
}

/// A photo decoded for showing: upright, scaled to fit the size asked for.
public struct DecodedImage: Equatable, Sendable {
  /// What the file holds.
  public var info: ImageInfo
  /// The pixels, upright.
  public var image: RGBAImage
}

/// Reads JPEG, PNG, WebP and GIF (its first frame) through the system's image libraries, which
/// are loaded the first time a photo is decoded (a run without photos never loads them).
///
/// Both calls may run on any thread at the same time: each decode has its own library state,
/// and the libraries are loaded once under `pthread_once`. Results are plain values.
public enum ImageDecoder {
  /// The most pixels a photo may have: 100 megapixels (checked on the header, before decoding).
  public static let maximumPixels = 100_000_000

  /// Reads format, size and EXIF orientation without decoding pixels.
  public static func probe(_ bytes: [UInt8]) throws(ImageError) -> ImageInfo {
    guard let format = PhotoFormat.sniff(bytes) else { throw ImageError(.notAnImage) }
    var info = cl_image_info()
    let status = bytes.withUnsafeBufferPointer {
      cl_image_probe(code(format), $0.baseAddress, $0.count, UInt64(maximumPixels), &info)
    }
    try check(status, info)
    return ImageInfo(
      format: format, storedWidth: Int(info.width), storedHeight: Int(info.height),
      orientation: ExifOrientation.read(bytes, format: format))
  }

  /// The caption of an image after decoding all of it (to a small size, which JPEG and WebP
  /// decode quickly); throws when any part of the image is damaged. What `attach` and the app's
  /// item form check before a file is stored.
  public static func checkedCaption(_ bytes: [UInt8]) throws(ImageError) -> String {
    try decode(bytes, maxWidth: 64, maxHeight: 64).info.caption
  }

  /// Decodes the image upright, scaled down to fit `maxWidth`×`maxHeight` pixels (keeping its
  /// aspect ratio, never scaled up). Only as many pixels as that needs are decoded where the
  /// format allows (JPEG at 1/8–1 scale in the DCT, WebP scaled by its decoder); PNG and GIF
  /// rows stream through an area-average scaler, so memory follows the size asked for.
  public static func decode(_ bytes: [UInt8], maxWidth: Int, maxHeight: Int) throws(ImageError)
    -> DecodedImage
  {
    guard let format = PhotoFormat.sniff(bytes) else { throw ImageError(.notAnImage) }
    let orientation = ExifOrientation.read(bytes, format: format)
    // The box in the stored orientation.
    let (boxWidth, boxHeight) =
      orientation.swapsSides ? (maxHeight, maxWidth) : (maxWidth, maxHeight)
    var info = cl_image_info()
    var pixels = cl_pixels()
    let status = bytes.withUnsafeBufferPointer {
      cl_image_decode(
        code(format), $0.baseAddress, $0.count, UInt32(clamping: max(1, boxWidth)),
        UInt32(clamping: max(1, boxHeight)), UInt64(maximumPixels), &info, &pixels)
    }
    defer { cl_pixels_free(&pixels) }
    try check(status, info)
    guard let base = pixels.pixels, pixels.width > 0, pixels.height > 0 else {
      throw ImageError(.unreadable(reason: "no pixels"))
    }
    let count = Int(pixels.width) * Int(pixels.height) * 4
    let copy = [UInt8](UnsafeBufferPointer(start: base, count: count))
    guard let image = RGBAImage(width: Int(pixels.width), height: Int(pixels.height), pixels: copy)
    else { throw ImageError(.unreadable(reason: "no pixels")) }
    let imageInfo = ImageInfo(
      format: format, storedWidth: Int(info.width), storedHeight: Int(info.height),
      orientation: orientation)
    return DecodedImage(info: imageInfo, image: image.oriented(orientation))
  }

  /// Encodes pixels as a PNG (for the thumbnail cache).
  public static func encodePNG(_ image: RGBAImage) throws(ImageError) -> [UInt8] {
    var out: UnsafeMutablePointer<UInt8>?
    var size = 0
    var message = [CChar](repeating: 0, count: 200)
    let status = image.pixels.withUnsafeBufferPointer { pixels in
      message.withUnsafeMutableBufferPointer { text in
        cl_png_encode(
          pixels.baseAddress, UInt32(image.width), UInt32(image.height), &out, &size,
          text.baseAddress, text.count)
      }
    }
    defer { cl_bytes_free(out) }
    try check(status, message: text(message), width: image.width, height: image.height)
    guard let out else { throw ImageError(.outOfMemory) }
    return [UInt8](UnsafeBufferPointer(start: out, count: size))
  }

  static func code(_ format: PhotoFormat) -> Int32 {
    switch format {
    case .jpeg: return Int32(CL_FORMAT_JPEG)
    case .png: return Int32(CL_FORMAT_PNG)
    case .webp: return Int32(CL_FORMAT_WEBP)
    case .gif: return Int32(CL_FORMAT_GIF)
    }
  }

  private static func check(_ status: Int32, _ info: cl_image_info) throws(ImageError) {
    var info = info
    let message = withUnsafeBytes(of: &info.message) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
    try check(status, message: message, width: Int(info.width), height: Int(info.height))
  }

  static func check(_ status: Int32, message: String, width: Int, height: Int) throws(ImageError) {
    switch status {
    case Int32(CL_OK): return
    case Int32(CL_ERROR_TOO_MANY_PIXELS):
      throw ImageError(.tooManyPixels(width: width, height: height))
    case Int32(CL_ERROR_LIBRARY): throw ImageError(.libraryMissing(reason: message))
    case Int32(CL_ERROR_MEMORY): throw ImageError(.outOfMemory)
    default:
      throw ImageError(.unreadable(reason: message.isEmpty ? "damaged data" : message))
    }
  }

  static func text(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
