/// The order the app sorts list names in: case-insensitive, digit runs compared as numbers
/// ("list 9" before "list 10"), ties broken by the exact text so the order is total.
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
    var left = lhs.lowercased().unicodeScalars.makeIterator()
    var right = rhs.lowercased().unicodeScalars.makeIterator()
    var leftNext = left.next()
    var rightNext = right.next()
    while true {
      guard let l = leftNext else { return rightNext == nil ? .equal : .less }
      guard let r = rightNext else { return .greater }
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
        if result != .equal { return result }
        continue
      }
      if l != r { return l.value < r.value ? .less : .greater }
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
