extension StringProtocol {
  /// The text without white space or line breaks at either end (what
  /// `trimmingCharacters(in: .whitespacesAndNewlines)` gives, without all of Foundation).
  public func trimmingWhitespace() -> String {
    trimming { $0.isWhitespace }
  }

  /// The text without spaces and tabs at either end; line breaks stay (as
  /// `trimmingCharacters(in: .whitespaces)`).
  public func trimmingSpaces() -> String {
    trimming { $0.isWhitespace && !$0.isNewline }
  }

  /// The text without line breaks at either end (as `trimmingCharacters(in: .newlines)`).
  public func trimmingLineBreaks() -> String {
    trimming { $0.isNewline }
  }

  /// Whether the text shows nothing: it holds only white space, line breaks, control
  /// characters and characters that are invisible by definition (zero-width spaces and joiners,
  /// the byte-order mark, soft hyphens, variation selectors). A name or an item text like that
  /// is empty.
  public var showsNothing: Bool {
    unicodeScalars.allSatisfy { scalar in
      scalar.properties.isWhitespace || scalar.properties.isDefaultIgnorableCodePoint
        || ControlCharacters.isControl(scalar.value)
    }
  }

  private func trimming(_ isTrimmed: (Character) -> Bool) -> String {
    guard let first = firstIndex(where: { !isTrimmed($0) }),
      let last = lastIndex(where: { !isTrimmed($0) })
    else { return "" }
    return String(self[first...last])
  }
}
