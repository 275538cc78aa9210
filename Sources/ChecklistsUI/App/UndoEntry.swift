import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// One step of the undo and redo stacks: a single change, or several made as one (moving an
/// item to another list, clearing checked items).
enum UndoEntry: Equatable {
  /// One change.
  case single(ModelChange)
  /// Several changes applied, undone and redone together.
  case group(CompoundChange)

  /// The entry that undoes this one.
  var inverse: UndoEntry {
    switch self {
    case .single(let change): return .single(change.inverse)
    case .group(let compound): return .group(compound.inverse)
    }
  }

  /// The same entry with items' ids replaced by `map`, after a merge renumbered new items.
  func renumberingItems(_ map: [Int: Int]) -> UndoEntry {
    switch self {
    case .single(let change): return .single(change.renumberingItems(map))
    case .group(let compound): return .group(compound.renumberingItems(map))
    }
  }
}
