import Dispatch
import Foundation

/// Reads a big file's items on all cores.
///
/// The lists are read in order on this thread; the items, nearly all of the work, are split
/// into as many contiguous slices as there are cores (at most eight), each read by its own copy
/// of the source. Items not in the usual five-key form are read afterwards on this thread.
///
/// Any error sends the file back to reading in order, so that the message is the one reading in
/// order gives. Which values count against the source's expansion budget does not change either:
/// the copies only take the usual-form items, which spend none.
struct ConcurrentItemDecoding<Source: PlistNodeSource> {
  /// Files with fewer items are read on one thread: starting threads would cost more.
  static var minimumItems: Int { 20_000 }

  /// The decoder whose source is read.
  let decoder: ChecklistsSchemaDecoder<Source>

  /// The lists; nil when the source cannot be shared between threads or there is one core, or
  /// when anything in the file is wrong. A file of fewer than `minimumItems` items has its
  /// items read in order here, without threads, so that its lists are not read twice.
  func lists() -> [Checklist]? {
    let threads = min(ProcessInfo.processInfo.activeProcessorCount, 8)
    guard threads > 1, let main = decoder.source.independentCopy() else { return nil }
    let reader = ChecklistsSchemaDecoder(source: main)
    guard let listNodes = try? reader.topLevelLists() else { return nil }
    var parts: [ChecklistsSchemaDecoder<Source>.ListParts] = []
    parts.reserveCapacity(listNodes.count)
    var total = 0
    for (index, node) in listNodes.enumerated() {
      guard let list = try? reader.listParts(node, number: index + 1) else { return nil }
      total += list.itemNodes.count
      guard (try? reader.checkItemTotal(total)) != nil else { return nil }
      parts.append(list)
    }
    guard total >= Self.minimumItems else { return Self.inOrder(parts, reader: reader) }

    var copies: [Source] = []
    for _ in 0..<threads {
      guard let copy = decoder.source.independentCopy() else { return nil }
      copies.append(copy)
    }
    let outputs = UnsafeMutableBufferPointer<SliceOutput?>.allocate(capacity: threads)
    outputs.initialize(repeating: nil)
    defer {
      _ = outputs.deinitialize()
      outputs.deallocate()
    }
    let work = SharedWork(
      itemNodes: parts.map(\.itemNodes), copies: copies, total: total, outputs: outputs)
    DispatchQueue.concurrentPerform(iterations: threads) { slice in
      work.run(slice: slice, of: threads)
    }

    // Put each list's pieces together; a list split between slices is joined.
    var itemsByList = [[ChecklistItem]](repeating: [], count: parts.count)
    var unusual: [(list: Int, item: Int)] = []
    for slice in 0..<threads {
      guard let output = outputs[slice].take() else { continue }
      for (offset, items) in output.pieces.enumerated() {
        let list = output.firstList + offset
        if itemsByList[list].isEmpty {
          itemsByList[list] = items
        } else {
          itemsByList[list].append(contentsOf: items)
        }
      }
      unusual.append(contentsOf: output.unusual)
    }
    for (list, item) in unusual {
      var path = parts[list].path
      path.item = item + 1
      guard let decoded = try? reader.item(parts[list].itemNodes[item], at: path) else {
        return nil
      }
      itemsByList[list][item] = decoded
    }
    var lists: [Checklist] = []
    lists.reserveCapacity(parts.count)
    for (index, list) in parts.enumerated() {
      guard itemsByList[index].count == list.itemNodes.count else { return nil }
      lists.append(list.checklist(items: itemsByList[index]))
    }
    return lists
  }

  /// The lists with their items read in order by `reader`; nil on any error.
  private static func inOrder(
    _ parts: [ChecklistsSchemaDecoder<Source>.ListParts],
    reader: ChecklistsSchemaDecoder<Source>
  ) -> [Checklist]? {
    var lists: [Checklist] = []
    lists.reserveCapacity(parts.count)
    for list in parts {
      guard let items = try? reader.items(of: list) else { return nil }
      lists.append(list.checklist(items: items))
    }
    return lists
  }

  /// What one slice read: the items of the lists it touches, in order.
  struct SliceOutput {
    /// The index of the first list the slice touches.
    var firstList: Int
    /// The slice's part of each list it touches, from `firstList` on.
    var pieces: [[ChecklistItem]]
    /// Items (list, index in the list) not in the usual form, left as placeholders.
    var unusual: [(list: Int, item: Int)]
  }

  /// What the threads share: each reads its own slice with its own source copy and writes only
  /// its own output slot.
  struct SharedWork: @unchecked Sendable {
    let itemNodes: [[Source.Node]]
    let copies: [Source]
    let total: Int
    let outputs: UnsafeMutableBufferPointer<SliceOutput?>

    /// Reads slice `slice` of `count` equal slices of all items.
    func run(slice: Int, of count: Int) {
      let start = total * slice / count
      let end = total * (slice + 1) / count
      guard start < end else { return }
      let source = copies[slice]
      // Find the list holding item `start` of the whole file.
      var list = 0
      var listStart = 0
      while listStart + itemNodes[list].count <= start {
        listStart += itemNodes[list].count
        list += 1
      }
      var output = SliceOutput(firstList: list, pieces: [], unusual: [])
      var position = start
      while position < end {
        let nodes = itemNodes[list]
        let from = position - listStart
        let to = min(nodes.count, end - listStart)
        var items: [ChecklistItem] = []
        items.reserveCapacity(to - from)
        for index in from..<to {
          if let item = source.decodedItem(nodes[index]) {
            items.append(item)
          } else {
            items.append(ChecklistItem(text: "", itemID: 0))
            output.unusual.append((list: list, item: index))
          }
        }
        output.pieces.append(items)
        position = listStart + to
        listStart += nodes.count
        list += 1
      }
      outputs[slice] = output
    }
  }
}
