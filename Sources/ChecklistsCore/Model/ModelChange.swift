import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// One undoable change to a `DataModel`: applying it and then its `inverse` restores the model.
///
/// Lists are named by their run-time `Checklist.ID`, so a change stays valid when renaming
/// re-sorts the lists.
public enum ModelChange: Equatable, Sendable {
  /// Adds a list (already carrying its id).
  case insertList(Checklist)
  /// Deletes a list; carries the list so that the inverse can put it back.
  case deleteList(Checklist)
  /// Changes a list's name and icon.
  case editList(id: Checklist.ID, old: ListInfo, new: ListInfo)
  /// Inserts an item at an index of a list.
  case insertItem(listID: Checklist.ID, index: Int, item: ChecklistItem)
  /// Deletes the item at an index of a list.
  case deleteItem(listID: Checklist.ID, index: Int, item: ChecklistItem)
  /// Replaces the item at an index (edit, toggle).
  case replaceItem(listID: Checklist.ID, index: Int, old: ChecklistItem, new: ChecklistItem)
  /// Moves an item (found by `itemID` when changes made elsewhere shifted it) within a list.
  case moveItem(listID: Checklist.ID, itemID: Int, from: Int, to: Int)

  /// A list's name and icon: what the list detail screen edits.
  public struct ListInfo: Equatable, Sendable {
    /// The list's name.
    public var name: String
    /// The list's icon name.
    public var iconName: String

    /// Creates list info.
    public init(name: String, iconName: String) {
      self.name = name
      self.iconName = iconName
    }
  }

  /// The change that undoes this one.
  public var inverse: ModelChange {
    switch self {
    case .insertList(let list): return .deleteList(list)
    case .deleteList(let list): return .insertList(list)
    case .editList(let id, let old, let new): return .editList(id: id, old: new, new: old)
    case .insertItem(let listID, let index, let item):
      return .deleteItem(listID: listID, index: index, item: item)
    case .deleteItem(let listID, let index, let item):
      return .insertItem(listID: listID, index: index, item: item)
    case .replaceItem(let listID, let index, let old, let new):
      return .replaceItem(listID: listID, index: index, old: new, new: old)
    case .moveItem(let listID, let itemID, let from, let to):
      return .moveItem(listID: listID, itemID: itemID, from: to, to: from)
    }
  }

  /// The list the change touches.
  public var listID: Checklist.ID {
    switch self {
    case .insertList(let list), .deleteList(let list): return list.id
    case .editList(let id, _, _): return id
    case .insertItem(let listID, _, _), .deleteItem(let listID, _, _),
      .replaceItem(let listID, _, _, _), .moveItem(let listID, _, _, _):
      return listID
    }
  }
}

extension ModelChange {
  /// The same change with items' ids replaced by `map` (old to new), after a merge renumbered
  /// new items of ours.
  public func renumberingItems(_ map: [Int: Int]) -> ModelChange {
    // An item's parent was renumbered with it: its children point at the new id.
    func renumbered(_ item: ChecklistItem) -> ChecklistItem {
      let newParent = item.parentItemID.flatMap { map[$0] }
      guard map[item.itemID] != nil || newParent != nil else { return item }
      var copy = item
      if let newID = map[item.itemID] { copy.itemID = newID }
      if let newParent { copy.parentItemID = newParent }
      return copy
    }
    switch self {
    case .insertList(var list):
      list.setItems(list.items.map(renumbered))
      return .insertList(list)
    case .deleteList(var list):
      list.setItems(list.items.map(renumbered))
      return .deleteList(list)
    case .editList:
      return self
    case .insertItem(let listID, let index, let item):
      return .insertItem(listID: listID, index: index, item: renumbered(item))
    case .deleteItem(let listID, let index, let item):
      return .deleteItem(listID: listID, index: index, item: renumbered(item))
    case .replaceItem(let listID, let index, let old, let new):
      return .replaceItem(listID: listID, index: index, old: renumbered(old), new: renumbered(new))
    case .moveItem(let listID, let itemID, let from, let to):
      return .moveItem(listID: listID, itemID: map[itemID] ?? itemID, from: from, to: to)
    }
  }
}
