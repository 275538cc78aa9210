import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// All the user's checklists, kept sorted by name the way the app sorts them.
///
/// Every edit is a `ModelChange`: `apply` performs it and returns whether it applied, so the UI
/// can keep the change (and its inverse) for undo and redo.
public struct DataModel: Equatable, Sendable {
  /// The lists, sorted by `NaturalOrder` of their names.
  public internal(set) var lists: [Checklist]
  /// The identifier the next new item gets (the app's `ChecklistItemID`).
  public internal(set) var nextItemID: Int
  private var nextListID: Checklist.ID
  /// The IDs `makeItem` gives once `nextItemID` has reached Int.max; made at the first need,
  /// and told of every item added after (IDs handed out are never given again).
  private var spareItemIDs: UnusedItemIDs?

  /// Creates a model from lists in any order; ids are assigned and the lists sorted.
  ///
  /// `nextItemID` is raised above every item id in the lists, so new items never collide.
  public init(lists: [Checklist] = [], nextItemID: Int = 0) {
    var numbered: [Checklist] = []
    numbered.reserveCapacity(lists.count)
    var maxItemID = -1
    for (offset, list) in lists.enumerated() {
      var list = list
      list.id = offset + 1
      maxItemID = max(maxItemID, Self.maximumItemID(of: list))
      numbered.append(list)
    }
    self.nextListID = lists.count + 1
    self.nextItemID = max(nextItemID, maxItemID == Int.max ? maxItemID : maxItemID + 1)
    self.lists = numbered
    self.lists.sort { NaturalOrder.areInIncreasingOrder($0.name, $1.name) }
  }

  /// A model of lists that already carry their ids (a merge's result); sorted like the others.
  init(listsKeepingIDs lists: [Checklist], nextItemID: Int, nextListID: Checklist.ID) {
    var maxItemID = -1
    var maxListID = 0
    for list in lists {
      maxListID = max(maxListID, list.id)
      maxItemID = max(maxItemID, Self.maximumItemID(of: list))
    }
    self.nextListID = max(nextListID, maxListID + 1)
    self.nextItemID = max(nextItemID, maxItemID == Int.max ? maxItemID : maxItemID + 1)
    self.lists = lists
    self.lists.sort { NaturalOrder.areInIncreasingOrder($0.name, $1.name) }
  }

  /// Whether the lists alone give `nextItemID` back: it is one past their largest item ID (or 0
  /// without items), as a model read from them with no remembered next ID has it.
  public var listsGiveNextItemID: Bool {
    var largest = -1
    for list in lists { largest = max(largest, Self.maximumItemID(of: list)) }
    return nextItemID == (largest == Int.max ? largest : largest + 1)
  }

  /// The largest item ID in `list`, or -1; read in place (a copy of each item would retain and
  /// release its text).
  private static func maximumItemID(of list: Checklist) -> Int {
    list.items.withUnsafeBufferPointer { items in
      var largest = -1
      for index in items.indices where items[index].itemID > largest {
        largest = items[index].itemID
      }
      return largest
    }
  }

  /// The run-time id the next new list gets.
  var nextListIDValue: Checklist.ID { nextListID }

  /// Models are equal when their lists' contents are.
  public static func == (lhs: DataModel, rhs: DataModel) -> Bool {
    lhs.lists == rhs.lists
  }

  /// The index of the list with `id`, if it is in the model.
  public func index(ofList id: Checklist.ID) -> Int? {
    lists.firstIndex { $0.id == id }
  }

  /// The list with `id`, if it is in the model.
  public func list(withID id: Checklist.ID) -> Checklist? {
    index(ofList: id).map { lists[$0] }
  }

  /// The total number of items in all lists.
  public var itemCount: Int { lists.reduce(0) { $0 + $1.items.count } }

  // MARK: - Making changes

  /// A new list with a fresh id, not yet in the model: pass it to `insertList`.
  public mutating func makeList(name: String, iconName: String = IconName.noIcon.rawValue)
    -> Checklist
  {
    defer { nextListID += 1 }
    return Checklist(name: name, iconName: iconName, id: nextListID)
  }

  /// A new item with the next item id (the app's `nextChecklistItemID`); once that has reached
  /// the largest ID there is (a damaged file holds it), the smallest ID no item has.
  public mutating func makeItem(
    text: String,
    checked: Bool = false,
    dueDate: Date = Date(),
    shouldRemind: Bool = false,
    hasDueDate: Bool = false
  ) -> ChecklistItem {
    let id: Int
    if nextItemID < Int.max {
      id = nextItemID
      nextItemID += 1
    } else {
      // Every new item took Int.max, the same ID as the item that brought it there.
      var spare = spareItemIDs ?? UnusedItemIDs(inUse: UnusedItemIDs.inUse(by: lists))
      id = spare.take()
      spareItemIDs = spare
    }
    return ChecklistItem(
      text: text, checked: checked, dueDate: dueDate, shouldRemind: shouldRemind,
      hasDueDate: hasDueDate, itemID: id)
  }

  /// The change that adds `list` (from `makeList`).
  public func insertList(_ list: Checklist) -> ModelChange { .insertList(list) }

  /// The change that deletes the list with `id`, or nil when there is none.
  public func deleteList(id: Checklist.ID) -> ModelChange? {
    list(withID: id).map { .deleteList($0) }
  }

  /// The change that renames and re-icons the list with `id`, or nil when nothing changes.
  public func editList(id: Checklist.ID, name: String, iconName: String) -> ModelChange? {
    guard let list = list(withID: id) else { return nil }
    let old = ModelChange.ListInfo(name: list.name, iconName: list.iconName)
    let new = ModelChange.ListInfo(name: name, iconName: iconName)
    return old == new ? nil : .editList(id: id, old: old, new: new)
  }

  /// The change that adds `item` to a list at `index` (the end when nil).
  public func insertItem(_ item: ChecklistItem, listID: Checklist.ID, at index: Int? = nil)
    -> ModelChange?
  {
    guard let list = list(withID: listID) else { return nil }
    let position = min(max(index ?? list.items.count, 0), list.items.count)
    return .insertItem(listID: listID, index: position, item: item)
  }

  /// The change that deletes the item at `index` of a list.
  public func deleteItem(listID: Checklist.ID, at index: Int) -> ModelChange? {
    guard let list = list(withID: listID), list.items.indices.contains(index) else { return nil }
    return .deleteItem(listID: listID, index: index, item: list.items[index])
  }

  /// The change that replaces the item at `index` of a list, or nil when nothing changes.
  public func replaceItem(listID: Checklist.ID, at index: Int, with item: ChecklistItem)
    -> ModelChange?
  {
    guard let list = list(withID: listID), list.items.indices.contains(index) else { return nil }
    let old = list.items[index]
    return old == item ? nil : .replaceItem(listID: listID, index: index, old: old, new: item)
  }

  /// The change that flips the checked state of the item at `index` of a list.
  public func toggleItem(listID: Checklist.ID, at index: Int) -> ModelChange? {
    guard let list = list(withID: listID), list.items.indices.contains(index) else { return nil }
    var item = list.items[index]
    item.checked.toggle()
    return .replaceItem(listID: listID, index: index, old: list.items[index], new: item)
  }

  /// The change that moves an item from `from` to `to` within a list.
  public func moveItem(listID: Checklist.ID, from: Int, to: Int) -> ModelChange? {
    guard let list = list(withID: listID), from != to, list.items.indices.contains(from),
      list.items.indices.contains(to)
    else { return nil }
    return .moveItem(listID: listID, itemID: list.items[from].itemID, from: from, to: to)
  }

  // MARK: - Applying changes

  /// Applies a change; returns false (and changes nothing) when it does not fit the model.
  @discardableResult
  public mutating func apply(_ change: ModelChange) -> Bool {
    switch change {
    case .insertList(let list):
      guard index(ofList: list.id) == nil else { return false }
      lists.insert(list, at: sortedPosition(for: list.name))
      nextListID = max(nextListID, list.id + 1)
      for item in list.items where item.itemID >= nextItemID && item.itemID < Int.max {
        nextItemID = item.itemID + 1
      }
      if spareItemIDs != nil { for item in list.items { spareItemIDs?.note(item.itemID) } }
    case .deleteList(let list):
      guard let index = index(ofList: list.id) else { return false }
      lists.remove(at: index)
    case .editList(let id, _, let new):
      guard let index = index(ofList: id) else { return false }
      var list = lists.remove(at: index)
      list.name = new.name
      list.iconName = new.iconName
      lists.insert(list, at: sortedPosition(for: list.name))
    case .insertItem(let listID, let position, let item):
      guard let index = index(ofList: listID), position >= 0 else { return false }
      lists[index].insertItem(item, at: min(position, lists[index].items.count))
      if item.itemID >= nextItemID && item.itemID < Int.max { nextItemID = item.itemID + 1 }
      spareItemIDs?.note(item.itemID)
    case .deleteItem(let listID, let position, let item):
      // The item is found by its id when changes made elsewhere moved it.
      guard let index = index(ofList: listID),
        let at = lists[index].index(ofItemID: item.itemID, near: position)
      else { return false }
      lists[index].removeItem(at: at)
    case .replaceItem(let listID, let position, let old, let new):
      guard let index = index(ofList: listID),
        let at = lists[index].index(ofItemID: old.itemID, near: position)
      else { return false }
      lists[index].replaceItem(at: at, with: new)
      spareItemIDs?.note(new.itemID)
    case .moveItem(let listID, let itemID, let from, let to):
      guard let index = index(ofList: listID),
        let at = lists[index].index(ofItemID: itemID, near: from),
        lists[index].items.indices.contains(to)
      else { return false }
      lists[index].moveItem(from: at, to: to)
    }
    return true
  }

  /// Where a list named `name` goes so that the lists stay sorted (after equal names).
  private func sortedPosition(for name: String) -> Int {
    var low = 0
    var high = lists.count
    while low < high {
      let mid = (low + high) / 2
      if NaturalOrder.areInIncreasingOrder(name, lists[mid].name) {
        high = mid
      } else {
        low = mid + 1
      }
    }
    return low
  }
}
