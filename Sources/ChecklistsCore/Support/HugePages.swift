#if canImport(Glibc)
  import Glibc
#endif

/// Big buffers about to be filled ask for 2 MB pages: most of the cost of filling a fresh
/// buffer of megabytes is faulting in its 4 KB pages one by one.
enum HugePages {
  /// Buffers smaller than this are left alone.
  static let minimumBytes = 4 << 20

  /// Asks for 2 MB pages under the 2 MB-aligned middle of `buffer` (only that can be such
  /// pages); a refusal, or a kernel without them, changes nothing.
  static func prefer(_ buffer: UnsafeMutableRawBufferPointer) {
    #if os(Linux)
      let huge = 2 << 20
      guard buffer.count >= minimumBytes, let base = buffer.baseAddress else { return }
      let start = (Int(bitPattern: base) + huge - 1) & ~(huge - 1)
      let end = (Int(bitPattern: base) + buffer.count) & ~(huge - 1)
      guard end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return }
      _ = madvise(aligned, end - start, MADV_HUGEPAGE)
    #endif
  }

  /// Asks for 2 MB pages under the room `array` has reserved (its capacity), before it is
  /// filled.
  static func prefer<Element>(reservedOf array: inout [Element]) {
    let bytes = array.capacity * MemoryLayout<Element>.stride
    guard bytes >= minimumBytes else { return }
    array.withUnsafeMutableBufferPointer { buffer in
      // The storage is allocated for the whole capacity, filled or not.
      guard let base = buffer.baseAddress else { return }
      prefer(UnsafeMutableRawBufferPointer(start: base, count: bytes))
    }
  }
}
