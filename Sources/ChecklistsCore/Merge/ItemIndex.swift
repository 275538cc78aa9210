import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// An item's identity across versions: its `itemID` and which occurrence of that id it is.
struct ItemKey: Hashable {
  var id: Int
  var occurrence: Int
}

/// Where an item is on one side: the slot (merged list) and its index in that side's list.
struct ItemLocation {
  var slot: Int
  var position: Int
}

/// One side's items of the lists a merge looks at, numbered as entries in list order, with a
/// table from `ItemKey` to entry.
///
/// The table is open addressing on a multiplicative hash: at 100,000 items it is several times
/// cheaper than `Dictionary`, whose seeded hashing dominated a merge.
struct ItemIndex {
  /// Each entry's key.
  private(set) var keys: [ItemKey] = []
  /// Each entry's place.
  private(set) var locations: [ItemLocation] = []
  /// The entries of each slot (they are contiguous), by slot.
  private(set) var slotEntries: [Range<Int>?]
  /// What to write at each entry (nil: nothing, the item goes or is written elsewhere).
  var emit: [ChecklistItem?] = []
  /// Whether the side moved the entry's item within its list.
  var moved: [Bool] = []

  /// One bucket of the table; `occurrence` < 0 marks an empty one. One cache line holds four.
  private struct Bucket {
    var id: Int
    var occurrence: Int32
    var entry: Int32
  }

  private var table: [Bucket]
  private let shift: UInt64

  /// An index for up to `capacity` items in `slots` slots.
  init(capacity: Int, slots: Int) {
    var size = 16
    while size < capacity * 2 { size <<= 1 }
    table = [Bucket](repeating: Bucket(id: 0, occurrence: -1, entry: 0), count: size)
    shift = UInt64(64 - size.trailingZeroBitCount)
    slotEntries = [Range<Int>?](repeating: nil, count: slots)
    keys.reserveCapacity(capacity)
    locations.reserveCapacity(capacity)
  }

  /// The number of entries.
  var count: Int { keys.count }

  /// Adds the items of one list as the entries of `slot`.
  mutating func add(_ items: [ChecklistItem], slot: Int) {
    let start = keys.count
    for (position, item) in items.enumerated() {
      let key = insert(id: item.itemID, entry: keys.count)
      keys.append(key)
      locations.append(ItemLocation(slot: slot, position: position))
    }
    slotEntries[slot] = start..<keys.count
  }

  /// Makes room for the decisions, once every list is added.
  mutating func finishAdding() {
    emit = [ChecklistItem?](repeating: nil, count: keys.count)
    moved = [Bool](repeating: false, count: keys.count)
  }

  /// The entry of `key`, if this side has it.
  func entry(_ key: ItemKey) -> Int? {
    let mask = table.count - 1
    var index = bucket(key)
    return table.withUnsafeBufferPointer { buckets in
      while true {
        let bucket = buckets[index]
        if bucket.occurrence < 0 { return nil }
        if bucket.id == key.id && Int(bucket.occurrence) == key.occurrence {
          return Int(bucket.entry)
        }
        index = (index + 1) & mask
      }
    }
  }

  /// Adds the next occurrence of `id` (the first unless the side has the id already) as `entry`.
  private mutating func insert(id: Int, entry: Int) -> ItemKey {
    var key = ItemKey(id: id, occurrence: 0)
    while self.entry(key) != nil { key.occurrence += 1 }
    let mask = table.count - 1
    var index = bucket(key)
    while table[index].occurrence >= 0 { index = (index + 1) & mask }
    table[index] = Bucket(
      id: key.id, occurrence: Int32(truncatingIfNeeded: key.occurrence),
      entry: Int32(truncatingIfNeeded: entry))
    return key
  }

  private func bucket(_ key: ItemKey) -> Int {
    var hash = UInt64(bitPattern: Int64(key.id)) &* 0x9E37_79B9_7F4A_7C15
    hash ^= UInt64(key.occurrence) &* 0xC2B2_AE3D_27D4_EB4F
    return Int(truncatingIfNeeded: hash >> shift)
  }
}
