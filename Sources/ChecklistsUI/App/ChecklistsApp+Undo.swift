import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

extension ChecklistsApp {
  /// Applies a new change and records it for undo; returns whether it applied.
  @discardableResult
  mutating func commit(_ change: ModelChange, now: Date) -> Bool {
    guard let applied = session.commit(.single(change), now: now) else { return false }
    follow(applied)
    return true
  }

  /// Checks or unchecks an item; checking a repeating item moves it to its next due date
  /// instead, saying so on the status line ("Next: Tue 8 Dec"). Returns what was done, or nil.
  @discardableResult
  mutating func checkItem(listID: Checklist.ID, at index: Int, now: Date) -> ItemCheck? {
    let schedule = RepeatSchedule(timeZone: options.timeZone)
    guard let check = dataModel.checkItem(listID: listID, at: index, schedule: schedule),
      commit(check.change, now: now)
    else { return nil }
    if let text = check.statusText(formatter: formatter, now: now) {
      status = StatusMessage(text: text, isError: false)
    }
    return check
  }

  /// Applies several changes as one and records them for undo as one; returns whether they
  /// applied (all or none).
  @discardableResult
  mutating func commit(_ compound: CompoundChange, now: Date) -> Bool {
    guard let applied = session.commit(.group(compound), now: now) else { return false }
    follow(applied)
    return true
  }

  /// Applies an update to the session's model (not recorded for undo) and brings the screens
  /// up to date; returns what changed, or nil when it did not apply.
  @discardableResult
  mutating func apply(_ update: ModelUpdate, now: Date) -> AppliedUpdate? {
    guard let applied = session.apply(update, now: now) else { return nil }
    follow(applied)
    return applied
  }

  /// Keeps the screens' rows, order caches and selections right after an applied update.
  mutating func follow(_ applied: AppliedUpdate) {
    switch applied {
    case .changes(let changes) where changes.count == 1:
      refreshAfter(changes[0])
    case .changes(let changes):
      let keep = open.flatMap { $0.browser.index(ofRow: $0.browser.selected) }
      refreshListRows(keepList: nil)
      if let state = open {
        if dataModel.index(ofList: state.listID) == nil {
          open = nil
        } else if changes.contains(where: { $0.listID == state.listID }) {
          refreshOpenRows(keepItem: keep)
        }
      }
      clampSelections()
    case .replaced(let before, let merged):
      followMerge(before: before, merged: merged)
    }
  }

  /// Keeps rows, order caches and selections right after a change.
  mutating func refreshAfter(_ change: ModelChange) {
    switch change {
    case .insertList, .deleteList, .editList:
      refreshListRows(keepList: nil)
    default: break
    }
    guard var state = open else { return }
    guard dataModel.index(ofList: state.listID) != nil else {
      open = nil
      return
    }
    guard change.listID == state.listID, let listIndex = dataModel.index(ofList: state.listID)
    else { return }
    // The outline follows every change (free for an edit that keeps the item's parent); its
    // rows are the shown ones in manual order without a filter.
    let remade = state.outline.follow(change, in: dataModel.lists[listIndex])
    if state.showsOutline {
      if remade { state.browser.rows = state.outline.browserRows }
      open = state
      clampSelections()
      return
    }
    if remade { open = state }
    guard state.browser.rows != nil || state.dueOrder != nil else {
      clampSelections()
      return
    }
    let items = dataModel.lists[listIndex].items
    let current = RowOrder.Order(dueOrder: state.dueOrder, rows: state.browser.rows)
    if let order = RowOrder.update(
      current, filter: state.browser.filter, change: change, items: items)
    {
      var updated = state
      updated.dueOrder = order.dueOrder
      updated.browser.rows = order.rows
      updated.browser.clamp(total: items.count, visibleRows: contentRows)
      open = updated
      return
    }
    let keep = state.browser.index(ofRow: state.browser.selected)
    refreshOpenRows(keepItem: keep)
  }

  /// Undoes the last change, showing where it happened.
  mutating func undo(now: Date) {
    guard let entry = session.undoStack.popLast() else {
      status = StatusMessage(text: "Nothing to undo", isError: false)
      return
    }
    let words = describe(entry)
    let (wanted, thereAgain) = session.withoutItemsThereAgain(entry.inverse)
    if let reason = session.bringsBackWhatIsThere(wanted) {
      status = StatusMessage(text: "Could not undo \(words): \(reason)", isError: true)
      return
    }
    let applied = session.rebased(wanted)
    guard apply(applied.update, now: now) != nil else {
      status = StatusMessage(
        text: "Could not undo \(words): \(session.whyNotApplied(entry.inverse))", isError: true)
      return
    }
    // What redo does again is the undo just made taken back: an item taken from where it was
    // moved elsewhere goes back there, as it was (an edit's redo is rebased again instead).
    session.redoStack.append(Self.isEdit(entry) ? entry : applied.inverse)
    if planner != nil {
      plannerKeep = plannerLine(for: entry.inverse)
    } else {
      reveal(applied)
    }
    let again =
      thereAgain == 0
      ? ""
      : " (\(thereAgain == 1 ? "1 was" : "\(thereAgain) were") there again, kept after a "
        + "change elsewhere)"
    status = StatusMessage(
      text: "Undid: \(words)" + keptNote(entry.inverse, applied) + again, isError: false)
  }

  /// " (… changed elsewhere since, kept)" when an undo or redo left fields that a change made
  /// elsewhere since had set; empty otherwise.
  func keptNote(_ wanted: UndoEntry, _ applied: UndoEntry) -> String {
    guard case .single(.replaceItem(_, _, let from, let target)) = wanted,
      case .single(.replaceItem(_, _, _, let result)) = applied, result != target
    else { return "" }
    // Only the fields the undo or redo meant to set, and did not.
    func kept<Value: Equatable>(_ field: KeyPath<ChecklistItem, Value>) -> Bool {
      target[keyPath: field] != from[keyPath: field]
        && result[keyPath: field] != target[keyPath: field]
    }
    var fields: [String] = []
    if kept(\.text) { fields.append("text") }
    if kept(\.checked) { fields.append("check mark") }
    if kept(\.dueDate) || kept(\.hasDueDate) || kept(\.shouldRemind) { fields.append("due date") }
    if kept(\.note) { fields.append("notes") }
    if kept(\.repeatRule) { fields.append("repeat") }
    guard !fields.isEmpty else { return "" }
    return " (\(fields.joined(separator: ", ")) changed elsewhere since, kept)"
  }

  /// Redoes the last undone change, showing where it happened.
  mutating func redo(now: Date) {
    guard let entry = session.redoStack.popLast() else {
      status = StatusMessage(text: "Nothing to redo", isError: false)
      return
    }
    if let reason = session.bringsBackWhatIsThere(entry) {
      status = StatusMessage(text: "Could not redo \(describe(entry)): \(reason)", isError: true)
      return
    }
    let applied = session.rebased(entry)
    guard apply(applied.update, now: now) != nil else {
      status = StatusMessage(
        text: "Could not redo \(describe(entry)): \(session.whyNotApplied(entry))", isError: true)
      return
    }
    session.undoStack.append(Self.isEdit(entry) ? entry : applied)
    if planner != nil {
      plannerKeep = plannerLine(for: entry)
    } else {
      reveal(applied)
    }
    status = StatusMessage(
      text: "Redid: \(describe(entry))" + keptNote(entry, applied), isError: false)
  }

  /// Whether an entry is one item edit, whose undo and redo are rebased each time they apply.
  static func isEdit(_ entry: UndoEntry) -> Bool {
    if case .single(.replaceItem) = entry { return true }
    return false
  }

  /// Navigates to where an applied entry shows: the affected row, or for a group the row that
  /// arrived (an item moved to another list, or the first of the cleared items put back).
  mutating func reveal(_ entry: UndoEntry) {
    switch entry {
    case .single(let change):
      reveal(change)
    case .group(let compound):
      let arrived = compound.changes.first { change in
        if case .insertItem = change { return true }
        return false
      }
      if let arrived {
        reveal(arrived)
      } else if let listID = compound.listIDs.first, dataModel.list(withID: listID) != nil {
        if open?.listID != listID { openList(id: listID) }
        clampSelections()
      }
    }
  }

  /// Navigates to the list a change touched and selects the affected row.
  mutating func reveal(_ change: ModelChange) {
    switch change {
    case .insertList(let list), .deleteList(let list):
      showAllLists(selecting: list.id)
    case .editList(let id, _, _):
      showAllLists(selecting: id)
    case .insertItem(let listID, let index, _), .deleteItem(let listID, let index, _),
      .replaceItem(let listID, let index, _, _), .moveItem(let listID, _, _, let index):
      guard let list = dataModel.list(withID: listID) else { return }
      if open?.listID != listID { openList(id: listID) }
      selectItem(min(index, max(list.items.count - 1, 0)))
    }
  }

  mutating func showAllLists(selecting id: Checklist.ID) {
    open = nil
    guard let index = dataModel.index(ofList: id) else {
      allLists.clamp(total: dataModel.lists.count, visibleRows: contentRows)
      return
    }
    if allLists.row(ofIndex: index, total: dataModel.lists.count) == nil {
      allLists.filter = nil
      allLists.filterField = nil
      refreshListRows(keepList: nil)
    }
    if let row = allLists.row(ofIndex: index, total: dataModel.lists.count) {
      allLists.selected = row
    }
    allLists.clamp(total: dataModel.lists.count, visibleRows: contentRows)
  }

  /// Words for an undo entry on the status line, e.g. `clear 3 checked items`.
  func describe(_ entry: UndoEntry) -> String {
    switch entry {
    case .single(let change):
      return describe(change)
    case .group(let compound):
      let original = compound.isInverse ? compound.inverse : compound
      switch original.kind {
      case .moveToList:
        var text = "item"
        var target = "list"
        for change in original.changes {
          if case .insertItem(let listID, _, let item) = change {
            text = item.text
            target = dataModel.list(withID: listID)?.name ?? target
          }
        }
        return "move \(quoted(text)) to \(quoted(target))"
      case .clearChecked:
        let count = original.deletedItemCount
        return "clear \(count) checked item\(count == 1 ? "" : "s")"
      case .keepList:
        let parts = original.changes.map(describe)
        var name = "list"
        if case .insertList(let list)? = original.changes.first { name = quoted(list.name) }
        return "keep list \(name) and " + (parts.count == 2 ? parts[1] : "change it")
      case .outdent, .moveWithSubtasks:
        let text = original.changes.lazy.compactMap { change -> String? in
          if case .insertItem(_, _, let item) = change { return item.text }
          return nil
        }.first
        let verb = original.kind == .outdent ? "outdent" : "move"
        let with = original.kind == .outdent ? "" : " with its subtasks"
        return "\(verb) \(quoted(text ?? "item"))\(with)"
      case .checkWithSubtasks, .deleteWithSubtasks:
        // Checking names the item first; deleting names it last (its subtasks go first).
        let named =
          original.kind == .checkWithSubtasks ? original.changes.first : original.changes.last
        var text = "item"
        switch named {
        case .replaceItem(_, _, let old, _)?: text = old.text
        case .deleteItem(_, _, let item)?: text = item.text
        default: break
        }
        let verb = original.kind == .checkWithSubtasks ? "check" : "delete"
        return "\(verb) \(quoted(text)) and \(subtasks(original.changes.count - 1))"
      }
    }
  }

  /// Words for a change on the status line, e.g. `delete "Milk"`.
  func describe(_ change: ModelChange) -> String {
    switch change {
    case .insertList(let list): return "add list \(quoted(list.name))"
    case .deleteList(let list): return "delete list \(quoted(list.name))"
    case .editList(_, let old, let new):
      return old.name == new.name
        ? "edit list \(quoted(new.name))" : "rename list \(quoted(old.name)) to \(quoted(new.name))"
    case .insertItem(_, _, let item): return "add \(quoted(item.text))"
    case .deleteItem(_, _, let item): return "delete \(quoted(item.text))"
    case .replaceItem(let listID, let index, let old, let new):
      // A check names the item as it is now: it may have been renamed elsewhere since.
      let name =
        dataModel.list(withID: listID).flatMap { list in
          list.index(ofItemID: new.itemID, near: index).map { list.items[$0].text }
        } ?? new.text
      var plain = old
      plain.checked = new.checked
      if old.parentItemID != new.parentItemID {
        return "\(isIndent(old, new, listID: listID) ? "indent" : "outdent") \(quoted(name))"
      }
      if old.priorityLevel != new.priorityLevel {
        var same = old
        same.priorityLevel = new.priorityLevel
        if same == new { return "set the priority of \(quoted(name))" }
      }
      if plain == new && old.checked != new.checked {
        return "\(new.checked ? "check" : "uncheck") \(quoted(name))"
      }
      // Checking a repeating item moves it to its next occurrence instead.
      if old.repeats, RepeatSchedule(timeZone: options.timeZone).advanced(old) == new {
        return "check \(quoted(name))"
      }
      return "edit \(quoted(new.text))"
    case .moveItem(let listID, _, let from, let to):
      let text = dataModel.list(withID: listID).flatMap { list -> String? in
        let index = list.items.indices.contains(to) ? to : from
        return list.items.indices.contains(index) ? list.items[index].text : nil
      }
      return "move \(quoted(text ?? "item"))"
    }
  }

  /// Whether a parent change made the item a subtask of its old sibling (an indent) rather than
  /// of its old grandparent (an outdent).
  private func isIndent(_ old: ChecklistItem, _ new: ChecklistItem, listID: Checklist.ID) -> Bool {
    guard let parentID = new.parentItemID else { return false }
    guard let list = dataModel.list(withID: listID),
      let parent = list.items.first(where: { $0.itemID == parentID })
    else { return true }
    return parent.parentItemID == old.parentItemID
  }

  /// Text in quotes, cut with an ellipsis to `maxWidth` columns (a wide letter takes two).
  func quoted(_ text: String, maxWidth: Int = 40) -> String {
    var width = 0
    for character in text { width += SafeText.width(of: character) }
    guard width > maxWidth else { return "\"\(text)\"" }
    // Cut by columns, not characters: 40 wide letters took 80 columns and pushed the rest of
    // a question ("y/n") off the line.
    let budget = max(maxWidth - DisplayWidth.of(glyphs.ellipsis), 0)
    var short = ""
    width = 0
    for character in text {
      let next = SafeText.width(of: character)
      if width + next > budget { break }
      width += next
      short.append(character)
    }
    return "\"\(short)\(glyphs.ellipsis)\""
  }
}
