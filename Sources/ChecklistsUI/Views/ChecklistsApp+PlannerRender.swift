import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

extension ChecklistsApp {
  // MARK: - Today and Scheduled on All Lists

  /// The Today and Scheduled rows at the top of All Lists, with their counts.
  func renderSmartRows(selected smartSelected: PlannerKind?, into grid: inout CellGrid) {
    let rows: [(PlannerKind, Int)] = [
      (.today, session.smartCounts.today), (.scheduled, session.smartCounts.scheduled),
    ]
    for (offset, (kind, count)) in rows.enumerated() {
      let y = offset + 1
      guard y < grid.height - 1 else { return }
      let selected = smartSelected == kind
      let style = CellStyle(
        color: selected ? .selection : .accent, attributes: selected ? [.reverse, .bold] : [.bold])
      grid.fill(row: y, column: 0, width: grid.width, style: style)
      var countStyle = style
      if !selected { countStyle = CellStyle(color: count == 0 ? .dim : .normal) }
      let words = count == 0 ? "Nothing due" : "\(count) \(count == 1 ? "item" : "items")"
      grid.draw(
        glyphs.smartIcon(kind), row: y, column: 1, width: glyphs.iconWidth, style: style)
      let nameStart = 2 + glyphs.iconWidth
      let end = grid.drawRightAligned(
        words, row: y, end: grid.width - 1, maxWidth: max(grid.width - nameStart - 4, 0),
        style: countStyle)
      grid.draw(
        kind.title, row: y, column: nameStart, width: max(end - nameStart - 1, 0), style: style)
    }
  }

  // MARK: - Today, Scheduled and search results

  /// A planner view: headings, and rows of items naming their list.
  func renderPlanner(_ view: PlannerView, into grid: inout CellGrid, now: Date) {
    let items = view.lines.count { if case .item = $0 { return true } else { return false } }
    let dash = glyphs.dash
    let title: String
    let suffix: String
    switch view.kind {
    case .today, .scheduled:
      title = view.kind.title
      suffix = items == 0 ? "" : " \(dash) \(items) \(items == 1 ? "item" : "items")"
    case .search:
      title = view.query.text.isEmpty ? "Search" : "Search \(quoted(view.query.text))"
      let found = view.selectable.count
      suffix = view.query.text.isEmpty ? "" : " \(dash) \(found) found"
    }
    let rows = grid.height - 2
    var right = ""
    if view.selectable.count > rows {
      right = "\(min(view.selected + 1, view.selectable.count))/\(view.selectable.count)"
    }
    renderTitle(title, suffix: suffix, right: right, into: &grid)
    if view.lines.isEmpty {
      let text: String
      switch view.kind {
      case .today: text = "Nothing due today"
      case .scheduled: text = "Nothing scheduled: items with a due date show here"
      case .search:
        text =
          view.query.text.isEmpty
          ? "Type to search the items and notes of every list"
          : "Nothing matches \(quoted(view.query.text))"
      }
      renderCentered(text, into: &grid)
      return
    }
    var top = min(max(view.top, 0), max(view.lines.count - rows, 0))
    let selectedLine =
      view.selectable.indices.contains(view.selected)
      ? view.selectable[view.selected] : -1
    if selectedLine >= 0 {
      if selectedLine < top { top = selectedLine }
      if selectedLine >= top + rows { top = selectedLine - rows + 1 }
    }
    // The due dates end at the right edge, the list names in one column before them.
    var dueWidth = 0
    for index in top..<min(top + max(rows, 0), view.lines.count) {
      guard let place = place(of: view.lines[index]) else { continue }
      let item = dataModel.lists[place.listIndex].items[place.itemIndex]
      dueWidth = max(dueWidth, DisplayWidth.of(dueText(item, now: now, maxWidth: grid.width / 3)))
    }
    dueWidth = min(dueWidth, grid.width / 3)
    for screenRow in 0..<max(rows, 0) where top + screenRow < view.lines.count {
      let index = top + screenRow
      let y = screenRow + 1
      let selected = index == selectedLine
      switch view.lines[index] {
      case .heading(let text):
        grid.draw(
          text, row: y, column: 1, width: grid.width - 2,
          style: CellStyle(color: .accent, attributes: [.bold]))
      case .list(let id):
        guard let list = dataModel.list(withID: id) else { continue }
        let style = CellStyle(
          color: selected ? .selection : .normal, attributes: selected ? [.reverse] : [])
        grid.fill(row: y, column: 0, width: grid.width, style: style)
        grid.draw(
          glyphs.icon(list.iconName), row: y, column: 1, width: glyphs.iconWidth, style: style)
        let column = 2 + glyphs.iconWidth
        grid.draw(
          list.name, row: y, column: column, width: max(grid.width - column - 1, 0), style: style)
      case .item:
        guard let place = place(of: view.lines[index]) else { continue }
        let list = dataModel.lists[place.listIndex]
        renderPlannerItem(
          list.items[place.itemIndex], listName: list.name,
          parentText: plannerParentText(
            view, listIndex: place.listIndex, itemIndex: place.itemIndex),
          row: y, selected: selected, showsList: view.kind != .search, dueWidth: dueWidth,
          into: &grid, now: now)
      }
    }
  }

  /// An item's due date as its row shows it ("↻ today 20:10"), in its longest form that fits
  /// `maxWidth` columns (a far date keeps its time, "18 Dec 08:00", before its weekday); empty
  /// without one.
  func dueText(_ item: ChecklistItem, now: Date, maxWidth: Int = .max) -> String {
    guard item.showsDueDate else { return "" }
    let forms = formatter.relativeForms(item.dueDate, now: now).map {
      item.repeats ? "\(glyphs.repeats) \($0)" : $0
    }
    return forms.first { DisplayWidth.of($0) <= maxWidth } ?? forms[forms.count - 1]
  }

  /// An item's row outside its list: check mark, priority marks, text, tags, its parent's text
  /// (a subtask), then the list's name and due date.
  func renderPlannerItem(
    _ item: ChecklistItem, listName: String, parentText: String? = nil, row y: Int,
    selected: Bool, showsList: Bool, dueWidth: Int, into grid: inout CellGrid, now: Date
  ) {
    let style = beginItemRow(item, row: y, selected: selected, into: &grid, now: now)
    var end = grid.width - 1
    if item.showsDueDate {
      grid.drawRightAligned(
        dueText(item, now: now, maxWidth: dueWidth), row: y, end: end, maxWidth: dueWidth,
        style: style.due)
    }
    end -= dueWidth + (dueWidth > 0 ? 1 : 0)
    if showsList {
      end =
        grid.drawRightAligned(
          listName, row: y, end: end - 1, maxWidth: grid.width / 4, style: style.dim) - 1
    }
    drawPlannerItemText(item, parentText: parentText, row: y, end: end, style: style, into: &grid)
  }

  /// A planner row's photo mark, priority marks, text and tags (as a list's rows show them, at
  /// the top level), then the parent's text of a subtask, dimmed (`— Move house`), or else the
  /// note's first line; ending before `end`.
  func drawPlannerItemText(
    _ item: ChecklistItem, parentText: String?, row y: Int, end: Int, style: ItemRowStyle,
    into grid: inout CellGrid
  ) {
    let end = drawPhotoMark(item, row: y, end: end, style: style.base, into: &grid)
    let used: Int
    if item.priorityLevel == .none && item.tags.isEmpty {
      // The common row, as before priorities and tags: no layout to work out.
      used = grid.draw(item.text, row: y, column: 4, width: max(end - 4, 0), style: style.text)
    } else {
      let layout = OutlineRowText.layout(
        for: item, depth: 0, fold: .none, width: max(end - 4, 0),
        glyphs: OutlineGlyphs(ascii: glyphs.ascii))
      OutlineRowText.draw(
        layout, text: item.text, row: y, column: 4, styles: style.outline, into: &grid)
      used = 4 + layout.end
    }
    guard let parentText else {
      drawNotePreview(item.note, row: y, from: used, end: end, style: style.text, into: &grid)
      return
    }
    let start = used + 2
    guard end - start >= 4 else { return }
    var parentStyle = style.dim
    parentStyle.attributes.insert(.dim)
    grid.draw(
      glyphs.dash + " " + parentText, row: y, column: start, width: end - start,
      style: parentStyle)
  }

  /// Fills an item's row and draws its check mark; the styles for the rest of the row. One
  /// rule for a Checklist's rows and the planner views'.
  func beginItemRow(
    _ item: ChecklistItem, row y: Int, selected: Bool, into grid: inout CellGrid, now: Date
  ) -> ItemRowStyle {
    let style = ItemRowStyle(item, selected: selected, now: now)
    grid.fill(row: y, column: 0, width: grid.width, style: style.base)
    grid.draw(glyphs.checkMark(item.checked), row: y, column: 0, width: 3, style: style.check)
    return style
  }

  /// The photo mark, the text and the note's first line of an item's row, ending before `end`.
  func drawItemText(
    _ item: ChecklistItem, row y: Int, end: Int, style: ItemRowStyle, into grid: inout CellGrid
  ) {
    let end = drawPhotoMark(item, row: y, end: end, style: style.base, into: &grid)
    let used = grid.draw(item.text, row: y, column: 4, width: max(end - 4, 0), style: style.text)
    drawNotePreview(item.note, row: y, from: 4 + used, end: end, style: style.text, into: &grid)
  }

  /// The photo mark (📷, `[p]`) of an item with a photo, right-aligned to end before `end`
  /// when the row has room for it and some text; returns where the text must end.
  func drawPhotoMark(
    _ item: ChecklistItem, row: Int, end: Int, style: CellStyle, into grid: inout CellGrid
  ) -> Int {
    guard item.photo != nil else { return end }
    let mark = glyphs.photo
    let markWidth = DisplayWidth.of(mark)
    guard end - markWidth - 1 >= 8 else { return end }
    grid.draw(mark, row: row, column: end - markWidth, width: markWidth, style: style)
    return end - markWidth - 1
  }
}

/// The styles of an item's row: selected or not, checked (dimmed), overdue (bold warning).
struct ItemRowStyle {
  /// The row's background and the photo mark.
  let base: CellStyle
  /// The check mark.
  let check: CellStyle
  /// The text and the note.
  let text: CellStyle
  /// The due date.
  let due: CellStyle
  /// Secondary words (a list's name).
  let dim: CellStyle

  init(_ item: ChecklistItem, selected: Bool, now: Date) {
    let base = CellStyle(
      color: selected ? .selection : .normal, attributes: selected ? [.reverse] : [])
    self.base = base
    var check = base
    if !selected { check.color = item.checked ? .checked : .dim }
    self.check = check
    var text = base
    if item.checked {
      text.attributes.insert(.dim)
      if !selected { text.color = .dim }
    }
    self.text = text
    var due = base
    if !item.checked && item.dueDate <= now {
      due.color = .overdue
      due.attributes.insert(.bold)
    } else if !selected {
      due.color = .dim
    }
    self.due = due
    var dim = base
    if !selected { dim.color = .dim }
    self.dim = dim
  }

  /// The styles of the priority marks and tags beside the text (accented, unless the row is
  /// selected or checked).
  var outline: OutlineRowText.Styles {
    var marks = text
    var tags = text
    if text.color == .normal {
      marks.color = .accent
      marks.attributes.insert(.bold)
      tags.color = .accent
    }
    return OutlineRowText.Styles(foldMark: text, marks: marks, text: text, tags: tags)
  }
}
