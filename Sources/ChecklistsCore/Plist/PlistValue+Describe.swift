import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

extension PlistValue {
  /// The kind of value with an article, for messages ("a string", "an integer").
  public var kindDescription: String {
    switch self {
    case .string: return "a string"
    case .integer, .unsignedInteger: return "an integer"
    case .real: return "a real number"
    case .bool: return "a boolean"
    case .date: return "a date"
    case .data: return "data"
    case .uid: return "a keyed-archive reference (UID)"
    case .array: return "an array"
    case .dictionary: return "a dictionary"
    }
  }
}
