import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// One command's change to the lists, kept so that `checklists undo` can take it back in a
/// later process: what each item and list it touched was before and after. Items are found
/// again by their item ID, lists by their items and name (run-time list IDs do not outlive a
/// process).
public struct CommandChange: Equatable, Sendable {
  /// What the command did, for the message: `check "Milk" in Groceries`.
  public var summary: String
  /// Lists the command made, as they were made (with their items).
  public var addedLists: [Checklist]
  /// Lists the command deleted, with their items (lists are kept sorted by name: one comes
  /// back in its place).
  public var deletedLists: [Checklist]
  /// Lists renamed or given another icon: the list's item IDs (to find it), before and after.
  public var editedLists:
    [(itemIDs: [Int], before: ModelChange.ListInfo, after: ModelChange.ListInfo)]
  /// Items added, deleted, changed or moved: each as it was (nil: added) and as it is after
  /// (nil: deleted), with its list's name and position.
  public var items: [ItemVersions]

  /// An item before and after a command.
  public struct ItemVersions: Equatable, Sendable {
    /// The item's ID.
    public var itemID: Int
    /// The item before, where it was; nil when the command added it.
    public var before: Place?
    /// The item after, where it is; nil when the command deleted it.
    public var after: Place?
  }

  /// An item in its list: the list's name and the IDs of the items beside it (to find the list
  /// again), its index, the item.
  public struct Place: Equatable, Sendable {
    /// The list's name.
    public var listName: String
    /// Up to a few other item IDs of that list, to find it when it was renamed.
    public var neighbours: [Int]
    /// The item's index in the list.
    public var index: Int
    /// The item.
    public var item: ChecklistItem
  }

  public static func == (lhs: CommandChange, rhs: CommandChange) -> Bool {
    lhs.summary == rhs.summary && lhs.addedLists == rhs.addedLists
      && lhs.deletedLists == rhs.deletedLists
      && lhs.editedLists.map(\.itemIDs) == rhs.editedLists.map(\.itemIDs)
      && lhs.editedLists.map(\.before) == rhs.editedLists.map(\.before)
      && lhs.editedLists.map(\.after) == rhs.editedLists.map(\.after) && lhs.items == rhs.items
  }

  /// Whether the command changed nothing.
  public var isEmpty: Bool {
    addedLists.isEmpty && deletedLists.isEmpty && editedLists.isEmpty && items.isEmpty
  }

  /// What changed from `before` to `after` (the same lists by run-time ID, as one process
  /// holds them).
  public init(summary: String, from before: DataModel, to after: DataModel) {
    self.summary = summary
    let beforeIDs = Set(before.lists.map(\.id))
    let afterIDs = Set(after.lists.map(\.id))
    addedLists = after.lists.filter { !beforeIDs.contains($0.id) }
    deletedLists = before.lists.filter { !afterIDs.contains($0.id) }
    editedLists = []
    for list in after.lists {
      guard let old = before.list(withID: list.id),
        old.name != list.name || old.iconName != list.iconName
      else { continue }
      editedLists.append(
        (
          itemIDs: list.items.prefix(Self.neighbourCount).map(\.itemID),
          before: .init(name: old.name, iconName: old.iconName),
          after: .init(name: list.name, iconName: list.iconName)
        ))
    }
    func places(_ model: DataModel, skipping lists: Set<Checklist.ID>) -> [Int: (
      Checklist.ID, Place
    )] {
      var result: [Int: (Checklist.ID, Place)] = [:]
      for list in model.lists where !lists.contains(list.id) {
        for (index, item) in list.items.enumerated() {
          result[item.itemID] = (
            list.id,
            Place(listName: list.name, neighbours: [], index: index, item: item)
          )
        }
      }
      return result
    }
    // Items of lists made or deleted whole go with their list.
    let old = places(before, skipping: Set(deletedLists.map(\.id)))
    let new = places(after, skipping: Set(addedLists.map(\.id)))
    var changed: [ItemVersions] = []
    for itemID in Set(old.keys).union(new.keys).sorted() {
      let was = old[itemID]
      let now = new[itemID]
      if let was, let now, was.0 == now.0, was.1.item == now.1.item { continue }
      changed.append(
        ItemVersions(
          itemID: itemID,
          before: was.map { Self.withNeighbours($0.1, in: before, listID: $0.0) },
          after: now.map { Self.withNeighbours($0.1, in: after, listID: $0.0) }))
    }
    items = changed
  }

  /// Creates a change from its parts (as the log reads it).
  public init(
    summary: String, addedLists: [Checklist], deletedLists: [Checklist],
    editedLists: [(itemIDs: [Int], before: ModelChange.ListInfo, after: ModelChange.ListInfo)],
    items: [ItemVersions]
  ) {
    self.summary = summary
    self.addedLists = addedLists
    self.deletedLists = deletedLists
    self.editedLists = editedLists
    self.items = items
  }

  /// How many other item IDs a place keeps to find its list.
  static let neighbourCount = 8

  private static func withNeighbours(_ place: Place, in model: DataModel, listID: Checklist.ID)
    -> Place
  {
    var place = place
    if let list = model.list(withID: listID) {
      place.neighbours = Array(
        list.items.lazy.map(\.itemID).filter { $0 != place.item.itemID }.prefix(neighbourCount))
    }
    return place
  }

  /// Why a change cannot be undone in the lists as they are now: what of it was changed
  /// elsewhere since.
  public struct Refusal: Error, Equatable, Sendable {
    /// The reason, e.g. `"Milk" was changed since (elsewhere)`.
    public var reason: String
  }

  /// `model` with this change taken back, or why not: everything the change made must still
  /// be as it made it (an item edited, moved or deleted since elsewhere, a list renamed or given
  /// new items, refuses the whole undo; nothing is taken back in part).
  public func undone(in model: DataModel) throws(Refusal) -> DataModel {
    var result = model
    var locations: [Int: (list: Int, index: Int)] = [:]
    for (listIndex, list) in model.lists.enumerated() {
      for (index, item) in list.items.enumerated() { locations[item.itemID] = (listIndex, index) }
    }
    func quoted(_ text: String) -> String { "\"\(text)\"" }
    // Everything as the command left it?
    for version in items {
      let found = locations[version.itemID].map { model.lists[$0.list].items[$0.index] }
      if let after = version.after {
        guard let found, let place = locations[version.itemID] else {
          throw Refusal(reason: "\(quoted(after.item.text)) was deleted since (elsewhere)")
        }
        guard found == after.item else {
          throw Refusal(reason: "\(quoted(after.item.text)) was changed since (elsewhere)")
        }
        guard model.lists[place.list].name == after.listName else {
          throw Refusal(reason: "\(quoted(after.item.text)) was moved since (elsewhere)")
        }
      } else if let found {
        throw Refusal(reason: "\(quoted(found.text)) is there again (put back elsewhere)")
      }
    }
    for list in addedLists {
      guard model.lists.contains(where: { $0 == list }) else {
        throw Refusal(reason: "the list \(quoted(list.name)) was changed since (elsewhere)")
      }
    }
    for list in deletedLists {
      if let item = list.items.first(where: { locations[$0.itemID] != nil }) {
        throw Refusal(reason: "\(quoted(item.text)) is there again (put back elsewhere)")
      }
    }
    // Where every item is now, by list ID (IDs stay while lists are renamed and re-sorted).
    var listOf: [Int: Checklist.ID] = [:]
    for list in model.lists { for item in list.items { listOf[item.itemID] = list.id } }
    var editedTargets: [(Checklist.ID, ModelChange.ListInfo)] = []
    for edit in editedLists {
      guard
        let list = Self.list(
          named: edit.after.name, neighbours: edit.itemIDs, listOf: listOf, in: model),
        list.name == edit.after.name, list.iconName == edit.after.iconName
      else {
        throw Refusal(reason: "the list \(quoted(edit.after.name)) was changed since (elsewhere)")
      }
      editedTargets.append((list.id, edit.before))
    }
    // Take it back: list names first (items find their lists by the names they had).
    for (id, info) in editedTargets {
      if let change = result.editList(id: id, name: info.name, iconName: info.iconName) {
        _ = result.apply(change)
      }
    }
    // Items the command changed in place go back; the ones it added or moved go, and the ones
    // it deleted or moved come back, each list's in one pass (a clear of 100,000 items too).
    var deletions: [Checklist.ID: [(index: Int, item: ChecklistItem)]] = [:]
    var comingBack: [Checklist.ID: [Place]] = [:]
    for version in items {
      let home = version.before.flatMap {
        Self.list(named: $0.listName, neighbours: $0.neighbours, listOf: listOf, in: result)
      }
      if version.after != nil, let listID = listOf[version.itemID],
        let list = result.list(withID: listID),
        let index = list.index(
          ofItemID: version.itemID, near: locations[version.itemID]?.index ?? 0)
      {
        if let before = version.before, home?.id == listID {
          if let change = result.replaceItem(listID: listID, at: index, with: before.item) {
            _ = result.apply(change)
          }
          continue
        }
        deletions[listID, default: []].append((index, list.items[index]))
      }
      guard let before = version.before else { continue }
      guard let home else {
        throw Refusal(reason: "the list \(quoted(before.listName)) was deleted since (elsewhere)")
      }
      comingBack[home.id, default: []].append(before)
    }
    for (listID, taken) in deletions {
      let changes = taken.sorted { $0.index > $1.index }.map {
        ModelChange.deleteItem(listID: listID, index: $0.index, item: $0.item)
      }
      _ = result.apply(CompoundChange(kind: .clearChecked, changes: changes))
    }
    for (listID, places) in comingBack {
      guard let count = result.list(withID: listID)?.items.count else { continue }
      var changes: [ModelChange] = []
      for place in places.sorted(by: { $0.index < $1.index }) {
        let at = min(place.index, count + changes.count)
        changes.append(.insertItem(listID: listID, index: at, item: place.item))
      }
      _ = result.apply(CompoundChange(kind: .clearChecked, changes: changes, isInverse: true))
    }
    for list in addedLists {
      if let found = result.lists.first(where: { $0 == list }),
        let change = result.deleteList(id: found.id)
      {
        _ = result.apply(change)
      }
    }
    for list in deletedLists {
      var restored = result.makeList(name: list.name, iconName: list.iconName)
      restored.unknownFields = list.unknownFields
      restored.setItems(list.items)
      _ = result.apply(result.insertList(restored))
    }
    return result
  }

  /// The list a place was in (or a renamed list's): the one holding most of its neighbours,
  /// else the first of that name.
  private static func list(
    named name: String, neighbours: [Int], listOf: [Int: Checklist.ID], in model: DataModel
  ) -> Checklist? {
    var votes: [Checklist.ID: Int] = [:]
    for neighbour in neighbours {
      if let listID = listOf[neighbour] { votes[listID, default: 0] += 1 }
    }
    if let (listID, _) = votes.max(by: {
      $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key)
    }),
      let list = model.list(withID: listID)
    {
      return list
    }
    return model.lists.first { $0.name == name }
  }
}
