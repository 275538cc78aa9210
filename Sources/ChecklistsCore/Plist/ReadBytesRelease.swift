#if canImport(Glibc)
  import Glibc
#endif

/// Gives a big XML document's bytes back to the system as its readers leave them behind, so
/// that the file's bytes and the lists built from them are not both held at the peak of a load
/// (28 MB of XML at 100,000 items).
///
/// The XML reader never looks back before the item it is on, so at each item of a list it
/// hands the 2 MB pieces wholly behind it to `release`. The other reader of the bytes, the
/// content hash, must be done first: nothing is given back before `markReady()` (the hash runs
/// at memory speed, far ahead of the reading), and nothing at all after `markNever()`.
///
/// Bytes given back read as zeros afterwards. So an error after anything was given back is not
/// to be trusted: the caller reads the file again and decodes it without giving anything back
/// (see `releasedAny`), which also gives the exact message.
final class ReadBytesRelease: @unchecked Sendable {
  /// The pieces given back: 2 MB, so that a 2 MB page of the buffer is never split.
  static let pieceBytes = 2 << 20
  /// Smaller documents keep their bytes: there is little to gain.
  static let minimumBytes = 8 << 20

  private enum Readiness { case waiting, ready, never }
  private let lock = ThreadLock()
  private var readiness = Readiness.waiting
  private var released = false
  private var releasedBySecond = false

  /// Allows giving back: every other reader of the bytes is done.
  func markReady() {
    lock.lock()
    if readiness == .waiting { readiness = .ready }
    lock.unlock()
  }

  /// Forbids giving anything back: another reader will read the bytes after the decoding.
  func markNever() {
    lock.lock()
    readiness = .never
    lock.unlock()
  }

  /// Whether giving back is allowed now (the reader tries again at its next item when not:
  /// waiting here would hold the reading up behind the hash).
  private func isReady() -> Bool {
    lock.lock()
    defer { lock.unlock() }
    return readiness == .ready
  }

  /// Whether any bytes were given back (then a failed decoding must be tried again).
  var releasedAny: Bool {
    lock.lock()
    defer { lock.unlock() }
    return released
  }

  /// Whether the second thread's reader gave any bytes back.
  var secondReaderReleased: Bool {
    lock.lock()
    defer { lock.unlock() }
    return releasedBySecond
  }

  /// Gives back the whole 2 MB pieces of `buffer` between positions `from` and `to`; returns
  /// where the next release starts (`from` when nothing was given back).
  func release(_ buffer: UnsafeBufferPointer<UInt8>, from: Int, to: Int, second: Bool) -> Int {
    #if os(Linux)
      guard let base = buffer.baseAddress, from < to, to <= buffer.count else { return from }
      let address = Int(bitPattern: base)
      let start = (address + from + Self.pieceBytes - 1) & ~(Self.pieceBytes - 1)
      let end = (address + to) & ~(Self.pieceBytes - 1)
      guard end > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) else {
        return from
      }
      guard isReady() else { return from }
      lock.lock()
      defer { lock.unlock() }
      // Counted as given back even if the call fails part way.
      released = true
      if second { releasedBySecond = true }
      guard madvise(pointer, end - start, MADV_DONTNEED) == 0 else { return from }
      return end - address
    #else
      return from
    #endif
  }
}
