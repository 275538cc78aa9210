import Foundation
import Testing

@testable import ChecklistsCore

/// The folding tables (`ScalarFolding+Tables.swift`) against the Unicode data they are made
/// from; `CHECKLISTS_WRITE_FOLD_TABLES=PATH` also writes the tables made afresh to PATH
/// (`scripts/update-fold-tables`).
@Suite struct TextFoldTableTests {
  @Test func theTablesAreTheUnicodeNamesWorkedOut() throws {
    if let path = ProcessInfo.processInfo.environment["CHECKLISTS_WRITE_FOLD_TABLES"] {
      try FoldTableDerivation.source().write(toFile: path, atomically: true, encoding: .utf8)
    }
    var differences: [String] = []
    for range in [ScalarFolding.lowRange, ScalarFolding.extendedRange] {
      for value in range {
        let table = ScalarFolding.lookUp(value).map(Array.init)
        let derived = FoldTableDerivation.folded(value)
        if table != derived {
          differences.append(
            "U+\(String(value, radix: 16)): \(String(describing: table)) ≠ \(String(describing: derived))"
          )
        }
      }
    }
    #expect(
      differences.isEmpty,
      "\(differences.count) differ (run scripts/update-fold-tables): \(differences.prefix(5))")
  }

  /// Outside the tables no letter has a base of its own, so folding there needs no table.
  @Test func everyAccentedLetterIsInTheTables() {
    for value in FoldTableDerivation.bases.keys {
      #expect(
        ScalarFolding.lowRange.contains(value) || ScalarFolding.extendedRange.contains(value),
        "U+\(String(value, radix: 16))")
    }
    var checked = 0
    for value in UInt32(0x530)...0xFFFF
    where ScalarFolding.lookUp(value) == nil && !(0xD800...0xDFFF).contains(value) {
      guard let scalar = Unicode.Scalar(value) else { continue }
      #expect(
        ScalarFolding.folded(scalar) == FoldTableDerivation.folded(scalar),
        "U+\(String(value, radix: 16))")
      checked += 1
    }
    #expect(checked > 50_000)
  }

  @Test func lettersFoldAsBefore() {
    for (text, folded) in [
      ("Łódź", "lodz"), ("ǞÖ", "ao"), ("ẞ", "ss"), ("ｆｕｌｌ", "full"), ("a\u{3000}b", "a b"),
      ("Ё", "е"), ("ΐ", "ι"), ("Ϸ", "ϸ"),
    ] {
      #expect(SearchFolding.fold(text) == Array(folded.utf8), "\(text)")
    }
  }
}

/// How the folding tables are worked out from the Unicode names, and their source file.
enum FoldTableDerivation {
  /// `scalar` lower-cased, without accents, narrow, and case-folded.
  static func folded(_ scalar: Unicode.Scalar) -> String {
    var current = base(of: scalar)
    // A base may have accents of its own (ǟ is ä with a macron, ä is a with a diaeresis).
    for _ in 0..<3 {
      guard let next = bases[current.value] else { break }
      current = next
    }
    let lower = String(current).lowercased()
    return ScalarFolding.caseFolds[lower] ?? lower
  }

  /// The folded UTF-8 of `value`: nothing for a combining mark.
  static func folded(_ value: UInt32) -> [UInt8]? {
    guard let scalar = Unicode.Scalar(value) else { return nil }
    if scalar.properties.generalCategory == .nonspacingMark { return [] }
    return Array(folded(scalar).utf8)
  }

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

  /// The letters with accents and their base letters.
  static let bases: [UInt32: Unicode.Scalar] = {
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

  /// `ScalarFolding+Tables.swift`.
  static func source() -> String {
    var text = """
      // Made by scripts/update-fold-tables from the Unicode data of the Swift toolchain (see
      // ScalarFolding); do not edit. TextFoldTableTests checks it against that data.

      extension ScalarFolding {

      """
    for (name, range) in [
      ("low", ScalarFolding.lowRange), ("extended", ScalarFolding.extendedRange),
    ] {
      var bytes: [UInt8] = []
      var starts: [Int] = []
      for value in range {
        starts.append(bytes.count)
        bytes += folded(value) ?? []
      }
      starts.append(bytes.count)
      let first = String(format: "U+%04X", range.lowerBound)
      text += """
          /// Where the folded UTF-8 of each scalar from \(first) on starts in `\(name)Bytes`, and
          /// where the last one ends: scalar \(first) + i folds to the bytes from
          /// `\(name)Starts[i]` to `\(name)Starts[i + 1]`.
          static let \(name)Starts: [UInt16] = [
        \(rows(starts))
          ]
          /// The folded UTF-8 of the scalars from \(first) on, one after the other.
          static let \(name)Bytes: [UInt8] = [
        \(rows(bytes))
          ]

        """
    }
    return text + "}\n"
  }

  /// `numbers` as rows of an array literal, indented by four spaces.
  private static func rows<Number: BinaryInteger>(_ numbers: [Number]) -> String {
    var lines: [String] = []
    var line = "   "
    for number in numbers {
      let element = " \(number),"
      if line.count + element.count > 100 {
        lines.append(line)
        line = "   "
      }
      line += element
    }
    lines.append(line)
    return lines.joined(separator: "\n")
  }
}
