#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file opened for reading with `open(2)`, read in pieces (`FileHandle` needs all of
/// Foundation). Closed when released, or by `close()`.
public final class ReadOnlyFile {
  private var descriptor: Int32

  /// Opens `path`; nil when it cannot be opened.
  public init?(path: String) {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    descriptor = fd
  }

  deinit { close() }

  /// Up to `count` bytes from where the last read ended (fewer only at the end of the file);
  /// nil after a read error.
  public func read(upToCount count: Int) -> [UInt8]? {
    guard descriptor >= 0 else { return nil }
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
      let got = bytes.withUnsafeMutableBytes { buffer -> Int in
        guard let base = buffer.baseAddress else { return 0 }
        return Glibc.read(descriptor, base + filled, count - filled)
      }
      if got < 0 {
        if errno == EINTR { continue }
        return nil
      }
      if got == 0 { break }
      filled += got
    }
    bytes.removeSubrange(filled...)
    return bytes
  }

  /// The rest of the file; nil after a read error. Past `limit` bytes it stops, with more
  /// than `limit` read (a pipe that never ends must not fill the memory).
  public func readToEnd(limit: Int = .max) -> [UInt8]? {
    var all: [UInt8] = []
    while true {
      guard let piece = read(upToCount: 65_536) else { return nil }
      all += piece
      if piece.count < 65_536 || all.count > limit { return all }
    }
  }

  /// Closes the file (again: nothing).
  public func close() {
    guard descriptor >= 0 else { return }
    _ = Glibc.close(descriptor)
    descriptor = -1
  }
}

/// Writes to a file descriptor that stays open: standard output and error.
public enum DescriptorWriter {
  /// Writes all of `bytes` (retrying after signals and short writes); false on an error such
  /// as a closed pipe.
  @discardableResult
  public static func write<Bytes: Collection<UInt8>>(_ bytes: Bytes, to descriptor: Int32) -> Bool {
    let all = Array(bytes)
    var offset = 0
    while offset < all.count {
      let written = all.withUnsafeBytes { buffer -> Int in
        guard let base = buffer.baseAddress else { return 0 }
        return Glibc.write(descriptor, base + offset, all.count - offset)
      }
      if written < 0 {
        if errno == EINTR { continue }
        return false
      }
      offset += written
    }
    return true
  }
}
