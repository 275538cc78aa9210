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
    if case .item(var itemForm) = form, let original = itemForm.original,
      let newID = merged.renumbered[original.itemID]
    {
      itemForm.original?.itemID = newID
      form = .item(itemForm)
    }
    if case .item(var itemForm) = form, let original = itemForm.original,
      let hint = itemForm.itemIndex,
      let index = dataModel.list(withID: itemForm.listID)?.index(
        ofItemID: original.itemID, near: hint)
    {
      itemForm.itemIndex = index
      form = .item(itemForm)
    }
    let formNote = followFormAfterMerge(before: before)
    refreshItemFormFields()
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

  /// After a merge, the open item form shows what changed elsewhere in the fields it left as
  /// they were (the text, the due date with Remind Me, the note, the repeat), as Done would
  /// keep them; a field the user changed keeps the user's value (and Done says when it was
  /// changed elsewhere too).
  mutating func refreshItemFormFields() {
    guard case .item(var itemForm) = form, var original = itemForm.original,
      let hint = itemForm.itemIndex, let list = dataModel.list(withID: itemForm.listID),
      let index = list.index(ofItemID: original.itemID, near: hint)
    else { return }
    let current = list.items[index]
    guard current != original else { return }
    if itemForm.text.text == original.text && current.text != original.text {
      itemForm.text.setText(current.text)
      original.text = current.text
    }
    let shownDue = original.showsDueDate ? original.dueDate : nil
    let currentDue = current.showsDueDate ? current.dueDate : nil
    if itemForm.dueDate == shownDue && itemForm.remind == original.shouldRemind
      && itemForm.dueError == nil
      && (currentDue != shownDue || current.shouldRemind != original.shouldRemind)
    {
      itemForm.remind = current.shouldRemind
      itemForm.dueText.setText(currentDue.map(editableText(for:)) ?? "")
      itemForm.dueDate = currentDue
      itemForm.dueSelected = false
      original.dueDate = current.dueDate
      original.hasDueDate = current.hasDueDate
      original.shouldRemind = current.shouldRemind
    }
    if itemForm.note.text == TextField(original.note, multiline: true).text
      && current.note != original.note
    {
      itemForm.note.setText(current.note)
      original.note = current.note
    }
    if itemForm.repeatRule == original.repeatRule && current.repeatRule != original.repeatRule
      && itemForm.repeatPicker == nil
    {
      itemForm.repeatRule = current.repeatRule
      itemForm.repeatChoices = ItemForm.repeatChoices(keeping: current.repeatRule)
      original.repeatRule = current.repeatRule
    }
    itemForm.original = original
    form = .item(itemForm)
  }

  /// Keeps the open form on its item and list after a merge: an item moved to another list
  /// elsewhere is followed there; a list deleted elsewhere is remembered as it was, for Done to
  /// put back, until it comes back under a new identity (deleted and put back elsewhere), when
  /// the form follows it. Returns a note for the status line when the user should know.
  private mutating func followFormAfterMerge(before: DataModel) -> String? {
    switch form {
    case .item(var itemForm):
      var note: String?
      let gone = itemForm.keptList ?? before.list(withID: itemForm.listID)
      if let original = itemForm.original,
        dataModel.list(withID: itemForm.listID)?.index(
          ofItemID: original.itemID, near: itemForm.itemIndex ?? 0) == nil,
        let (listIndex, itemIndex) = Self.locate(itemID: original.itemID, in: dataModel)
      {
        let list = dataModel.lists[listIndex]
        if dataModel.list(withID: itemForm.listID) != nil || gone?.name != list.name {
          note =
            "\(quoted(original.text)) was moved to \(quoted(list.name)) elsewhere: Done edits it "
            + "there"
          if itemForm.movedFromList == nil {
            itemForm.movedFromList = gone?.name ?? before.list(withID: itemForm.listID)?.name
          }
        }
        itemForm.listID = list.id
        itemForm.itemIndex = itemIndex
        itemForm.keptList = nil
      } else if dataModel.list(withID: itemForm.listID) == nil, let gone {
        if let back = Self.sameList(as: gone, in: dataModel, before: before) {
          itemForm.listID = back.id
          itemForm.keptList = nil
        } else if itemForm.keptList == nil {
          itemForm.keptList = gone
          note = "List \(quoted(gone.name)) was deleted elsewhere: Done keeps it with this item"
        }
      }
      form = .item(itemForm)
      return note
    case .list(var listForm):
      guard let id = listForm.listID, dataModel.list(withID: id) == nil,
        let gone = listForm.keptList ?? before.list(withID: id)
      else { return nil }
      if let back = Self.sameList(as: gone, in: dataModel, before: before) {
        listForm.listID = back.id
        listForm.keptList = nil
        form = .list(listForm)
        return nil
      }
      guard listForm.keptList == nil else { return nil }
      listForm.keptList = gone
      form = .list(listForm)
      return "List \(quoted(gone.name)) was deleted elsewhere: Done keeps it"
    case nil:
      return nil
    }
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
