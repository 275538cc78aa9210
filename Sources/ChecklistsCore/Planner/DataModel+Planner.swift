import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

extension DataModel {
  /// The change that moves the item at `index` of a list to the end of another list, keeping
  /// its id; nil when either list or the item is missing, or the lists are the same.
  public func moveItemToList(listID: Checklist.ID, at index: Int, toListID: Checklist.ID)
    -> CompoundChange?
  {
    guard listID != toListID, let from = list(withID: listID), let to = list(withID: toListID),
      from.items.indices.contains(index)
    else { return nil }
    let item = from.items[index]
    return CompoundChange(
      kind: .moveToList,
      changes: [
        .deleteItem(listID: listID, index: index, item: item),
        .insertItem(listID: toListID, index: to.items.count, item: item),
      ])
  }

  /// The change that deletes every checked item of a list; nil when it has none. An unchecked
  /// subtask of a checked item stays, under the nearest unchecked ancestor (or top-level), as a
  /// part of the same change, so that undoing it puts the subtask back under its parent.
  public func clearChecked(listID: Checklist.ID) -> CompoundChange? {
    guard let list = list(withID: listID) else { return nil }
    var changes: [ModelChange] = []
    if list.items.contains(where: { $0.parentItemID != nil }) {
      let parents = list.outline()
      for index in list.items.indices where !list.items[index].checked {
        guard let parent = parents[index], list.items[parent].checked else { continue }
        var ancestor = parents[parent]
        while let at = ancestor, list.items[at].checked { ancestor = parents[at] }
        var lifted = list.items[index]
        lifted.parentItemID = ancestor.map { list.items[$0].itemID }
        changes.append(
          .replaceItem(listID: listID, index: index, old: list.items[index], new: lifted))
      }
    }
    // From the last to the first, so that each index is the item's place before the change
    // and the inverse puts them back first to last.
    let deletions = list.items.indices.reversed().compactMap { index -> ModelChange? in
      let item = list.items[index]
      return item.checked ? .deleteItem(listID: listID, index: index, item: item) : nil
    }
    guard !deletions.isEmpty else { return nil }
    return CompoundChange(kind: .clearChecked, changes: changes + deletions)
  }

  /// Applies all of a compound change, or nothing (returning false) when a part does not fit.
  @discardableResult
  public mutating func apply(_ compound: CompoundChange) -> Bool {
    var applied: [ModelChange] = []
    var start = 0
    let changes = compound.changes
    while start < changes.count {
      let end = Self.runEnd(changes, from: start)
      if end - start > 1, applyRun(changes[start..<end]) {
        applied += changes[start..<end]
        start = end
        continue
      }
      guard apply(changes[start]) else {
        for change in applied.reversed() { apply(change.inverse) }
        return false
      }
      applied.append(changes[start])
      start += 1
    }
    return true
  }

  /// The end of the run of deletions (or insertions) into one list that starts at `start`.
  private static func runEnd(_ changes: [ModelChange], from start: Int) -> Int {
    var end = start + 1
    switch changes[start] {
    case .deleteItem(let listID, _, _):
      while end < changes.count, case .deleteItem(listID, _, _) = changes[end] { end += 1 }
    case .insertItem(let listID, _, _):
      while end < changes.count, case .insertItem(listID, _, _) = changes[end] { end += 1 }
    default:
      break
    }
    return end
  }

  /// Applies a run of deletions at falling indices, or insertions at rising ones, into one
  /// list in one pass; false (nothing changed) when the run does not fit as it stands.
  private mutating func applyRun(_ run: ArraySlice<ModelChange>) -> Bool {
    guard let first = run.first, let listIndex = index(ofList: first.listID) else { return false }
    let items = lists[listIndex].items
    var previous: Int?
    if case .deleteItem = first {
      var removed = [Bool](repeating: false, count: items.count)
      for change in run {
        guard case .deleteItem(_, let index, let item) = change, items.indices.contains(index),
          items[index].itemID == item.itemID, previous.map({ index < $0 }) ?? true
        else { return false }
        removed[index] = true
        previous = index
      }
      var kept: [ChecklistItem] = []
      kept.reserveCapacity(items.count - run.count)
      for (index, item) in items.enumerated() where !removed[index] { kept.append(item) }
      lists[listIndex].setItems(kept)
      return true
    }
    var inserts: [(index: Int, item: ChecklistItem)] = []
    for change in run {
      guard case .insertItem(_, let index, let item) = change, index >= 0,
        index < items.count + run.count, previous.map({ index > $0 }) ?? true
      else { return false }
      inserts.append((index, item))
      previous = index
    }
    var merged: [ChecklistItem] = []
    merged.reserveCapacity(items.count + inserts.count)
    var next = 0
    var old = items.makeIterator()
    for position in 0..<(items.count + inserts.count) {
      if next < inserts.count && inserts[next].index == position {
        merged.append(inserts[next].item)
        next += 1
      } else if let item = old.next() {
        merged.append(item)
      }
    }
    lists[listIndex].setItems(merged)
    for insert in inserts where insert.item.itemID >= nextItemID && insert.item.itemID < Int.max {
      nextItemID = insert.item.itemID + 1
    }
    return true
  }
}

extension CompoundChange {
  /// How many items the change deletes: a clear's count (the subtasks it lifts out stay).
  public var deletedItemCount: Int {
    changes.reduce(0) { count, change in
      if case .deleteItem = change { return count + 1 }
      return count
    }
  }
}
