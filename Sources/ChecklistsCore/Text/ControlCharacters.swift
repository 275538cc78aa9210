import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Control characters (C0, DEL and C1): the one test of what counts as one, and how the CLI
/// shows them on a terminal.
public enum ControlCharacters {
  /// Whether a scalar value is a C0 control (below U+0020), DEL (U+007F) or a C1 control
  /// (U+0080…U+009F).
  public static func isControl(_ value: UInt32) -> Bool {
    value < 0x20 || (0x7F...0x9F).contains(value)
  }

  /// The text with control characters made visible: C0 as `^@`…`^_`, DEL as `^?`, C1 as
  /// `<U+0080>`….
  public static func visible(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0..<0x20:
        result += "^" + String(UnicodeScalar(UInt8(scalar.value + 0x40)))
      case 0x7F:
        result += "^?"
      case 0x80..<0xA0:
        result += CFormat.string("<U+%04X>", scalar.value)
      default:
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
