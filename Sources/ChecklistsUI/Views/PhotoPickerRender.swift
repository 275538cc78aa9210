import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

extension ChecklistsApp {
  /// The first entry the picker shows: the selection stays on screen.
  func photoPickerTop(_ picker: PhotoPicker) -> Int {
    let rows = photoPickerRows
    return min(max(picker.selected - rows + 1, 0), max(picker.rows.count - rows, 0))
  }

  /// The mouse in the picker: the wheel moves, a click highlights an entry, a click on the
  /// highlighted one opens or picks it.
  mutating func handlePhotoPickerMouse(_ mouse: MouseEvent, picker: inout PhotoPicker)
    -> PhotoPickerOutcome
  {
    switch mouse.kind {
    case .wheelUp, .wheelDown:
      let action: KeyAction = mouse.kind == .wheelDown ? .next : .previous
      for _ in 0..<3 { _ = performInPhotoPicker(action, picker: &picker) }
    case .press:
      let row = photoPickerTop(picker) + mouse.position.row - 2
      let listWidth = width - (Self.pickerPreviewWidth(width: width).map { $0 + 1 } ?? 0)
      guard mouse.position.row >= 2, mouse.position.column < listWidth,
        picker.rows.indices.contains(row)
      else { return .stay }
      if row == picker.selected {
        return performInPhotoPicker(.pick, picker: &picker)
      } else if let access = options.photos {
        picker.selected = row
        updatePreview(&picker, access: access)
      }
    }
    return .stay
  }

  /// The photo picker: the folder in the title, the filter on the first row, the folders and
  /// images under it (names drawn with the items' safe-text rules), and on wide terminals the
  /// highlighted image's caption at the right.
  func renderPhotoPicker(_ picker: PhotoPicker, into grid: inout CellGrid) {
    renderTitle("Choose a Photo", right: picker.folder, into: &grid)
    let labelStyle = CellStyle(color: .accent, attributes: [.bold])
    let used = grid.draw("Find: ", row: 1, column: 1, width: 6, style: labelStyle)
    let fieldStyle = CellStyle(color: .normal, attributes: [.underline])
    let previewWidth = Self.pickerPreviewWidth(width: grid.width) ?? 0
    let listWidth = grid.width - previewWidth - (previewWidth > 0 ? 1 : 0)
    grid.drawField(
      picker.filter, row: 1, column: 1 + used, width: max(listWidth - used - 2, 1),
      style: fieldStyle, focused: true)
    let rows = photoPickerRows
    let firstRow = 2
    if let error = picker.error {
      grid.draw(
        error, row: firstRow, column: 1, width: listWidth - 2, style: CellStyle(color: .error))
    } else if picker.rows.isEmpty {
      let text =
        picker.entries.isEmpty
        ? "No folders or images here" : "Nothing matches \(quoted(picker.filter.text))"
      grid.draw(text, row: firstRow, column: 1, width: listWidth - 2, style: CellStyle(color: .dim))
    }
    let shownTop = photoPickerTop(picker)
    for offset in 0..<rows where shownTop + offset < picker.rows.count {
      let row = shownTop + offset
      let entry = picker.entries[picker.rows[row]]
      let selected = row == picker.selected
      let style = CellStyle(
        color: selected ? .selection : (entry.isFolder ? .accent : .normal),
        attributes: selected ? [.reverse] : [])
      let y = firstRow + offset
      grid.fill(row: y, column: 0, width: listWidth, style: style)
      let mark = entry.isFolder ? (glyphs.ascii ? "[dir]" : "📁") : (glyphs.ascii ? "" : "  ")
      let markWidth = glyphs.ascii ? 6 : 3
      grid.draw(mark, row: y, column: 1, width: markWidth, style: style)
      grid.draw(
        entry.name + (entry.isFolder ? "/" : ""), row: y, column: 1 + markWidth,
        width: max(listWidth - markWidth - 2, 0), style: style)
    }
    guard previewWidth > 0 else { return }
    let column = listWidth + 1
    let dim = CellStyle(color: .dim)
    for y in 1..<(grid.height - 1) {
      grid.draw(glyphs.ascii ? "|" : "│", row: y, column: listWidth, width: 1, style: dim)
    }
    if let caption = picker.previewCaption, let path = picker.previewPath {
      grid.draw(
        Self.lastComponent(of: path), row: 2, column: column, width: previewWidth,
        style: CellStyle(color: .normal, attributes: [.bold]))
      grid.draw(caption, row: 3, column: column, width: previewWidth, style: dim)
      if let box = pickerPhotoBox(picker) { drawPhoto(box, into: &grid) }
    } else {
      let count = picker.entries.filter { !$0.isFolder }.count
      grid.draw(
        count == 1 ? "1 image" : "\(count) images", row: 2, column: column, width: previewWidth,
        style: dim)
    }
  }
}
