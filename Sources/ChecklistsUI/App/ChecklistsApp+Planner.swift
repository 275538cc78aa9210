import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Where a planner line's item is now.
struct PlannerPlace {
  var listID: Checklist.ID
  var listIndex: Int
  var itemIndex: Int
}

extension ChecklistsApp {
  /// Today and Scheduled in the app's time zone.
  var smartLists: SmartLists { SmartLists(timeZone: options.timeZone) }

  /// How many rows of lists All Lists shows (below its Today and Scheduled rows).
  var listRows: Int { max(height - 4, 1) }

  /// The first instant of the day after `now`'s, in the app's time zone.
  func nextMidnight(after now: Date) -> Date {
    options.timeZone.startOfNextDay(after: now)
  }

  /// Counts Today and Scheduled again when All Lists shows and the model or the day changed
  /// since the last count (one pass over the items).
  mutating func refreshSmartCounts(now: Date) {
    guard shownBrowseScreen is AllListsScreen else { return }
    session.countSmartLists(smartLists, nextMidnight: nextMidnight(after: now), now: now)
  }

  // MARK: - Opening and closing

  /// Shows Today, Scheduled or a new search (typing its query) instead of All Lists.
  mutating func openPlanner(_ kind: PlannerKind, now: Date) {
    var view = PlannerView(kind: kind)
    view.isTyping = kind == .search
    open = nil
    planner = nil
    planner = view
    refreshPlanner(now: now, keep: nil)
  }

  /// Back to All Lists with the view's smart row selected.
  mutating func closePlanner() {
    guard let view = planner else { return }
    if let origin = view.origin {
      // A search started on Today or Scheduled goes back there.
      planner = PlannerView(kind: origin)
      plannerVersion = -1
      return
    }
    planner = nil
    smartSelected = view.kind == .search ? nil : view.kind
  }

  /// Shows the selected line where it lives: the item selected in its list (going back returns
  /// here), or a list found by name.
  mutating func jumpFromPlanner(now: Date) {
    guard let view = planner, let line = view.selectedLine else { return }
    switch line {
    case .heading: return
    case .list(let id):
      showList(id: id)
    case .item:
      guard let place = place(of: line) else { return }
      showList(id: place.listID)
      selectItem(place.itemIndex)
    }
  }

  /// Where a line's item is in the model now; nil for headings and items gone.
  func place(of line: PlannerLine) -> PlannerPlace? {
    guard case .item(let listID, let itemID, let hint) = line,
      let listIndex = dataModel.index(ofList: listID),
      let itemIndex = dataModel.lists[listIndex].index(ofItemID: itemID, near: hint)
    else { return nil }
    return PlannerPlace(listID: listID, listIndex: listIndex, itemIndex: itemIndex)
  }

  /// Checks an item from a row of Today, Scheduled or a search (a key or a click). Today and
  /// Scheduled show unchecked items only, so an item checked there leaves the view: the status
  /// line names it and says how to bring it back (a repeating item says its next date instead,
  /// and stays).
  mutating func checkInPlanner(_ place: PlannerPlace, kind: PlannerKind, now: Date) {
    guard let check = checkItem(listID: place.listID, at: place.itemIndex, now: now),
      kind != .search, check.nextDueDate == nil,
      case .replaceItem(_, _, _, let item) = check.change, item.checked
    else { return }
    status = StatusMessage(text: "Checked \(quoted(item.text))\(undoNote)", isError: false)
  }

  // MARK: - Keys

  /// An item action on the selected row of Today, Scheduled or a search: done in the item's
  /// own list, as there.
  mutating func performInPlanner(_ action: KeyAction, key: Key, now: Date) {
    guard let view = planner else { return }
    let place = view.selectedLine.flatMap(place(of:))
    switch action {
    case .open:
      jumpFromPlanner(now: now)
    case .toggle:
      if let place { checkInPlanner(place, kind: view.kind, now: now) }
    case .editItem:
      guard let place else { break }
      let item = dataModel.lists[place.listIndex].items[place.itemIndex]
      stack.push(editItemForm(listID: place.listID, index: place.itemIndex, item: item))
    case .deleteItem:
      guard let place else { break }
      let list = dataModel.lists[place.listIndex]
      if list.subtreeRange(at: place.itemIndex).count > 1 {
        // As in its list: a parent's subtasks go with it, once the question is answered.
        let itemID = list.items[place.itemIndex].itemID
        stack.push(ConfirmationScreen(question: .deleteWithSubtasks(place.listID, itemID: itemID)))
        status = StatusMessage(
          text: deleteWithSubtasksPrompt(list: list, at: place.itemIndex), isError: false)
        break
      }
      deleteSelectedItem(
        key: key, itemIndex: place.itemIndex, listIndex: place.listIndex, now: now)
    case .moveToList:
      guard let place else { break }
      openListPicker(listID: place.listID, listIndex: place.listIndex, itemIndex: place.itemIndex)
    case .search:
      if view.kind == .search {
        planner?.isTyping = true
      } else {
        openPlanner(.search, now: now)
        planner?.origin = view.kind
      }
    case .back, .closeList:
      closePlanner()
    default: break
    }
  }

  /// Opens the list picker of `m` for an item, or says there is no other list.
  mutating func openListPicker(listID: Checklist.ID, listIndex: Int, itemIndex: Int) {
    let targets = dataModel.lists.map(\.id).filter { $0 != listID }
    guard !targets.isEmpty else {
      status = StatusMessage(text: "No other list to move it to", isError: false)
      return
    }
    let itemID = dataModel.lists[listIndex].items[itemIndex].itemID
    stack.push(
      ListPickerScreen(listID: listID, itemID: itemID, itemIndex: itemIndex, targets: targets))
  }

  /// Changes the search query being typed and searches again (each added character only
  /// filters the last results).
  mutating func updateSearch(now: Date, _ body: (inout TextField) -> Void) {
    guard var view = planner, view.kind == .search else { return }
    let before = view.query.text
    body(&view.query)
    planner = view
    if view.query.text != before { refreshPlanner(now: now, keep: nil, firstRow: true) }
  }

  /// Enter, Tab or an arrow while typing a search: on to the results.
  mutating func keepSearch() {
    planner?.isTyping = false
    if planner?.selectable.isEmpty == true, planner?.query.text.isEmpty == true {
      closePlanner()
    }
  }

  /// Moves on All Lists over the Today and Scheduled rows, then the lists.
  mutating func moveOnAllLists(_ motion: Motion) {
    let smart = [PlannerKind.today, .scheduled]
    let count = smart.count + allLists.rowCount(total: dataModel.lists.count)
    let from = smartSelected.flatMap { smart.firstIndex(of: $0) } ?? smart.count + allLists.selected
    let target = motion.target(from: from, count: count, page: listRows)
    if target < smart.count {
      smartSelected = smart[target]
      // Today and Scheduled sit above the first list: the lists show from the top under them,
      // and the first list is the next row down.
      allLists.selected = 0
      allLists.top = 0
    } else {
      smartSelected = nil
      allLists.selected = target - smart.count
      allLists.clamp(total: dataModel.lists.count, visibleRows: listRows)
    }
  }

  // MARK: - Keeping the view up to date

  /// After an event: the view's lines are made again when the model changed, and Today and
  /// Scheduled when the clock may have moved an item between days.
  mutating func refreshPlannerIfNeeded(event: InputEvent, now: Date) {
    refreshSmartCounts(now: now)
    guard let view = planner else { return }
    var timePassed = false
    if case .tick = event { timePassed = view.kind != .search }
    if timePassed {
      refreshPlanner(now: now, keep: plannerKeep)
    } else if plannerVersion != session.version {
      // -1: the view was just put back (or made) and must be made from the model.
      if plannerVersion >= 0, let changes = session.takeUnfollowedChanges(), plannerKeep == nil,
        followChanges(changes, now: now)
      {
        plannerVersion = session.version
      } else {
        refreshPlanner(now: now, keep: plannerKeep)
      }
    }
    plannerKeep = nil
    _ = session.takeUnfollowedChanges()
  }

  /// Follows item changes made through the view without making its lines again (a row checked
  /// off Today leaves it; O(lines)); false when a change needs the lines made again (an item
  /// that joins the view or moves in its order, a list changed).
  mutating func followChanges(_ changes: [ModelChange], now: Date) -> Bool {
    guard var view = planner else { return true }
    let endOfToday = nextMidnight(after: now)
    let needle = SearchFolding.fold(view.query.text)
    func belongs(_ item: ChecklistItem) -> Bool {
      switch view.kind {
      case .today: return !item.checked && item.showsDueDate && item.dueDate < endOfToday
      case .scheduled: return !item.checked && item.showsDueDate
      case .search:
        let text = SearchFolding.fold(item.text) + [0x0A] + SearchFolding.fold(item.note)
        return !needle.isEmpty && PlannerLines.contains(text, needle)
      }
    }
    let keep = view.selectedLine
    // Items deleted from a list, by id: removed at the end unless inserted again (moved to
    // another list), when their line follows them.
    var gone: Set<Int> = []
    for change in changes {
      switch change {
      case .replaceItem(let listID, _, let old, let new):
        let position = view.position(ofItem: new.itemID, in: listID)
        let stays = belongs(new)
        if position == nil {
          guard !stays else { return false }
        } else if let position, !stays {
          view.removeLine(at: position)
        } else if view.kind != .search
          && (old.dueDate != new.dueDate || old.showsDueDate != new.showsDueDate)
        {
          return false
        }
      case .deleteItem(let listID, let index, let item):
        if view.position(ofItem: item.itemID, in: listID) != nil { gone.insert(item.itemID) }
        view.shiftHints(listID: listID, from: index + 1, by: -1)
      case .insertItem(let listID, let index, let item):
        view.shiftHints(listID: listID, from: index, by: 1)
        if gone.remove(item.itemID) != nil,
          let position = view.lines.firstIndex(where: {
            if case .item(_, let itemID, _) = $0 { return itemID == item.itemID }
            return false
          })
        {
          // Moved to another list: the row stays where it was and names its new list.
          view.lines[position] = .item(listID: listID, itemID: item.itemID, itemIndex: index)
          guard view.kind != .search else { return false }
          continue
        }
        guard !belongs(item) else { return false }
      case .moveItem, .insertList, .deleteList, .editList:
        return false
      }
    }
    for itemID in gone {
      if let position = view.lines.firstIndex(where: {
        if case .item(_, let id, _) = $0 { return id == itemID }
        return false
      }) {
        view.removeLine(at: position)
      }
    }
    if let keep, let position = view.position(ofItem: keep.itemID ?? -1, in: keep.listID ?? -1),
      case let entry = PlannerView.lowerBound(view.selectable, position),
      entry < view.selectable.count
    {
      view.selected = entry
    }
    view.clamp(rows: contentRows)
    planner = view
    return true
  }

  /// Makes the view's lines from the model, keeping the selected item (or `keep`) selected.
  mutating func refreshPlanner(now: Date, keep: PlannerLine?, firstRow: Bool = false) {
    guard var view = planner else { return }
    let keepLine = firstRow ? nil : keep ?? view.selectedLine
    let lines: [PlannerLine]
    switch view.kind {
    case .today:
      lines = PlannerLines.today(dataModel, smart: smartLists, now: now)
    case .scheduled:
      lines = PlannerLines.scheduled(dataModel, smart: smartLists, now: now)
    case .search:
      if view.search == nil || view.searchVersion != session.version {
        view.search = SearchSession(dataModel)
        view.searchVersion = session.version
      }
      view.search?.update(query: view.query.text)
      lines = view.search.map { PlannerLines.search($0, model: dataModel) } ?? []
    }
    if firstRow {
      view.selected = 0
      view.top = 0
    }
    view.setLines(lines, keep: keepLine)
    // A search's lines are made at each character typed: its rows look near instead.
    view.parentHints =
      view.kind == .search ? [:] : PlannerLines.parentHints(lines, model: dataModel)
    view.clamp(rows: contentRows)
    planner = view
    plannerVersion = session.version
  }

  /// The text of the parent of the item at `itemIndex` in the list at `listIndex` when it is a
  /// subtask, else nil: found through the view's hints (Today, Scheduled), else among the
  /// `parentLookBack` items before it (search, whose lines are made at each character).
  func plannerParentText(_ view: PlannerView, listIndex: Int, itemIndex: Int) -> String? {
    let list = dataModel.lists[listIndex]
    guard let parentID = list.items[itemIndex].parentItemID else { return nil }
    if let place = view.parentHints[list.id]?[parentID], place >= 0, place < itemIndex,
      list.items[place].itemID == parentID
    {
      return list.items[place].text
    }
    let start = max(itemIndex - Self.parentLookBack, 0)
    for place in stride(from: itemIndex - 1, through: start, by: -1)
    where list.items[place].itemID == parentID {
      return list.items[place].text
    }
    return nil
  }

  /// How many items before a subtask a search row looks through for its parent.
  static let parentLookBack = 256

  /// The line of the item an undo or redo touched, to keep selected in a planner view.
  func plannerLine(for entry: UndoEntry) -> PlannerLine? {
    let changes: [ModelChange]
    switch entry {
    case .single(let change): changes = [change]
    case .group(let compound): changes = compound.changes
    }
    for change in changes {
      switch change {
      case .insertItem(let listID, let index, let item),
        .replaceItem(let listID, let index, _, let item):
        return .item(listID: listID, itemID: item.itemID, itemIndex: index)
      default: continue
      }
    }
    return nil
  }
}

extension ChecklistsApp {
  /// The due dates a planner view's rows on screen show.
  func plannerDueDates(_ view: PlannerView) -> [Date] {
    let rows = height - 2
    guard rows > 0 else { return [] }
    var dates: [Date] = []
    for index in view.top..<min(view.top + rows, view.lines.count) where index >= 0 {
      guard let place = place(of: view.lines[index]) else { continue }
      let item = dataModel.lists[place.listIndex].items[place.itemIndex]
      if item.showsDueDate { dates.append(item.dueDate) }
    }
    return dates
  }
}
