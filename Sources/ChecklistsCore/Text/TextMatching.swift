/// Small text operations that `NSString` used to give (they need all of Foundation).
public enum TextMatching {
  /// Whether `text` contains `needle`, ignoring case, accents and width as search does
  /// (`SearchFolding`: "cafe" finds "Café", "strasse" finds "Straße"); one text of a
  /// `FoldedMatcher`, which many texts should share.
  public static func contains(_ text: String, folding needle: String) -> Bool {
    var matcher = FoldedMatcher(needle)
    return matcher.matches(text)
  }

  /// The first place `needle` occurs in `text`, compared as UTF-8 bytes, or nil (an empty
  /// needle is not found). The standard library's `firstRange(of:)` would bring its string
  /// processing module (with the regex engine's) into the binary and a session's memory.
  public static func firstRange(of needle: String, in text: String) -> Range<String.Index>? {
    offset(of: needle, in: text, last: false).map {
      range(at: $0, count: needle.utf8.count, in: text)
    }
  }

  /// The last place `needle` occurs in `text` (as `firstRange(of:in:)` compares), or nil.
  public static func lastRange(of needle: String, in text: String) -> Range<String.Index>? {
    offset(of: needle, in: text, last: true).map {
      range(at: $0, count: needle.utf8.count, in: text)
    }
  }

  /// The byte offset of the first (or last) occurrence, read in place (a native string's
  /// UTF-8 is not copied).
  private static func offset(of needle: String, in text: String, last: Bool) -> Int? {
    var needle = needle
    var text = text
    return needle.withUTF8 { pattern in
      text.withUTF8 { bytes in
        guard !pattern.isEmpty, bytes.count >= pattern.count else { return nil }
        let starts = 0...(bytes.count - pattern.count)
        let matches = { (start: Int) in
          UnsafeBufferPointer(rebasing: bytes[start..<(start + pattern.count)])
            .elementsEqual(pattern)
        }
        return last ? starts.reversed().first(where: matches) : starts.first(where: matches)
      }
    }
  }

  private static func range(at offset: Int, count: Int, in text: String) -> Range<String.Index> {
    let lower = text.utf8.index(text.utf8.startIndex, offsetBy: offset)
    return lower..<text.utf8.index(lower, offsetBy: count)
  }

  static func lowerASCII(_ byte: UInt8) -> UInt8 {
    byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
  }

  static func containsLowered<Bytes: RandomAccessCollection<UInt8>>(
    _ bytes: Bytes, _ pattern: [UInt8]
  ) -> Bool where Bytes.Index == Int {
    guard bytes.count >= pattern.count else { return false }
    let first = pattern[0]
    var start = bytes.startIndex
    let last = bytes.endIndex - pattern.count
    while start <= last {
      if lowerASCII(bytes[start]) == first {
        var offset = 1
        while offset < pattern.count, lowerASCII(bytes[start + offset]) == pattern[offset] {
          offset += 1
        }
        if offset == pattern.count { return true }
      }
      start += 1
    }
    return false
  }

  /// `text` with every `scalar` replaced by `replacement`, scalar by scalar (so a `-` stays
  /// a `-` when a combining mark follows it, unlike `replacing`, which compares characters).
  public static func replacing(
    _ scalar: Unicode.Scalar, with replacement: String, in text: String
  ) -> String {
    guard text.unicodeScalars.contains(scalar) else { return text }
    var result = String.UnicodeScalarView()
    for each in text.unicodeScalars {
      if each == scalar {
        result.append(contentsOf: replacement.unicodeScalars)
      } else {
        result.append(each)
      }
    }
    return String(result)
  }

  /// The longest start `first` and `second` share, by characters.
  public static func commonPrefix(_ first: String, _ second: String) -> String {
    var result = ""
    for (left, right) in zip(first, second) {
      guard left == right else { break }
      result.append(left)
    }
    return result
  }

  /// `digits` with zeros added in front up to `width` characters (never cut).
  public static func zeroPadded(_ digits: String, to width: Int) -> String {
    let count = digits.count
    return count >= width ? digits : String(repeating: "0", count: width - count) + digits
  }

  /// `text` with spaces added at the end up to `width` characters (never cut).
  public static func padded(_ text: String, to width: Int) -> String {
    let count = text.count
    return count >= width ? text : text + String(repeating: " ", count: width - count)
  }

  /// `text` with each `%XX` replaced by the byte it stands for; nil when a `%` is not followed
  /// by two hexadecimal digits or the bytes are not UTF-8.
  public static func removingPercentEncoding(_ text: String) -> String? {
    var bytes: [UInt8] = []
    var iterator = Array(text.utf8).makeIterator()
    while let byte = iterator.next() {
      guard byte == UInt8(ascii: "%") else {
        bytes.append(byte)
        continue
      }
      guard let high = iterator.next().flatMap(hexValue),
        let low = iterator.next().flatMap(hexValue)
      else { return nil }
      bytes.append(high << 4 | low)
    }
    return String(validating: bytes, as: UTF8.self)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 0x30...0x39: return byte - 0x30
    case 0x41...0x46: return byte - 0x41 + 10
    case 0x61...0x66: return byte - 0x61 + 10
    default: return nil
    }
  }
}

/// One filter matched against many texts (`TextMatching.contains(_:folding:)` for each, without
/// its per-call work): the filter is folded once, and the folding's cache and buffer are kept
/// from one text to the next.
public struct FoldedMatcher {
  private let lowered: [UInt8]
  private let asciiNeedle: Bool
  private let folded: [UInt8]
  private var folding = SearchFolding()
  private var buffer: [UInt8] = []

  /// A matcher for `needle`.
  public init(_ needle: String) {
    let pattern = Array(needle.utf8)
    asciiNeedle = pattern.allSatisfy { $0 < 0x80 }
    lowered = pattern.map(TextMatching.lowerASCII)
    folded = SearchFolding.fold(needle)
  }

  /// Whether `text` contains the needle, ignoring case, accents and width.
  public mutating func matches(_ text: String) -> Bool {
    if folded.isEmpty { return true }
    if asciiNeedle,
      let result = text.utf8.withContiguousStorageIfAvailable({ bytes -> Bool? in
        bytes.allSatisfy({ $0 < 0x80 }) ? TextMatching.containsLowered(bytes, lowered) : nil
      }), let found = result
    {
      return found
    }
    buffer.removeAll(keepingCapacity: true)
    folding.fold(text, into: &buffer)
    return TextMatching.containsLowered(buffer, folded)
  }
}
