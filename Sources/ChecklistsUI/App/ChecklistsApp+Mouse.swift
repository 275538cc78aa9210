import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

extension ChecklistsApp {
  /// Click selects a row (on the check-mark column it toggles; on the selected row it opens the
  /// list or edits the item, so a double-click does too); the wheel scrolls.
  mutating func handleMouse(_ mouse: MouseEvent, now: Date) {
    _ = askScreens { $0.click(mouse, now: now, app: &$1) }
  }

  /// Click selects an item (on the check-mark column it toggles it; on the selected row it
  /// edits it, so a double-click does too); the wheel scrolls.
  mutating func clickOnChecklist(_ mouse: MouseEvent, now: Date) {
    if var state = open, let listIndex = dataModel.index(ofList: state.listID) {
      let listID = state.listID
      let total = dataModel.lists[listIndex].items.count
      switch mouse.kind {
      case .wheelUp, .wheelDown:
        scroll(&state.browser, down: mouse.kind == .wheelDown, total: total)
        open = state
      case .press:
        guard let row = clickedRow(mouse.position, browser: state.browser, total: total) else {
          return
        }
        let wasSelected = row == state.browser.selected
        state.browser.selected = row
        open = state
        guard let index = state.browser.index(ofRow: row) else { return }
        if mouse.position.column < 4 {
          checkSelectedItem(listID: listID, at: index, now: now)
        } else if wasSelected {
          // A click on the selected row (the second click of a double-click) edits the item.
          let item = dataModel.lists[listIndex].items[index]
          stack.push(editItemForm(listID: listID, index: index, item: item))
        }
      }
    }
  }

  /// Click selects a list or Today or Scheduled (on the selected row it opens it, so a
  /// double-click does too); the wheel scrolls.
  mutating func clickOnAllLists(_ mouse: MouseEvent, now: Date) {
    let total = dataModel.lists.count
    switch mouse.kind {
    case .wheelUp, .wheelDown:
      scroll(&allLists, down: mouse.kind == .wheelDown, total: total)
    case .press:
      let smart: [PlannerKind] = [.today, .scheduled]
      if smart.indices.contains(mouse.position.row - 1) {
        let kind = smart[mouse.position.row - 1]
        // A click on the selected row (the second click of a double-click) opens it.
        if smartSelected == kind { openPlanner(kind, now: now) } else { smartSelected = kind }
        return
      }
      var position = mouse.position
      position.row -= 2
      if position.row >= 1, let row = clickedRow(position, browser: allLists, total: total) {
        let wasSelected = row == allLists.selected && smartSelected == nil
        smartSelected = nil
        allLists.selected = row
        // A click on the selected list (the second click of a double-click) opens it.
        if wasSelected, let index = allLists.index(ofRow: row), index < dataModel.lists.count {
          openList(id: dataModel.lists[index].id)
        }
      }
    }
  }

  /// Click selects a row of Today, Scheduled or a search (on the check mark it toggles; on the
  /// selected row it shows the item in its list); the wheel scrolls.
  mutating func handlePlannerMouse(_ mouse: MouseEvent, now: Date) {
    guard var view = planner else { return }
    switch mouse.kind {
    case .wheelUp, .wheelDown:
      let step = mouse.kind == .wheelDown ? 3 : -3
      view.top = min(max(view.top + step, 0), max(view.lines.count - contentRows, 0))
      // Keep the selection on screen: the first selectable line at or after the top.
      if let first = view.selectable.firstIndex(where: { $0 >= view.top }),
        let last = view.selectable.lastIndex(where: { $0 < view.top + contentRows })
      {
        view.selected = min(max(view.selected, first), last)
      }
      planner = view
    case .press:
      guard mouse.position.row >= 1, mouse.position.row <= contentRows,
        let position = view.selectable.firstIndex(of: view.top + mouse.position.row - 1)
      else { return }
      let wasSelected = position == view.selected
      view.selected = position
      planner = view
      if mouse.position.column < 4, let line = view.selectedLine, let place = place(of: line) {
        checkInPlanner(place, kind: view.kind, now: now)
      } else if wasSelected {
        jumpFromPlanner(now: now)
      }
    }
  }

  /// The visible row under a click in the content area, if any.
  func clickedRow(_ position: GridPosition, browser: Browser, total: Int) -> Int? {
    guard position.row >= 1, position.row <= contentRows else { return nil }
    let row = browser.top + position.row - 1
    return row < browser.rowCount(total: total) ? row : nil
  }

  /// Scrolls three rows, keeping the selection on screen.
  func scroll(_ browser: inout Browser, down: Bool, total: Int) {
    let count = browser.rowCount(total: total)
    let page = contentRows
    let step = down ? 3 : -3
    browser.top = min(max(browser.top + step, 0), max(count - page, 0))
    browser.selected = min(max(browser.selected, browser.top), browser.top + page - 1)
    browser.clamp(total: total, visibleRows: page)
  }

  /// A click on a field of the item form focuses it; on Remind Me it also flips the switch, on
  /// Repeat it opens the picker (which answers clicks while open).
  mutating func handleItemFormClick(_ mouse: MouseEvent, form: inout ItemFormScreen, now: Date) {
    let layout = itemFormLayout(form, width: width, height: height)
    guard mouse.kind == .press, let field = layout.field(at: mouse.position.row),
      let place = layout.places[field]
    else { return }
    form.focus = field
    switch field {
    case .remind: setRemind(!form.remind, form: &form, now: now)
    case .repeat where mouse.position.row == place.row:
      stack.push(
        RepeatPickerScreen(
          choices: form.repeatChoices,
          selected: form.repeatChoices.firstIndex(of: form.repeatRule) ?? 0))
    default: break
    }
  }
}
