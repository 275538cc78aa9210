import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The item texts of a big model, encoded as binary-plist strings on every core before the
/// writer, which is sequential, copies them in.
///
/// Turning texts into UTF-16 is about half of writing a big binary file; the rest (objects,
/// references, shared keys and numbers) stays on one thread, so the bytes written are exactly
/// those of encoding everything in order.
final class ConcurrentTextEncoding {
  /// Models with fewer items are encoded on one thread: starting threads would cost more.
  static var minimumItems: Int { 20_000 }

  /// One slice's encoded texts, back to back, and where each ends.
  private struct Slice {
    var bytes: OutputBuffer
    var ends: [Int]
  }

  private var slices: [Slice]
  private var slice = 0
  private var item = 0

  /// The texts of every item of `lists`, in order; nil when there are fewer than
  /// `minimumItems` items or one core.
  init?(_ lists: [Checklist], itemCount: Int) {
    guard itemCount >= Self.minimumItems,
      let slices = ItemSlices(itemCounts: lists.map(\.items.count))
    else { return nil }
    self.slices = slices.map { slice in Self.encode(slices.pieces(of: slice), of: lists) }
  }

  /// The next item's encoded text, in model order; valid until the next call.
  func next<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
    while item == slices[slice].ends.count {
      slice += 1
      item = 0
    }
    let current = slices[slice]
    let start = item == 0 ? 0 : current.ends[item - 1]
    let end = current.ends[item]
    item += 1
    let bytes = current.bytes.bytes
    return body(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[start..<end])))
  }

  /// The texts of the items of `pieces` of `lists`, encoded back to back (one slice's work).
  private static func encode(_ pieces: [ItemSlices.Piece], of lists: [Checklist]) -> Slice {
    let count = pieces.reduce(0) { $0 + $1.items.count }
    var output = Slice(bytes: OutputBuffer(capacity: count * 64), ends: [])
    output.ends.reserveCapacity(count)
    for piece in pieces {
      let items = lists[piece.list].items
      for index in piece.items {
        BinaryPlistWriter.encodeString(items[index].text, to: output.bytes)
        output.ends.append(output.bytes.count)
      }
    }
    return output
  }
}
