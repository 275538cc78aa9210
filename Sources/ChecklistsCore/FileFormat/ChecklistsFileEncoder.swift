import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Writes checklists straight from the model, without building a `PlistValue` tree.
///
/// Keys are written in `PlistKeyOrder`; unknown keys are merged in; a key that is also a
/// known field is written once, from the field.
enum ChecklistsFileEncoder {
  private static let listKeys: [PlistKey] = ["iconName", "items", "name"]
  private static let itemKeys: [PlistKey] = [
    "checked", "dueDate", "itemID", "shouldRemind", "text",
  ]
  /// The keys of an item with a due date given: `hasDueDate` is written only when true, so a
  /// file the app never gave a due date stays byte for byte the iPhone app's.
  private static let datedItemKeys: [PlistKey] = [
    "checked", "dueDate", "hasDueDate", "itemID", "shouldRemind", "text",
  ]

  /// The known keys written for `item`, sorted.
  private static func knownKeys(_ item: ChecklistItem) -> [PlistKey] {
    item.hasDueDate ? datedItemKeys : itemKeys
  }

  /// The order of a dictionary's keys: the known ones plus the unknown ones, sorted.
  private static func keys(known: [PlistKey], unknown: [PlistKey: PlistValue]) -> [PlistKey] {
    if unknown.isEmpty { return known }
    let extra = unknown.keys.filter { !known.contains($0) }
    return PlistKeyOrder.sorted(known + extra)
  }

  // MARK: - Binary

  /// A `bplist00` file of the lists; `concurrent: false` keeps a big model on one thread (the
  /// bytes are the same either way).
  static func binary(_ lists: [Checklist], concurrent: Bool = true) -> Data {
    let sizes = UsualSizes(lists)
    if !sizes.unknownFields {
      return binaryOfUsualItems(
        lists, parts: parts(sizes.itemCount, concurrent: concurrent), sizes: sizes)
    }
    return binaryInOrder(lists, concurrent: concurrent, sizes: sizes)
  }

  /// What one pass over the items tells either writer ahead: counts, room, and whether any
  /// item holds unknown keys (then only the in-order writer can be used).
  struct UsualSizes {
    var itemCount = 0
    var listCount = 0
    var dated = false
    var unknownFields = false
    /// Room for the encoded scalars: a UTF-16 text takes at most 2 bytes per UTF-8 byte; the
    /// date, the ID, the markers and booleans a few more.
    var scalarBytes = 64

    /// Exact room for usual items, so that neither array is copied while it grows: an item's 4
    /// objects, 12 reference slots (11 in order) and its place in the list's array; a list's
    /// dictionary, items array, name and icon name, and its 6 references and place in the top
    /// array. Items with unknown keys take more, and the arrays grow.
    var objectCapacity: Int { itemCount * 4 + listCount * 4 + 16 }
    var refCapacity: Int { itemCount * (unknownFields ? 11 : 13) + listCount * 7 + 16 }

    /// A writer with that room, and room for the whole file (`BinaryPlistWriter.fileRoom`).
    func makeWriter() -> BinaryPlistWriter {
      BinaryPlistWriter(
        capacity: objectCapacity, scalarByteCapacity: scalarBytes, refCapacity: refCapacity)
    }

    /// The room made for the whole file.
    var fileRoom: Int {
      BinaryPlistWriter.fileRoom(
        objects: objectCapacity, refs: refCapacity, scalarBytes: scalarBytes)
    }

    init(_ lists: [Checklist]) {
      listCount = lists.count
      for list in lists {
        itemCount += list.items.count
        scalarBytes += 2 * list.name.utf8.count + list.iconName.utf8.count + 16
        // Read in place: a copy of each item would retain and release its texts.
        list.items.withUnsafeBufferPointer { items in
          for index in items.indices {
            scalarBytes += 2 * items[index].text.utf8.count + 24
            if items[index].hasDueDate { dated = true }
            if !items[index].unknownFields.isEmpty { unknownFields = true }
          }
        }
      }
    }
  }

  /// `binary` one object after the other (texts still encoded ahead on every core): for files
  /// with items that hold unknown keys, whose objects are not known in advance.
  private static func binaryInOrder(_ lists: [Checklist], concurrent: Bool, sizes: UsualSizes)
    -> Data
  {
    let itemCount = sizes.itemCount
    var writer = sizes.makeWriter()
    // Texts of a big model are encoded on every core first; the writer copies them in.
    let texts = concurrent ? ConcurrentTextEncoding(lists, itemCount: itemCount) : nil
    let top = writer.reserve()
    // The known item keys, shared by every item without unknown keys.
    let itemKeyRefs = itemKeys.map { writer.string($0.string) }
    let listRefs = binaryLists(lists, &writer) { list, writer in
      let itemsRef = writer.reserve()
      var itemRefs: [Int] = []
      itemRefs.reserveCapacity(list.items.count)
      for item in list.items {
        itemRefs.append(binaryItem(item, itemKeyRefs, texts, &writer))
      }
      writer.setArray(itemsRef, itemRefs)
      return itemsRef
    }
    writer.setArray(top, listRefs)
    return writer.finish(top: top, parts: parts(itemCount, concurrent: concurrent))
  }

  /// How many parts a model of `itemCount` items is written in: one per core for a big model
  /// written `concurrent`ly, else one.
  private static func parts(_ itemCount: Int, concurrent: Bool) -> Int {
    concurrent && itemCount >= ConcurrentTextEncoding.minimumItems ? ItemSlices.threads : 1
  }

  /// `binary` of lists whose items hold no unknown keys, the items' objects made in `parts`
  /// parts, each on its own thread when there are several (the bytes are the same for any
  /// number of parts).
  ///
  /// Every item then takes four new objects (its dictionary, date, ID and text; keys and
  /// booleans are shared and made first), so the lists are laid out first on this thread, with
  /// room for their items; then each part encodes its items' scalars into a buffer of its own
  /// and fills in their objects; the buffers follow the lists' scalars in the file.
  static func binaryOfUsualItems(_ lists: [Checklist], parts: Int) -> Data {
    binaryOfUsualItems(lists, parts: parts, sizes: UsualSizes(lists))
  }

  private static func binaryOfUsualItems(_ lists: [Checklist], parts: Int, sizes: UsualSizes)
    -> Data
  {
    var writer = sizes.makeWriter()
    let top = writer.reserve()
    let keys = itemKeys.map { writer.string($0.string) }
    let datedKeys = sizes.dated ? datedItemKeys.map { writer.string($0.string) } : keys
    let shared = UsualItemObjects(
      keys: keys, datedKeys: datedKeys, yes: writer.bool(true), no: writer.bool(false))
    // Each list's first item object and reference slot: 4 objects and 12 slots an item.
    var firstObjects: [Int] = []
    var firstSlots: [Int] = []
    let listRefs = binaryLists(lists, &writer) { list, writer in
      let itemsRef = writer.reserve()
      let first = writer.reserveObjects(4 * list.items.count)
      firstObjects.append(first)
      firstSlots.append(writer.reserveRefs(12 * list.items.count))
      writer.setArray(itemsRef, first: first, count: list.items.count, step: 4)
      return itemsRef
    }
    writer.setArray(top, listRefs)
    let slices = ItemSlices(itemCounts: lists.map(\.items.count), count: max(parts, 1))
    // Each part encodes its items' scalars straight into the file's buffer, in a region as
    // big as they can be; the parts then move down to follow each other, and their objects
    // move with them, each part's on its own core.
    let bounds = (0..<slices.count).map { slice in
      UsualItemObjects.scalarBound(slices.pieces(of: slice), of: lists)
    }
    let regions = writer.scalarRegions(bounds)
    let buffers = writer.withReserved { storage in
      let encode = { (slice: Int) in
        shared.encode(
          slices.pieces(of: slice), of: lists, firstObjects: firstObjects,
          firstSlots: firstSlots, into: storage, region: regions[slice])
      }
      return slices.map(encode)
    }
    let starts = writer.commitScalars(buffers, in: regions)
    writer.withReserved { storage in
      _ = slices.map { slice in
        let start = starts[slice]
        for piece in slices.pieces(of: slice) {
          let first = firstObjects[piece.list]
          for item in piece.items {
            let dictionary = first + 4 * item
            storage.moveScalar(dictionary + 1, by: start)
            storage.moveScalar(dictionary + 2, by: start)
            storage.moveScalar(dictionary + 3, by: start)
          }
        }
      }
    }
    return writer.finish(top: top, parts: slices.count)
  }

  /// The objects every usual item shares: its keys and the two booleans.
  private struct UsualItemObjects: Sendable {
    var keys: [Int]
    var datedKeys: [Int]
    var yes: Int
    var no: Int

    /// The most bytes the scalars of the items of `pieces` can take: a date (9 bytes), an ID
    /// (at most 9) and a text (a marker, a count of at most 9 from 15 characters on, and 1 byte
    /// a character in ASCII, else 2 a UTF-16 unit, which is never more than 2 a UTF-8 byte).
    static func scalarBound(_ pieces: [ItemSlices.Piece], of lists: [Checklist]) -> Int {
      var bound = 0
      for piece in pieces {
        for item in lists[piece.list].items[piece.items] {
          bound += 2 * item.text.utf8.count + 24
        }
      }
      return bound
    }

    /// Encodes the scalars of the items of `pieces` into `region` (or, should they outgrow
    /// it, memory of the buffer's own) and fills in their objects (scalar positions relative
    /// to the buffer's start) and references.
    func encode(
      _ pieces: [ItemSlices.Piece], of lists: [Checklist], firstObjects: [Int],
      firstSlots: [Int], into storage: BinaryPlistWriter.ReservedStorage,
      region: UnsafeMutableRawBufferPointer
    ) -> OutputBuffer {
      let out = OutputBuffer(borrowing: region)
      for piece in pieces {
        let items = lists[piece.list].items
        for index in piece.items {
          let item = items[index]
          let dictionary = firstObjects[piece.list] + 4 * index
          var slot = firstSlots[piece.list] + 12 * index
          var start = out.count
          BinaryPlistWriter.encodeDate(item.dueDate, to: out)
          storage.setScalar(dictionary + 1, start: start, count: out.count - start)
          start = out.count
          BinaryPlistWriter.encodeInteger(Int64(item.itemID), to: out)
          storage.setScalar(dictionary + 2, start: start, count: out.count - start)
          start = out.count
          BinaryPlistWriter.encodeString(item.text, to: out)
          storage.setScalar(dictionary + 3, start: start, count: out.count - start)
          let keys = item.hasDueDate ? datedKeys : keys
          storage.setDictionary(dictionary, slot: slot, count: keys.count)
          for key in keys {
            storage.setRef(slot, key)
            slot += 1
          }
          // Values in key order: checked, dueDate, [hasDueDate,] itemID, shouldRemind, text.
          storage.setRef(slot, item.checked ? yes : no)
          storage.setRef(slot + 1, dictionary + 1)
          if item.hasDueDate {
            storage.setRef(slot + 2, yes)
            slot += 1
          }
          storage.setRef(slot + 2, dictionary + 2)
          storage.setRef(slot + 3, item.shouldRemind ? yes : no)
          storage.setRef(slot + 4, dictionary + 3)
        }
      }
      return out
    }
  }

  /// Adds the lists' dictionaries in order, their keys in `PlistKeyOrder`; `items` adds a
  /// list's items array and returns its object index. Returns the lists' object indexes.
  private static func binaryLists(
    _ lists: [Checklist], _ writer: inout BinaryPlistWriter,
    items: (Checklist, inout BinaryPlistWriter) -> Int
  ) -> [Int] {
    var listRefs: [Int] = []
    listRefs.reserveCapacity(lists.count)
    for list in lists {
      let listRef = writer.reserve()
      listRefs.append(listRef)
      var keyRefs: [Int] = []
      var valueRefs: [Int] = []
      let names = keys(known: listKeys, unknown: list.unknownFields)
      for key in names { keyRefs.append(writer.string(key.string)) }
      for key in names {
        switch key {
        case "name": valueRefs.append(writer.string(list.name))
        case "iconName": valueRefs.append(writer.string(list.iconName))
        case "items": valueRefs.append(items(list, &writer))
        default:
          if let value = list.unknownFields[key] { valueRefs.append(writer.value(value)) }
        }
      }
      writer.setDictionary(listRef, keys: keyRefs, values: valueRefs)
    }
    return listRefs
  }

  /// The item's text as a new object: copied from `texts` when they were encoded ahead.
  private static func text(
    _ item: ChecklistItem, _ texts: ConcurrentTextEncoding?, _ writer: inout BinaryPlistWriter
  ) -> Int {
    guard let texts else { return writer.uniqueString(item.text) }
    return texts.next { writer.uniqueEncodedString($0) }
  }

  private static func binaryItem(
    _ item: ChecklistItem, _ knownKeyRefs: [Int], _ texts: ConcurrentTextEncoding?,
    _ writer: inout BinaryPlistWriter
  ) -> Int {
    let ref = writer.reserve()
    if item.unknownFields.isEmpty && !item.hasDueDate {
      // The usual item: the five known keys in `itemKeys` order, values added in that order.
      // Texts and dates are almost always unique: they are not looked up for sharing.
      let checked = writer.bool(item.checked)
      let dueDate = writer.uniqueDate(item.dueDate)
      let itemID = writer.integer(Int64(item.itemID))
      let shouldRemind = writer.bool(item.shouldRemind)
      let text = text(item, texts, &writer)
      writer.setDictionary(
        ref, keys: knownKeyRefs, values: (checked, dueDate, itemID, shouldRemind, text))
      return ref
    }
    // An item with a due date given or unknown keys: its own key list, in `PlistKeyOrder`.
    let names = keys(known: knownKeys(item), unknown: item.unknownFields)
    let keyRefs = names.map { writer.string($0.string) }
    var valueRefs: [Int] = []
    valueRefs.reserveCapacity(names.count)
    for key in names {
      switch key {
      case "checked": valueRefs.append(writer.bool(item.checked))
      case "dueDate": valueRefs.append(writer.uniqueDate(item.dueDate))
      case "hasDueDate": valueRefs.append(writer.bool(true))
      case "itemID": valueRefs.append(writer.integer(Int64(item.itemID)))
      case "shouldRemind": valueRefs.append(writer.bool(item.shouldRemind))
      case "text": valueRefs.append(text(item, texts, &writer))
      default:
        if let value = item.unknownFields[key] { valueRefs.append(writer.value(value)) }
      }
    }
    writer.setDictionary(ref, keys: keyRefs, values: valueRefs)
    return ref
  }

  // MARK: - XML

  /// Why the lists cannot be XML 1.0, as the end of a sentence ("an item holds …"), or nil.
  static func xmlProblem(_ lists: [Checklist]) -> String? {
    let itemCount = lists.reduce(0) { $0 + $1.items.count }
    return xmlProblem(lists, XMLPart(slice: 0, of: 1, itemCount: itemCount))
  }

  /// `xmlProblem` for the lists and items of one part of the document.
  static func xmlProblem(_ lists: [Checklist], _ part: XMLPart) -> String? {
    func problem(_ fields: [PlistKey: PlistValue]) -> Bool {
      fields.contains {
        !XMLPlistWriter.canStore($0.key.string) || !XMLPlistWriter.canStore($0.value)
      }
    }
    var listStart = 0
    for list in lists {
      let count = list.items.count
      defer { listStart += count }
      let from = max(part.start, listStart) - listStart
      let items = from..<max(from, min(part.end, listStart + count) - listStart)
      if part.holds(listStart),
        !XMLPlistWriter.canStore(list.name) || !XMLPlistWriter.canStore(list.iconName)
          || problem(list.unknownFields)
      {
        return "a list holds control characters that XML cannot store"
      }
      guard !items.isEmpty else { continue }
      for item in list.items[items] {
        if !XMLPlistWriter.canStore(item.text) || problem(item.unknownFields) {
          return "an item holds control characters that XML cannot store"
        }
        if !XMLPlistWriter.canStore(item.dueDate) {
          return "an item's due date is outside the years 1 to 9999 that XML can store"
        }
      }
    }
    return nil
  }

  /// The XML document of the lists; a big model is written on every core, each thread one
  /// contiguous part of the document (the bytes are the same either way). Nil when
  /// `xmlProblem` has something to say (checked on the way, part by part, when concurrent).
  static func xml(_ lists: [Checklist], concurrent: Bool) -> Data? {
    let itemCount = lists.reduce(0) { $0 + $1.items.count }
    return xml(lists, parts: parts(itemCount, concurrent: concurrent))
  }

  /// `xml` written in `parts` parts, each on its own thread when there are several.
  static func xml(_ lists: [Checklist], parts: Int) -> Data? {
    var itemCount = 0
    var expectedSize = 512
    for list in lists {
      itemCount += list.items.count
      expectedSize += 160 + list.name.utf8.count
      for item in list.items { expectedSize += 320 + item.text.utf8.count }
    }
    guard parts > 1 else {
      if xmlProblem(lists) != nil { return nil }
      var writer = XMLPlistWriter(capacity: expectedSize)
      xmlPart(of: lists, XMLPart(slice: 0, of: 1, itemCount: itemCount), &writer)
      return writer.finish()
    }
    let slices = ItemSlices(itemCounts: lists.map(\.items.count), count: parts)
    // Each part's exact size but the last's, which ends the bytes and gets the whole
    // document's estimate as its bound (or its own bytes, should it outgrow that).
    let sized = slices.map { slice -> Int? in
      let part = XMLPart(slice: slice, of: parts, itemCount: itemCount)
      guard xmlProblem(lists, part) == nil else { return nil }
      return part.isLast ? expectedSize : xmlSize(of: lists, part)
    }
    let bounds = sized.compactMap { $0 }
    guard bounds.count == parts else { return nil }
    return xml(lists, parts: parts, bounds: bounds)
  }

  /// `xml` in `parts` parts, each written on its own thread straight into a region of
  /// `bounds[part]` bytes of the document's buffer; the regions are then closed up.
  static func xml(_ lists: [Checklist], parts: Int, bounds: [Int]) -> Data {
    let itemCount = lists.reduce(0) { $0 + $1.items.count }
    let slices = ItemSlices(itemCounts: lists.map(\.items.count), count: parts)
    var whole = XMLPlistWriter(capacity: bounds.reduce(16, +), header: false)
    let regions = whole.regions(bounds)
    let written = slices.map { slice -> XMLPlistWriter in
      let part = XMLPart(slice: slice, of: parts, itemCount: itemCount)
      var writer = XMLPlistWriter(borrowing: regions[slice], header: part.isFirst)
      xmlPart(of: lists, part, &writer)
      return writer
    }
    whole.commit(written, in: regions)
    return whole.finish()
  }

  /// The bytes of `part` of the document of `lists`: list heads and tails and rare items are
  /// written to count them, usual items counted without writing.
  static func xmlSize(of lists: [Checklist], _ part: XMLPart) -> Int {
    var writer = XMLPlistWriter(capacity: 4_096, header: part.isFirst)
    xmlPart(of: lists, part, &writer, measuring: true)
    return writer.size
  }

  /// The bytes of `item` in the XML document.
  static func xmlSize(of item: ChecklistItem) -> Int {
    guard item.unknownFields.isEmpty && !item.hasDueDate else {
      var writer = XMLPlistWriter(capacity: 512, header: false)
      xmlItem(item, &writer)
      return writer.size
    }
    var digits = item.itemID < 0 ? 2 : 1
    var rest = item.itemID.magnitude / 10
    while rest > 0 {
      digits += 1
      rest /= 10
    }
    return usualItemSize + digits + (item.checked ? 0 : 1) + (item.shouldRemind ? 0 : 1)
      + XMLPlistWriter.escapedSize(item.text)
  }

  /// The bytes of a usual item with both booleans true and an empty text, less its ID's one
  /// digit (a date is always as long).
  private static let usualItemSize: Int = {
    var writer = XMLPlistWriter(capacity: 512, header: false)
    let item = ChecklistItem(
      text: "", checked: true, dueDate: Date(timeIntervalSinceReferenceDate: 0),
      shouldRemind: true, itemID: 0)
    xmlItem(item, &writer)
    return writer.size - 1
  }()

  /// One contiguous part of the XML document: the items from `start` to `end` (indexes over
  /// all items in order), with the lists around them. A list belongs to the part of its
  /// first item (its head) and of its last (its tail); an empty list to the part of the
  /// position where its items would be, the last part when it is past every item.
  struct XMLPart {
    var start: Int
    var end: Int
    var isFirst: Bool
    var isLast: Bool

    init(slice: Int, of count: Int, itemCount: Int) {
      start = itemCount * slice / count
      end = itemCount * (slice + 1) / count
      isFirst = slice == 0
      isLast = slice == count - 1
    }

    /// Whether the part holds the item or empty-list position `position`.
    func holds(_ position: Int) -> Bool {
      position >= start && (position < end || isLast)
    }
  }

  /// Writes `part` of the document of `lists`.
  private static func xmlPart(
    of lists: [Checklist], _ part: XMLPart, _ writer: inout XMLPlistWriter,
    measuring: Bool = false
  ) {
    if lists.isEmpty {
      if part.isFirst { writer.empty(dictionary: false, level: 0) }
      return
    }
    if part.isFirst { writer.open(dictionary: false, level: 0) }
    var listStart = 0
    for list in lists {
      let count = list.items.count
      defer { listStart += count }
      let head = part.holds(listStart)
      let tail = count == 0 ? head : part.holds(listStart + count - 1)
      let from = max(part.start, listStart) - listStart
      let to = min(part.end, listStart + count) - listStart
      guard head || tail || from < to else {
        if listStart >= part.end && !part.isLast { break }
        continue
      }
      xmlList(
        list, items: from..<max(from, to), head: head, tail: tail, &writer, measuring: measuring)
    }
    if part.isLast { writer.close(dictionary: false, level: 0) }
  }

  /// Writes the items `items` of `list`, with the list's start (`head`) and end (`tail`);
  /// `measuring`, the items are counted (`skip`), not written.
  private static func xmlList(
    _ list: Checklist, items: Range<Int>, head: Bool, tail: Bool, _ writer: inout XMLPlistWriter,
    measuring: Bool
  ) {
    if head { writer.open(dictionary: true, level: 1) }
    var pastItems = false
    for key in keys(known: listKeys, unknown: list.unknownFields) {
      if key == "items" {
        if head {
          writer.key(key.string, level: 2)
          if list.items.isEmpty {
            writer.empty(dictionary: false, level: 2)
          } else {
            writer.open(dictionary: false, level: 2)
          }
        }
        if measuring {
          for index in items { writer.skip(xmlSize(of: list.items[index])) }
        } else {
          for index in items { xmlItem(list.items[index], &writer) }
        }
        if tail && !list.items.isEmpty { writer.close(dictionary: false, level: 2) }
        pastItems = true
        continue
      }
      guard pastItems ? tail : head else { continue }
      switch key {
      case "name":
        writer.key(key.string, level: 2)
        writer.string(list.name, level: 2)
      case "iconName":
        writer.key(key.string, level: 2)
        writer.string(list.iconName, level: 2)
      default:
        if let value = list.unknownFields[key] {
          writer.key(key.string, level: 2)
          writer.value(value, level: 2)
        }
      }
    }
    if tail { writer.close(dictionary: true, level: 1) }
  }

  /// The keys an item's own fields are written under.
  private enum XMLItemKey: String {
    case checked, dueDate, hasDueDate, itemID, shouldRemind, text

    /// The usual item's keys, in `PlistKeyOrder`.
    static let usual: [XMLItemKey] = [.checked, .dueDate, .itemID, .shouldRemind, .text]

    /// The key's text, which needs no escape.
    var name: StaticString {
      switch self {
      case .checked: "checked"
      case .dueDate: "dueDate"
      case .hasDueDate: "hasDueDate"
      case .itemID: "itemID"
      case .shouldRemind: "shouldRemind"
      case .text: "text"
      }
    }

    /// Writes the key and the item's value for it.
    func write(_ item: ChecklistItem, _ writer: inout XMLPlistWriter) {
      writer.key(name, level: 4)
      switch self {
      case .checked: writer.bool(item.checked, level: 4)
      case .dueDate: writer.date(item.dueDate, level: 4)
      case .hasDueDate: writer.bool(true, level: 4)
      case .itemID: writer.integer(Int64(item.itemID), level: 4)
      case .shouldRemind: writer.bool(item.shouldRemind, level: 4)
      case .text: writer.string(item.text, level: 4)
      }
    }
  }

  private static func xmlItem(_ item: ChecklistItem, _ writer: inout XMLPlistWriter) {
    writer.open(dictionary: true, level: 3)
    if item.unknownFields.isEmpty && !item.hasDueDate {
      // The usual item: its five keys in order, without matching key names.
      for key in XMLItemKey.usual { key.write(item, &writer) }
    } else {
      for key in keys(known: knownKeys(item), unknown: item.unknownFields) {
        if let known = XMLItemKey(rawValue: key.string) {
          known.write(item, &writer)
        } else if let value = item.unknownFields[key] {
          writer.key(key.string, level: 4)
          writer.value(value, level: 4)
        }
      }
    }
    writer.close(dictionary: true, level: 3)
  }
}
