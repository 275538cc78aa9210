import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Where in the file a value is, turned into words only when there is an error.
struct FileLocation {
  /// The list's 1-based number.
  var list: Int
  /// The list's name, once read.
  var listName: String?
  /// The item's 1-based number, for values inside an item.
  var item: Int?

  /// "list 2 (\"Groceries\"), item 3".
  var description: String {
    var text = "list \(list)"
    if let listName { text += " (\(ChecklistsSchemaDecoder<PlistTreeSource>.quoted(listName)))" }
    if let item { text += ", item \(item)" }
    return text
  }

  /// The description followed by ": ", to put before a key's message.
  var prefix: String { description + ": " }
}

/// Reads checklists out of any `PlistNodeSource`, reporting problems with their key path.
///
/// Known keys go into the model's fields; any other key is kept in `unknownFields`.
struct ChecklistsSchemaDecoder<Source: PlistNodeSource> {
  let source: Source

  /// The lists of the file, in file order.
  ///
  /// A big file whose source can be read from several threads has its items decoded on all
  /// cores (see `ConcurrentItemDecoding`); the result, and any error, is the same as reading
  /// it in order.
  func decode() throws(FileFormatError) -> [Checklist] {
    if let lists = ConcurrentItemDecoding(decoder: self).lists() { return lists }
    return try decodeInOrder()
  }

  /// The lists, read one value after another on this thread.
  func decodeInOrder() throws(FileFormatError) -> [Checklist] {
    let listNodes = try topLevelLists()
    var lists: [Checklist] = []
    lists.reserveCapacity(listNodes.count)
    var itemTotal = 0
    for (index, node) in listNodes.enumerated() {
      let parts = try listParts(node, number: index + 1)
      itemTotal += parts.itemCount
      try checkItemTotal(itemTotal)
      lists.append(parts.checklist(items: try items(of: parts)))
    }
    return lists
  }

  /// A list's items, read in order.
  func items(of parts: ListParts) throws(FileFormatError) -> [ChecklistItem] {
    if let decoded = parts.decodedItems { return decoded }
    var path = parts.path
    var items: [ChecklistItem] = []
    items.reserveCapacity(parts.itemNodes.count)
    for (index, itemNode) in parts.itemNodes.enumerated() {
      path.item = index + 1
      items.append(try item(itemNode, at: path))
    }
    return items
  }

  /// Refuses a file whose lists add up to more items than the source allows.
  func checkItemTotal(_ total: Int) throws(FileFormatError) {
    if let limit = source.itemLimit, total > limit {
      throw FileFormatError("binary property list expands to too many values")
    }
  }

  /// The top-level array's elements.
  func topLevelLists() throws(FileFormatError) -> [Source.Node] {
    let top: PlistShape<Source.Node>
    do {
      top = try source.shape(of: source.root)
    } catch {
      throw FileFormatError(error.message)
    }
    guard case .array(let listNodes) = top else {
      throw FileFormatError(
        "the top level should be an array of checklists but is \(top.kindDescription)")
    }
    return listNodes
  }

  /// A list read up to its items: its fields, and its items' nodes not yet read.
  struct ListParts {
    var path: FileLocation
    var name: String
    var iconName: String
    var unknown: [PlistKey: PlistValue]
    /// The items' nodes, empty when the source handed them over decoded.
    var itemNodes: [Source.Node]
    /// The items, when the source already decoded every one (`decodedItems`).
    var decodedItems: [ChecklistItem]?

    /// How many items the list has.
    var itemCount: Int { decodedItems?.count ?? itemNodes.count }

    /// The list with `items`.
    func checklist(items: [ChecklistItem]) -> Checklist {
      Checklist(name: name, iconName: iconName, items: items, unknownFields: unknown)
    }
  }

  /// The list at `node` (the `number`th, 1-based) up to its items.
  func listParts(_ node: Source.Node, number: Int) throws(FileFormatError) -> ListParts {
    var path = FileLocation(list: number)
    let listShape = try shape(node, at: path)
    guard case .dictionary(let entries) = listShape else {
      throw FileFormatError(
        "\(path.description) should be a dictionary but is \(listShape.kindDescription)")
    }
    var nameNode: Source.Node?
    var iconNode: Source.Node?
    var itemsNode: Source.Node?
    var unknown: [PlistKey: PlistValue] = [:]
    for entry in entries {
      switch PlistKey(entry.key) {
      case "name": nameNode = entry.value
      case "iconName": iconNode = entry.value
      case "items": itemsNode = entry.value
      default: unknown[PlistKey(entry.key)] = try value(entry.value, at: path)
      }
    }
    let name = try string(nameNode, key: "name", at: path)
    path.listName = name
    let iconName = try string(iconNode, key: "iconName", at: path)
    guard let itemsNode else { throw FileFormatError(path.prefix + "\"items\" is missing") }
    if let decoded = source.decodedItems(itemsNode) {
      return ListParts(
        path: path, name: name, iconName: iconName, unknown: unknown, itemNodes: [],
        decodedItems: decoded)
    }
    let itemsShape = try shape(itemsNode, at: path)
    guard case .array(let itemNodes) = itemsShape else {
      throw FileFormatError(
        path.prefix + "\"items\" should be an array but is \(itemsShape.kindDescription)")
    }
    return ListParts(
      path: path, name: name, iconName: iconName, unknown: unknown, itemNodes: itemNodes,
      decodedItems: nil)
  }

  /// The item at `node`; `path` names it in errors.
  func item(_ node: Source.Node, at path: FileLocation) throws(FileFormatError)
    -> ChecklistItem
  {
    if let item = source.decodedItem(node) { return item }
    let itemShape = try shape(node, at: path)
    guard case .dictionary(let entries) = itemShape else {
      throw FileFormatError(
        "\(path.description) should be a dictionary but is \(itemShape.kindDescription)")
    }
    var textNode: Source.Node?
    var checkedNode: Source.Node?
    var dueNode: Source.Node?
    var remindNode: Source.Node?
    var idNode: Source.Node?
    var datedNode: Source.Node?
    var unknown: [PlistKey: PlistValue] = [:]
    for entry in entries {
      switch PlistKey(entry.key) {
      case "text": textNode = entry.value
      case "hasDueDate": datedNode = entry.value
      case "checked": checkedNode = entry.value
      case "dueDate": dueNode = entry.value
      case "shouldRemind": remindNode = entry.value
      case "itemID": idNode = entry.value
      default: unknown[PlistKey(entry.key)] = try value(entry.value, at: path)
      }
    }
    let text = try string(textNode, key: "text", at: path)
    let checked = try bool(checkedNode, key: "checked", at: path)
    let dueDate = try date(dueNode, key: "dueDate", at: path)
    let shouldRemind = try bool(remindNode, key: "shouldRemind", at: path)
    let itemID = try integer(idNode, key: "itemID", at: path)
    // Our own key: files from the iPhone app do not have it (no due date given).
    let hasDueDate = datedNode == nil ? false : try bool(datedNode, key: "hasDueDate", at: path)
    return ChecklistItem(
      text: text, checked: checked, dueDate: dueDate, shouldRemind: shouldRemind,
      hasDueDate: hasDueDate, itemID: itemID, unknownFields: unknown)
  }

  // MARK: - Fields

  private func scalar(_ node: Source.Node?, key: String, at path: FileLocation, expected: String)
    throws(FileFormatError) -> PlistValue
  {
    guard let node else { throw FileFormatError(path.prefix + "\"\(key)\" is missing") }
    let found = try shape(node, at: path)
    guard case .scalar(let value) = found else {
      throw FileFormatError(
        path.prefix + "\"\(key)\" should be \(expected) but is \(found.kindDescription)")
    }
    return value
  }

  private func mismatch(
    _ key: String, _ path: FileLocation, _ expected: String, _ found: PlistValue
  ) -> FileFormatError {
    FileFormatError(
      path.prefix + "\"\(key)\" should be \(expected) but is \(found.kindDescription)")
  }

  private func string(_ node: Source.Node?, key: String, at path: FileLocation)
    throws(FileFormatError) -> String
  {
    let found = try scalar(node, key: key, at: path, expected: "a string")
    guard case .string(let string) = found else { throw mismatch(key, path, "a string", found) }
    return string
  }

  private func bool(_ node: Source.Node?, key: String, at path: FileLocation)
    throws(FileFormatError) -> Bool
  {
    let found = try scalar(node, key: key, at: path, expected: "true/false")
    guard case .bool(let bool) = found else { throw mismatch(key, path, "true/false", found) }
    return bool
  }

  private func date(_ node: Source.Node?, key: String, at path: FileLocation)
    throws(FileFormatError) -> Date
  {
    let found = try scalar(node, key: key, at: path, expected: "a date")
    guard case .date(let date) = found else { throw mismatch(key, path, "a date", found) }
    guard date.timeIntervalSinceReferenceDate.isFinite else {
      throw FileFormatError(path.prefix + "\"\(key)\" is not a finite date")
    }
    return date
  }

  private func integer(_ node: Source.Node?, key: String, at path: FileLocation)
    throws(FileFormatError) -> Int
  {
    let found = try scalar(node, key: key, at: path, expected: "an integer")
    switch found {
    case .integer(let value):
      guard let int = Int(exactly: value) else {
        throw FileFormatError(path.prefix + "\"\(key)\" \(value) does not fit in an Int")
      }
      return int
    case .unsignedInteger(let value):
      throw FileFormatError(
        path.prefix + "\"\(key)\" \(value) is too large (the largest is \(Int.max))")
    default:
      throw mismatch(key, path, "an integer", found)
    }
  }

  // MARK: - Reading with the path in errors

  private func shape(_ node: Source.Node, at path: FileLocation) throws(FileFormatError)
    -> PlistShape<Source.Node>
  {
    do {
      return try source.shape(of: node)
    } catch {
      throw FileFormatError(path.prefix + error.message)
    }
  }

  private func value(_ node: Source.Node, at path: FileLocation) throws(FileFormatError)
    -> PlistValue
  {
    do {
      return try source.value(of: node)
    } catch {
      throw FileFormatError(path.prefix + error.message)
    }
  }

  /// A string in double quotes for messages, with quotes and controls escaped.
  static func quoted(_ string: String) -> String {
    var out = "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F {
          out += "\\u{" + String(scalar.value, radix: 16) + "}"
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }
}
