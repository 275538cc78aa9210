import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// A named list of items, as the iPhone app's `Checklist`.
///
/// `items` changes only through the methods here, so `uncheckedCount` stays right without
/// counting the items again.
public struct Checklist: Sendable {
  /// Identity for this run only (selection, undo); never written to the file.
  public typealias ID = Int

  /// This list's identity for the run; assigned by `DataModel`.
  public internal(set) var id: ID
  /// The list's name, shown on All Lists.
  public var name: String
  /// The icon's name; usually one of `IconName`, but any string from the file is kept.
  public var iconName: String
  /// The items, in the user's order.
  public private(set) var items: [ChecklistItem]
  /// How many items are not checked yet.
  public private(set) var uncheckedCount: Int
  /// Keys a newer app wrote that this version does not know; written back unchanged.
  public var unknownFields: [PlistKey: PlistValue]

  /// Creates a list; `id` is replaced when the list is added to a `DataModel`.
  public init(
    name: String,
    iconName: String = IconName.noIcon.rawValue,
    items: [ChecklistItem] = [],
    unknownFields: [PlistKey: PlistValue] = [:],
    id: ID = 0
  ) {
    self.id = id
    self.name = name
    self.iconName = iconName
    self.items = items
    self.uncheckedCount = Self.unchecked(in: items)
    self.unknownFields = unknownFields
  }

  /// The app's subtitle on All Lists: "(No Items)", "All Done!" or "N Remaining".
  public var subtitle: String {
    if items.isEmpty { return "(No Items)" }
    if uncheckedCount == 0 { return "All Done!" }
    return "\(uncheckedCount) Remaining"
  }

  /// Inserts an item at `index` (the end when nil).
  public mutating func insertItem(_ item: ChecklistItem, at index: Int? = nil) {
    items.insert(item, at: index ?? items.count)
    if !item.checked { uncheckedCount += 1 }
  }

  /// Removes and returns the item at `index`.
  @discardableResult
  public mutating func removeItem(at index: Int) -> ChecklistItem {
    let item = items.remove(at: index)
    if !item.checked { uncheckedCount -= 1 }
    return item
  }

  /// Replaces the item at `index`.
  public mutating func replaceItem(at index: Int, with item: ChecklistItem) {
    let old = items[index]
    items[index] = item
    uncheckedCount += (item.checked ? 0 : 1) - (old.checked ? 0 : 1)
  }

  /// Replaces all items at once (a merge's result).
  public mutating func setItems(_ newItems: [ChecklistItem]) {
    items = newItems
    uncheckedCount = Self.unchecked(in: newItems)
  }

  /// How many of `items` are not checked; read in place (a copy of each item would retain and
  /// release its text: 100,000 items took milliseconds of a start).
  private static func unchecked(in items: [ChecklistItem]) -> Int {
    items.withUnsafeBufferPointer { items in
      var count = 0
      for index in items.indices where !items[index].checked { count += 1 }
      return count
    }
  }

  /// The index of the item with `itemID`, looking at `hint` first.
  public func index(ofItemID itemID: Int, near hint: Int) -> Int? {
    if items.indices.contains(hint) && items[hint].itemID == itemID { return hint }
    return items.firstIndex { $0.itemID == itemID }
  }

  /// Moves the item at `from` so that it ends up at index `to`.
  public mutating func moveItem(from: Int, to: Int) {
    guard from != to else { return }
    let item = items.remove(at: from)
    items.insert(item, at: to)
  }
}

extension Checklist: Equatable {
  /// Lists are equal when their content is; the run-time `id` does not count.
  public static func == (lhs: Checklist, rhs: Checklist) -> Bool {
    lhs.name == rhs.name && lhs.iconName == rhs.iconName && lhs.items == rhs.items
      && lhs.unknownFields == rhs.unknownFields
  }
}

extension Checklist: Codable {
  enum CodingKeys: String, CodingKey {
    case name, iconName, items
  }

  /// Decodes the three known keys; unknown keys are kept only by the fast codec.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      name: try container.decode(String.self, forKey: .name),
      iconName: try container.decode(String.self, forKey: .iconName),
      items: try container.decode([ChecklistItem].self, forKey: .items)
    )
  }

  /// Encodes the three known keys, as the app does.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(name, forKey: .name)
    try container.encode(iconName, forKey: .iconName)
    try container.encode(items, forKey: .items)
  }
}
