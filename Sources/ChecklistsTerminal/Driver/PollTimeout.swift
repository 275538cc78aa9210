import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The waits the main loop gives `poll`.
enum PollTimeout {
  /// `seconds` in whole milliseconds (rounded up), within `Int32`: a wake-up however far away
  /// (a due date from a damaged file can be any finite number) stays a number poll takes.
  static func milliseconds(_ seconds: TimeInterval) -> Int32 {
    let value = ceil(seconds * 1000)
    guard !value.isNaN else { return 0 }
    return Int32(min(max(value, Double(Int32.min)), Double(Int32.max)))
  }
}
