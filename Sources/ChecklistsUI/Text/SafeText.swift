import ChecklistsCore

/// One piece of text as it goes into a cell: a safe grapheme and its width.
struct DisplayUnit: Equatable, Sendable {
  /// The text of the cell: never contains a control character.
  var text: String
  /// 1 or 2 columns.
  var width: Int
  /// Whether this stands in for a control character of the data (drawn in `ColorRole.control`).
  var isSubstitute: Bool
}

/// Turns data into text that is safe to put into cells.
///
/// - C0 controls (U+0000–U+001F, including ESC, BEL, NUL) become the Control Pictures
///   U+2400–U+241F (`␛` for ESC, `␇` for BEL), DEL becomes `␡` (U+2421), and C1 controls
///   (U+0080–U+009F) become `�` (U+FFFD).
/// - Bidirectional controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C) and
///   zero-width characters (U+200B, U+200C, U+2060, U+FEFF, and U+200D outside an emoji sequence)
///   are dropped, so they can neither reorder nor hide text. Line and paragraph separators
///   (U+2028, U+2029) become `␤`.
/// - A combining mark with nothing to combine with is drawn on a dotted circle (U+25CC).
enum SafeText {
  /// The cells one grapheme cluster occupies once made safe (usually one unit; none if dropped).
  static func units(of character: Character) -> [DisplayUnit] {
    let scalars = character.unicodeScalars
    if scalars.count == 1, let only = scalars.first {
      let value = only.value
      if value >= 0x20 && value < 0x7F {
        return [DisplayUnit(text: String(character), width: 1, isSubstitute: false)]
      }
    }
    var hasControl = false
    var isEmojiSequence = false
    for (offset, scalar) in scalars.enumerated() {
      if isControl(scalar.value) { hasControl = true }
      if offset == 0 && (scalar.value >= 0x1F000 || DisplayWidth.isWide(scalar.value)) {
        isEmojiSequence = true
      }
    }
    if hasControl {
      var result: [DisplayUnit] = []
      for scalar in scalars {
        result += units(ofLoneScalar: scalar)
      }
      return result
    }
    var kept = String.UnicodeScalarView()
    for scalar in scalars where !isDropped(scalar.value, inEmoji: isEmojiSequence) {
      kept.append(scalar)
    }
    guard let first = kept.first else { return [] }
    if first.value == 0x2028 || first.value == 0x2029 {
      return [DisplayUnit(text: "\u{2424}", width: 1, isSubstitute: true)]
    }
    var text = String(kept)
    if DisplayWidth.of(first) == 0 {
      text = "\u{25CC}" + text
    }
    guard let cluster = text.first else { return [] }
    let width = max(1, DisplayWidth.of(cluster))
    return [DisplayUnit(text: text, width: width, isSubstitute: false)]
  }

  /// The width (1 or 2) of a one-scalar character that is drawn as it is, or nil: for such a
  /// character `units(of:)` is one unit of its own text and this width, and callers can skip
  /// building that array (the common case for text that is not ASCII).
  @inline(__always)
  static func plainWidth(of character: Character) -> Int? {
    var scalars = character.unicodeScalars.makeIterator()
    guard let only = scalars.next(), scalars.next() == nil else { return nil }
    let value = only.value
    if isControl(value) || isDropped(value, inEmoji: false) || value == 0x2028 || value == 0x2029 {
      return nil
    }
    let width = DisplayWidth.of(only)
    return width == 0 ? nil : width
  }

  /// The columns a cluster takes once made safe.
  static func width(of character: Character) -> Int {
    if let ascii = character.asciiValue, ascii >= 0x20, ascii < 0x7F { return 1 }
    if let width = plainWidth(of: character) { return width }
    var total = 0
    for unit in units(of: character) { total += unit.width }
    return total
  }

  /// The text with every unsafe character replaced or dropped, as `units(of:)` does.
  static func sanitized(_ text: String) -> String {
    var result = ""
    for character in text {
      for unit in units(of: character) { result += unit.text }
    }
    return result
  }

  private static func units(ofLoneScalar scalar: Unicode.Scalar) -> [DisplayUnit] {
    let value = scalar.value
    if value < 0x20 {
      return [substitute(0x2400 + value)]
    }
    if value == 0x7F { return [substitute(0x2421)] }
    if value >= 0x80 && value <= 0x9F { return [substitute(0xFFFD)] }
    if isDropped(value, inEmoji: false) { return [] }
    if value == 0x2028 || value == 0x2029 { return [substitute(0x2424)] }
    let width = DisplayWidth.of(scalar)
    if width == 0 {
      return [DisplayUnit(text: "\u{25CC}" + String(scalar), width: 1, isSubstitute: false)]
    }
    return [DisplayUnit(text: String(scalar), width: width, isSubstitute: false)]
  }

  private static func substitute(_ value: UInt32) -> DisplayUnit {
    let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
    return DisplayUnit(text: String(scalar), width: 1, isSubstitute: true)
  }

  /// C0, DEL and C1.
  static func isControl(_ value: UInt32) -> Bool { ControlCharacters.isControl(value) }

  /// Bidi controls and invisible characters that are removed from display.
  static func isDropped(_ value: UInt32, inEmoji: Bool) -> Bool {
    switch value {
    case 0x200D: return !inEmoji
    case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: return true
    case 0x200B, 0x200C, 0x2060...0x2064, 0x206A...0x206F, 0xFEFF, 0xFFF9...0xFFFB: return true
    default: return false
    }
  }
}
