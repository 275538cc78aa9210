import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

extension ChecklistsApp {
  /// Shows lists merged with changes made elsewhere instead of ours, keeping the screen on the
  /// same list and item, forms open, and undo on our own changes.
  mutating func adopt(_ merged: MergedLists, now: Date) {
    let keptList =
      open.map(\.listID)
      ?? allLists.index(ofRow: allLists.selected).map {
        dataModel.lists.indices.contains($0) ? dataModel.lists[$0].id : -1
      }
    let keptItem: Int? = open.flatMap { state in
      guard let list = dataModel.list(withID: state.listID),
        let index = state.browser.index(ofRow: state.browser.selected),
        list.items.indices.contains(index)
      else { return nil }
      let id = list.items[index].itemID
      return merged.renumbered[id] ?? id
    }
    dataModel = merged.model
    version += 1
    plannerChanges = nil
    if merged.matchesFile { savedVersion = version }
    if !merged.renumbered.isEmpty {
      undoStack = undoStack.map { $0.renumberingItems(merged.renumbered) }
      redoStack = redoStack.map { $0.renumberingItems(merged.renumbered) }
      if case .item(var itemForm) = form, let original = itemForm.original,
        let newID = merged.renumbered[original.itemID]
      {
        itemForm.original?.itemID = newID
        form = .item(itemForm)
      }
    }
    if case .item(var itemForm) = form, let original = itemForm.original,
      let hint = itemForm.itemIndex,
      let index = dataModel.list(withID: itemForm.listID)?.index(
        ofItemID: original.itemID, near: hint)
    {
      itemForm.itemIndex = index
      form = .item(itemForm)
    }
    reminders = ReminderTracker(model: dataModel, now: now)
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
  }
}
