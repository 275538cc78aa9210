import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

extension ChecklistsApp {
  /// The question asked before a list is deleted, fitted to `width` columns when it can be.
  func deletePrompt(for list: Checklist, width: Int = .max) -> String {
    let count = list.items.count
    return question(naming: list.name, width: width) {
      "Delete list \($0) with \(count) \(count == 1 ? "item" : "items")? y/n"
    }
  }

  /// The question the status line asks, fitted to `width` columns; nil when its list is gone.
  func prompt(for question: Confirmation, width: Int = .max) -> String? {
    switch question {
    case .deleteList(let id):
      return dataModel.list(withID: id).map { deletePrompt(for: $0, width: width) }
    case .clearChecked(let id):
      return dataModel.list(withID: id).flatMap { clearPrompt(for: $0, width: width) }
    case .duplicateListName(let name):
      return self.question(naming: name, width: width) {
        "A list named \($0) exists: have two of that name? y/n"
      }
    case .deleteWithSubtasks(let id, let itemID):
      guard let list = dataModel.list(withID: id), let index = list.index(ofItemID: itemID, near: 0)
      else { return nil }
      return deleteWithSubtasksPrompt(list: list, at: index, width: width)
    }
  }

  /// `Clear 2 checked items of "Groceries"? y/n`; nil when the list has none.
  func clearPrompt(for list: Checklist, width: Int = .max) -> String? {
    let count = list.items.count(where: \.checked)
    guard count > 0 else { return nil }
    let items = count == 1 ? "item" : "items"
    return question(naming: list.name, width: width) {
      "Clear \(count) checked \(items) of \($0)? y/n"
    }
  }

  /// `Delete "Trip" and its 3 subtasks? y/n`.
  func deleteWithSubtasksPrompt(list: Checklist, at index: Int, width: Int = .max) -> String {
    let count = list.subtreeRange(at: index).count - 1
    return question(naming: list.items[index].text, width: width) {
      "Delete \($0) and its \(count == 1 ? "subtask" : "\(count) subtasks")? y/n"
    }
  }

  /// A question that names `name` in quotes, made by `words` from the quoted name: the name is
  /// cut (to 40 columns at most) so that the whole question fits in `width` columns when it
  /// can, its end ("y/n") included.
  private func question(naming name: String, width: Int, _ words: (String) -> String) -> String {
    let rest = DisplayWidth.of(words("\"\""))
    let room = width == .max ? 40 : min(40, max(width - rest, 1))
    return words(quoted(name, maxWidth: room))
  }

  /// Moves the picker's item to the end of the highlighted list, as one undoable change; the
  /// list stays on screen and the status line says where the item went.
  mutating func moveToPickedList(_ picker: ListPickerScreen, now: Date) {
    guard picker.targets.indices.contains(picker.selected),
      let list = dataModel.list(withID: picker.listID),
      let index = list.index(ofItemID: picker.itemID, near: picker.itemIndex)
    else { return }
    let target = picker.targets[picker.selected]
    let text = list.items[index].text
    guard let name = dataModel.list(withID: target)?.name,
      let compound = dataModel.moveItemToList(
        listID: picker.listID, at: index, toListID: target),
      commit(compound, now: now)
    else { return }
    status = StatusMessage(
      text: "Moved \(quoted(text)) to \(quoted(name))\(undoNote)", isError: false)
  }

  /// Deletes a list's checked items as one undoable change.
  mutating func clearChecked(listID: Checklist.ID, now: Date) {
    guard let compound = dataModel.clearChecked(listID: listID), commit(compound, now: now) else {
      status = StatusMessage(text: "No checked items to clear", isError: false)
      return
    }
    let count = compound.deletedItemCount
    status = StatusMessage(
      text: "Cleared \(count) checked item\(count == 1 ? "" : "s")\(undoNote)", isError: false)
  }

  mutating func moveSelectedItem(down: Bool, now: Date) {
    guard let state = open, let listIndex = dataModel.index(ofList: state.listID) else { return }
    let listID = state.listID
    if sortByDue.contains(dataModel.lists[listIndex].name) {
      status = StatusMessage(
        text: "Sorted by due date: switch to manual order"
          + (keys.keyName(.sort, on: .checklist).map { " (\($0))" } ?? "") + " to move items",
        isError: true)
      return
    }
    if state.outline.hasSubtasks {
      moveWithSubtasks(down: down, now: now)
      return
    }
    let target = state.browser.selected + (down ? 1 : -1)
    guard let from = state.browser.index(ofRow: state.browser.selected),
      let to = state.browser.index(ofRow: target),
      let change = dataModel.moveItem(listID: listID, from: from, to: to)
    else { return }
    commit(change, now: now)
    open?.browser.selected = target
    if open?.browser.rows != nil { refreshOpenRows(keepItem: to) }
  }

  /// Opens the checklist screen on a list, over All Lists (a view open there closes).
  mutating func openList(id: Checklist.ID) {
    planner = nil
    showList(id: id)
  }

  /// Opens the checklist screen on a list over the browse screen on show (going back returns
  /// there).
  mutating func showList(id: Checklist.ID) {
    open = nil
    open = OpenList(listID: id)
    smartSelected = nil
    refreshOpenRows(keepItem: nil)
    if let index = dataModel.index(ofList: id) {
      if let row = allLists.row(ofIndex: index, total: dataModel.lists.count) {
        allLists.selected = row
      }
    }
  }

  /// Goes back to All Lists, selecting the list that was open.
  mutating func closeList() {
    guard let state = open else { return }
    stack.remove(ChecklistScreen.self)
    if planner != nil {
      // Back to the Today, Scheduled or search it was opened from, made again from the model.
      plannerVersion = -1
      return
    }
    if let index = dataModel.index(ofList: state.listID),
      let row = allLists.row(ofIndex: index, total: dataModel.lists.count)
    {
      allLists.selected = row
    }
  }

  mutating func jumpToLastReminder() {
    guard let last = session.lastReminder, let list = dataModel.list(withID: last.listID),
      let itemIndex = list.items.firstIndex(where: { $0.itemID == last.itemID })
    else {
      status = StatusMessage(text: "No reminder has fired yet", isError: false)
      return
    }
    openList(id: list.id)
    selectItem(itemIndex)
  }

  /// Selects an item of the open list, clearing a filter that hides it.
  mutating func selectItem(_ itemIndex: Int) {
    guard var state = open, let list = dataModel.list(withID: state.listID) else { return }
    if state.browser.row(ofIndex: itemIndex, total: list.items.count) == nil
      && state.browser.filter != nil
    {
      state.browser.filter = nil
      state.browser.filterField = nil
      open = state
      refreshOpenRows(keepItem: nil)
      state = open ?? state
    }
    if state.showsOutline, itemIndex < state.outline.itemCount,
      state.outline.reveal(itemIndex)
    {
      state.browser.rows = state.outline.browserRows
    }
    if let row = state.browser.row(ofIndex: itemIndex, total: list.items.count) {
      state.browser.selected = row
    } else {
      state.browser.selected = min(itemIndex, max(list.items.count - 1, 0))
    }
    state.browser.clamp(total: list.items.count, visibleRows: contentRows)
    open = state
  }

  // MARK: - Filter

  /// Whether the user is typing a filter on the current screen.
  var isTypingFilter: Bool {
    if let open { return open.browser.filterField != nil }
    return allLists.filterField != nil
  }

  /// Sets the open list's filter and recomputes its rows.
  mutating func setChecklistFilter(_ filter: String?) {
    let keep = open.flatMap { $0.browser.index(ofRow: $0.browser.selected) }
    open?.browser.filter = filter
    refreshOpenRows(keepItem: keep)
  }

  /// Sets All Lists' filter and recomputes its rows.
  mutating func setListsFilter(_ filter: String?) {
    let keep = allLists.index(ofRow: allLists.selected)
    allLists.filter = filter
    refreshListRows(keepList: keep)
  }

  /// Recomputes the All Lists rows for the filter (cheap: there are few lists).
  mutating func refreshListRows(keepList: Int?) {
    if let filter = allLists.filter {
      var rows: [Int] = []
      for (index, list) in dataModel.lists.enumerated()
      where TextMatching.contains(list.name, folding: filter) {
        rows.append(index)
      }
      allLists.rows = rows
    } else {
      allLists.rows = nil
    }
    if let keepList, let row = allLists.row(ofIndex: keepList, total: dataModel.lists.count) {
      allLists.selected = row
    }
    allLists.clamp(total: dataModel.lists.count, visibleRows: contentRows)
  }

  /// Recomputes the open list's order and filter: O(n), only when the list or the view changed.
  mutating func refreshOpenRows(keepItem: Int?) {
    guard var state = open, let list = dataModel.list(withID: state.listID) else { return }
    let order = RowOrder.compute(
      items: list.items, byDue: sortByDue.contains(list.name), filter: state.browser.filter)
    state.dueOrder = order.dueOrder
    state.outline = OutlineRows(list: list, folded: state.outline.folded)
    state.browser.rows = state.showsOutline ? state.outline.browserRows : order.rows
    if let keepItem, let row = state.browser.row(ofIndex: keepItem, total: list.items.count) {
      state.browser.selected = row
    }
    state.browser.clamp(total: list.items.count, visibleRows: contentRows)
    open = state
  }
}
