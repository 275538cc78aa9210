import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// A growable byte buffer in `malloc` memory that can become a `Data` without a copy.
///
/// The writers build a file in it and `takeData` hands the memory to the `Data`, so a save
/// never holds the file's bytes twice. A class, so that copies of a writer share one owner.
final class OutputBuffer {
  private var base: UnsafeMutableRawPointer?
  /// The bytes written so far.
  private(set) var count = 0
  private var capacity = 0
  /// Whether the bytes lie in memory this buffer does not own (`init(borrowing:)`).
  private(set) var isBorrowed = false

  /// Creates an empty buffer with room for `capacity` bytes.
  init(capacity: Int = 0) {
    if capacity > 0 { grow(to: capacity) }
  }

  /// Creates an empty buffer that writes into `region`, which must stay valid while it is
  /// written; should the bytes outgrow it, they move to memory of the buffer's own.
  init(borrowing region: UnsafeMutableRawBufferPointer) {
    base = region.baseAddress
    capacity = base == nil ? 0 : region.count
    isBorrowed = true
  }

  deinit { if !isBorrowed { free(base) } }

  /// Makes room for at least `total` bytes in all.
  func reserve(_ total: Int) {
    if total > capacity { grow(to: total) }
  }

  private func grow(to total: Int) {
    let size = max(total, 64)
    if isBorrowed {
      guard let own = malloc(size) else {
        preconditionFailure("out of memory for a \(size)-byte file")
      }
      if let base, count > 0 { own.copyMemory(from: base, byteCount: count) }
      isBorrowed = false
      base = own
      capacity = size
      return
    }
    guard let moved = realloc(base, size) else {
      // Out of memory: there is no way to write the file, as with any other allocation.
      preconditionFailure("out of memory for a \(size)-byte file")
    }
    base = moved
    // Only the part not yet written will be faulted in.
    if size - count >= HugePages.minimumBytes {
      HugePages.prefer(UnsafeMutableRawBufferPointer(start: moved + count, count: size - count))
    }
    capacity = size
  }

  /// Makes room for `extra` more bytes, growing by at least half.
  @inline(__always)
  private func ensure(_ extra: Int) {
    if count + extra > capacity { grow(to: max(count + extra, capacity + capacity / 2)) }
  }

  /// Appends one byte.
  @inline(__always)
  func append(_ byte: UInt8) {
    ensure(1)
    base.unsafelyUnwrapped.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
    count += 1
  }

  /// Lets `body` write up to `maximum` bytes at the end; it returns how many it wrote.
  @inline(__always)
  func append(upTo maximum: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
    ensure(maximum)
    let end = (base.unsafelyUnwrapped + count).assumingMemoryBound(to: UInt8.self)
    count += body(end)
  }

  /// Appends the bytes of `bytes`.
  func append(_ bytes: UnsafeRawBufferPointer) {
    guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
    ensure(bytes.count)
    (base.unsafelyUnwrapped + count).copyMemory(from: source, byteCount: bytes.count)
    count += bytes.count
  }

  /// Appends the bytes of `bytes`.
  func append(_ bytes: UnsafeBufferPointer<UInt8>) { append(UnsafeRawBufferPointer(bytes)) }

  /// Appends the bytes of `bytes`.
  func append(contentsOf bytes: [UInt8]) { bytes.withUnsafeBytes { append($0) } }

  /// Appends the UTF-8 of `string`.
  func append(utf8 string: String) {
    var string = string
    string.withUTF8 { append($0) }
  }

  /// Appends `value` big-endian in `size` bytes (1, 2, 4 or 8).
  @inline(__always)
  func appendUInt(_ value: UInt64, size: Int) {
    ensure(size)
    Self.storeUInt(value, size: size, to: base.unsafelyUnwrapped, at: count)
    count += size
  }

  /// Stores `value` big-endian in `size` bytes (1, 2, 4 or 8) at byte `offset` of `out`.
  @inline(__always)
  static func storeUInt(
    _ value: UInt64, size: Int, to out: UnsafeMutableRawPointer, at offset: Int
  ) {
    switch size {
    case 1:
      out.storeBytes(of: UInt8(truncatingIfNeeded: value), toByteOffset: offset, as: UInt8.self)
    case 2:
      out.storeBytes(
        of: UInt16(truncatingIfNeeded: value).bigEndian, toByteOffset: offset, as: UInt16.self)
    case 4:
      out.storeBytes(
        of: UInt32(truncatingIfNeeded: value).bigEndian, toByteOffset: offset, as: UInt32.self)
    default: out.storeBytes(of: value.bigEndian, toByteOffset: offset, as: UInt64.self)
    }
  }

  /// Appends `extra` bytes and lets `body` fill them.
  func append(
    uninitialized extra: Int, _ body: (UnsafeMutableRawBufferPointer) -> Void
  ) {
    ensure(extra)
    body(UnsafeMutableRawBufferPointer(start: base.unsafelyUnwrapped + count, count: extra))
    count += extra
  }

  /// Drops the last `drop` bytes.
  func removeLast(_ drop: Int) { count -= drop }

  /// The room for `extra` more bytes after those written (made first), to be filled before
  /// `commit` counts them; valid until the buffer next grows.
  func spare(_ extra: Int) -> UnsafeMutableRawBufferPointer {
    ensure(extra)
    return UnsafeMutableRawBufferPointer(start: base.unsafelyUnwrapped + count, count: extra)
  }

  /// Counts `added` bytes written into the `spare` room as written.
  func commit(_ added: Int) {
    precondition(count + added <= capacity, "committed past the room")
    count += added
  }

  /// Room after the bytes written for parts written elsewhere, part `k` at most `bounds[k]`
  /// bytes: one region each, in order, for `init(borrowing:)`. Nothing may be appended until
  /// `closeUp`.
  func regions(_ bounds: [Int]) -> [UnsafeMutableRawBufferPointer] {
    let room = spare(bounds.reduce(0, +))
    var regions: [UnsafeMutableRawBufferPointer] = []
    regions.reserveCapacity(bounds.count)
    var offset = 0
    for bound in bounds {
      regions.append(UnsafeMutableRawBufferPointer(rebasing: room[offset..<(offset + bound)]))
      offset += bound
    }
    return regions
  }

  /// Counts the parts written into `regions` as written, each moved down to follow the one
  /// before (a move within memory already written, where copying parts from buffers of their
  /// own took fresh memory); where each part starts. Nil, with nothing counted, when a part
  /// outgrew its region: its bytes are then in memory of its own, and the caller copies every
  /// part out before appending them.
  func closeUp(_ parts: [OutputBuffer], in regions: [UnsafeMutableRawBufferPointer]) -> [Int]? {
    precondition(parts.count == regions.count)
    guard parts.allSatisfy(\.isBorrowed) else { return nil }
    let first = count
    // Where the regions start (`spare` makes no room for 0 bytes more: nothing moves).
    guard let room = spare(0).baseAddress else { return parts.map { _ in first } }
    var starts: [Int] = []
    starts.reserveCapacity(parts.count)
    var end = first
    for (part, region) in zip(parts, regions) {
      starts.append(end)
      // Down or nowhere: each part ends within its own region, which follows the ones before.
      if let source = region.baseAddress, part.count > 0, room + (end - first) != source {
        memmove(room + (end - first), source, part.count)
      }
      end += part.count
    }
    commit(end - first)
    return starts
  }

  /// Copies of the bytes of `parts`, for appending parts of which some lie in regions of the
  /// buffer they are appended to (see `closeUp`); deallocated by the caller.
  static func copies(of parts: [OutputBuffer]) -> [UnsafeMutableRawBufferPointer] {
    parts.map { part in
      let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: part.count, alignment: 8)
      copy.copyMemory(from: UnsafeRawBufferPointer(part.bytes))
      return copy
    }
  }

  /// The bytes written so far, valid until the next append.
  var bytes: UnsafeBufferPointer<UInt8> {
    guard let base else { return UnsafeBufferPointer(start: nil, count: 0) }
    return UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: count)
  }

  /// The bytes as a `Data` that takes over the memory; the buffer is empty afterwards.
  func takeData() -> Data {
    precondition(!isBorrowed, "a borrowing buffer's bytes are not its own to hand over")
    guard let base, count > 0 else { return Data() }
    // Give back the unused tail; a shrink never moves the bytes on glibc.
    let owned = count < capacity ? (realloc(base, count) ?? base) : base
    let data = Data(bytesNoCopy: owned, count: count, deallocator: .free)
    self.base = nil
    count = 0
    capacity = 0
    return data
  }
}
