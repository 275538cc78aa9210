import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Pairs the lists of another version of the file with the lists of the base, which carry no
/// identity in the iPhone model: by name first, then, for a list renamed, by the items it holds.
enum ListMatching {
  /// For each list of `other`, the index of its base list, or nil when it is new.
  ///
  /// Equal names pair first (several lists of one name pair by the most items in common, then in
  /// order); the rest pair by the number of `itemID`s they share, most first.
  static func match(base: [Checklist], other: [Checklist]) -> [Int?] {
    var result = [Int?](repeating: nil, count: other.count)
    var baseTaken = [Bool](repeating: false, count: base.count)
    var baseByName: [String: [Int]] = [:]
    for (index, list) in base.enumerated() { baseByName[list.name, default: []].append(index) }

    var unmatchedOther: [Int] = []
    for (index, list) in other.enumerated() {
      guard var candidates = baseByName[list.name], !candidates.isEmpty else {
        unmatchedOther.append(index)
        continue
      }
      var pick = 0
      if candidates.count > 1 {
        let ids = Set(list.items.lazy.map(\.itemID))
        var best = -1
        for (offset, candidate) in candidates.enumerated() {
          let shared = base[candidate].items.reduce(0) { $0 + (ids.contains($1.itemID) ? 1 : 0) }
          if shared > best {
            best = shared
            pick = offset
          }
        }
      }
      let chosen = candidates.remove(at: pick)
      baseByName[list.name] = candidates
      result[index] = chosen
      baseTaken[chosen] = true
    }
    guard !unmatchedOther.isEmpty, baseTaken.contains(false) else { return result }

    // Renamed lists: vote by shared item ids.
    var baseOfItem: [Int: Int] = [:]
    for (index, list) in base.enumerated() where !baseTaken[index] {
      for item in list.items { baseOfItem[item.itemID] = index }
    }
    var pairs: [(shared: Int, other: Int, base: Int)] = []
    for index in unmatchedOther {
      var votes: [Int: Int] = [:]
      for item in other[index].items {
        if let baseIndex = baseOfItem[item.itemID] { votes[baseIndex, default: 0] += 1 }
      }
      for (baseIndex, shared) in votes { pairs.append((shared, index, baseIndex)) }
    }
    pairs.sort {
      ($0.shared, -$0.other, -$0.base) > ($1.shared, -$1.other, -$1.base)
    }
    for pair in pairs where result[pair.other] == nil && !baseTaken[pair.base] {
      result[pair.other] = pair.base
      baseTaken[pair.base] = true
    }
    return result
  }
}

/// The longest strictly increasing subsequence of a sequence: which elements are on it.
enum LongestIncreasingRun {
  /// For each element, whether it belongs to one longest increasing run (O(n log n)).
  static func members(_ values: [Int]) -> [Bool] {
    var tails: [Int] = []  // index into values of the smallest tail of each run length
    var previous = [Int](repeating: -1, count: values.count)
    for (index, value) in values.enumerated() {
      var low = 0
      var high = tails.count
      while low < high {
        let mid = (low + high) / 2
        if values[tails[mid]] < value { low = mid + 1 } else { high = mid }
      }
      if low > 0 { previous[index] = tails[low - 1] }
      if low == tails.count { tails.append(index) } else { tails[low] = index }
    }
    var members = [Bool](repeating: false, count: values.count)
    var cursor = tails.last ?? -1
    while cursor >= 0 {
      members[cursor] = true
      cursor = previous[cursor]
    }
    return members
  }
}
