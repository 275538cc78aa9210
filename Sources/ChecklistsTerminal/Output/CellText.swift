import ChecklistsCore

/// What may be written to curses for a cell's text.
enum CellText {
  /// Most characters curses keeps in one cell (a spacing character and its combining marks).
  static let maximumScalars = 5

  /// The scalars to write for a cell: control characters (C0, DEL, C1) become "?", an empty
  /// text becomes " ", and graphemes longer than curses can hold keep their first scalars.
  static func scalars(for text: String) -> [Unicode.Scalar] {
    var result: [Unicode.Scalar] = []
    for scalar in text.unicodeScalars.prefix(maximumScalars) {
      result.append(ControlCharacters.isControl(scalar.value) ? "?" : scalar)
    }
    return result.isEmpty ? [" "] : result
  }
}
