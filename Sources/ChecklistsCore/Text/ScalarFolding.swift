/// The letter under a letter's accents and the narrow form of a full-width one, for search
/// ("É" → "E", "ｆ" → "f"), worked out from the Unicode data the standard library carries (ICU's
/// folding needs all of Foundation).
///
/// A precomposed letter's base comes from its Unicode name: `LATIN SMALL LETTER E WITH ACUTE`
/// is `LATIN SMALL LETTER E` with accents, for Latin, Greek and Cyrillic letters. Letters with a
/// stroke (ø, ł, đ) count as accented too, so "lodz" finds "Łódź". Lower case is then folded
/// as Unicode's case folding does where it differs: ß is "ss", ς is σ, ſ is s.
enum ScalarFolding {
  /// `scalar` lower-cased, without accents, narrow, and case-folded.
  static func folded(_ scalar: Unicode.Scalar) -> String {
    var current = base(of: scalar)
    // A base may have accents of its own (ǟ is ä with a macron, ä is a with a diaeresis).
    for _ in 0..<3 {
      guard let next = bases[current.value] else { break }
      current = next
    }
    let lower = String(current).lowercased()
    return caseFolds[lower] ?? lower
  }

  /// The folded UTF-8 of `value` when it is in the Latin, Greek or Cyrillic blocks, a full-width
  /// form or the ideographic space; nil for any other scalar.
  static func lookUp(_ value: UInt32) -> [UInt8]? {
    switch value {
    case 0x80...0x52F: return lowTable[Int(value - 0x80)]
    case 0x1E00...0x1FFF: return extendedTable[Int(value - 0x1E00)]
    case 0xFF01...0xFF5E, 0x3000: return folded(value)
    default: return nil
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

  /// Folded UTF-8 of U+0080…U+052F (Latin, IPA, Greek, Cyrillic), made once, on first use.
  private static let lowTable: [[UInt8]?] = (0x80...0x52F).map { folded(UInt32($0)) }
  /// Folded UTF-8 of U+1E00…U+1FFF (Latin Extended Additional, Greek Extended).
  private static let extendedTable: [[UInt8]?] = (0x1E00...0x1FFF).map { folded(UInt32($0)) }

  private static func folded(_ value: UInt32) -> [UInt8]? {
    guard let scalar = Unicode.Scalar(value) else { return nil }
    if scalar.properties.generalCategory == .nonspacingMark { return [] }
    return Array(folded(scalar).utf8)
  }

  /// Lower-case letters that Unicode's case folding writes differently.
  private static let caseFolds: [String: String] = [
    "ß": "ss", "ς": "σ", "ſ": "s", "ϐ": "β", "ϑ": "θ", "ϕ": "φ", "ϖ": "π", "ϰ": "κ", "ϱ": "ρ",
    "ϵ": "ε", "ŉ": "ʼn",
  ]

  /// The base of `scalar`, or `scalar` itself.
  static func base(of scalar: Unicode.Scalar) -> Unicode.Scalar {
    let value = scalar.value
    // Full-width ASCII and the ideographic space.
    if (0xFF01...0xFF5E).contains(value), let narrow = Unicode.Scalar(value - 0xFEE0) {
      return narrow
    }
    if value == 0x3000 { return " " }
    return bases[value] ?? scalar
  }

  /// The letters with accents and their base letters, made once, on the first search.
  private static let bases: [UInt32: Unicode.Scalar] = {
    let blocks: [ClosedRange<UInt32>] = [
      0x41...0x7A, 0xC0...0x2AF, 0x370...0x3FF, 0x400...0x52F, 0x1E00...0x1FFF,
    ]
    var byName: [String: Unicode.Scalar] = [:]
    var accented: [(value: UInt32, base: String)] = []
    for block in blocks {
      for value in block {
        guard let scalar = Unicode.Scalar(value), let name = scalar.properties.name else {
          continue
        }
        // `LATIN CAPITAL LETTER L WITH SMALL LETTER J` is a digraph, not an accented L.
        if let with = TextMatching.firstRange(of: " WITH ", in: name),
          TextMatching.firstRange(of: "WITH SMALL", in: name) == nil
        {
          accented.append((value, String(name[..<with.lowerBound])))
        } else {
          byName[name] = scalar
        }
      }
    }
    var bases: [UInt32: Unicode.Scalar] = [:]
    for (value, base) in accented {
      if let letter = byName[base] { bases[value] = letter }
    }
    // Cyrillic letters whose accent is not in their name: ё, й, ї, ў, ѓ, ќ.
    let cyrillic: [(UInt32, UInt32)] = [
      (0x451, 0x435), (0x401, 0x415), (0x439, 0x438), (0x419, 0x418), (0x457, 0x456),
      (0x407, 0x406), (0x45E, 0x443), (0x40E, 0x423), (0x453, 0x433), (0x403, 0x413),
      (0x45C, 0x43A), (0x40C, 0x41A),
    ]
    for (letter, base) in cyrillic {
      bases[letter] = Unicode.Scalar(base)
    }
    return bases
  }()
}
