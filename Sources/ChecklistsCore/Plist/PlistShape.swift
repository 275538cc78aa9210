/// One level of a property list: a scalar, or a collection of child nodes not yet read.
///
/// Readers hand out shapes so a schema can walk a file without building the whole tree.
enum PlistShape<Node> {
  /// A string, number, boolean, date or data.
  case scalar(PlistValue)
  /// An array's elements.
  case array([Node])
  /// A dictionary's entries, in file order (a repeated key: the last one counts).
  case dictionary([(key: String, value: Node)])

  /// The kind with an article, for messages ("a string", "an array").
  var kindDescription: String {
    switch self {
    case .scalar(let value): return value.kindDescription
    case .array: return "an array"
    case .dictionary: return "a dictionary"
    }
  }
}

/// A parsed property list that can be walked shape by shape.
protocol PlistNodeSource: SendableMetatype {
  /// A reference to one value of the file.
  associatedtype Node
  /// The top-level value.
  var root: Node { get }
  /// The value's kind and, for collections, its children.
  func shape(of node: Node) throws(PlistError) -> PlistShape<Node>
  /// The whole value, children included.
  func value(of node: Node) throws(PlistError) -> PlistValue
  /// The item, when the reader already decoded this node as one (a fast path).
  func decodedItem(_ node: Node) -> ChecklistItem?
  /// The array's elements, when the reader already decoded every one of them as an item (a
  /// list's items, handed over without a copy of each).
  func decodedItems(_ node: Node) -> [ChecklistItem]?
  /// A copy with its own caches and limits, which another thread may read from while this one
  /// is in use; nil when the source is not worth reading from several threads.
  func independentCopy() -> Self?
  /// The most items the file may hold in all; nil when it cannot share one item or items
  /// array between places (only a binary file can).
  var itemLimit: Int? { get }
}

extension PlistNodeSource {
  /// No node comes decoded unless a source says so.
  func decodedItem(_ node: Node) -> ChecklistItem? { nil }
  /// No array comes decoded unless a source says so.
  func decodedItems(_ node: Node) -> [ChecklistItem]? { nil }
  /// Sources are read on one thread unless they say otherwise.
  func independentCopy() -> Self? { nil }
  /// Trees hold each item once.
  var itemLimit: Int? { nil }
}

/// A property list already in memory, as the XML reader builds it.
///
/// A checklist item in the usual form may arrive already decoded (see `XMLPlistReader`), and an
/// array of nothing but such items as one array of them; both still read as what they were
/// written as.
struct PlistTree: Sendable {
  private enum Storage {
    case node(PlistShape<PlistTree>)
    case item(ChecklistItem)
    case items([ChecklistItem])
  }

  private let storage: Storage

  /// A node of the given shape.
  init(shape: PlistShape<PlistTree>) { storage = .node(shape) }

  /// An item dictionary decoded by the reader.
  init(item: ChecklistItem) { storage = .item(item) }

  /// An array whose elements the reader all decoded as items.
  init(items: [ChecklistItem]) { storage = .items(items) }

  /// The item, when the reader decoded this dictionary as one.
  var item: ChecklistItem? {
    if case .item(let item) = storage { return item }
    return nil
  }

  /// The items, when the reader decoded this array's every element as one.
  var items: [ChecklistItem]? {
    if case .items(let items) = storage { return items }
    return nil
  }

  /// This node's kind and children.
  var shape: PlistShape<PlistTree> {
    switch storage {
    case .node(let shape): return shape
    case .items(let items): return .array(items.map { PlistTree(item: $0) })
    case .item(let item):
      return .dictionary(
        Self.fields(of: item).map { (key: $0.key, value: PlistTree(shape: .scalar($0.value))) })
    }
  }

  /// The five keys of an item as the file holds them.
  private static func fields(of item: ChecklistItem) -> [(key: String, value: PlistValue)] {
    [
      ("checked", .bool(item.checked)), ("dueDate", .date(item.dueDate)),
      ("itemID", .integer(Int64(item.itemID))), ("shouldRemind", .bool(item.shouldRemind)),
      ("text", .string(item.text)),
    ]
  }

  /// The value, converted recursively (depth is bounded by the reader).
  func value() -> PlistValue {
    switch shape {
    case .scalar(let value): return value
    case .array(let elements): return .array(elements.map { $0.value() })
    case .dictionary(let entries):
      var dictionary: [PlistKey: PlistValue] = [:]
      dictionary.reserveCapacity(entries.count)
      for entry in entries { dictionary[PlistKey(entry.key)] = entry.value.value() }
      return .dictionary(dictionary)
    }
  }
}

/// Walks a `PlistTree`.
struct PlistTreeSource: PlistNodeSource {
  let root: PlistTree

  func shape(of node: PlistTree) -> PlistShape<PlistTree> { node.shape }

  func value(of node: PlistTree) -> PlistValue { node.value() }

  func decodedItem(_ node: PlistTree) -> ChecklistItem? { node.item }

  func decodedItems(_ node: PlistTree) -> [ChecklistItem]? { node.items }
}

extension PlistShape: Sendable where Node: Sendable {}
