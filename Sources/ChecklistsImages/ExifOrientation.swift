import ChecklistsCore

/// How a camera stored a photo relative to upright: the EXIF `Orientation` tag (274), 1–8.
public enum ExifOrientation: Int, CaseIterable, Sendable {
  case up = 1
  case upMirrored = 2
  case down = 3
  case downMirrored = 4
  case leftMirrored = 5
  case right = 6
  case rightMirrored = 7
  case left = 8

  /// Whether the upright image's width is the stored height (a quarter turn).
  public var swapsSides: Bool { rawValue >= 5 }

  /// The orientation recorded in an image's EXIF data (JPEG APP1, PNG `eXIf`, WebP `EXIF`);
  /// `.up` when there is none or it cannot be read. Only the containers are walked, within
  /// the bytes, so damaged data reads as `.up`.
  public static func read(_ bytes: [UInt8], format: PhotoFormat) -> ExifOrientation {
    let tiff: ArraySlice<UInt8>?
    switch format {
    case .jpeg: tiff = jpegExif(bytes)
    case .png: tiff = pngExif(bytes)
    case .webp: tiff = webpExif(bytes)
    case .gif: tiff = nil
    }
    guard let tiff, let value = orientation(inTIFF: tiff) else { return .up }
    return ExifOrientation(rawValue: value) ?? .up
  }

  /// The TIFF data of a JPEG's `Exif` APP1 segment (markers before the scan only).
  static func jpegExif(_ bytes: [UInt8]) -> ArraySlice<UInt8>? {
    guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
    var offset = 2
    while offset + 4 <= bytes.count {
      guard bytes[offset] == 0xFF else { return nil }
      let marker = bytes[offset + 1]
      if marker == 0xFF {  // fill byte
        offset += 1
        continue
      }
      if marker == 0xDA || marker == 0xD9 { return nil }  // scan or end: no EXIF before it
      if (0xD0...0xD7).contains(marker) || marker == 0x01 {
        offset += 2
        continue
      }
      let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
      guard length >= 2, offset + 2 + length <= bytes.count else { return nil }
      let payload = bytes[(offset + 4)..<(offset + 2 + length)]
      if marker == 0xE1, payload.starts(with: Array("Exif\0\0".utf8)) {
        return payload.dropFirst(6)
      }
      offset += 2 + length
    }
    return nil
  }

  /// The TIFF data of a PNG's `eXIf` chunk (before the image data).
  static func pngExif(_ bytes: [UInt8]) -> ArraySlice<UInt8>? {
    var offset = 8
    while offset + 12 <= bytes.count {
      let length = Int(bigEndian32(bytes, offset))
      let type = bytes[(offset + 4)..<(offset + 8)]
      guard length >= 0, offset + 12 + length <= bytes.count else { return nil }
      if type.elementsEqual("eXIf".utf8) {
        return bytes[(offset + 8)..<(offset + 8 + length)]
      }
      if type.elementsEqual("IDAT".utf8) || type.elementsEqual("IEND".utf8) { return nil }
      offset += 12 + length
    }
    return nil
  }

  /// The TIFF data of a WebP's `EXIF` chunk (some writers put `Exif\0\0` first).
  static func webpExif(_ bytes: [UInt8]) -> ArraySlice<UInt8>? {
    var offset = 12
    while offset + 8 <= bytes.count {
      let type = bytes[offset..<(offset + 4)]
      let size =
        Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16
        | Int(bytes[offset + 7]) << 24
      guard offset + 8 + size <= bytes.count else { return nil }
      if type.elementsEqual("EXIF".utf8) {
        let payload = bytes[(offset + 8)..<(offset + 8 + size)]
        return payload.starts(with: Array("Exif\0\0".utf8)) ? payload.dropFirst(6) : payload
      }
      offset += 8 + size + (size & 1)
    }
    return nil
  }

  /// The Orientation tag of the first image directory of TIFF data, if present.
  static func orientation(inTIFF tiff: ArraySlice<UInt8>) -> Int? {
    let data = Array(tiff)
    guard data.count >= 8 else { return nil }
    let little: Bool
    switch (data[0], data[1]) {
    case (0x49, 0x49): little = true
    case (0x4D, 0x4D): little = false
    default: return nil
    }
    func read16(_ at: Int) -> Int? {
      guard at >= 0, at + 2 <= data.count else { return nil }
      return little
        ? Int(data[at]) | Int(data[at + 1]) << 8 : Int(data[at]) << 8 | Int(data[at + 1])
    }
    func read32(_ at: Int) -> Int? {
      guard let high = read16(little ? at + 2 : at), let low = read16(little ? at : at + 2)
      else { return nil }
      return high << 16 | low
    }
    guard read16(2) == 42, let directory = read32(4), let count = read16(directory) else {
      return nil
    }
    for index in 0..<count {
      let entry = directory + 2 + index * 12
      guard let tag = read16(entry) else { return nil }
      guard tag == 0x0112 else { continue }
      // SHORT (3), one value, stored in the first two bytes of the value field.
      guard read16(entry + 2) == 3, let value = read16(entry + 8) else { return nil }
      return value
    }
    return nil
  }

  private static func bigEndian32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
    UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
      | UInt32(bytes[offset + 3])
  }
}
