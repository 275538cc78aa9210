import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Reads a big file's items on all cores.
///
/// The lists are read in order on this thread; the items, nearly all of the work, are split
/// into `ItemSlices`, `slicesPerThread` per core, each read by its own copy of the source. Items
/// not in the usual form (the five keys, and any of `hasDueDate`, `parentItemID`, `priority`
/// and `tags` with values of their types) are read afterwards on this thread.
///
/// Any error sends the file back to reading in order, so that the message is the one reading in
/// order gives. Which values count against the source's expansion budget does not change either:
/// the copies only take the usual-form items, which spend none (a usual item's tags are few).
struct ConcurrentItemDecoding<Source: PlistNodeSource> {
  /// Files with fewer items are read on one thread: starting threads would cost more.
  static var minimumItems: Int { 20_000 }

  /// Slices per core, taken by whichever thread is free: cores are seldom equally fast (one
  /// may grow the heap, or serve another process), and with one slice each the faster one
  /// waited for the slower, up to 7 ms of a 100,000-item start.
  static var slicesPerThread: Int { 8 }

  /// The decoder whose source is read.
  let decoder: ChecklistsSchemaDecoder<Source>

  /// The lists; nil when the source cannot be shared between threads or there is one core, or
  /// when anything in the file is wrong. A file of fewer than `minimumItems` items has its
  /// items read in order here, without threads, so that its lists are not read twice.
  func lists() -> [Checklist]? {
    guard ItemSlices.threads > 1, let main = decoder.source.independentCopy() else { return nil }
    let reader = ChecklistsSchemaDecoder(source: main)
    guard let listNodes = try? reader.topLevelLists() else { return nil }
    var parts: [ChecklistsSchemaDecoder<Source>.ListParts] = []
    parts.reserveCapacity(listNodes.count)
    var total = 0
    for (index, node) in listNodes.enumerated() {
      // A source that hands over decoded items has nothing left to read on other cores.
      guard let list = try? reader.listParts(node, number: index + 1),
        list.decodedItems == nil
      else { return nil }
      total += list.itemNodes.count
      guard (try? reader.checkItemTotal(total)) != nil else { return nil }
      parts.append(list)
    }
    let itemNodes = parts.map(\.itemNodes)
    let slices = ItemSlices(
      itemCounts: itemNodes.map(\.count), count: ItemSlices.threads * Self.slicesPerThread)
    guard total >= Self.minimumItems else { return Self.inOrder(parts, reader: reader) }

    var copies: [Source] = []
    for _ in 0..<slices.count {
      guard let copy = decoder.source.independentCopy() else { return nil }
      copies.append(copy)
    }
    let outputs = slices.map { slice in
      Self.read(slices.pieces(of: slice), of: itemNodes, with: copies[slice])
    }

    // Put each list's pieces together; a list split between slices is joined.
    var itemsByList = [[ChecklistItem]](repeating: [], count: parts.count)
    for output in outputs {
      for (list, items) in output.pieces {
        if itemsByList[list].isEmpty {
          itemsByList[list] = items
        } else {
          itemsByList[list].append(contentsOf: items)
        }
      }
    }
    for output in outputs {
      for (list, item) in output.unusual {
        var path = parts[list].path
        path.item = item + 1
        guard let decoded = try? reader.item(parts[list].itemNodes[item], at: path) else {
          return nil
        }
        itemsByList[list][item] = decoded
      }
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

  /// What one slice read: its part of each list it touches, in order.
  struct SliceOutput {
    /// (list index, the items of the slice's piece of it).
    var pieces: [(list: Int, items: [ChecklistItem])] = []
    /// Items (list, index in the list) not in the usual form, left as placeholders.
    var unusual: [(list: Int, item: Int)] = []
  }

  /// The items at `pieces` of the lists' `itemNodes`, read with `source` (one slice's work,
  /// with the slice's own copy of the source).
  private static func read(
    _ pieces: [ItemSlices.Piece], of itemNodes: [[Source.Node]], with source: Source
  ) -> SliceOutput {
    var output = SliceOutput()
    for piece in pieces {
      let nodes = itemNodes[piece.list]
      var items: [ChecklistItem] = []
      items.reserveCapacity(piece.items.count)
      for index in piece.items {
        if let item = source.decodedItem(nodes[index]) {
          items.append(item)
        } else {
          items.append(ChecklistItem(text: "", itemID: 0))
          output.unusual.append((list: piece.list, item: index))
        }
      }
      output.pieces.append((list: piece.list, items: items))
    }
    return output
  }
}
