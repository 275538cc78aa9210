import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Reads the `Checklists.plist` of the book's first editions, which saved with
/// `NSKeyedArchiver` instead of `Codable`.
///
/// Such a file is a dictionary: `$archiver` ("NSKeyedArchiver"), `$objects` (every object of
/// the archive; index 0 is `$null`) and `$top`, whose `Checklists` key (or `root`, for
/// `archivedData(withRootObject:)`) refers by UID to an `NSArray` of checklists. A checklist
/// holds `Name`, `Items` and `IconName`; an item `Text`, `Checked`, `DueDate` (an `NSDate`, as
/// `NS.time`), `ShouldRemind` and `ItemID`. Classes may be named as Objective-C named them
/// (`Checklist`), with their Swift module (`Checklists.Checklist`) or mangled
/// (`_TtC10Checklists9Checklist`). Fields the earliest editions did not have get the app's
/// defaults: no icon, unchecked, due now, no reminder, a fresh item ID.
struct KeyedArchiveDecoder {
  /// The archive's objects, `$objects`.
  private let objects: [PlistValue]
  /// How many items the lists may add up to: lists and item arrays can be shared, so a small
  /// archive could otherwise unfold into millions of items.
  private let itemLimit: Int

  private static let archiverKey: PlistKey = "$archiver"

  /// The whole archive when the top of `source` is a keyed archive (a dictionary with an
  /// `$archiver` key); nil for anything else, which is left to the Codable-format reader.
  static func archive<Source: PlistNodeSource>(in source: Source) throws(PlistError)
    -> PlistValue?
  {
    guard case .dictionary(let entries) = try source.shape(of: source.root),
      entries.contains(where: { PlistKey($0.key) == archiverKey })
    else { return nil }
    return try source.value(of: source.root)
  }

  /// The lists of a keyed archive (as `archive(in:)` returned it).
  static func lists(_ archive: PlistValue) throws(FileFormatError) -> [Checklist] {
    guard case .dictionary(let top) = archive else {
      throw Self.error("the file is not a keyed archive")
    }
    guard case .string(let archiver) = top[archiverKey] ?? .bool(false),
      archiver == "NSKeyedArchiver"
    else {
      throw Self.error(
        "\"$archiver\" should be \"NSKeyedArchiver\" but is "
          + describe(top[archiverKey] ?? .bool(false)))
    }
    guard case .array(let objects) = top["$objects"] ?? .bool(false) else {
      throw Self.error("\"$objects\" is missing or not an array")
    }
    guard case .dictionary(let roots) = top["$top"] ?? .bool(false) else {
      throw Self.error("\"$top\" is missing or not a dictionary")
    }
    guard let rootReference = roots["Checklists"] ?? roots["root"] else {
      let keys = roots.keys.map { ChecklistsSchemaDecoder<PlistTreeSource>.quoted($0.string) }
        .sorted().joined(separator: ", ")
      throw Self.error(
        "\"$top\" has no \"Checklists\" key (it holds \(keys.isEmpty ? "nothing" : keys)); "
          + "this archive is not a Checklists file")
    }
    let decoder = KeyedArchiveDecoder(
      objects: objects, itemLimit: objects.count * 16 + 65_536)
    return try decoder.lists(rootReference)
  }

  // MARK: - The lists

  private func lists(_ rootReference: PlistValue) throws(FileFormatError) -> [Checklist] {
    guard let root = try resolve(rootReference, what: "the top object") else {
      throw Self.error("the top object is nil")
    }
    let listReferences = try array(
      root, what: "the top object", expectedClass: "an array of checklists")
    var lists: [Checklist] = []
    lists.reserveCapacity(listReferences.count)
    var itemTotal = 0
    var missingIDs: [(list: Int, item: Int)] = []
    for (index, reference) in listReferences.enumerated() {
      var path = FileLocation(list: index + 1)
      guard let object = try resolve(reference, what: path.description) else {
        throw Self.error("\(path.description) is nil")
      }
      let fields = try instance(object, of: "Checklist", what: path.description)
      let name = try string(fields["Name"], key: "Name", at: path)
      guard let name else { throw Self.error(path.prefix + "\"Name\" is missing") }
      path.listName = name
      let iconName =
        try string(fields["IconName"], key: "IconName", at: path) ?? IconName.noIcon.rawValue
      guard let itemsObject = try resolve(fields["Items"], what: path.prefix + "\"Items\"")
      else { throw Self.error(path.prefix + "\"Items\" is missing") }
      let itemReferences = try array(
        itemsObject, what: path.prefix + "\"Items\"", expectedClass: "an array of items")
      itemTotal += itemReferences.count
      guard itemTotal <= itemLimit else {
        throw Self.error("the lists share items so often that they add up to too many")
      }
      var items: [ChecklistItem] = []
      items.reserveCapacity(itemReferences.count)
      for (itemIndex, itemReference) in itemReferences.enumerated() {
        path.item = itemIndex + 1
        let (item, hasID) = try self.item(itemReference, at: path)
        if !hasID { missingIDs.append((list: index, item: itemIndex)) }
        items.append(item)
      }
      lists.append(Checklist(name: name, iconName: iconName, items: items))
    }
    return Self.numbering(lists, missingIDs)
  }

  /// The lists with fresh IDs, above every ID in the file, for the items that had none.
  private static func numbering(_ lists: [Checklist], _ missing: [(list: Int, item: Int)])
    -> [Checklist]
  {
    guard !missing.isEmpty else { return lists }
    var next = 0
    for list in lists {
      for item in list.items where item.itemID >= next && item.itemID < Int.max {
        next = item.itemID + 1
      }
    }
    var lists = lists
    for place in missing {
      var item = lists[place.list].items[place.item]
      item.itemID = next
      if next < Int.max { next += 1 }
      lists[place.list].replaceItem(at: place.item, with: item)
    }
    return lists
  }

  /// One item, and whether it had an `ItemID`.
  private func item(_ reference: PlistValue, at path: FileLocation) throws(FileFormatError)
    -> (ChecklistItem, Bool)
  {
    guard let object = try resolve(reference, what: path.description) else {
      throw Self.error("\(path.description) is nil")
    }
    let fields = try instance(object, of: "ChecklistItem", what: path.description)
    guard let text = try string(fields["Text"], key: "Text", at: path) else {
      throw Self.error(path.prefix + "\"Text\" is missing")
    }
    var item = ChecklistItem(text: text, itemID: 0)
    if let checked = try bool(fields["Checked"], key: "Checked", at: path) {
      item.checked = checked
    }
    if let remind = try bool(fields["ShouldRemind"], key: "ShouldRemind", at: path) {
      item.shouldRemind = remind
    }
    if let due = try date(fields["DueDate"], key: "DueDate", at: path) { item.dueDate = due }
    let itemID = try integer(fields["ItemID"], key: "ItemID", at: path)
    if let itemID { item.itemID = itemID }
    return (item, itemID != nil)
  }

  // MARK: - Objects

  /// The object a UID refers to (nil for `$null`); any other value is itself.
  private func resolve(_ value: PlistValue?, what: String) throws(FileFormatError)
    -> PlistValue?
  {
    guard let value else { return nil }
    guard case .uid(let index) = value else { return value }
    guard index < UInt64(objects.count) else {
      throw Self.error("\(what) refers to object \(index), which does not exist")
    }
    let object = objects[Int(index)]
    if index == 0, case .string("$null") = object { return nil }
    return object
  }

  /// The class name of an archived object (a dictionary with `$class`), or nil.
  private func className(_ fields: [PlistKey: PlistValue]) -> String? {
    guard let reference = fields["$class"],
      case .some(.dictionary(let classInfo)) = try? resolve(reference, what: ""),
      case .string(let name) = classInfo["$classname"] ?? .bool(false)
    else { return nil }
    return name
  }

  /// The fields of an object of class `wanted` (by its own name, the module's prefix or its
  /// mangled form aside).
  private func instance(_ object: PlistValue, of wanted: String, what: String)
    throws(FileFormatError) -> [PlistKey: PlistValue]
  {
    guard case .dictionary(let fields) = object else {
      throw Self.error(
        "\(what) should be a \(wanted) object but is \(Self.describe(object))")
    }
    guard let name = className(fields) else {
      throw Self.error("\(what) should be a \(wanted) object but has no class")
    }
    guard Self.unqualified(name) == wanted else {
      throw Self.error(
        "\(what) should be a \(wanted) object but is of class "
          + ChecklistsSchemaDecoder<PlistTreeSource>.quoted(name))
    }
    return fields
  }

  /// `Checklist` for `Checklist`, `Checklists.Checklist` or `_TtC10Checklists9Checklist`.
  static func unqualified(_ name: String) -> String {
    if name.hasPrefix("_TtC") {
      // Swift's mangled class name: length-prefixed module, then class.
      var rest = Substring(name.dropFirst(4))
      var last: Substring?
      while let digitsEnd = rest.firstIndex(where: { !$0.isASCII || !$0.isNumber }),
        digitsEnd > rest.startIndex, let length = Int(rest[..<digitsEnd]),
        rest[digitsEnd...].count >= length
      {
        let end = rest.index(digitsEnd, offsetBy: length)
        last = rest[digitsEnd..<end]
        rest = rest[end...]
      }
      if let last, rest.isEmpty { return String(last) }
      return name
    }
    if let dot = name.lastIndex(of: ".") { return String(name[name.index(after: dot)...]) }
    return name
  }

  /// The elements of an `NSArray`/`NSMutableArray` (`NS.objects`).
  private func array(_ object: PlistValue, what: String, expectedClass: String)
    throws(FileFormatError) -> [PlistValue]
  {
    guard case .dictionary(let fields) = object,
      case .array(let elements) = fields["NS.objects"] ?? .bool(false)
    else {
      var found = Self.describe(object)
      if case .dictionary(let fields) = object, let name = className(fields) {
        found = "an object of class " + ChecklistsSchemaDecoder<PlistTreeSource>.quoted(name)
      }
      throw Self.error("\(what) should be \(expectedClass) but is \(found)")
    }
    return elements
  }

  // MARK: - Fields

  private func string(_ value: PlistValue?, key: String, at path: FileLocation)
    throws(FileFormatError) -> String?
  {
    guard let object = try resolve(value, what: path.prefix + "\"\(key)\"") else { return nil }
    switch object {
    case .string(let string): return string
    case .dictionary(let fields):
      // NSMutableString.
      if case .string(let string) = fields["NS.string"] ?? .bool(false) { return string }
    default: break
    }
    throw mismatch(key, path, "a string", object)
  }

  private func bool(_ value: PlistValue?, key: String, at path: FileLocation)
    throws(FileFormatError) -> Bool?
  {
    guard let object = try resolve(value, what: path.prefix + "\"\(key)\"") else { return nil }
    switch object {
    case .bool(let bool): return bool
    case .integer(let integer) where integer == 0 || integer == 1: return integer == 1
    default: throw mismatch(key, path, "true/false", object)
    }
  }

  private func integer(_ value: PlistValue?, key: String, at path: FileLocation)
    throws(FileFormatError) -> Int?
  {
    guard let object = try resolve(value, what: path.prefix + "\"\(key)\"") else { return nil }
    guard case .integer(let integer) = object, let int = Int(exactly: integer) else {
      throw mismatch(key, path, "an integer", object)
    }
    return int
  }

  private func date(_ value: PlistValue?, key: String, at path: FileLocation)
    throws(FileFormatError) -> Date?
  {
    guard let object = try resolve(value, what: path.prefix + "\"\(key)\"") else { return nil }
    var seconds: Double?
    switch object {
    case .date(let date): seconds = date.timeIntervalSinceReferenceDate
    case .dictionary(let fields):
      // NSDate: seconds since 2001-01-01 in `NS.time`.
      switch fields["NS.time"] {
      case .real(let real): seconds = real
      case .integer(let integer): seconds = Double(integer)
      default: break
      }
    default: break
    }
    guard let seconds else { throw mismatch(key, path, "a date (NSDate)", object) }
    guard seconds.isFinite else {
      throw Self.error(path.prefix + "\"\(key)\" is not a finite date")
    }
    return Date(timeIntervalSinceReferenceDate: seconds)
  }

  // MARK: - Messages

  private func mismatch(
    _ key: String, _ path: FileLocation, _ expected: String, _ found: PlistValue
  )
    -> FileFormatError
  {
    var kind = Self.describe(found)
    if case .dictionary(let fields) = found, let name = className(fields) {
      kind = "an object of class " + ChecklistsSchemaDecoder<PlistTreeSource>.quoted(name)
    }
    return Self.error(path.prefix + "\"\(key)\" should be \(expected) but is \(kind)")
  }

  private static func describe(_ value: PlistValue) -> String {
    if case .string(let string) = value {
      return ChecklistsSchemaDecoder<PlistTreeSource>.quoted(string)
    }
    return value.kindDescription
  }

  /// An error about the archive, saying what the file is.
  private static func error(_ message: String) -> FileFormatError {
    FileFormatError("old keyed-archive (NSKeyedArchiver) file: " + message)
  }
}
