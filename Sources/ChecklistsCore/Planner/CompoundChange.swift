import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Several `ModelChange`s made, undone and redone as one: moving an item to another list,
/// clearing a list's checked items.
///
/// `DataModel.apply(_:)` applies all of them or none, and a run of deletions from one list
/// (clearing) is applied in one pass over the list, so clearing 100,000 checked items costs
/// about as much as one deletion.
public struct CompoundChange: Equatable, Sendable {
  /// What a compound change does, for the status line and for `reveal`.
  public enum Kind: Equatable, Sendable {
    /// An item went from one list to another.
    case moveToList
    /// The checked items of a list were deleted.
    case clearChecked
    /// A list deleted elsewhere was put back with the change a form made in it.
    case keepList
    /// A subtask was lifted out one level with its own subtasks (`DataModel.outdent`).
    case outdent
    /// An item was checked with its unchecked subtasks (`DataModel.checkWithSubtasks`).
    case checkWithSubtasks
    /// An item was deleted with its subtasks (`DataModel.deleteSubtree`).
    case deleteWithSubtasks
    /// An item moved past its neighbouring sibling with its subtasks (`J`/`K`).
    case moveWithSubtasks
  }

  /// What it does (the inverse keeps its original's kind).
  public var kind: Kind
  /// Whether this is the inverse of a change of `kind` (an undo).
  public var isInverse: Bool
  /// The changes, applied in order.
  public var changes: [ModelChange]

  /// A compound change of `changes`, applied in order.
  public init(kind: Kind, changes: [ModelChange], isInverse: Bool = false) {
    self.kind = kind
    self.changes = changes
    self.isInverse = isInverse
  }

  /// The change that undoes this one: the inverses in reverse order.
  public var inverse: CompoundChange {
    CompoundChange(
      kind: kind, changes: changes.reversed().map(\.inverse), isInverse: !isInverse)
  }

  /// The lists the changes touch, in order, each once.
  public var listIDs: [Checklist.ID] {
    var seen: [Checklist.ID] = []
    for change in changes where !seen.contains(change.listID) { seen.append(change.listID) }
    return seen
  }

  /// The same change with items' ids replaced by `map`, after a merge renumbered new items.
  public func renumberingItems(_ map: [Int: Int]) -> CompoundChange {
    CompoundChange(
      kind: kind, changes: changes.map { $0.renumberingItems(map) }, isInverse: isInverse)
  }
}
