import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The image formats a photo can be stored in, told apart by their first bytes.
public enum PhotoFormat: String, CaseIterable, Equatable, Sendable {
  case jpeg, png, webp, gif

  /// The file name extension the copy in the Photos folder gets (`jpg`, `png`, `webp`, `gif`).
  public var fileExtension: String {
    switch self {
    case .jpeg: return "jpg"
    case .png: return "png"
    case .webp: return "webp"
    case .gif: return "gif"
    }
  }

  /// The name shown to the user: `JPEG`, `PNG`, `WebP`, `GIF`.
  public var displayName: String {
    switch self {
    case .jpeg: return "JPEG"
    case .png: return "PNG"
    case .webp: return "WebP"
    case .gif: return "GIF"
    }
  }

  /// The format whose signature `bytes` start with, or nil for anything else.
  public static func sniff<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> PhotoFormat? {
    let head = Array(bytes.prefix(12))
    if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
    if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
    if head.starts(with: Array("GIF87a".utf8)) || head.starts(with: Array("GIF89a".utf8)) {
      return .gif
    }
    if head.count == 12, head[0..<4].elementsEqual("RIFF".utf8),
      head[8..<12].elementsEqual("WEBP".utf8)
    {
      return .webp
    }
    return nil
  }

  /// The format of a file name extension (`jpg`/`jpeg`, `png`, `webp`, `gif`, any case).
  init?(fileExtension: String) {
    switch fileExtension {
    case "jpg": self = .jpeg
    case "png": self = .png
    case "webp": self = .webp
    case "gif": self = .gif
    default: return nil
    }
  }
}

/// The name of one photo copy in the Photos folder: `Photo-<id>.<ext>`, where the id is 16
/// lowercase hexadecimal digits chosen at random when the photo is attached.
///
/// Only names of exactly this shape are accepted (from the file or the folder), so a value in a
/// data file can never name a path outside the Photos folder.
public struct PhotoName: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The photo id: 16 lowercase hexadecimal digits.
  public let id: String
  /// The stored format.
  public let format: PhotoFormat

  /// The file name, e.g. `Photo-3f2a9c0d1e4b5a67.jpg`.
  public var fileName: String { "Photo-\(id).\(format.fileExtension)" }

  /// The file name.
  public var description: String { fileName }

  /// Reads a file name of the exact shape `Photo-<16 hex digits>.<jpg|png|webp|gif>`.
  public init?(fileName: String) {
    let utf8 = Array(fileName.utf8)
    guard utf8.count > 23, utf8.starts(with: Array("Photo-".utf8)), utf8[22] == UInt8(ascii: ".")
    else { return nil }
    let hex = utf8[6..<22]
    guard hex.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
      return nil
    }
    guard let format = PhotoFormat(fileExtension: String(decoding: utf8[23...], as: UTF8.self))
    else { return nil }
    self.id = String(decoding: hex, as: UTF8.self)
    self.format = format
  }

  /// A new name with a random id.
  public static func random<G: RandomNumberGenerator>(
    format: PhotoFormat, using generator: inout G
  ) -> PhotoName {
    let number = UInt64.random(in: .min ... .max, using: &generator)
    let id = TextMatching.zeroPadded(String(number, radix: 16), to: 16)
    // The shape is right by construction.
    return PhotoName(fileName: "Photo-\(id).\(format.fileExtension)")!
  }

  /// A new name with a random id from the system's generator.
  public static func random(format: PhotoFormat) -> PhotoName {
    var generator = SystemRandomNumberGenerator()
    return random(format: format, using: &generator)
  }

  /// Orders by file name.
  public static func < (left: PhotoName, right: PhotoName) -> Bool {
    left.fileName < right.fileName
  }
}
