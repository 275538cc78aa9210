import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The outline's keys on a Checklist: indent and outdent, priority, folds, and the keys that
/// treat a parent with its subtasks (check, move, delete).
extension ChecklistsApp {
  /// Checks the item with its unchecked subtasks as one change when it has some (one undo
  /// brings all back), else checks or unchecks it as any item.
  mutating func checkSelectedItem(listID: Checklist.ID, at index: Int, now: Date) {
    let schedule = RepeatSchedule(timeZone: options.timeZone)
    guard let check = dataModel.checkWithSubtasks(listID: listID, at: index, schedule: schedule),
      let text = dataModel.list(withID: listID)?.items[index].text
    else {
      checkItem(listID: listID, at: index, now: now)
      return
    }
    let compound = CompoundChange(kind: .checkWithSubtasks, changes: check.changes)
    guard commit(compound, now: now) else { return }
    status = StatusMessage(
      text: "Checked \(quoted(text)) and \(subtasks(check.subtasks))\(undoNote)", isError: false)
  }

  /// "its subtask", "its 3 subtasks".
  func subtasks(_ count: Int) -> String {
    count == 1 ? "its subtask" : "its \(count) subtasks"
  }

  /// Indents, outdents or cycles the priority of the item at `index`, as one undoable change;
  /// the item stays selected (and shown: a folded new parent opens).
  mutating func performOutlineEdit(
    _ action: KeyAction, listID: Checklist.ID, at index: Int, now: Date
  ) {
    guard let state = open, let list = dataModel.list(withID: listID),
      list.items.indices.contains(index)
    else { return }
    let text = list.items[index].text
    let itemID = list.items[index].itemID
    let depths = state.outline.itemCount == list.items.count ? state.outline.depths : nil
    switch action {
    case .indent:
      do throws(OutlineEditError) {
        guard let change = try dataModel.indent(listID: listID, at: index, depths: depths),
          commit(change, now: now)
        else { return }
        var parent = "the item above"
        if case .replaceItem(_, _, _, let new) = change, let parentID = new.parentItemID,
          let parentIndex = list.index(ofItemID: parentID, near: index - 1)
        {
          parent = quoted(list.items[parentIndex].text)
        }
        status = StatusMessage(text: "Indented \(quoted(text)) under \(parent)", isError: false)
      } catch {
        status = StatusMessage(
          text: "Cannot indent \(quoted(text)): \(error.message)", isError: true)
        return
      }
    case .outdent:
      do throws(OutlineEditError) {
        guard let changes = try dataModel.outdent(listID: listID, at: index, depths: depths),
          let first = changes.first
        else { return }
        let done =
          changes.count == 1
          ? commit(first, now: now)
          : commit(CompoundChange(kind: .outdent, changes: changes), now: now)
        guard done else { return }
        status = StatusMessage(text: "Outdented \(quoted(text))", isError: false)
      } catch {
        status = StatusMessage(
          text: "Cannot outdent \(quoted(text)): \(error.message)", isError: true)
        return
      }
    default:
      guard let change = dataModel.cyclePriority(listID: listID, at: index),
        commit(change, now: now)
      else { return }
      var level = PriorityLevel.none
      if case .replaceItem(_, _, _, let new) = change { level = new.priorityLevel }
      status = StatusMessage(
        text: level == .none
          ? "No priority for \(quoted(text))"
          : "Priority of \(quoted(text)): \(level.rawValue) (\(level.marks))",
        isError: false)
    }
    if let moved = dataModel.list(withID: listID)?.index(ofItemID: itemID, near: index) {
      selectItem(moved)
    }
  }

  /// Folds or unfolds the selected item, or all; the selection stays on the item, or on the
  /// parent whose fold hides it. Folds apply in manual order without a filter.
  mutating func performFold(_ action: KeyAction, at itemIndex: Int?) {
    guard var state = open else { return }
    guard state.showsOutline else {
      status = StatusMessage(
        text: "Folds apply in manual order without a filter", isError: false)
      return
    }
    let selected = itemIndex.flatMap { $0 < state.outline.itemCount ? $0 : nil }
    switch action {
    case .toggleFold:
      guard let selected, state.outline.info(selected).hasChildren else {
        status = StatusMessage(text: "No subtasks to fold", isError: false)
        return
      }
      state.outline.toggle(selected)
    case .foldAll:
      state.outline.foldAll()
    default:
      state.outline.unfoldAll()
    }
    state.browser.rows = state.outline.browserRows
    if let selected { state.browser.selected = state.outline.row(showing: selected) }
    state.browser.clamp(total: state.outline.itemCount, visibleRows: contentRows)
    open = state
  }

  /// `J`/`K` in a list with subtasks: the item moves with its subtasks past its neighbouring
  /// sibling's whole subtree, as one change; the first or last at its level stays.
  mutating func moveWithSubtasks(down: Bool, now: Date) {
    guard let state = open, let list = dataModel.list(withID: state.listID),
      let index = state.browser.index(ofRow: state.browser.selected),
      list.items.indices.contains(index), state.outline.itemCount == list.items.count
    else { return }
    let listID = state.listID
    let outline = state.outline
    let depths = outline.depths
    let depth = depths[index]
    let end = outline.subtreeEnd(of: index)
    let place: Int
    let siblingHasChildren: Bool
    if down {
      guard end < depths.count, depths[end] == depth else { return }
      let siblingEnd = outline.subtreeEnd(of: end)
      siblingHasChildren = siblingEnd > end + 1
      place = siblingEnd - (end - index)
    } else {
      var above = index - 1
      while above >= 0, depths[above] > depth { above -= 1 }
      guard above >= 0, depths[above] == depth else { return }
      siblingHasChildren = index - above > 1
      place = above
    }
    if end == index + 1 && !siblingHasChildren {
      // Two items without subtasks trade places, as in a list without any.
      guard let change = dataModel.moveItem(listID: listID, from: index, to: place),
        commit(change, now: now)
      else { return }
    } else {
      var changes: [ModelChange] = []
      for position in (index..<end).reversed() {
        changes.append(.deleteItem(listID: listID, index: position, item: list.items[position]))
      }
      for (offset, position) in (index..<end).enumerated() {
        changes.append(
          .insertItem(listID: listID, index: place + offset, item: list.items[position]))
      }
      guard commit(CompoundChange(kind: .moveWithSubtasks, changes: changes), now: now) else {
        return
      }
    }
    selectItem(place)
  }

  /// Deletes an item with its subtasks as one change, after its question was answered yes.
  mutating func deleteWithSubtasks(listID: Checklist.ID, itemID: Int, now: Date) {
    let hint = open.flatMap { $0.browser.index(ofRow: $0.browser.selected) } ?? 0
    guard let list = dataModel.list(withID: listID),
      let index = list.index(ofItemID: itemID, near: hint),
      let changes = dataModel.deleteSubtree(listID: listID, at: index)
    else { return }
    let text = list.items[index].text
    guard commit(CompoundChange(kind: .deleteWithSubtasks, changes: changes), now: now) else {
      return
    }
    status = StatusMessage(
      text: "Deleted \(quoted(text)) and \(subtasks(changes.count - 1))\(undoNote)",
      isError: false)
  }
}
