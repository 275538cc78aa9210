import Dispatch
import Foundation

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
    let threads = min(ProcessInfo.processInfo.activeProcessorCount, 8)
    guard threads > 1, itemCount >= Self.minimumItems else { return nil }
    let outputs = UnsafeMutableBufferPointer<Slice?>.allocate(capacity: threads)
    outputs.initialize(repeating: nil)
    defer {
      _ = outputs.deinitialize()
      outputs.deallocate()
    }
    let work = SharedWork(lists: lists, total: itemCount, outputs: outputs)
    DispatchQueue.concurrentPerform(iterations: threads) { slice in
      work.run(slice: slice, of: threads)
    }
    slices = []
    for index in 0..<threads {
      guard let output = outputs[index].take() else { return nil }
      slices.append(output)
    }
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

  /// What the threads share: each encodes its own contiguous slice of the items into its own
  /// output slot.
  private struct SharedWork: @unchecked Sendable {
    let lists: [Checklist]
    let total: Int
    let outputs: UnsafeMutableBufferPointer<Slice?>

    func run(slice: Int, of count: Int) {
      let start = total * slice / count
      let end = total * (slice + 1) / count
      var output = Slice(bytes: OutputBuffer(capacity: (end - start) * 64), ends: [])
      output.ends.reserveCapacity(end - start)
      var list = 0
      var listStart = 0
      while list < lists.count, listStart + lists[list].items.count <= start {
        listStart += lists[list].items.count
        list += 1
      }
      var position = start
      while position < end, list < lists.count {
        let items = lists[list].items
        let to = min(items.count, end - listStart)
        for index in (position - listStart)..<to {
          BinaryPlistWriter.encodeString(items[index].text, to: output.bytes)
          output.ends.append(output.bytes.count)
        }
        position = listStart + to
        listStart += items.count
        list += 1
      }
      outputs[slice] = output
    }
  }
}
