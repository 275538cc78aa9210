/// The order the app sorts list names in: case- and accent-insensitive ("Ärger" with the a's,
/// as the iPhone app's sort puts it), digit runs compared as numbers ("list 9" before
/// "list 10"), ties broken by the accents, then by the exact text, so the order is total.
public enum NaturalOrder {
  /// Whether `lhs` sorts before `rhs`.
  public static func areInIncreasingOrder(_ lhs: String, _ rhs: String) -> Bool {
    switch compare(lhs, rhs) {
    case .less: return true
    case .greater: return false
    case .equal: return lhs < rhs
    }
  }

  enum Comparison { case less, equal, greater }

  static func compare(_ lhs: String, _ rhs: String) -> Comparison {
    let plain = compareRuns(lhs.lowercased().unicodeScalars, rhs.lowercased().unicodeScalars)
    // Names that first differ in a letter beyond ASCII are compared folded (ASCII folds to
    // itself, so names that differ first in ASCII compare the same either way, unfolded).
    guard plain.atNonASCII else { return plain.result }
    let folded = compareRuns(
      String(decoding: SearchFolding.fold(lhs), as: UTF8.self).unicodeScalars,
      String(decoding: SearchFolding.fold(rhs), as: UTF8.self).unicodeScalars)
    return folded.result == .equal ? plain.result : folded.result
  }

  /// `lhs` against `rhs` scalar by scalar, digit runs as numbers; whether the first difference
  /// was at a scalar beyond ASCII.
  private static func compareRuns(
    _ lhs: String.UnicodeScalarView, _ rhs: String.UnicodeScalarView
  ) -> (result: Comparison, atNonASCII: Bool) {
    var left = lhs.makeIterator()
    var right = rhs.makeIterator()
    var leftNext = left.next()
    var rightNext = right.next()
    while true {
      guard let l = leftNext else { return (rightNext == nil ? .equal : .less, false) }
      guard let r = rightNext else { return (.greater, false) }
      if isDigit(l) && isDigit(r) {
        var leftDigits: [Unicode.Scalar] = []
        var rightDigits: [Unicode.Scalar] = []
        while let d = leftNext, isDigit(d) {
          leftDigits.append(d)
          leftNext = left.next()
        }
        while let d = rightNext, isDigit(d) {
          rightDigits.append(d)
          rightNext = right.next()
        }
        let result = compareDigits(leftDigits, rightDigits)
        if result != .equal { return (result, false) }
        continue
      }
      if l != r { return (l.value < r.value ? .less : .greater, !l.isASCII || !r.isASCII) }
      leftNext = left.next()
      rightNext = right.next()
    }
  }

  private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value >= 48 && scalar.value <= 57
  }

  private static func compareDigits(_ lhs: [Unicode.Scalar], _ rhs: [Unicode.Scalar]) -> Comparison
  {
    let left = lhs.drop(while: { $0 == "0" })
    let right = rhs.drop(while: { $0 == "0" })
    if left.count != right.count { return left.count < right.count ? .less : .greater }
    for (l, r) in zip(left, right) where l != r {
      return l.value < r.value ? .less : .greater
    }
    if lhs.count != rhs.count { return lhs.count < rhs.count ? .less : .greater }
    return .equal
  }
}
