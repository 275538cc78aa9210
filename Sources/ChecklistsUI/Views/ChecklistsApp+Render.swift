import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

extension ChecklistsApp {
  /// The smallest terminal the screens are drawn in; smaller shows `Terminal too small`.
  static let minimumSize = (width: 20, height: 5)

  /// Draws the current screen into `grid`; only the visible rows are looked at.
  public func render(into grid: inout CellGrid, now: Date) {
    grid = CellGrid(width: grid.width, height: grid.height)
    guard grid.width >= Self.minimumSize.width, grid.height >= Self.minimumSize.height else {
      grid.draw("Terminal too small", row: 0, column: 0, width: grid.width)
      if options.asciiGlyphs { Self.replaceEllipses(in: &grid) }
      return
    }
    if let cover = stack.screens.last(where: \.drawsContent) {
      cover.draw(into: &grid, now: now, app: self)
    }
    renderStatus(into: &grid)
    if options.asciiGlyphs { Self.replaceEllipses(in: &grid) }
  }

  /// With ASCII glyphs, the `…` that ends cut text becomes `~`.
  static func replaceEllipses(in grid: inout CellGrid) {
    for row in 0..<grid.height {
      for column in 0..<grid.width where grid[row, column].text == "…" {
        grid[row, column].text = "~"
      }
    }
  }

  /// The title bar on the top row: `title` (cut short first), then `suffix`, then `right`.
  func renderTitle(
    _ title: String, suffix: String = "", right: String = "", into grid: inout CellGrid
  ) {
    let style = CellStyle(color: .title, attributes: [.bold])
    grid.fill(row: 0, column: 0, width: grid.width, style: style)
    var end = grid.width - 1
    if !right.isEmpty && DisplayWidth.of(right) < grid.width / 3 {
      end =
        grid.drawRightAligned(
          right, row: 0, end: grid.width - 1, maxWidth: grid.width / 3, style: style) - 1
    }
    let available = max(end - 1, 0)
    let suffixWidth = DisplayWidth.of(suffix)
    if suffixWidth + 8 <= available {
      let used = grid.draw(
        title, row: 0, column: 1, width: available - suffixWidth, style: style)
      grid.draw(suffix, row: 0, column: 1 + used, width: suffixWidth, style: style)
    } else {
      grid.draw(title + suffix, row: 0, column: 1, width: available, style: style)
    }
  }

  /// The status line on the bottom row: a prompt, the filter being typed, a message or hints.
  func renderStatus(into grid: inout CellGrid) {
    let row = grid.height - 1
    for screen in stack.screens.reversed() where screen.drawStatus(into: &grid, app: self) {
      return
    }
    if let status {
      let style = CellStyle(color: status.isError ? .error : .status)
      grid.fill(row: row, column: 0, width: grid.width, style: style)
      // A message too long for the line is cut, and says which key shows it whole.
      let more = keys.keyName(.messages, on: keyScreen).map { " \($0) all of it" } ?? ""
      let moreWidth = DisplayWidth.of(more)
      if DisplayWidth.of(status.text) > grid.width, moreWidth > 0, moreWidth * 3 <= grid.width {
        let used = grid.draw(
          status.text, row: row, column: 0, width: grid.width - moreWidth, style: style)
        grid.draw(
          more, row: row, column: used, width: moreWidth,
          style: CellStyle(color: .status, attributes: [.bold]))
      } else {
        grid.draw(status.text, row: row, column: 0, width: grid.width, style: style)
      }
      return
    }
    let style = CellStyle(color: .status)
    grid.fill(row: row, column: 0, width: grid.width, style: style)
    grid.draw(hintText(width: grid.width), row: row, column: 0, width: grid.width, style: style)
  }

  /// A message in the middle of the content area.
  func renderCentered(
    _ text: String, into grid: inout CellGrid, style: CellStyle = CellStyle(color: .dim),
    top: Int = 1
  ) {
    let row = min(max(top, (grid.height - 1) / 2), grid.height - 2)
    let width = min(DisplayWidth.of(text), grid.width)
    grid.draw(
      text, row: row, column: max((grid.width - width) / 2, 0), width: grid.width, style: style)
  }

  /// The first visible row, keeping `selected` on a screen with `rows` content rows.
  func visibleTop(_ browser: Browser, count: Int, rows: Int) -> Int {
    var top = min(max(browser.top, 0), max(count - rows, 0))
    let selected = min(max(browser.selected, 0), max(count - 1, 0))
    if selected < top { top = selected }
    if selected >= top + rows { top = selected - rows + 1 }
    return max(top, 0)
  }

  /// "123/5000": the selected row and the row count, when the rows do not fit on screen.
  func positionNote(_ browser: Browser, count: Int, rows: Int) -> String? {
    guard count > rows, count > 0 else { return nil }
    return "\(min(browser.selected + 1, count))/\(count)"
  }

  func filterNote(_ browser: Browser) -> String {
    guard let filter = browser.filter else { return "" }
    return "filter: \(filter)"
  }

  // MARK: - All Lists

  func renderAllLists(_ screen: AllListsScreen, into grid: inout CellGrid) {
    let allLists = screen.browser
    let smartSelected = screen.smartSelected
    let lists = dataModel.lists
    let count = allLists.rowCount(total: lists.count)
    let rows = grid.height - 4
    var right = filterNote(allLists)
    // "12/1000" counts lists: none is selected on Today or Scheduled.
    if smartSelected == nil, let position = positionNote(allLists, count: count, rows: rows) {
      right = right.isEmpty ? position : "\(position) \(glyphs.dot) \(right)"
    }
    renderTitle("Checklists", right: right, into: &grid)
    renderSmartRows(selected: smartSelected, into: &grid)
    if lists.isEmpty {
      renderCentered(
        "No lists yet"
          + (keys.keyName(.addList, on: .lists).map { ". Press \($0) to add a list" } ?? ""),
        into: &grid, top: 3)
      return
    }
    if count == 0 {
      renderCentered(
        "No list matches the filter"
          + (keys.keyName(.clearFilter, on: .lists).map { " (\($0) clears it)" } ?? ""),
        into: &grid, top: 3)
      return
    }
    let top = visibleTop(allLists, count: count, rows: rows)
    for screenRow in 0..<max(rows, 0) {
      let row = top + screenRow
      guard row < count, let index = allLists.index(ofRow: row), index < lists.count else { break }
      let list = lists[index]
      let selected = row == allLists.selected && smartSelected == nil
      let style = CellStyle(
        color: selected ? .selection : .normal, attributes: selected ? [.reverse] : [])
      let y = screenRow + 3
      grid.fill(row: y, column: 0, width: grid.width, style: style)
      grid.draw(
        glyphs.icon(list.iconName), row: y, column: 1, width: glyphs.iconWidth, style: style)
      let subtitle = list.subtitle
      var subtitleStyle = style
      if !selected {
        subtitleStyle.color = list.uncheckedCount == 0 && !list.items.isEmpty ? .checked : .dim
      }
      let nameStart = 2 + glyphs.iconWidth
      let subtitleStart = grid.drawRightAligned(
        subtitle, row: y, end: grid.width - 1, maxWidth: max(grid.width - nameStart - 4, 0),
        style: subtitleStyle)
      grid.draw(
        list.name, row: y, column: nameStart, width: max(subtitleStart - nameStart - 1, 0),
        style: style)
    }
  }

  // MARK: - Checklist

  func renderChecklist(_ state: OpenList, into grid: inout CellGrid, now: Date) {
    guard let list = dataModel.list(withID: state.listID) else { return }
    let remaining = list.uncheckedCount
    let total = list.items.count
    let dash = glyphs.dash
    let suffix = total == 0 ? " \(dash) no items" : " \(dash) \(remaining) of \(total) remaining"
    var right = filterNote(state.browser)
    if state.dueOrder != nil {
      right = right.isEmpty ? "by due date" : "\(right) \(glyphs.dot) by due date"
    }
    let count = state.browser.rowCount(total: total)
    if let position = positionNote(state.browser, count: count, rows: grid.height - 2) {
      right = right.isEmpty ? position : "\(position) \(glyphs.dot) \(right)"
    }
    renderTitle(list.name, suffix: suffix, right: right, into: &grid)
    if total == 0 {
      renderCentered(
        "No items yet"
          + (keys.keyName(.addItem, on: .checklist).map { ". Press \($0) to add an item" } ?? ""),
        into: &grid)
      return
    }
    if count == 0 {
      renderCentered(
        "No item matches the filter"
          + (keys.keyName(.back, on: .checklist).map { " (\($0) clears it)" } ?? ""), into: &grid)
      return
    }
    let rows = grid.height - 2
    let top = visibleTop(state.browser, count: count, rows: rows)
    // Indentation and fold marks in manual order without a filter; marks and tags always.
    let outlined = state.showsOutline && state.outline.itemCount == total
    let hasSubtasks = outlined && state.outline.hasSubtasks
    for screenRow in 0..<rows {
      let row = top + screenRow
      guard row < count, let index = state.browser.index(ofRow: row), index < total else { break }
      let item = list.items[index]
      let y = screenRow + 1
      let style = beginItemRow(
        item, row: y, selected: row == state.browser.selected, into: &grid, now: now)
      var textEnd = grid.width - 1
      if item.showsDueDate {
        textEnd =
          grid.drawRightAligned(
            dueText(item, now: now, maxWidth: grid.width / 2), row: y, end: grid.width - 1,
            maxWidth: grid.width / 2,
            style: style.due) - 1
      }
      var fold = FoldMark.none
      var depth = 0
      if hasSubtasks {
        let info = state.outline.info(index)
        fold = FoldMark(info, listHasSubtasks: true)
        depth = info.depth
      }
      if fold == .none && item.priorityLevel == .none && item.tags.isEmpty {
        drawItemText(item, row: y, end: textEnd, style: style, into: &grid)
      } else {
        drawOutlineItemText(
          item, depth: depth, fold: fold, row: y, end: textEnd, style: style, into: &grid)
      }
    }
  }

  /// An item's row in a list with subtasks, or with a priority or tags (`OutlineRowText`):
  /// indentation, fold mark, priority marks, text, tags, then the note's first line.
  func drawOutlineItemText(
    _ item: ChecklistItem, depth: Int, fold: FoldMark, row y: Int, end: Int,
    style: ItemRowStyle, into grid: inout CellGrid
  ) {
    let end = drawPhotoMark(item, row: y, end: end, style: style.base, into: &grid)
    let layout = OutlineRowText.layout(
      for: item, depth: depth, fold: fold, width: max(end - 4, 0),
      glyphs: OutlineGlyphs(ascii: glyphs.ascii))
    var marks = style.text
    marks.attributes.insert(.bold)
    let styles = OutlineRowText.Styles(
      foldMark: style.dim, marks: marks, text: style.text, tags: style.dim)
    let used = OutlineRowText.draw(
      layout, text: item.text, row: y, column: 4, styles: styles, into: &grid)
    drawNotePreview(item.note, row: y, from: 4 + used, end: end, style: style.text, into: &grid)
  }

  // MARK: - Forms

  /// The item form's field width for a terminal `width` columns wide.
  static func formFieldWidth(width: Int) -> Int { max(width - labelWidth - 2, 1) }

  /// The row of the list form's Icon field (the picker opens below it).
  static func listFormIconRow(height: Int) -> Int { min(4, height - 2) }

  /// The first icon the picker shows so that the selected one is on screen.
  static func pickerTop(selection: Int, height: Int) -> Int {
    let rows = max(height - 1 - (listFormIconRow(height: height) + 1), 1)
    return min(max(selection - rows + 1, 0), max(IconName.allCases.count - rows, 0))
  }

  /// A label and where fields start.
  static let labelWidth = 11

  func drawLabel(_ label: String, row: Int, focused: Bool, into grid: inout CellGrid) {
    let style = CellStyle(color: focused ? .accent : .normal, attributes: focused ? [.bold] : [])
    grid.draw(label, row: row, column: 1, width: Self.labelWidth - 1, style: style)
  }

  func renderListForm(_ form: ListFormScreen, into grid: inout CellGrid) {
    renderTitle(form.listID == nil ? "Add List" : "Edit List", into: &grid)
    let fieldWidth = max(grid.width - Self.labelWidth - 2, 1)
    let picker = iconPicker?.selected
    drawLabel("Name", row: 2, focused: form.focus == .name && picker == nil, into: &grid)
    grid.drawField(
      form.name, row: 2, column: Self.labelWidth, width: fieldWidth,
      style: CellStyle(color: .normal, attributes: [.underline]),
      focused: form.focus == .name && picker == nil)
    let iconRow = Self.listFormIconRow(height: grid.height)
    drawLabel("Icon", row: iconRow, focused: form.focus == .icon, into: &grid)
    let iconStyle = CellStyle(
      color: .normal, attributes: form.focus == .icon && picker == nil ? [.reverse] : [])
    let iconText = "\(glyphs.icon(form.iconName)) \(form.iconName)"
    grid.draw(iconText, row: iconRow, column: Self.labelWidth, width: fieldWidth, style: iconStyle)
    guard let selection = picker else { return }
    let icons = IconName.allCases
    let first = iconRow + 1
    let rows = max(grid.height - 1 - first, 1)
    let top = Self.pickerTop(selection: selection, height: grid.height)
    for screenRow in 0..<rows where top + screenRow < icons.count {
      let index = top + screenRow
      let icon = icons[index]
      let selected = index == selection
      let style = CellStyle(
        color: selected ? .selection : .normal, attributes: selected ? [.reverse] : [])
      let y = first + screenRow
      grid.fill(row: y, column: Self.labelWidth, width: fieldWidth, style: style)
      grid.draw(
        glyphs.icon(icon.rawValue), row: y, column: Self.labelWidth + 1, width: glyphs.iconWidth,
        style: style)
      grid.draw(
        icon.rawValue, row: y, column: Self.labelWidth + 2 + glyphs.iconWidth,
        width: max(fieldWidth - glyphs.iconWidth - 3, 0), style: style)
    }
  }
}
