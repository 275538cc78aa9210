/// The smallest item IDs no item has, one after another, never the same twice: new IDs once
/// counting up from the largest has reached Int.max (a damaged or hand-made file holds that
/// ID), where every new item got Int.max, the ID of the item already there.
struct UnusedItemIDs: Sendable {
  private var inUse: Set<Int>
  /// Every ID below this is in use.
  private var candidate = 0

  /// IDs found among those not in `inUse`.
  init(inUse: Set<Int>) { self.inUse = inUse }

  /// The IDs of every item of `lists`, read in place.
  static func inUse(by lists: [Checklist]) -> Set<Int> {
    var used = Set<Int>()
    for list in lists {
      list.items.withUnsafeBufferPointer { items in
        for index in items.indices { used.insert(items[index].itemID) }
      }
    }
    return used
  }

  /// Counts `id` as in use (an item that came some other way).
  mutating func note(_ id: Int) { inUse.insert(id) }

  /// The smallest non-negative ID not in use, now counted as in use (Int.max when all are).
  mutating func take() -> Int {
    while inUse.contains(candidate) && candidate < Int.max { candidate += 1 }
    inUse.insert(candidate)
    return candidate
  }
}
