import Foundation

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
  case array([PlistValue])
  case dictionary([String: PlistValue])
}
