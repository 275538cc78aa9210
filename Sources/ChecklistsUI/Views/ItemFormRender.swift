import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Where the item form's fields are on screen: Text, Notes, Remind Me, Due Date (with its line
/// of explanation), Repeat (with its picker when open), Priority, Tags and Photo, top to bottom,
/// scrolled so that the focused field shows whole.
///
/// Below 13 rows the fields go without blank rows between them, so the form works in a 20×5
/// terminal too (one field or three on screen, scrolling as the focus moves).
struct ItemFormLayout: Equatable {
  /// A field's first screen row and how many rows it takes.
  struct Place: Equatable {
    var row: Int
    var rows: Int
  }

  /// Each field's place; a row outside `top...bottom` is off screen.
  var places: [ItemFormScreen.Field: Place]
  /// The first and last rows the form draws in (between the title and the status line).
  var top: Int
  var bottom: Int
  /// How many lines the Text and Notes fields show (the rest scroll inside the field).
  var textLines: Int
  var noteLines: Int
  /// How many choices the open Repeat picker shows (0 while it is closed).
  var pickerRows: Int

  /// The field with a row on `row`, if any shows there.
  func field(at row: Int) -> ItemFormScreen.Field? {
    guard row >= top, row <= bottom else { return nil }
    return places.first { row >= $0.value.row && row < $0.value.row + $0.value.rows }?.key
  }
}

extension ChecklistsApp {
  /// The most lines the item form's Text field takes (the rest scrolls).
  static func maxTextLines(height: Int) -> Int { max(height - 9, 1) }

  /// The most lines the item form's Notes field takes (the rest scrolls): a third of the
  /// screen, from 3 to 10.
  static func maxNoteLines(height: Int) -> Int { min(max(height / 3, 3), 10) }

  /// The item form's layout on a terminal of this size, with the Repeat picker open under its
  /// row when `repeatPicker` (by default the one on the stack) is.
  func itemFormLayout(
    _ form: ItemFormScreen, width: Int, height: Int, repeatPicker: RepeatPickerScreen? = nil
  ) -> ItemFormLayout {
    let picker = repeatPicker ?? self.repeatPicker
    let compact = height < 13
    let top = compact ? 1 : 2
    let bottom = max(height - 2, top)
    let visible = bottom - top + 1
    let fieldWidth = itemFieldWidth(form, width: width)
    let textLines = max(
      min(
        form.text.wrapped(width: fieldWidth).lines.count, Self.maxTextLines(height: height),
        visible), 1)
    let noteLines = max(
      min(
        form.note.wrapped(width: fieldWidth).lines.count, Self.maxNoteLines(height: height),
        visible), 1)
    let pickerRows =
      picker.map { max(min($0.choices.count, visible - 1), 1) } ?? 0
    let heights: [(ItemFormScreen.Field, Int)] = [
      (.text, textLines), (.note, noteLines), (.remind, 1), (.due, 2), (.repeat, 1 + pickerRows),
      (.priority, 1), (.tags, 1), (.photo, 1),
    ]
    var places: [ItemFormScreen.Field: ItemFormLayout.Place] = [:]
    var row = 0
    for (field, rows) in heights {
      places[field] = ItemFormLayout.Place(row: row, rows: rows)
      row += rows + (compact ? 0 : 1)
    }
    let focus = places[form.focus] ?? ItemFormLayout.Place(row: 0, rows: 1)
    var offset = min(max(focus.row + focus.rows - visible, 0), focus.row)
    // A field cut at the top is not drawn: scrolled past whole instead, so that no blank rows
    // stand where the end of the Text or Notes field would be.
    for place in places.values where place.row < offset && offset < place.row + place.rows {
      offset = min(place.row + place.rows + (compact ? 0 : 1), focus.row)
    }
    for field in places.keys { places[field]?.row += top - offset }
    return ItemFormLayout(
      places: places, top: top, bottom: bottom, textLines: textLines, noteLines: noteLines,
      pickerRows: pickerRows)
  }

  /// The first choice the Repeat picker shows so that the selected one is on screen.
  static func repeatPickerTop(selection: Int, count: Int, rows: Int) -> Int {
    min(max(selection - rows + 1, 0), max(count - rows, 0))
  }

  func renderItemForm(_ form: ItemFormScreen, into grid: inout CellGrid, now: Date) {
    let listName = dataModel.list(withID: form.listID)?.name ?? ""
    renderTitle(form.itemIndex == nil ? "Add Item" : "Edit Item", right: listName, into: &grid)
    let layout = itemFormLayout(form, width: grid.width, height: grid.height)
    let fieldWidth = itemFieldWidth(form, width: grid.width)
    let fieldStyle = CellStyle(color: .normal, attributes: [.underline])
    func rows(_ field: ItemFormScreen.Field) -> (row: Int, count: Int)? {
      guard let place = layout.places[field], place.row >= layout.top, place.row <= layout.bottom
      else { return nil }
      return (place.row, min(place.rows, layout.bottom - place.row + 1))
    }
    if let (row, count) = rows(.text) {
      drawLabel("Text", row: row, focused: form.focus == .text, into: &grid)
      grid.drawWrappedField(
        form.text, row: row, column: Self.labelWidth, width: fieldWidth,
        maxLines: min(layout.textLines, count), style: fieldStyle, focused: form.focus == .text)
    }
    if let (row, count) = rows(.note) {
      renderNoteField(
        form, row: row, rows: min(layout.noteLines, count), width: fieldWidth, style: fieldStyle,
        into: &grid)
    }
    if let (row, _) = rows(.remind) {
      drawLabel("Remind Me", row: row, focused: form.focus == .remind, into: &grid)
      let style = CellStyle(
        color: form.remind ? .accent : .normal, attributes: form.focus == .remind ? [.reverse] : [])
      let used = grid.draw(
        glyphs.toggle(form.remind), row: row, column: Self.labelWidth, width: fieldWidth,
        style: style)
      // The lead time beside the switch: "15 min before", "at the due time".
      let room = fieldWidth - used - 2
      if form.remind || !form.reminderLead.isNone, room > 4 {
        grid.draw(
          form.reminderLead.phrase, row: row, column: Self.labelWidth + used + 2, width: room,
          style: CellStyle(color: form.reminderLead.isNone ? .dim : .accent))
      }
    }
    if let (row, count) = rows(.due) {
      drawLabel("Due Date", row: row, focused: form.focus == .due, into: &grid)
      grid.drawField(
        form.dueText, row: row, column: Self.labelWidth, width: fieldWidth, style: fieldStyle,
        focused: form.focus == .due)
      if form.dueSelected && form.focus == .due {
        // Remind Me's date, untouched: shown selected, as the first character typed replaces it.
        grid.draw(
          form.dueText.text, row: row, column: Self.labelWidth, width: fieldWidth,
          style: CellStyle(color: .normal, attributes: [.underline, .reverse]))
      }
      if count > 1 {
        if let date = form.dueDate {
          grid.draw(
            glyphs.arrow + " " + formatter.full(date), row: row + 1, column: Self.labelWidth,
            width: fieldWidth, style: CellStyle(color: .dim))
        } else if let error = form.dueError {
          grid.draw(
            error, row: row + 1, column: Self.labelWidth, width: fieldWidth,
            style: CellStyle(color: .error))
        } else {
          grid.draw(
            "none: type one (tomorrow 9am, fri 17:00, +2h)", row: row + 1,
            column: Self.labelWidth, width: fieldWidth, style: CellStyle(color: .dim))
        }
      }
    }
    if let (row, count) = rows(.repeat) {
      renderRepeatField(form, row: row, rows: count, width: fieldWidth, into: &grid)
    }
    if let (row, _) = rows(.priority) {
      let focused = form.focus == .priority
      drawLabel("Priority", row: row, focused: focused, into: &grid)
      let style = CellStyle(
        color: form.priority == .none ? .normal : .accent, attributes: focused ? [.reverse] : [])
      let used = grid.draw(
        Self.priorityName(form.priority), row: row, column: Self.labelWidth, width: fieldWidth,
        style: style)
      let room = fieldWidth - used - 2
      if focused, room >= 12 {
        grid.draw(
          "Left/Right, h m l n", row: row, column: Self.labelWidth + used + 2, width: room,
          style: CellStyle(color: .dim))
      }
    }
    if let (row, _) = rows(.tags) {
      drawLabel("Tags", row: row, focused: form.focus == .tags, into: &grid)
      grid.drawField(
        form.tags, row: row, column: Self.labelWidth, width: fieldWidth, style: fieldStyle,
        focused: form.focus == .tags)
    }
    if let (row, _) = rows(.photo) {
      let focused = form.focus == .photo
      drawLabel("Photo", row: row, focused: focused, into: &grid)
      let (text, attached) = photoRowText(form)
      let style = CellStyle(
        color: attached ? .accent : .normal, attributes: focused ? [.reverse] : [])
      grid.draw(text, row: row, column: Self.labelWidth, width: fieldWidth, style: style)
    }
    if let box = itemPhotoBox(form, layout: layout, width: grid.width) {
      drawPhoto(box, into: &grid)
    }
  }

  /// What the Priority row shows: "None", "! Low", "!! Medium", "!!! High".
  static func priorityName(_ level: PriorityLevel) -> String {
    let name = level.rawValue.prefix(1).uppercased() + level.rawValue.dropFirst()
    return level == .none ? name : level.marks + " " + name
  }

  /// The Notes field: the note wrapped over `rows` rows, following the cursor while focused
  /// and from its first line otherwise; under the label, where the note does not fit, which
  /// line the cursor is on (`3/12`) or how many lines do not show (`+4 more`).
  func renderNoteField(
    _ form: ItemFormScreen, row: Int, rows: Int, width: Int, style: CellStyle,
    into grid: inout CellGrid
  ) {
    let focused = form.focus == .note
    drawLabel("Notes", row: row, focused: focused, into: &grid)
    grid.drawWrappedField(
      form.note, row: row, column: Self.labelWidth, width: width, maxLines: rows, style: style,
      focused: focused, fromTop: true)
    let layout = form.note.wrapped(width: width)
    guard rows > 1, layout.lines.count > rows else { return }
    // Counted in the note's own lines, not in the rows they wrap to.
    let characters = form.note.characters
    let starts = layout.lines.map { $0.lowerBound == 0 || characters[$0.lowerBound - 1] == "\n" }
    let note: String
    if focused {
      let line = starts[...layout.cursorLine].filter { $0 }.count
      note = "\(line)/\(starts.filter { $0 }.count)"
    } else {
      // Lines not shown, the one cut at the last row included.
      let hidden = starts[rows...].filter { $0 }.count + (starts[rows] ? 0 : 1)
      note = "+\(hidden) more"
    }
    grid.draw(
      note, row: row + 1, column: 1, width: Self.labelWidth - 2, style: CellStyle(color: .dim))
  }

  /// The Repeat row ("Never", "Weekly"…, then when the next due date falls, or that a repeat
  /// needs a due date) and the picker under it while open.
  func renderRepeatField(
    _ form: ItemFormScreen, row: Int, rows: Int, width: Int, into grid: inout CellGrid
  ) {
    let focused = form.focus == .repeat
    drawLabel("Repeat", row: row, focused: focused, into: &grid)
    let name = Self.repeatName(form.repeatRule)
    let style = CellStyle(
      color: form.repeatRule == nil ? .normal : .accent,
      attributes: focused && repeatPicker == nil ? [.reverse] : [])
    let used = grid.draw(name, row: row, column: Self.labelWidth, width: width, style: style)
    let room = width - used - 2
    if form.repeatRule != nil, room > 4 {
      let column = Self.labelWidth + used + 2
      if let next = nextOccurrence(form) {
        grid.draw(
          "then " + formatter.full(next), row: row, column: column, width: room,
          style: CellStyle(color: .dim))
      } else {
        grid.draw(
          "needs a due date", row: row, column: column, width: room,
          style: CellStyle(color: .error))
      }
    }
    guard let picker = repeatPicker, rows > 1 else { return }
    let selection = picker.selected
    let choices = picker.choices
    let shown = rows - 1
    let first = Self.repeatPickerTop(selection: selection, count: choices.count, rows: shown)
    for offset in 0..<shown where first + offset < choices.count {
      let index = first + offset
      let selected = index == selection
      let style = CellStyle(
        color: selected ? .selection : .normal, attributes: selected ? [.reverse] : [])
      let y = row + 1 + offset
      grid.fill(row: y, column: Self.labelWidth, width: width, style: style)
      grid.draw(
        Self.repeatName(choices[index]), row: y, column: Self.labelWidth + 1,
        width: max(width - 2, 0), style: style)
    }
  }

  /// After an item's text in a Checklist row, its note's first line, dimmed, when at least a
  /// few columns are left before `end` (the text keeps priority). Reads only the start of the
  /// note, so a long note costs no more than a short one.
  func drawNotePreview(
    _ note: String, row: Int, from column: Int, end: Int, style: CellStyle,
    into grid: inout CellGrid
  ) {
    let start = column + 2
    let room = end - start
    guard room >= 4, !note.isEmpty else { return }
    var line = ""
    var read = 0
    for character in note {
      read += 1
      if read > room * 2 + 64 { break }
      if character.isNewline {
        if line.isEmpty { continue }
        break
      }
      if line.isEmpty && character.isWhitespace { continue }
      line.append(character)
    }
    guard !line.isEmpty else { return }
    var noteStyle = style
    noteStyle.attributes.insert(.dim)
    if !style.attributes.contains(.reverse) { noteStyle.color = .dim }
    grid.draw(line, row: row, column: start, width: room, style: noteStyle)
  }
}
