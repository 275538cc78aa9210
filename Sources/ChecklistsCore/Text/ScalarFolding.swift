/// The letter under a letter's accents and the narrow form of a full-width one, for search
/// ("É" → "E", "ｆ" → "f"), without ICU (whose folding needs all of Foundation).
///
/// The Latin, Greek and Cyrillic blocks are folded by tables made ahead of time
/// (`ScalarFolding+Tables.swift`, made by `scripts/update-fold-tables`) from the Unicode data
/// the standard library carries: a precomposed letter's base comes from its Unicode name
/// (`LATIN SMALL LETTER E WITH ACUTE` is `LATIN SMALL LETTER E` with accents), letters with a
/// stroke (ø, ł, đ) count as accented too, so "lodz" finds "Łódź", and lower case is folded as
/// Unicode's case folding does where it differs (ß is "ss", ς is σ, ſ is s). Working the tables
/// out from the names took milliseconds at the first search or the first sort of names beyond
/// ASCII; a test checks them against that working.
enum ScalarFolding {
  /// `scalar` lower-cased and case-folded, for a scalar outside the tables (no letter there
  /// has a base of its own).
  static func folded(_ scalar: Unicode.Scalar) -> String {
    let lower = String(scalar).lowercased()
    return caseFolds[lower] ?? lower
  }

  /// The folded UTF-8 of `value` when it is in the Latin, Greek or Cyrillic blocks, a full-width
  /// form or the ideographic space; nil for any other scalar.
  static func lookUp(_ value: UInt32) -> ArraySlice<UInt8>? {
    switch value {
    case lowRange:
      let index = Int(value - lowRange.lowerBound)
      return lowBytes[Int(lowStarts[index])..<Int(lowStarts[index + 1])]
    case extendedRange:
      let index = Int(value - extendedRange.lowerBound)
      return extendedBytes[Int(extendedStarts[index])..<Int(extendedStarts[index + 1])]
    case 0xFF01...0xFF5E:
      // Full-width ASCII: the ASCII character, lower-cased.
      let ascii = Int(value - 0xFEE0)
      return asciiLowercase[ascii..<(ascii + 1)]
    case 0x3000:
      // The ideographic space.
      return asciiLowercase[0x20..<0x21]
    default:
      return nil
    }
  }

  /// Whether `value` is in a block of letters and symbols without case and without combining
  /// marks (CJK, kana, Hangul syllables, emoji): it folds to itself.
  static func isCaseless(_ value: UInt32) -> Bool {
    switch value {
    case 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7A3, 0x1F300...0x1FAFF:
      return true
    default:
      return false
    }
  }

  /// Latin-1 Supplement to Cyrillic Supplement (U+0080…U+052F), folded by `lowBytes`.
  static let lowRange: ClosedRange<UInt32> = 0x80...0x52F
  /// Latin Extended Additional and Greek Extended (U+1E00…U+1FFF), folded by `extendedBytes`.
  static let extendedRange: ClosedRange<UInt32> = 0x1E00...0x1FFF

  /// The 128 ASCII bytes, lower-cased.
  private static let asciiLowercase: [UInt8] = (0..<128).map { (byte: UInt8) -> UInt8 in
    byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
  }

  /// Lower-case letters that Unicode's case folding writes differently, and the letters that
  /// are two in one (æ, œ, ĳ) or sort with d (ð), as Foundation's sort puts them.
  static let caseFolds: [String: String] = [
    "ß": "ss", "ς": "σ", "ſ": "s", "ϐ": "β", "ϑ": "θ", "ϕ": "φ", "ϖ": "π", "ϰ": "κ", "ϱ": "ρ",
    "ϵ": "ε", "ŉ": "ʼn", "æ": "ae", "œ": "oe", "ĳ": "ij", "ð": "d",
  ]
}
