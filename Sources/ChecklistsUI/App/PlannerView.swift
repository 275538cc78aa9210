import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The views of items from every list: Today, Scheduled and search. They are not lists: each
/// row names the list its item lives in, and a change made on a row is made in that list.
enum PlannerKind: Equatable, CaseIterable {
  /// Unchecked items due today or overdue.
  case today
  /// Every unchecked item with a due date, by day.
  case scheduled
  /// Items (and lists) whose text matches what is typed.
  case search

  /// The title bar's word.
  var title: String {
    switch self {
    case .today: return "Today"
    case .scheduled: return "Scheduled"
    case .search: return "Search"
    }
  }
}

/// One line of a planner view: a heading (a day, a list's name) or a row to act on.
enum PlannerLine: Equatable {
  /// A group's heading ("Overdue", "Tomorrow", a list's name).
  case heading(String)
  /// An item, found again by id near where it was (its list may change under the view).
  case item(listID: Checklist.ID, itemID: Int, itemIndex: Int)
  /// A list whose name matches a search (Enter opens it).
  case list(Checklist.ID)

  /// The item's id, for an item line.
  var itemID: Int? {
    if case .item(_, let itemID, _) = self { return itemID }
    return nil
  }

  /// The list of an item line, or the list a list line shows.
  var listID: Checklist.ID? {
    switch self {
    case .item(let listID, _, _), .list(let listID): return listID
    case .heading: return nil
    }
  }

  /// Whether the line can be selected.
  var isSelectable: Bool {
    if case .heading = self { return false }
    return true
  }
}

/// The state of a planner view on screen: its lines, selection and scrolling, and for a search
/// the query being typed.
struct PlannerView: Equatable {
  /// Which view.
  var kind: PlannerKind
  /// The lines, headings included.
  var lines: [PlannerLine] = []
  /// The positions in `lines` of the lines that can be selected.
  var selectable: [Int] = []
  /// The selected entry of `selectable`.
  var selected = 0
  /// The first line shown.
  var top = 0
  /// The search query (search only).
  var query = TextField()
  /// Whether the query is being typed (search only).
  var isTyping = false
  /// The view a search was started from, to go back to (search only).
  var origin: PlannerKind?
  /// The search session of the model version `searchVersion` (search only).
  var search: SearchSession?
  var searchVersion = -1
  /// Where the parents of the subtasks among the lines are, by list and parent `itemID` (an
  /// index hint, checked when drawn): made with the lines, so that a row shows its parent's
  /// text without looking through its list.
  var parentHints: [Checklist.ID: [Int: Int]] = [:]

  static func == (lhs: PlannerView, rhs: PlannerView) -> Bool {
    lhs.kind == rhs.kind && lhs.lines == rhs.lines && lhs.selected == rhs.selected
      && lhs.top == rhs.top && lhs.query == rhs.query && lhs.isTyping == rhs.isTyping
  }

  /// The selected line, if there is one.
  var selectedLine: PlannerLine? {
    guard selectable.indices.contains(selected) else { return nil }
    return lines[selectable[selected]]
  }

  /// Replaces the lines, keeping the selection on `keep` when it is still there, else near the
  /// same position.
  mutating func setLines(_ newLines: [PlannerLine], keep: PlannerLine?) {
    lines = newLines
    selectable = newLines.indices.filter { newLines[$0].isSelectable }
    if let keep, let position = selectable.firstIndex(where: { Self.same(lines[$0], keep) }) {
      selected = position
    }
    selected = min(max(selected, 0), max(selectable.count - 1, 0))
  }

  /// Whether two lines show the same item or list (item indices may differ).
  static func same(_ lhs: PlannerLine, _ rhs: PlannerLine) -> Bool {
    switch (lhs, rhs) {
    case (.item(let a, let x, _), .item(let b, let y, _)): return a == b && x == y
    case (.list(let a), .list(let b)): return a == b
    case (.heading(let a), .heading(let b)): return a == b
    default: return false
    }
  }

  /// Removes a line, and its heading when the group is left empty; the selection stays on the
  /// same position (the next row moves up into it).
  mutating func removeLine(at position: Int) {
    lines.remove(at: position)
    var removed = 1
    let headingAbove = position > 0 && !lines[position - 1].isSelectable
    let groupEnds = position == lines.count || !lines[position].isSelectable
    if headingAbove && groupEnds {
      lines.remove(at: position - 1)
      removed = 2
    }
    // The selectable positions after it move up; no pass over the other lines.
    let entry = Self.lowerBound(selectable, position)
    if entry < selectable.count, selectable[entry] == position { selectable.remove(at: entry) }
    for index in entry..<selectable.count { selectable[index] -= removed }
  }

  /// The position of the item line for `itemID` in `listID`, looking at the selected line first
  /// (a row acted on is usually the selected one).
  func position(ofItem itemID: Int, in listID: Checklist.ID) -> Int? {
    let wanted = PlannerLine.item(listID: listID, itemID: itemID, itemIndex: 0)
    if selectable.indices.contains(selected), Self.same(lines[selectable[selected]], wanted) {
      return selectable[selected]
    }
    return lines.firstIndex { Self.same($0, wanted) }
  }

  /// The first index of sorted `values` whose value is at least `value`.
  static func lowerBound(_ values: [Int], _ value: Int) -> Int {
    var low = 0
    var high = values.count
    while low < high {
      let mid = (low + high) / 2
      if values[mid] < value { low = mid + 1 } else { high = mid }
    }
    return low
  }

  /// Moves the index hints of one list's items at or after `from` by `offset` (its parents'
  /// too).
  mutating func shiftHints(listID: Checklist.ID, from: Int, by offset: Int) {
    for position in lines.indices {
      if case .item(let id, let itemID, let hint) = lines[position], id == listID, hint >= from {
        lines[position] = .item(listID: id, itemID: itemID, itemIndex: hint + offset)
      }
    }
    if var parents = parentHints[listID] {
      for (itemID, hint) in parents where hint >= from { parents[itemID] = hint + offset }
      parentHints[listID] = parents
    }
  }

  /// Keeps the selected line on screen for `rows` rows (its heading too, when it is just above).
  mutating func clamp(rows: Int) {
    let page = max(rows, 1)
    selected = min(max(selected, 0), max(selectable.count - 1, 0))
    guard selectable.indices.contains(selected) else {
      top = 0
      return
    }
    let line = selectable[selected]
    var want = line
    if line > 0, !lines[line - 1].isSelectable { want = line - 1 }
    if want < top { top = want }
    if line >= top + page { top = line - page + 1 }
    top = min(max(top, 0), max(lines.count - page, 0))
  }
}

/// How the planner views' lines are made from the model.
enum PlannerLines {
  /// Today's lines: its items by due date.
  static func today(_ model: DataModel, smart: SmartLists, now: Date) -> [PlannerLine] {
    smart.today(model, now: now).map(line)
  }

  /// Scheduled's lines: a heading per day group, then its items.
  static func scheduled(_ model: DataModel, smart: SmartLists, now: Date) -> [PlannerLine] {
    var lines: [PlannerLine] = []
    for group in smart.scheduled(model, now: now) {
      lines.append(.heading(group.title))
      lines += group.rows.map(line)
    }
    return lines
  }

  /// A search's lines: the lists whose name matches, then the items by list.
  static func search(_ session: SearchSession, model: DataModel) -> [PlannerLine] {
    let query = session.results.query
    guard !query.isEmpty else { return [] }
    var lines: [PlannerLine] = []
    let folded = SearchFolding.fold(query)
    let names = model.lists.filter { Self.contains(SearchFolding.fold($0.name), folded) }
    if !names.isEmpty {
      lines.append(.heading("Lists"))
      lines += names.map { .list($0.id) }
    }
    var lastList = -1
    session.index.forEachPlace(session.results) { listIndex, itemIndex in
      let list = model.lists[listIndex]
      if listIndex != lastList {
        lines.append(.heading(list.name))
        lastList = listIndex
      }
      lines.append(
        .item(listID: list.id, itemID: list.items[itemIndex].itemID, itemIndex: itemIndex))
    }
    return lines
  }

  /// Where the parents of the lines' subtasks are: one pass over each list that has a subtask
  /// among the lines, none over the others.
  static func parentHints(_ lines: [PlannerLine], model: DataModel) -> [Checklist.ID: [Int: Int]] {
    var listIndex: [Checklist.ID: Int] = [:]
    for (index, list) in model.lists.enumerated() where listIndex[list.id] == nil {
      listIndex[list.id] = index
    }
    var wanted: [Checklist.ID: Set<Int>] = [:]
    for line in lines {
      // The lines were just made: each hint is the item's place.
      guard case .item(let listID, let itemID, let hint) = line,
        let position = listIndex[listID], case let items = model.lists[position].items,
        items.indices.contains(hint), items[hint].itemID == itemID,
        let parentID = items[hint].parentItemID
      else { continue }
      wanted[listID, default: []].insert(parentID)
    }
    var hints: [Checklist.ID: [Int: Int]] = [:]
    for (listID, parentIDs) in wanted {
      guard let position = listIndex[listID] else { continue }
      let list = model.lists[position]
      var found: [Int: Int] = [:]
      for (index, item) in list.items.enumerated()
      where parentIDs.contains(item.itemID) && found[item.itemID] == nil {
        found[item.itemID] = index
        if found.count == parentIDs.count { break }
      }
      hints[listID] = found
    }
    return hints
  }

  private static func line(_ row: PlannerRow) -> PlannerLine {
    .item(listID: row.listID, itemID: row.item.itemID, itemIndex: row.itemIndex)
  }

  /// Whether `needle` occurs in `haystack`.
  static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard !needle.isEmpty, needle.count <= haystack.count else { return needle.isEmpty }
    for start in 0...(haystack.count - needle.count)
    where haystack[start..<(start + needle.count)].elementsEqual(needle) {
      return true
    }
    return false
  }
}
