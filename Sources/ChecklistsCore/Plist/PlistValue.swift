import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Any property-list value, as read from or written to a file.
///
/// Used for keys this version does not know, so that they survive a load and a save unchanged.
public enum PlistValue: Equatable, Sendable {
  case string(String)
  case integer(Int64)
  /// An integer above `Int64.max` (binary plists hold unsigned 64-bit values).
  case unsignedInteger(UInt64)
  case real(Double)
  case bool(Bool)
  case date(Date)
  case data(Data)
  /// A keyed archive's object reference (binary marker 0x8n; `CF$UID` in XML).
  case uid(UInt64)
  case array([PlistValue])
  case dictionary([PlistKey: PlistValue])
}

/// A dictionary key: equal to another only when their Unicode scalars are, so that `café`
/// written precomposed and decomposed are two keys, as in every other property-list reader.
///
/// (`String` itself compares by canonical equivalence, which would merge them.)
public struct PlistKey: Hashable, Sendable, Comparable, ExpressibleByStringLiteral,
  CustomStringConvertible
{
  /// The key's text.
  public var string: String

  /// A key with this text.
  public init(_ string: String) { self.string = string }

  /// A key from a literal.
  public init(stringLiteral value: String) { string = value }

  /// The text.
  public var description: String { string }

  /// Equal when the scalars are.
  public static func == (lhs: PlistKey, rhs: PlistKey) -> Bool {
    lhs.string.unicodeScalars.elementsEqual(rhs.string.unicodeScalars)
  }

  /// Hashes the scalars.
  public func hash(into hasher: inout Hasher) {
    for scalar in string.unicodeScalars { hasher.combine(scalar.value) }
    hasher.combine(0xFFFF_FFFF as UInt32)
  }

  /// The order keys are written in: by UTF-16 code units, as Apple's writer sorts them.
  public static func < (lhs: PlistKey, rhs: PlistKey) -> Bool {
    lhs.string.utf16.lexicographicallyPrecedes(rhs.string.utf16)
  }
}
