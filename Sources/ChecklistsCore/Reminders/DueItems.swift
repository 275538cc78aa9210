import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// An item that is due, with where it lives: a row of `checklists due`.
public struct DueItem: Equatable, Sendable {
  /// The name of the item's list.
  public var listName: String
  /// The list's index in `DataModel.lists`.
  public var listIndex: Int
  /// The item's index in its list.
  public var itemIndex: Int
  /// The item.
  public var item: ChecklistItem

  /// Creates a due item.
  public init(listName: String, listIndex: Int, itemIndex: Int, item: ChecklistItem) {
    self.listName = listName
    self.listIndex = listIndex
    self.itemIndex = itemIndex
    self.item = item
  }
}

/// Finds due items for the `due` command.
public enum DueItems {
  /// The unchecked items with a due date (`showsDueDate`) due at or before `now + within`,
  /// oldest first (ties in list and item order). Scans every item once.
  public static func query(_ model: DataModel, now: Date, within: TimeInterval = 0) -> [DueItem] {
    let limit = now.addingTimeInterval(max(within, 0))
    var found: [DueItem] = []
    for (listIndex, list) in model.lists.enumerated() {
      for (itemIndex, item) in list.items.enumerated()
      where !item.checked && item.showsDueDate && item.dueDate <= limit {
        found.append(
          DueItem(listName: list.name, listIndex: listIndex, itemIndex: itemIndex, item: item))
      }
    }
    return found.sorted {
      ($0.item.dueDate, $0.listIndex, $0.itemIndex) < ($1.item.dueDate, $1.listIndex, $1.itemIndex)
    }
  }

  /// The unchecked items with Remind Me on whose reminder time (due date less lead time) has
  /// come by `now`, or whose due date is at or before `now + within`: what `due --notify`
  /// sends. Oldest reminder time first (ties in list and item order).
  public static func reminding(_ model: DataModel, now: Date, within: TimeInterval = 0)
    -> [DueItem]
  {
    let limit = now.addingTimeInterval(max(within, 0))
    var found: [(DueItem, Date)] = []
    for (listIndex, list) in model.lists.enumerated() {
      for (itemIndex, item) in list.items.enumerated()
      where item.hasArmedReminder && (item.reminderDate <= now || item.dueDate <= limit) {
        let due = DueItem(
          listName: list.name, listIndex: listIndex, itemIndex: itemIndex, item: item)
        found.append((due, item.reminderDate))
      }
    }
    return found.sorted {
      ($0.1, $0.0.listIndex, $0.0.itemIndex) < ($1.1, $1.0.listIndex, $1.0.itemIndex)
    }.map(\.0)
  }
}
