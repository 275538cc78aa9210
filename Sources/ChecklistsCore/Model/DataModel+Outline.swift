/// Why an item cannot go where it was asked to.
public enum OutlineError: Error, Equatable, Sendable {
  /// An item cannot be its own subtask.
  case underItself
  /// The new parent is one of the item's own subtasks.
  case underItsOwnSubtask

  /// What the user reads.
  public var message: String {
    switch self {
    case .underItself: "an item cannot be a subtask of itself"
    case .underItsOwnSubtask: "an item cannot go under one of its own subtasks"
    }
  }
}

/// Subtasks as changes: each function returns plain `ModelChange`s, applied in order (with
/// `apply(_:)` below), so that the item and its subtasks move, and are undone, together.
extension DataModel {
  /// Applies `changes` in order; whether all applied (on a failure the model is as it was).
  @discardableResult
  public mutating func apply(_ changes: [ModelChange]) -> Bool {
    let before = self
    for change in changes {
      guard apply(change) else {
        self = before
        return false
      }
    }
    return true
  }

  /// Where a new subtask of the item at `parentIndex` goes: after the parent's last
  /// descendant.
  public func subtaskInsertionIndex(listID: Checklist.ID, under parentIndex: Int) -> Int? {
    guard let list = list(withID: listID), list.items.indices.contains(parentIndex) else {
      return nil
    }
    return list.subtreeRange(at: parentIndex).upperBound
  }

  /// The changes that delete the item at `index` with all its subtasks (last first, so that
  /// each index is the item's place when it is deleted); nil when there is no such item.
  public func deleteSubtree(listID: Checklist.ID, at index: Int) -> [ModelChange]? {
    guard let list = list(withID: listID), list.items.indices.contains(index) else { return nil }
    return list.subtreeRange(at: index).reversed().map {
      .deleteItem(listID: listID, index: $0, item: list.items[$0])
    }
  }

  /// The changes that move the item at `index` and its subtasks to the end of another list,
  /// where the item is top-level; nil when there is no such item or list, or it is the same.
  public func moveSubtree(listID: Checklist.ID, at index: Int, toListID: Checklist.ID)
    -> [ModelChange]?
  {
    guard listID != toListID, let target = list(withID: toListID),
      let deletions = deleteSubtree(listID: listID, at: index),
      let list = list(withID: listID)
    else { return nil }
    var moved = Array(list.items[list.subtreeRange(at: index)])
    moved[0].parentItemID = nil
    let insertions = moved.enumerated().map { offset, item in
      ModelChange.insertItem(listID: toListID, index: target.items.count + offset, item: item)
    }
    return deletions + insertions
  }

  /// The changes that make the item at `index` (with its subtasks) a subtask of the item at
  /// `parentIndex`, as its last one, or with nil a top-level item after the subtree it was in.
  /// An empty array when it already is so; nil when there is no such item.
  public func reparent(listID: Checklist.ID, at index: Int, under parentIndex: Int?)
    throws(OutlineError) -> [ModelChange]?
  {
    guard let list = list(withID: listID), list.items.indices.contains(index) else { return nil }
    let subtree = list.subtreeRange(at: index)
    var rest = list.items
    rest.removeSubrange(subtree)
    var moved = Array(list.items[subtree])
    let place: Int
    if let parentIndex {
      guard list.items.indices.contains(parentIndex) else { return nil }
      if parentIndex == index { throw .underItself }
      if subtree.contains(parentIndex) { throw .underItsOwnSubtask }
      let parentInRest = parentIndex < index ? parentIndex : parentIndex - subtree.count
      moved[0].parentItemID = list.items[parentIndex].itemID
      place = Checklist(name: "", items: rest).subtreeRange(at: parentInRest).upperBound
    } else {
      let parents = list.outline()
      var top = index
      while let up = parents[top] { top = up }
      moved[0].parentItemID = nil
      // Already top-level: it stays where it is; else after its top-level ancestor's subtree.
      place =
        top == index
        ? index : Checklist(name: "", items: rest).subtreeRange(at: top).upperBound
    }
    if place == index && moved[0] == list.items[index] { return [] }
    let deletions = subtree.reversed().map {
      ModelChange.deleteItem(listID: listID, index: $0, item: list.items[$0])
    }
    let insertions = moved.enumerated().map { offset, item in
      ModelChange.insertItem(listID: listID, index: place + offset, item: item)
    }
    return deletions + insertions
  }
}
