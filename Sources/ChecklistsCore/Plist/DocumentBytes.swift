/// A document's bytes as its readers see them: read-only, wherever they lie (an array, or a
/// file mapped for the time of a decoding), with an array's bounds checks on every subscript.
///
/// Bytes it does not own must outlive every reader that holds them (`borrowing`); owned bytes
/// are a copy kept alive by the readers themselves (`copying`).
struct DocumentBytes: @unchecked Sendable {
  /// The bytes.
  let buffer: UnsafeBufferPointer<UInt8>
  /// What keeps a copy alive; nil for borrowed bytes.
  private let owner: Copy?

  /// The bytes of `buffer`, which the caller keeps valid while any reader holds them.
  init(borrowing buffer: UnsafeBufferPointer<UInt8>) {
    self.buffer = buffer
    owner = nil
  }

  /// A copy of `bytes` of its own.
  init(copying bytes: some Collection<UInt8>) {
    let copy = Copy(bytes)
    buffer = UnsafeBufferPointer(copy.storage)
    owner = copy
  }

  /// The number of bytes.
  var count: Int { buffer.count }

  /// The byte at `index`, which must lie inside.
  subscript(index: Int) -> UInt8 {
    precondition(index >= 0 && index < buffer.count, "byte index out of range")
    return buffer[index]
  }

  /// The bytes in `range`, which must lie inside.
  subscript(range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
    precondition(
      range.lowerBound >= 0 && range.upperBound <= buffer.count, "byte range out of range")
    return UnsafeBufferPointer(rebasing: buffer[range])
  }

  /// Runs `body` on the bytes as raw memory.
  func withUnsafeBytes<Result, Failure: Error>(
    _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try body(UnsafeRawBufferPointer(buffer))
  }

  /// Memory of its own holding a copy, freed with the last reader.
  private final class Copy {
    let storage: UnsafeMutableBufferPointer<UInt8>

    init(_ bytes: some Collection<UInt8>) {
      storage = .allocate(capacity: bytes.count)
      _ = storage.initialize(fromContentsOf: bytes)
    }

    deinit { storage.deallocate() }
  }
}
