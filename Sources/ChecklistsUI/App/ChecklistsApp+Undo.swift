import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

extension ChecklistsApp {
  /// Applies a new change and records it for undo; returns whether it applied.
  @discardableResult
  mutating func commit(_ change: ModelChange, now: Date) -> Bool {
    guard applyChange(change, now: now) else { return false }
    undoStack.append(.single(change))
    redoStack.removeAll()
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
    guard applyEntry(.group(compound), now: now) else { return false }
    undoStack.append(.group(compound))
    redoStack.removeAll()
    return true
  }

  /// Applies an undo entry and brings every view of the model up to date.
  mutating func applyEntry(_ entry: UndoEntry, now: Date) -> Bool {
    switch entry {
    case .single(let change):
      return applyChange(change, now: now)
    case .group(let compound):
      let keep = open.flatMap { $0.browser.index(ofRow: $0.browser.selected) }
      guard dataModel.apply(compound) else { return false }
      version += 1
      plannerChanges?.append(contentsOf: compound.changes)
      for change in compound.changes { reminders.note(change, now: now) }
      refreshListRows(keepList: nil)
      if let state = open {
        if dataModel.index(ofList: state.listID) == nil {
          open = nil
        } else if compound.listIDs.contains(state.listID) {
          refreshOpenRows(keepItem: keep)
        }
      }
      clampSelections()
      return true
    }
  }

  /// Applies a change and brings every view of the model up to date.
  mutating func applyChange(_ change: ModelChange, now: Date) -> Bool {
    guard dataModel.apply(change) else { return false }
    version += 1
    plannerChanges?.append(change)
    if case .editList(_, let old, let new) = change, old.name != new.name,
      sortByDue.remove(old.name) != nil
    {
      sortByDue.insert(new.name)
    }
    refreshAfter(change)
    reminders.note(change, now: now)
    return true
  }

  /// Keeps rows, order caches and selections right after a change.
  mutating func refreshAfter(_ change: ModelChange) {
    switch change {
    case .insertList, .deleteList, .editList:
      refreshListRows(keepList: nil)
    default: break
    }
    guard let state = open else { return }
    guard dataModel.index(ofList: state.listID) != nil else {
      open = nil
      return
    }
    guard change.listID == state.listID, let listIndex = dataModel.index(ofList: state.listID)
    else { return }
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
    if let list = dataModel.list(withID: listID),
      let at = list.index(ofItemID: itemID, near: index)
    {
      return ((listID, at), list.items[at])
    }
    guard let (listIndex, at) = Self.locate(itemID: itemID, in: dataModel) else { return nil }
    let list = dataModel.lists[listIndex]
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
      dataModel.lists.contains(where: { $0.items.contains { inserted.contains($0.itemID) } })
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
        if dataModel.index(ofList: change.listID) != nil {
          return "the list is there again, kept after a change elsewhere"
        }
      } else if dataModel.index(ofList: change.listID) == nil {
        return "the list was deleted elsewhere"
      }
    }
    return "the item was deleted elsewhere"
  }

  /// Undoes the last change, showing where it happened.
  mutating func undo(now: Date) {
    guard let entry = undoStack.popLast() else {
      status = StatusMessage(text: "Nothing to undo", isError: false)
      return
    }
    let words = describe(entry)
    let (wanted, thereAgain) = withoutItemsThereAgain(entry.inverse)
    if let reason = bringsBackWhatIsThere(wanted) {
      status = StatusMessage(text: "Could not undo \(words): \(reason)", isError: true)
      return
    }
    let applied = rebased(wanted)
    guard applyEntry(applied, now: now) else {
      status = StatusMessage(
        text: "Could not undo \(words): \(whyNotApplied(entry.inverse))", isError: true)
      return
    }
    // What redo does again is the undo just made taken back: an item taken from where it was
    // moved elsewhere goes back there, as it was (an edit's redo is rebased again instead).
    redoStack.append(Self.isEdit(entry) ? entry : applied.inverse)
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

  /// The undo of clearing checked items without the items a merge has kept since (each was
  /// changed elsewhere after it was cleared here, so it is back already), and how many those
  /// are; the others still come back, where they were. Other entries are returned as they are.
  func withoutItemsThereAgain(_ entry: UndoEntry) -> (UndoEntry, Int) {
    guard case .group(var compound) = entry, compound.kind == .clearChecked, compound.isInverse
    else { return (entry, 0) }
    var present = Set<Int>()
    for list in dataModel.lists { for item in list.items { present.insert(item.itemID) } }
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
      let count = counts[listID] ?? dataModel.list(withID: listID)?.items.count ?? 0
      changes.append(.insertItem(listID: listID, index: min(index, count), item: item))
      counts[listID] = count + 1
    }
    // All of them back already: the entry as it was, which is then refused with the reason.
    guard !changes.isEmpty else { return (entry, 0) }
    compound.changes = changes
    return (.group(compound), skipped)
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
    guard let entry = redoStack.popLast() else {
      status = StatusMessage(text: "Nothing to redo", isError: false)
      return
    }
    if let reason = bringsBackWhatIsThere(entry) {
      status = StatusMessage(text: "Could not redo \(describe(entry)): \(reason)", isError: true)
      return
    }
    let applied = rebased(entry)
    guard applyEntry(applied, now: now) else {
      status = StatusMessage(
        text: "Could not redo \(describe(entry)): \(whyNotApplied(entry))", isError: true)
      return
    }
    undoStack.append(Self.isEdit(entry) ? entry : applied)
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
        let count = original.changes.count
        return "clear \(count) checked item\(count == 1 ? "" : "s")"
      case .keepList:
        let parts = original.changes.map(describe)
        var name = "list"
        if case .insertList(let list)? = original.changes.first { name = quoted(list.name) }
        return "keep list \(name) and " + (parts.count == 2 ? parts[1] : "change it")
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
