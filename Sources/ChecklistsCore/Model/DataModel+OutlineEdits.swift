import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Why an item cannot be indented or outdented.
public enum OutlineEditError: Error, Equatable, Sendable {
  /// Indenting needs an item above at the same level (a sibling) to go under: the first item
  /// of a list, or the first subtask of a parent, has none.
  case nothingAbove
  /// Outdenting needs a subtask: the item is top-level already.
  case alreadyTopLevel

  /// What the user reads.
  public var message: String {
    switch self {
    case .nothingAbove: "no item above at its level to make it a subtask of"
    case .alreadyTopLevel: "the item is not a subtask"
    }
  }
}

/// What checking an item with its subtasks does: the changes (one `replaceItem` per item,
/// applied, undone and redone as one) and what to say.
public struct SubtreeCheck: Equatable, Sendable {
  /// The changes, applied in order: the item first, then its subtasks in list order.
  public var changes: [ModelChange]
  /// How many of the item's subtasks were checked with it.
  public var subtasks: Int
  /// The item's new due date when it repeats (it moved to its next occurrence instead of being
  /// checked); nil otherwise.
  public var nextDueDate: Date?
}

extension PriorityLevel {
  /// The level after this one as a key cycles them: none → low → medium → high → none.
  public var next: PriorityLevel {
    switch self {
    case .none: .low
    case .low: .medium
    case .medium: .high
    case .high: .none
    }
  }
}

/// Outline edits as plain `ModelChange`s, like `reparent` and `deleteSubtree`: indent, outdent,
/// priority, and checking an item with its subtasks. Each returns the changes to apply in order
/// (`DataModel.apply(_:)`); applying their inverses in reverse order brings everything back.
extension DataModel {
  /// The change that makes the item at `index` a subtask of the nearest item above it at its
  /// level (its previous sibling), as that item's last subtask; its own subtasks go with it.
  ///
  /// One level at a time, as Reminders does: a top-level item goes under the top-level item
  /// above it (after that item's subtasks), and goes deeper only when indented again under a
  /// subtask above it. The item keeps its place in the list (it already follows its sibling's
  /// subtree), so the change is one `replaceItem` of its `parentItemID`. Nil when there is no
  /// such item; `nothingAbove` when there is no sibling above.
  ///
  /// `depths` are the list's `Checklist.depths()` when the caller has them (a screen showing
  /// the outline): the edit then looks only at the items between the sibling and the item
  /// instead of reading the whole list's outline.
  public func indent(listID: Checklist.ID, at index: Int, depths: [Int]? = nil)
    throws(OutlineEditError) -> ModelChange?
  {
    guard let list = list(withID: listID), list.items.indices.contains(index) else { return nil }
    let depths = Self.depths(depths, of: list)
    let depth = depths[index]
    // Every item between the sibling and the item is deeper (in the sibling's subtree); a
    // shallower one is the item's parent: it has no sibling above.
    var above = index - 1
    while above >= 0, depths[above] > depth { above -= 1 }
    guard above >= 0, depths[above] == depth else { throw .nothingAbove }
    let old = list.items[index]
    var new = old
    new.parentItemID = list.items[above].itemID
    return .replaceItem(listID: listID, index: index, old: old, new: new)
  }

  /// The changes that lift the subtask at `index` out one level, with its own subtasks: it
  /// becomes a sibling of its old parent and lands right after the old parent's subtree (the
  /// subtasks after it stay with the old parent). `alreadyTopLevel` for a top-level item; nil
  /// when there is no such item. `depths` as for `indent`.
  public func outdent(listID: Checklist.ID, at index: Int, depths: [Int]? = nil)
    throws(OutlineEditError) -> [ModelChange]?
  {
    guard let list = list(withID: listID), list.items.indices.contains(index) else { return nil }
    let depths = Self.depths(depths, of: list)
    let depth = depths[index]
    guard depth > 0 else { throw .alreadyTopLevel }
    // The parent is the nearest shallower item above, the grandparent the nearest above it.
    var parent = index - 1
    while parent > 0, depths[parent] >= depth { parent -= 1 }
    var grandparent: Int?
    if depth > 1 {
      var up = parent - 1
      while up > 0, depths[up] >= depth - 1 { up -= 1 }
      grandparent = up
    }
    var subtreeEnd = index + 1
    while subtreeEnd < depths.count, depths[subtreeEnd] > depth { subtreeEnd += 1 }
    var parentEnd = subtreeEnd
    while parentEnd < depths.count, depths[parentEnd] >= depth { parentEnd += 1 }
    let subtree = index..<subtreeEnd
    var moved = Array(list.items[subtree])
    moved[0].parentItemID = grandparent.map { list.items[$0].itemID }
    // The old parent's subtree ends `subtree.count` earlier once the item has left it.
    let place = parentEnd - subtree.count
    var changes: [ModelChange] = []
    if place == index {
      // Already its parent's last subtask: only the parent link changes.
      changes.append(
        .replaceItem(listID: listID, index: index, old: list.items[index], new: moved[0]))
      return changes
    }
    changes.reserveCapacity(subtree.count * 2)
    for position in subtree.reversed() {
      changes.append(.deleteItem(listID: listID, index: position, item: list.items[position]))
    }
    for (offset, item) in moved.enumerated() {
      changes.append(.insertItem(listID: listID, index: place + offset, item: item))
    }
    return changes
  }

  /// The depths given, when there is one per item of `list`, else the list's own.
  private static func depths(_ given: [Int]?, of list: Checklist) -> [Int] {
    if let given, given.count == list.items.count { return given }
    return list.depths()
  }

  /// The change that gives the item at `index` a priority level (stored 1, 5 or 9; none removes
  /// the key); nil when there is no such item or it has that level already (a stored 3 stays).
  public func setPriority(listID: Checklist.ID, at index: Int, to level: PriorityLevel)
    -> ModelChange?
  {
    guard let list = list(withID: listID), list.items.indices.contains(index) else { return nil }
    var item = list.items[index]
    item.priorityLevel = level
    return replaceItem(listID: listID, at: index, with: item)
  }

  /// The change that moves the item at `index` to the next priority level (none → low →
  /// medium → high → none); nil when there is no such item.
  public func cyclePriority(listID: Checklist.ID, at index: Int) -> ModelChange? {
    guard let list = list(withID: listID), list.items.indices.contains(index) else { return nil }
    return setPriority(listID: listID, at: index, to: list.items[index].priorityLevel.next)
  }

  /// Checking an unchecked item that has unchecked subtasks: the item and every unchecked item
  /// of its subtree are checked as `checkItem` checks one (a repeating item moves to its next
  /// occurrence instead), as one change. Nil when there is no such item, the item is checked,
  /// or none of its subtasks is unchecked: then Space does what it does on any item
  /// (`checkItem`).
  public func checkWithSubtasks(listID: Checklist.ID, at index: Int, schedule: RepeatSchedule)
    -> SubtreeCheck?
  {
    guard let list = list(withID: listID), list.items.indices.contains(index),
      !list.items[index].checked
    else { return nil }
    let subtree = list.subtreeRange(at: index)
    var changes: [ModelChange] = []
    var nextDueDate: Date?
    for position in subtree where !list.items[position].checked {
      let old = list.items[position]
      var new = old
      if let moved = schedule.advanced(old) {
        new = moved
        if position == index { nextDueDate = moved.dueDate }
      } else {
        new.checked = true
      }
      changes.append(.replaceItem(listID: listID, index: position, old: old, new: new))
    }
    guard changes.count > 1 else { return nil }
    return SubtreeCheck(changes: changes, subtasks: changes.count - 1, nextDueDate: nextDueDate)
  }
}
