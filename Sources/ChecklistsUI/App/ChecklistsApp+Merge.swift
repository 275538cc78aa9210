import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

extension ChecklistsApp {
  /// Shows lists merged with changes made elsewhere instead of ours, keeping the screen on the
  /// same list and item, forms open, and undo on our own changes. Returns what the user should
  /// know about the open form (its item or list went elsewhere), if anything.
  @discardableResult
  mutating func adopt(_ merged: MergedLists, now: Date) -> String? {
    guard case .replaced(let before, _)? = session.apply(.merge(merged), now: now) else {
      return nil
    }
    return followMerge(before: before, merged: merged)
  }

  /// Keeps the screens on the same list and item after a merge replaced `before`, and the open
  /// form on its item; returns a note about the form for the status line, if any.
  @discardableResult
  mutating func followMerge(before: DataModel, merged: MergedLists) -> String? {
    let keptList =
      open.map(\.listID)
      ?? allLists.index(ofRow: allLists.selected).map {
        before.lists.indices.contains($0) ? before.lists[$0].id : -1
      }
    let keptItem: Int? = open.flatMap { state in
      guard let list = before.list(withID: state.listID),
        let index = state.browser.index(ofRow: state.browser.selected),
        list.items.indices.contains(index)
      else { return nil }
      let id = list.items[index].itemID
      return merged.renumbered[id] ?? id
    }
    let formNote = followFormsAfterMerge(before: before, merged: merged)
    followMergeOnScreens()
    // The same list and item stay selected.
    let listIndex = keptList.flatMap { dataModel.index(ofList: $0) }
    refreshListRows(keepList: listIndex)
    if let state = open {
      if dataModel.list(withID: state.listID) == nil {
        open = nil
      } else {
        let itemIndex = keptItem.flatMap { id in
          dataModel.list(withID: state.listID)?.items.firstIndex { $0.itemID == id }
        }
        refreshOpenRows(keepItem: itemIndex)
      }
    }
    clampSelections()
    return formNote
  }

  /// Lets the open form follow its item or list after a merge replaced `before`; returns its
  /// note for the status line, if any.
  private mutating func followFormsAfterMerge(before: DataModel, merged: MergedLists)
    -> String?
  {
    let app = self
    var note: String?
    stack.update(ItemFormScreen.self) {
      note = $0.followMerge(before: before, merged: merged, in: app)
    }
    stack.update(ListFormScreen.self) { note = $0.followMerge(before: before, in: app) ?? note }
    return note
  }

  /// The list in `model` that is `list` back under a new identity: one of the same name that
  /// holds any of its items, else one of the same name that this merge brought (a list of that
  /// name that was there before is another list, and the form does not move to it).
  static func sameList(as list: Checklist, in model: DataModel, before: DataModel) -> Checklist? {
    let named = model.lists.filter { $0.name == list.name }
    let itemIDs = Set(list.items.map(\.itemID))
    return named.first { $0.items.contains { itemIDs.contains($0.itemID) } }
      ?? named.first { before.list(withID: $0.id) == nil }
  }

  /// The list and item indices of the item with `itemID`.
  static func locate(itemID: Int, in model: DataModel) -> (list: Int, item: Int)? {
    for (listIndex, list) in model.lists.enumerated() {
      if let itemIndex = list.items.firstIndex(where: { $0.itemID == itemID }) {
        return (listIndex, itemIndex)
      }
    }
    return nil
  }
}
