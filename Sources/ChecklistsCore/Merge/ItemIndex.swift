import Foundation

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

  private var tableIDs: [Int]
  private var tableOccurrences: [Int32]
  private var tableEntries: [Int32]
  private let shift: UInt64

  /// An index for up to `capacity` items in `slots` slots.
  init(capacity: Int, slots: Int) {
    var size = 16
    while size < capacity * 2 { size <<= 1 }
    tableIDs = [Int](repeating: 0, count: size)
    tableOccurrences = [Int32](repeating: -1, count: size)
    tableEntries = [Int32](repeating: 0, count: size)
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
      var key = ItemKey(id: item.itemID, occurrence: 0)
      while entry(key) != nil { key.occurrence += 1 }
      insert(key, entry: keys.count)
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
    let mask = tableIDs.count - 1
    var index = bucket(key)
    while true {
      let occurrence = tableOccurrences[index]
      if occurrence < 0 { return nil }
      if tableIDs[index] == key.id && Int(occurrence) == key.occurrence {
        return Int(tableEntries[index])
      }
      index = (index + 1) & mask
    }
  }

  private mutating func insert(_ key: ItemKey, entry: Int) {
    let mask = tableIDs.count - 1
    var index = bucket(key)
    while tableOccurrences[index] >= 0 { index = (index + 1) & mask }
    tableIDs[index] = key.id
    tableOccurrences[index] = Int32(truncatingIfNeeded: key.occurrence)
    tableEntries[index] = Int32(truncatingIfNeeded: entry)
  }

  private func bucket(_ key: ItemKey) -> Int {
    var hash = UInt64(bitPattern: Int64(key.id)) &* 0x9E37_79B9_7F4A_7C15
    hash ^= UInt64(key.occurrence) &* 0xC2B2_AE3D_27D4_EB4F
    return Int(truncatingIfNeeded: hash >> shift)
  }
}
