import ChecklistsCore
import Foundation

extension ChecklistsApp {
  /// Click selects a row (on the check-mark column it toggles); the wheel scrolls.
  mutating func handleMouse(_ mouse: MouseEvent, now: Date) {
    guard help == nil, form == nil, confirmDelete == nil else { return }
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
        state.browser.selected = row
        open = state
        if mouse.position.column < 4, let index = state.browser.index(ofRow: row),
          let change = dataModel.toggleItem(listID: listID, at: index)
        {
          commit(change, now: now)
        }
      }
    } else {
      let total = dataModel.lists.count
      switch mouse.kind {
      case .wheelUp, .wheelDown:
        scroll(&allLists, down: mouse.kind == .wheelDown, total: total)
      case .press:
        if let row = clickedRow(mouse.position, browser: allLists, total: total) {
          allLists.selected = row
        }
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
}
