import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Selection, scrolling and filter of one list-like screen.
struct Browser: Equatable {
  /// The selected row (an index into the visible rows).
  var selected = 0
  /// The first row shown.
  var top = 0
  /// The filter in force, nil when none.
  var filter: String?
  /// The filter being typed (`/`), nil when not typing.
  var filterField: TextField?
  /// The visible rows as indices into the underlying array, nil when all rows show in order.
  var rows: [Int]?

  /// How many rows show, given how many there are in all.
  func rowCount(total: Int) -> Int { rows?.count ?? total }

  /// The underlying index of a visible row.
  func index(ofRow row: Int) -> Int? {
    guard row >= 0 else { return nil }
    if let rows { return row < rows.count ? rows[row] : nil }
    return row
  }

  /// The visible row of an underlying index, if it shows.
  func row(ofIndex index: Int, total: Int) -> Int? {
    if let rows { return rows.firstIndex(of: index) }
    return index >= 0 && index < total ? index : nil
  }

  /// Keeps the selection in range and on screen for `visibleRows` rows.
  mutating func clamp(total: Int, visibleRows: Int) {
    let count = rowCount(total: total)
    selected = min(max(selected, 0), max(count - 1, 0))
    let page = max(visibleRows, 1)
    if selected < top { top = selected }
    if selected >= top + page { top = selected - page + 1 }
    top = min(max(top, 0), max(count - page, 0))
  }
}

/// The checklist screen: which list is open and how it is shown.
struct OpenList: Equatable {
  /// The list on screen.
  var listID: Checklist.ID
  /// Selection, scrolling, filter.
  var browser = Browser()
  /// The item indices in due-date order, while the list is sorted by due date.
  var dueOrder: [Int]?
  /// The list's outline and its folds (kept by `itemID`): the rows shown in manual order
  /// without a filter. With a filter or by due date every matching item shows, folds aside.
  var outline = OutlineRows(depths: [], itemIDs: [])

  /// Whether the rows follow the outline (manual order, no filter): folds apply, subtasks are
  /// drawn indented.
  var showsOutline: Bool { dueOrder == nil && browser.filter == nil }
}

/// The screens help is written for.
enum HelpContext: Equatable, Sendable {
  case allLists, checklist, planner, itemForm, listForm, iconPicker, listPicker, repeatPicker
  case photoPicker
  /// Not keys: the status line's messages so far (`M`), in the help screen's frame.
  case messages
}

/// A message on the status line.
struct StatusMessage: Equatable {
  /// The text.
  var text: String
  /// Whether it reports a problem.
  var isError: Bool
}

/// The merges from elsewhere told on the status line and not yet read.
struct UntoldMerge: Equatable {
  /// Their reports, added up.
  var report: MergeReport
  /// The status line that tells them: once it is gone (a key, another message), they were read.
  var shown: StatusMessage?
}

/// The status line's messages so far, oldest first, for the messages view (as vim's
/// `:messages`): the status line shows one at a time and cuts a long one.
struct MessageLog: Equatable {
  /// How many are kept; older ones go.
  static let limit = 200

  /// The messages, oldest first.
  private(set) var messages: [StatusMessage] = []

  /// Keeps a message shown on the status line.
  mutating func record(_ message: StatusMessage) {
    messages.append(message)
    if messages.count > Self.limit { messages.removeFirst(messages.count - Self.limit) }
  }
}
