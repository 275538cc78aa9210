import ChecklistsCore

/// The outline's symbols, with ASCII stand-ins (as `Glyphs` has them for the rest).
struct OutlineGlyphs: Equatable, Sendable {
  /// Whether the terminal gets ASCII only.
  let ascii: Bool

  /// The fold mark of a parent: `▸` (`+`) when its subtasks are hidden, `▾` (`-`) when shown.
  func foldMark(folded: Bool) -> String {
    if ascii { return folded ? "+" : "-" }
    return folded ? "▸" : "▾"
  }
}

/// What goes in the fold column of a row.
enum FoldMark: Equatable, Sendable {
  /// No fold column: the list has no subtasks (its rows look as they always did).
  case none
  /// A blank fold column: an item without subtasks in a list that has some.
  case leaf
  /// A parent with its subtasks shown.
  case open
  /// A parent with its subtasks hidden.
  case folded

  /// The mark of an outline row (`OutlineRows.Row`), in a list with or without subtasks.
  init(_ row: OutlineRows.Row, listHasSubtasks: Bool) {
    if !listHasSubtasks {
      self = .none
    } else if !row.hasChildren {
      self = .leaf
    } else {
      self = row.isFolded ? .folded : .open
    }
  }
}

/// Where the pieces of an item's row go, in columns from the start of the text area (after
/// the check mark): indentation, fold mark, priority marks, the text, the tags.
///
/// Layout, left to right: 2 columns a level of indentation, a 2-column fold column (the mark
/// and a space; only in a list that has subtasks), the priority marks and a space (`!`, `!!`,
/// `!!!`), the text, a space and the tags (`#work #home`).
///
/// A narrow row gives way in this order: the tags go first (whole tags, from the last one),
/// then the text is cut (with `…`, by `CellGrid.draw`); the fold mark and the priority marks
/// stay. The indentation (whole levels) takes at most half the row, so that deep subtasks keep
/// room for their text, and shrinks further only where the marks alone would not fit.
struct OutlineRowLayout: Equatable, Sendable {
  /// Columns of indentation before the fold column.
  var indent: Int
  /// The fold column's mark: "" for a blank column or none (see `foldWidth`).
  var foldMark: String
  /// The fold column's width: 2, or 0 in a list without subtasks.
  var foldWidth: Int
  /// Where the priority marks start.
  var marksColumn: Int
  /// `!`, `!!`, `!!!`, or "" for none.
  var marks: String
  /// Where the text starts.
  var textColumn: Int
  /// The columns the text gets: its width, or less when it is cut.
  var textWidth: Int
  /// Whether the text is cut (drawn ending in `…`).
  var textIsCut: Bool
  /// Where the tags start (after the text and a space); meaningful when `tags` is not empty.
  var tagsColumn: Int
  /// The tags that fit, each with its `#`, separated by spaces; "" when none show.
  var tags: String
  /// How many of the item's tags did not fit.
  var tagsLeftOut: Int
  /// The columns used in all (where a note preview may start after one more space).
  var end: Int
  /// The row's width.
  var width: Int
}

/// The pure functions that lay out and draw an item's row in a list with subtasks, priorities
/// and tags.
enum OutlineRowText {
  /// The layout of an item's row within `width` columns.
  static func layout(
    for item: ChecklistItem, depth: Int, fold: FoldMark, width: Int, glyphs: OutlineGlyphs
  ) -> OutlineRowLayout {
    layout(
      text: item.text, depth: depth, fold: fold, priority: item.priorityLevel, tags: item.tags,
      width: width, glyphs: glyphs)
  }

  /// The layout of a row of `text` at `depth` within `width` columns (see `OutlineRowLayout`).
  static func layout(
    text: String, depth: Int, fold: FoldMark, priority: PriorityLevel, tags: [String],
    width: Int, glyphs: OutlineGlyphs
  ) -> OutlineRowLayout {
    let width = max(width, 0)
    let foldWidth = fold == .none ? 0 : 2
    let foldMark: String
    switch fold {
    case .none, .leaf: foldMark = ""
    case .open: foldMark = glyphs.foldMark(folded: false)
    case .folded: foldMark = glyphs.foldMark(folded: true)
    }
    let marks = priority.marks
    let marksWidth = marks.isEmpty ? 0 : marks.count + 1
    // At most half the row (in whole levels), and never pushing the marks off the row.
    var indent = min(2 * max(depth, 0), width / 4 * 2)
    indent = max(min(indent, (width - foldWidth - marksWidth) / 2 * 2), 0)
    let marksColumn = indent + foldWidth
    let textColumn = min(marksColumn + marksWidth, width)
    let room = width - textColumn
    let fullText = DisplayWidth.of(text)
    let textWidth = min(fullText, room)
    var used = textColumn + textWidth
    // Tags in order while each fits whole after a space.
    var shown: [String] = []
    var tagsWidth = 0
    if fullText <= room {
      for tag in tags {
        let piece = "#" + tag
        let pieceWidth = DisplayWidth.of(piece) + 1
        guard used + tagsWidth + pieceWidth <= width else { break }
        shown.append(piece)
        tagsWidth += pieceWidth
      }
    }
    let tagsColumn = used + 1
    used += tagsWidth
    return OutlineRowLayout(
      indent: indent, foldMark: foldMark, foldWidth: foldWidth, marksColumn: marksColumn,
      marks: marks, textColumn: textColumn, textWidth: textWidth, textIsCut: fullText > room,
      tagsColumn: tagsColumn, tags: shown.joined(separator: " "),
      tagsLeftOut: tags.count - shown.count, end: min(used, width), width: width)
  }

  /// The styles of a row's pieces.
  struct Styles: Equatable, Sendable {
    /// The fold mark.
    var foldMark: CellStyle
    /// The priority marks.
    var marks: CellStyle
    /// The text.
    var text: CellStyle
    /// The tags.
    var tags: CellStyle

    /// One style for every piece.
    init(all style: CellStyle) {
      foldMark = style
      marks = style
      text = style
      tags = style
    }

    /// Styles of each piece.
    init(foldMark: CellStyle, marks: CellStyle, text: CellStyle, tags: CellStyle) {
      self.foldMark = foldMark
      self.marks = marks
      self.text = text
      self.tags = tags
    }
  }

  /// Draws a laid-out row at `row` from `column` (the start of the text area); returns the
  /// columns used. Cells between the pieces are left as they are (the row's fill).
  @discardableResult
  static func draw(
    _ layout: OutlineRowLayout, text: String, row: Int, column: Int, styles: Styles,
    into grid: inout CellGrid
  ) -> Int {
    if !layout.foldMark.isEmpty, layout.indent < layout.width {
      grid.draw(
        layout.foldMark, row: row, column: column + layout.indent, width: 1,
        style: styles.foldMark)
    }
    if !layout.marks.isEmpty {
      grid.draw(
        layout.marks, row: row, column: column + layout.marksColumn,
        width: min(layout.marks.count, layout.width - layout.marksColumn), style: styles.marks,
        ellipsis: false)
    }
    if layout.textWidth > 0 {
      grid.draw(
        text, row: row, column: column + layout.textColumn, width: layout.textWidth,
        style: styles.text)
    }
    if !layout.tags.isEmpty {
      grid.draw(
        layout.tags, row: row, column: column + layout.tagsColumn,
        width: layout.end - layout.tagsColumn, style: styles.tags)
    }
    return layout.end
  }
}
