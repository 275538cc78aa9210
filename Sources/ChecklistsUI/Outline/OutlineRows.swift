import ChecklistsCore

/// The rows of a checklist shown in manual order with some parents folded: which items show,
/// how deep each is, and which have subtasks.
///
/// Folds are kept by `itemID`, so they survive edits that move items; the screen keeps the
/// `folded` set and makes the rows again (`init(list:folded:)`, one pass) when the list's
/// outline changed, or lets `follow(_:in:)` decide. Folding and unfolding one item change only
/// the rows of its subtree; folding or unfolding all is one pass.
///
/// A subtree is a run of deeper items after its root (a child follows its parent,
/// `Checklist.outline`), so everything is worked out from the depths alone.
public struct OutlineRows: Equatable, Sendable {
  /// One shown row: the item and how to draw its outline.
  public struct Row: Equatable, Sendable {
    /// The item's index in the list.
    public var index: Int
    /// 0 for a top-level item, 1 for its subtask…
    public var depth: Int
    /// Whether the item has subtasks (it gets a fold mark).
    public var hasChildren: Bool
    /// Whether its subtasks are hidden.
    public var isFolded: Bool
    /// How many items its fold hides (all its descendants), 0 when open.
    public var hiddenCount: Int
  }

  /// Each item's depth (`Checklist.depths`).
  public private(set) var depths: [Int]
  /// For each item, the end of its subtree: the index after its last descendant.
  private var subtreeEnds: [Int]
  /// Each item's `itemID`.
  private var itemIDs: [Int]
  /// The folded items' ids: only items with subtasks.
  public private(set) var folded: Set<Int>
  /// The shown items' indices, in list order.
  public private(set) var visible: [Int]

  /// The rows of `list` with the items whose ids are in `folded` folded (ids of items without
  /// subtasks, or not in the list, are dropped).
  public init(list: Checklist, folded: Set<Int> = []) {
    self.init(depths: list.depths(), itemIDs: list.items.map(\.itemID), folded: folded)
  }

  /// The rows of items with these depths and ids (see `init(list:folded:)`).
  public init(depths: [Int], itemIDs: [Int], folded: Set<Int> = []) {
    precondition(depths.count == itemIDs.count, "one depth and one id per item")
    self.depths = depths
    self.itemIDs = itemIDs
    hasSubtasks = depths.contains { $0 > 0 }
    // Each item's subtree ends where an item as shallow as it comes: one pass, with a stack of
    // the items whose ends are not known yet.
    var ends = [Int](repeating: depths.count, count: depths.count)
    var open: [Int] = []
    for index in depths.indices {
      while let last = open.last, depths[last] >= depths[index] {
        ends[last] = index
        open.removeLast()
      }
      open.append(index)
    }
    subtreeEnds = ends
    var kept = Set<Int>()
    if !folded.isEmpty {
      for index in depths.indices where ends[index] > index + 1 && folded.contains(itemIDs[index]) {
        kept.insert(itemIDs[index])
      }
    }
    self.folded = kept
    visible = []
    visible = shownRows(from: 0, to: depths.count)
  }

  /// How many items the list has.
  public var itemCount: Int { depths.count }

  /// Whether any item is hidden by a fold.
  public var hidesAny: Bool { visible.count != depths.count }

  /// What `Browser.rows` takes: the shown indices, or nil when every item shows.
  public var browserRows: [Int]? { hidesAny ? visible : nil }

  /// Whether the list has any subtask at all (nothing to fold or indent-draw otherwise); kept,
  /// so that drawing a frame does not look at every item.
  public private(set) var hasSubtasks: Bool

  /// The shown row `row` (an index into `visible`).
  public func row(_ row: Int) -> Row? {
    guard visible.indices.contains(row) else { return nil }
    return info(visible[row])
  }

  /// How the item at `index` is drawn, whether it shows or not.
  public func info(_ index: Int) -> Row {
    let children = subtreeEnds[index] > index + 1
    let isFolded = children && folded.contains(itemIDs[index])
    return Row(
      index: index, depth: depths[index], hasChildren: children, isFolded: isFolded,
      hiddenCount: isFolded ? subtreeEnds[index] - index - 1 : 0)
  }

  /// The row that shows the item at `index`, or nil when a fold hides it.
  public func row(ofIndex index: Int) -> Int? {
    let row = firstRow(atOrAfter: index)
    return row < visible.count && visible[row] == index ? row : nil
  }

  /// The row of the item at `index`, or of the folded ancestor that hides it: where the
  /// selection goes when a fold hides the selected item.
  public func row(showing index: Int) -> Int {
    max(firstRow(atOrAfter: index + 1) - 1, 0)
  }

  /// The index of the parent of the item at `index`, nil for a top-level item.
  public func parent(of index: Int) -> Int? {
    guard depths.indices.contains(index), depths[index] > 0 else { return nil }
    var up = index - 1
    while up >= 0, depths[up] >= depths[index] { up -= 1 }
    return up >= 0 ? up : nil
  }

  /// The end of the subtree of the item at `index` (the index after its last descendant).
  public func subtreeEnd(of index: Int) -> Int { subtreeEnds[index] }

  // MARK: - Folding

  /// Folds the item at `index` (hides its subtasks); whether anything changed (an item without
  /// subtasks, or one folded already, does not fold).
  @discardableResult
  public mutating func fold(_ index: Int) -> Bool {
    guard depths.indices.contains(index), subtreeEnds[index] > index + 1,
      folded.insert(itemIDs[index]).inserted
    else { return false }
    if let row = row(ofIndex: index) {
      let end = firstRow(atOrAfter: subtreeEnds[index])
      visible.removeSubrange((row + 1)..<end)
    }
    return true
  }

  /// Unfolds the item at `index` (shows its subtasks, those folded themselves staying folded);
  /// whether anything changed.
  @discardableResult
  public mutating func unfold(_ index: Int) -> Bool {
    guard depths.indices.contains(index), folded.remove(itemIDs[index]) != nil else {
      return false
    }
    if let row = row(ofIndex: index) {
      visible.insert(contentsOf: shownRows(from: index + 1, to: subtreeEnds[index]), at: row + 1)
    }
    return true
  }

  /// Folds an open parent, unfolds a folded one; whether anything changed.
  @discardableResult
  public mutating func toggle(_ index: Int) -> Bool {
    guard depths.indices.contains(index) else { return false }
    return folded.contains(itemIDs[index]) ? unfold(index) : fold(index)
  }

  /// Folds every parent: only top-level items show.
  public mutating func foldAll() {
    folded.removeAll(keepingCapacity: true)
    visible.removeAll(keepingCapacity: true)
    for index in depths.indices {
      if subtreeEnds[index] > index + 1 { folded.insert(itemIDs[index]) }
      if depths[index] == 0 { visible.append(index) }
    }
  }

  /// Unfolds every parent: every item shows.
  public mutating func unfoldAll() {
    folded.removeAll()
    visible = Array(depths.indices)
  }

  /// Unfolds the folded ancestors of the item at `index`, so that it shows (an item found by a
  /// search, one an undo brings back, a new subtask of a folded parent); whether anything
  /// changed.
  @discardableResult
  public mutating func reveal(_ index: Int) -> Bool {
    guard depths.indices.contains(index), row(ofIndex: index) == nil else { return false }
    var ancestors: [Int] = []
    var current = index
    while let up = parent(of: current) {
      ancestors.append(up)
      current = up
    }
    // From the top down, so that each unfold inserts into shown rows.
    for ancestor in ancestors.reversed() { unfold(ancestor) }
    return true
  }

  // MARK: - Following the list

  /// Brings the rows up to date after `change` made `list` what it is: an edit that keeps the
  /// item's parent (check, text, priority, tags) changes nothing and costs nothing; anything
  /// else makes the rows again, keeping the folds. Whether they were made again.
  @discardableResult
  public mutating func follow(_ change: ModelChange, in list: Checklist) -> Bool {
    if case .replaceItem(_, _, let old, let new) = change, old.itemID == new.itemID,
      old.parentItemID == new.parentItemID, list.items.count == itemCount
    {
      return false
    }
    if followFlat(change, in: list) { return true }
    self = OutlineRows(list: list, folded: folded)
    return true
  }

  /// A list without subtasks that stays so (a top-level item added, any item deleted): the
  /// rows shift without reading the list's outline (no lookup of every item's parent).
  private mutating func followFlat(_ change: ModelChange, in list: Checklist) -> Bool {
    guard !hasSubtasks else { return false }
    switch change {
    case .insertItem(_, let index, let item)
    where item.parentItemID == nil && index <= itemCount && list.items.count == itemCount + 1:
      depths.append(0)
      itemIDs.insert(item.itemID, at: index)
    case .deleteItem(_, let index, _)
    where index < itemCount && list.items.count == itemCount - 1:
      depths.removeLast()
      itemIDs.remove(at: index)
    default:
      return false
    }
    subtreeEnds = Array(1..<(depths.count + 1))
    visible = Array(depths.indices)
    return true
  }

  // MARK: - Private

  /// The first row whose index is `index` or more (`visible.count` when none).
  private func firstRow(atOrAfter index: Int) -> Int {
    var low = 0
    var high = visible.count
    while low < high {
      let mid = (low + high) / 2
      if visible[mid] < index { low = mid + 1 } else { high = mid }
    }
    return low
  }

  /// The shown indices among `start..<end` (a run of whole subtrees): a folded item shows and
  /// its subtree is skipped.
  private func shownRows(from start: Int, to end: Int) -> [Int] {
    var rows: [Int] = []
    rows.reserveCapacity(end - start)
    var index = start
    while index < end {
      rows.append(index)
      if !folded.isEmpty, subtreeEnds[index] > index + 1, folded.contains(itemIDs[index]) {
        index = subtreeEnds[index]
      } else {
        index += 1
      }
    }
    return rows
  }
}
