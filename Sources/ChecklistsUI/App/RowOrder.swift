import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The order a checklist's rows are shown in (manual or by due date, then filtered), computed
/// once and then kept up to date change by change without sorting or filtering again.
enum RowOrder {
  /// The shown order: `dueOrder` (nil in manual order) and the filtered `rows` (nil when every
  /// item shows in manual order).
  struct Order: Equatable {
    var dueOrder: [Int]?
    var rows: [Int]?
  }

  /// Whether item `lhs` is shown before item `rhs`: by due date, items with a due date
  /// (`showsDueDate`) come first by due date, then the others; items due at the same time, and
  /// those without a due date, go by priority (high first, none last); the rest, and manual
  /// order, by position.
  static func precedes(_ lhs: Int, _ rhs: Int, items: [ChecklistItem], byDue: Bool) -> Bool {
    guard byDue else { return lhs < rhs }
    let left = items[lhs]
    let right = items[rhs]
    if left.showsDueDate != right.showsDueDate { return left.showsDueDate }
    if left.showsDueDate && left.dueDate != right.dueDate { return left.dueDate < right.dueDate }
    let leftLevel = left.priorityLevel
    let rightLevel = right.priorityLevel
    if leftLevel != rightLevel { return leftLevel > rightLevel }
    return lhs < rhs
  }

  /// Whether an item's text or note contains the filter, ignoring case and accents (as search
  /// does).
  static func matches(_ item: ChecklistItem, filter: String) -> Bool {
    var matcher = FoldedMatcher(filter)
    return matches(item, &matcher)
  }

  /// `matches(_:filter:)` with the filter folded once for many items.
  static func matches(_ item: ChecklistItem, _ matcher: inout FoldedMatcher) -> Bool {
    if matcher.matches(item.text) { return true }
    let note = item.note
    return !note.isEmpty && matcher.matches(note)
  }

  /// Computes the order from scratch: O(n log n) by due date, O(n) to filter.
  static func compute(items: [ChecklistItem], byDue: Bool, filter: String?) -> Order {
    var dueOrder: [Int]?
    if byDue {
      var dated: [Int] = []
      // The items without a due date by priority, high first (in position order each): O(n).
      var others: [[Int]] = Array(repeating: [], count: PriorityLevel.allCases.count)
      for index in items.indices {
        if items[index].showsDueDate {
          dated.append(index)
        } else {
          others[priorityBucket(items[index].priorityLevel)].append(index)
        }
      }
      dated.sort { precedes($0, $1, items: items, byDue: true) }
      dueOrder = dated + others.joined()
    }
    guard let filter else { return Order(dueOrder: dueOrder, rows: dueOrder) }
    var rows: [Int] = []
    var matcher = FoldedMatcher(filter)
    if let dueOrder {
      for index in dueOrder where matches(items[index], &matcher) { rows.append(index) }
    } else {
      for index in items.indices where matches(items[index], &matcher) { rows.append(index) }
    }
    return Order(dueOrder: dueOrder, rows: rows)
  }

  /// Follows one item change (already applied to `items`) without sorting or filtering again;
  /// nil when the order must be computed from scratch (moves).
  static func update(
    _ order: Order, filter: String?, change: ModelChange, items: [ChecklistItem]
  ) -> Order? {
    let byDue = order.dueOrder != nil
    var dueOrder = order.dueOrder
    var rows = order.rows
    switch change {
    case .deleteItem(_, let index, _):
      dueOrder = dueOrder.map { shiftedDown($0, removing: index) }
      rows = filter == nil ? dueOrder : rows.map { shiftedDown($0, removing: index) }
    case .insertItem(_, let index, let item):
      if var due = dueOrder {
        shiftUp(&due, from: index)
        insertSorted(&due, index, items: items, byDue: true)
        dueOrder = due
      }
      if let filter {
        guard var shown = rows else { return nil }
        shiftUp(&shown, from: index)
        if matches(item, filter: filter) { insertSorted(&shown, index, items: items, byDue: byDue) }
        rows = shown
      } else {
        rows = dueOrder
      }
    case .replaceItem(_, let index, let old, let new):
      let moves =
        byDue
        && (old.showsDueDate != new.showsDueDate || old.dueDate != new.dueDate
          || old.priorityLevel != new.priorityLevel)
      if moves, var due = dueOrder {
        if let position = due.firstIndex(of: index) { due.remove(at: position) }
        insertSorted(&due, index, items: items, byDue: true)
        dueOrder = due
      }
      if let filter {
        guard var shown = rows else { return nil }
        if moves || old.text != new.text {
          if let position = shown.firstIndex(of: index) { shown.remove(at: position) }
          if matches(new, filter: filter) {
            insertSorted(&shown, index, items: items, byDue: byDue)
          }
        }
        rows = shown
      } else {
        rows = dueOrder
      }
    case .moveItem, .insertList, .deleteList, .editList:
      return nil
    }
    return Order(dueOrder: dueOrder, rows: rows)
  }

  /// The place of a priority level in the order by due date: high 0, medium 1, low 2, none 3.
  private static func priorityBucket(_ level: PriorityLevel) -> Int {
    switch level {
    case .high: 0
    case .medium: 1
    case .low: 2
    case .none: 3
    }
  }

  private static func shiftedDown(_ indices: [Int], removing removed: Int) -> [Int] {
    var result: [Int] = []
    result.reserveCapacity(indices.count)
    for index in indices where index != removed {
      result.append(index > removed ? index - 1 : index)
    }
    return result
  }

  private static func shiftUp(_ indices: inout [Int], from inserted: Int) {
    for position in indices.indices where indices[position] >= inserted {
      indices[position] += 1
    }
  }

  private static func insertSorted(
    _ indices: inout [Int], _ index: Int, items: [ChecklistItem], byDue: Bool
  ) {
    var low = 0
    var high = indices.count
    while low < high {
      let mid = (low + high) / 2
      if precedes(indices[mid], index, items: items, byDue: byDue) {
        low = mid + 1
      } else {
        high = mid
      }
    }
    indices.insert(index, at: low)
  }
}
