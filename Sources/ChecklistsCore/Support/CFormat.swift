#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Numbers formatted as C's `printf` does (`String(format:)` needs all of Foundation).
public enum CFormat {
  /// `value` formatted with one `printf` conversion such as `%.17g` or `%04X`.
  public static func string(_ format: String, _ value: CVarArg) -> String {
    var buffer = [CChar](repeating: 0, count: 64)
    let length = withVaList([value]) { arguments in
      vsnprintf(&buffer, buffer.count, format, arguments)
    }
    guard length >= 0 else { return "" }
    if Int(length) >= buffer.count {
      buffer = [CChar](repeating: 0, count: Int(length) + 1)
      _ = withVaList([value]) { vsnprintf(&buffer, buffer.count, format, $0) }
    }
    return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
