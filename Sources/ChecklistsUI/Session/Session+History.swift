import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Undo and redo made on the model as it is now: a merge may have changed it behind the
/// history's back.
extension Session {
  /// An undo or redo of an item edit made again on the item as it is now: only the fields the
  /// edit changed go back (or forward); a field changed elsewhere since, by a merge, stays.
  ///
  /// An entry that takes an item out (the undo of an add or of a move to another list) takes
  /// it from wherever it is now, as it is now, and a move puts back that version of it.
  func rebased(_ entry: UndoEntry) -> UndoEntry {
    switch entry {
    case .single(.replaceItem(let listID, let index, let from, let to)):
      return rebasedEdit(listID: listID, index: index, from: from, to: to)
    case .single(let change):
      return .single(followingMovedItems([change])[0])
    case .group(var compound):
      // Only a move follows its item; clearing checked items (or its redo) takes them from
      // their list as they were, or not at all.
      guard compound.kind == .moveToList else { return entry }
      compound.changes = followingMovedItems(compound.changes)
      return .group(compound)
    }
  }

  /// `changes` with each item they take out found where it is now (moved to another list
  /// elsewhere, changed elsewhere), and the item put back again as it is now.
  func followingMovedItems(_ changes: [ModelChange]) -> [ModelChange] {
    var now: [Int: ChecklistItem] = [:]
    var result = changes
    for (position, change) in changes.enumerated() {
      guard case .deleteItem(let listID, let index, let item) = change,
        let (place, current) = whereNow(itemID: item.itemID, listID: listID, near: index)
      else { continue }
      now[item.itemID] = current
      result[position] = .deleteItem(listID: place.listID, index: place.index, item: current)
    }
    guard !now.isEmpty else { return result }
    for (position, change) in result.enumerated() {
      if case .insertItem(let listID, let index, let item) = change, let current = now[item.itemID]
      {
        result[position] = .insertItem(listID: listID, index: index, item: current)
      }
    }
    return result
  }

  /// The item with `itemID` where it is now, and as it is now: in its list (near `index`), or
  /// in another one it was moved to elsewhere; nil when it is gone.
  func whereNow(itemID: Int, listID: Checklist.ID, near index: Int) -> (
    place: (listID: Checklist.ID, index: Int), item: ChecklistItem
  )? {
    if let list = model.list(withID: listID),
      let at = list.index(ofItemID: itemID, near: index)
    {
      return ((listID, at), list.items[at])
    }
    guard let (listIndex, at) = ChecklistsApp.locate(itemID: itemID, in: model) else { return nil }
    let list = model.lists[listIndex]
    return ((list.id, at), list.items[at])
  }

  /// An item edit's undo or redo made on the item as it is now (see `rebased`).
  func rebasedEdit(
    listID: Checklist.ID, index: Int, from: ChecklistItem, to: ChecklistItem
  ) -> UndoEntry {
    let entry = UndoEntry.single(.replaceItem(listID: listID, index: index, old: from, new: to))
    guard let (place, current) = whereNow(itemID: from.itemID, listID: listID, near: index),
      current != from || place.listID != listID
    else { return entry }
    return .single(
      .replaceItem(
        listID: place.listID, index: place.index, old: current,
        new: ChecklistItem.rebase(from: from, to: to, onto: current)))
  }

  /// Why `entry` cannot be applied when it would bring back an item or a list that is there
  /// already (a merge kept it after a change elsewhere): it would make a second copy with the
  /// same itemIDs. Nil when it would not.
  func bringsBackWhatIsThere(_ entry: UndoEntry) -> String? {
    let changes: [ModelChange]
    switch entry {
    case .single(let change): changes = [change]
    case .group(let compound): changes = compound.changes
    }
    var inserted = Set<Int>()
    var removed = Set<Int>()
    var list = false
    for change in changes {
      if case .insertList(let inserting) = change, !inserting.items.isEmpty { list = true }
      switch change {
      case .insertItem(_, _, let item): inserted.insert(item.itemID)
      case .deleteItem(_, _, let item): removed.insert(item.itemID)
      case .insertList(let list): inserted.formUnion(list.items.map(\.itemID))
      case .deleteList(let list): removed.formUnion(list.items.map(\.itemID))
      default: break
      }
    }
    // An item moved (taken out, then put in) is no new copy.
    inserted.subtract(removed)
    guard !inserted.isEmpty,
      model.lists.contains(where: { $0.items.contains { inserted.contains($0.itemID) } })
    else { return nil }
    return "the \(list ? "list" : "item") is there again, kept after a change elsewhere"
  }

  /// Why `entry` could not be applied. Only a merge of changes made elsewhere changes the lists
  /// behind the history's back: a list deleted here is there again (changed elsewhere, so the
  /// merge kept it), a list it touches is gone, or an item it touches is (an item changed
  /// elsewhere is no obstacle: the undo takes back only what the edit changed).
  func whyNotApplied(_ entry: UndoEntry) -> String {
    let changes: [ModelChange]
    switch entry {
    case .single(let change): changes = [change]
    case .group(let compound): changes = compound.changes
    }
    for change in changes {
      if case .insertList = change {
        if model.index(ofList: change.listID) != nil {
          return "the list is there again, kept after a change elsewhere"
        }
      } else if model.index(ofList: change.listID) == nil {
        return "the list was deleted elsewhere"
      }
    }
    return "the item was deleted elsewhere"
  }

  /// The undo of clearing checked items without the items a merge has kept since (each was
  /// changed elsewhere after it was cleared here, so it is back already), and how many those
  /// are; the others still come back, where they were. Other entries are returned as they are.
  func withoutItemsThereAgain(_ entry: UndoEntry) -> (UndoEntry, Int) {
    guard case .group(var compound) = entry, compound.kind == .clearChecked, compound.isInverse
    else { return (entry, 0) }
    var present = Set<Int>()
    for list in model.lists { for item in list.items { present.insert(item.itemID) } }
    var counts: [Checklist.ID: Int] = [:]
    var changes: [ModelChange] = []
    var skipped = 0
    for change in compound.changes {
      guard case .insertItem(let listID, let index, let item) = change else {
        changes.append(change)
        continue
      }
      if present.contains(item.itemID) {
        skipped += 1
        continue
      }
      let count = counts[listID] ?? model.list(withID: listID)?.items.count ?? 0
      changes.append(.insertItem(listID: listID, index: min(index, count), item: item))
      counts[listID] = count + 1
    }
    // All of them back already: the entry as it was, which is then refused with the reason.
    guard !changes.isEmpty else { return (entry, 0) }
    compound.changes = changes
    return (.group(compound), skipped)
  }
}
