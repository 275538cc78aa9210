import ChecklistsCore

#if canImport(Glibc)
  import Glibc
#endif

/// What may be written to curses for a cell's text.
enum CellText {
  /// Most characters curses keeps in one cell (a spacing character and its combining marks).
  static let maximumScalars = 5

  /// The scalars to write for a cell: control characters (C0, DEL, C1) become "?", an empty
  /// text becomes " ", and graphemes longer than curses can hold keep their first scalars. A
  /// sequence joined with U+200D (a family emoji) keeps what comes before its first joiner:
  /// curses would keep the joiner and drop the rest, and a terminal then joins the next cell's
  /// character to it.
  static func scalars(for text: String) -> [Unicode.Scalar] {
    var result: [Unicode.Scalar] = []
    for scalar in text.unicodeScalars.prefix(maximumScalars) {
      if scalar.value == zeroWidthJoiner && !result.isEmpty { break }
      result.append(ControlCharacters.isControl(scalar.value) ? "?" : scalar)
    }
    return result.isEmpty ? [" "] : result
  }

  /// Writes the same scalars as `scalars(for:)` into `buffer` (room for `maximumScalars` and
  /// the terminating zero) as wide characters, zero-terminated, without allocating; returns how
  /// many it wrote.
  static func fill(_ buffer: UnsafeMutableBufferPointer<wchar_t>, with text: String) -> Int {
    var count = 0
    for scalar in text.unicodeScalars {
      guard count < maximumScalars else { break }
      if scalar.value == zeroWidthJoiner && count > 0 { break }
      let value = ControlCharacters.isControl(scalar.value) ? 0x3F : scalar.value
      buffer[count] = wchar_t(bitPattern: value)
      count += 1
    }
    if count == 0 {
      buffer[0] = 0x20
      count = 1
    }
    buffer[count] = 0
    return count
  }

  /// The scalars of a cell drawn whole on a terminal that draws `sequences` whole: a ZWJ
  /// sequence or a skin-toned emoji of at most `maximumScalars` scalars that starts with a wide
  /// emoji and is only of kinds in `sequences`; nil for any other text (drawn as `fill` does).
  static func wholeSequence(_ text: String, drawn sequences: EmojiSequences) -> [Unicode.Scalar]? {
    // Most cells are not emoji: two looks and out, without counting.
    guard !sequences.isEmpty, let first = text.unicodeScalars.first, first.value >= 0x1F000
    else { return nil }
    let scalars = Substring(text).unicodeScalars
    guard scalars.count > 1, scalars.count <= maximumScalars,
      !scalars.contains(where: { ControlCharacters.isControl($0.value) })
    else { return nil }
    let kinds = EmojiSequences.kinds(of: scalars)
    guard !kinds.isEmpty, sequences.isSuperset(of: kinds) else { return nil }
    return Array(scalars)
  }

  private static let zeroWidthJoiner: UInt32 = 0x200D
}
