import ChecklistsTestSupport
import Foundation
import Testing

@testable import ChecklistsCore

/// Big binary files are decoded and encoded on several threads: the result, every error and
/// every byte written must be exactly those of doing it in order.
@Suite struct FileFormatConcurrentDecodingTests {
  private typealias Support = FileFormatTestSupport

  /// Lists of very different sizes (empty ones, one of 25,000 items, many small ones), with an
  /// item in an unusual form (an unknown key) now and then, and unknown keys on some lists.
  private static func bigLists() -> [Checklist] {
    var generator = SeededGenerator(seed: 77)
    var lists: [Checklist] = []
    var itemID = 0
    let sizes = [0, 3, 25_000, 0, 0, 1] + Array(repeating: 97, count: 60) + [0, 4_001, 0]
    for (number, size) in sizes.enumerated() {
      var items: [ChecklistItem] = []
      for index in 0..<size {
        itemID += 1
        items.append(
          ChecklistItem(
            text: Support.randomString(&generator, maxPieces: 3),
            checked: index % 3 == 0,
            dueDate: Date(timeIntervalSinceReferenceDate: Double(itemID) * 61.25),
            shouldRemind: index % 5 == 0,
            itemID: itemID,
            unknownFields: itemID % 997 == 0 ? ["xNote": .string("kept \(itemID)")] : [:]))
      }
      lists.append(
        Checklist(
          name: "List \(number)", iconName: "Folder", items: items,
          unknownFields: number % 7 == 0 ? ["xColour": .integer(Int64(number))] : [:]))
    }
    return lists
  }

  @Test func aBigFileDecodesOnSeveralThreadsToWhatReadingInOrderGives() throws {
    let lists = Self.bigLists()
    let data = ChecklistsFileEncoder.binary(lists)
    let bytes = [UInt8](data)
    let decoder = ChecklistsSchemaDecoder(source: try BinaryPlistReader(bytes: bytes))
    let inOrder = try decoder.decodeInOrder()
    #expect(inOrder == lists)

    let concurrent = ConcurrentItemDecoding(decoder: decoder).lists()
    if ProcessInfo.processInfo.activeProcessorCount > 1 {
      #expect(concurrent == lists)
    } else {
      #expect(concurrent == nil, "one core: the file is read in order")
    }
    #expect(try ChecklistsFileCoding.decode(data).lists == lists)
  }

  /// Slices cover every item once, in order, whatever the lists and the number of slices.
  @Test func slicesCoverEveryItemOnceInOrder() {
    let layouts: [[Int]] = [
      [], [0], [0, 0, 0], [1], [3], [5, 0, 0, 2], [0, 7, 0], [100], [1, 1, 1, 1, 1, 1, 1],
      [0, 25_000, 0, 0, 1, 4_001, 0],
    ]
    for counts in layouts {
      // Up to the eight slices per core of eight cores that decoding uses at most.
      for sliceCount in 1...64 {
        let slices = ItemSlices(itemCounts: counts, count: sliceCount)
        let covered = (0..<sliceCount).flatMap { slice in
          slices.pieces(of: slice).flatMap { piece in piece.items.map { (piece.list, $0) } }
        }
        let expected = counts.enumerated().flatMap { list, count in (0..<count).map { (list, $0) } }
        #expect(covered.map(\.0) == expected.map(\.0), "\(counts) in \(sliceCount)")
        #expect(covered.map(\.1) == expected.map(\.1), "\(counts) in \(sliceCount)")
        let sizes = (0..<sliceCount).map { slices.pieces(of: $0).reduce(0) { $0 + $1.items.count } }
        #expect((sizes.max() ?? 0) - (sizes.min() ?? 0) <= 1, "\(counts) in \(sliceCount)")
      }
    }
  }

  @Test func aBigModelEncodesOnSeveralThreadsToTheSameBytes() throws {
    let lists = Self.bigLists()
    let inOrder = ChecklistsFileEncoder.binary(lists, concurrent: false)
    let concurrent = ChecklistsFileEncoder.binary(lists)
    #expect(concurrent == inOrder)
    #expect(try ChecklistsFileCoding.decode(concurrent).lists == lists)
    let items = lists.reduce(0) { $0 + $1.items.count }
    let texts = ConcurrentTextEncoding(lists, itemCount: items)
    #expect((texts != nil) == (ProcessInfo.processInfo.activeProcessorCount > 1))
    #expect(
      ConcurrentTextEncoding(lists, itemCount: ConcurrentTextEncoding.minimumItems - 1) == nil)
  }

  /// Items without unknown keys take four objects each, made in parts (one per thread): the
  /// bytes are the same for any number of parts, read back as the lists, and Foundation reads
  /// them too; items with a due date given carry their sixth key.
  @Test func usualItemsEncodeInPartsToTheSameBytes() throws {
    let lists = Self.bigLists().enumerated().map { number, list in
      Checklist(
        name: list.name, iconName: list.iconName,
        items: list.items.enumerated().map { index, item in
          var usual = ChecklistItem(
            text: item.text, checked: item.checked, dueDate: item.dueDate,
            shouldRemind: item.shouldRemind, itemID: item.itemID)
          usual.hasDueDate = (index + number) % 11 == 0
          return usual
        },
        unknownFields: list.unknownFields)
    }
    // Big files are compared outside `#expect`, whose diff of two unequal ones takes minutes.
    let whole = ChecklistsFileEncoder.binaryOfUsualItems(lists, parts: 1)
    let inOrder = ChecklistsFileEncoder.binary(lists, concurrent: false) == whole
    #expect(inOrder)
    let concurrent = ChecklistsFileEncoder.binary(lists) == whole
    #expect(concurrent)
    for parts in [2, 3, 7] {
      let same = ChecklistsFileEncoder.binaryOfUsualItems(lists, parts: parts) == whole
      #expect(same, "\(parts)")
    }
    #expect(try ChecklistsFileCoding.decode(whole).lists == lists, "read back")
    #expect(try BinaryPlistReader(whole).provenInWriterOrder)
    let foundation = try #require(
      try PropertyListSerialization.propertyList(from: whole, format: nil) as? [[String: Any]])
    #expect(foundation.count == lists.count)
    let items = try #require(foundation[2]["items"] as? [[String: Any]])
    #expect(items.count == lists[2].items.count)
    #expect(items[0]["text"] as? String == lists[2].items[0].text)
    // List 2's item 9 has a due date given, item 8 not.
    #expect(lists[2].items[9].hasDueDate && !lists[2].items[8].hasDueDate)
    #expect(items[9]["hasDueDate"] as? Bool == true)
    #expect(items[9]["dueDate"] as? Date == lists[2].items[9].dueDate)
    #expect(items[8]["hasDueDate"] == nil)
    // Small layouts: empty lists, lists of one item, more parts than items.
    for layout in [[Int](), [0], [1], [0, 2, 0], [3, 0, 1]] {
      let small = layout.enumerated().map { number, size in
        Checklist(
          name: "L\(number)", iconName: "Folder",
          items: (0..<size).map { ChecklistItem(text: "é\($0)", checked: $0 == 1, itemID: $0) })
      }
      let one = ChecklistsFileEncoder.binaryOfUsualItems(small, parts: 1)
      #expect(try ChecklistsFileCoding.decode(one).lists == small)
      for parts in 2...5 {
        #expect(ChecklistsFileEncoder.binaryOfUsualItems(small, parts: parts) == one)
      }
    }
  }

  /// XML written in parts, one per thread, is byte for byte the document written in order,
  /// however the parts fall: inside a list, at its edges, beside empty lists, past the end.
  @Test func xmlWrittenInPartsIsTheSameBytes() throws {
    let big = Self.bigLists()
    // Compared outside `#expect`, whose diff of two big unequal documents takes minutes.
    let whole = try #require(ChecklistsFileEncoder.xml(big, parts: 1))
    let inOrder = whole == ChecklistsFileEncoder.xml(big, concurrent: false)
    #expect(inOrder)
    let concurrent = ChecklistsFileEncoder.xml(big, concurrent: true) == whole
    #expect(concurrent)
    for parts in [2, 3, 7] {
      let same = ChecklistsFileEncoder.xml(big, parts: parts) == whole
      #expect(same, "\(parts) parts")
    }
    // Small layouts, every number of parts up to more parts than items.
    let layouts: [[Int]] = [
      [], [0], [0, 0], [1], [2, 0], [0, 3], [1, 0, 1], [0, 2, 0, 0, 3, 0],
    ]
    for layout in layouts {
      let lists = layout.enumerated().map { number, size in
        Checklist(
          name: "L\(number)", iconName: "Folder",
          items: (0..<size).map { ChecklistItem(text: "i\(number).\($0)", itemID: $0) },
          unknownFields: number == 1 ? ["xColour": .integer(3)] : [:])
      }
      let inOrder = try #require(ChecklistsFileEncoder.xml(lists, parts: 1))
      #expect(try PropertyListSerialization.propertyList(from: inOrder, format: nil) is [Any])
      for parts in 2...7 {
        #expect(ChecklistsFileEncoder.xml(lists, parts: parts) == inOrder, "\(layout) \(parts)")
      }
    }
    // A text XML cannot hold, in any part, makes no document.
    var broken = big
    let last = broken[broken.count - 2]
    broken[broken.count - 2] = Checklist(
      name: last.name, iconName: last.iconName,
      items: last.items + [ChecklistItem(text: "bell \u{7}", itemID: 999_999)])
    for parts in [1, 2, 3] { #expect(ChecklistsFileEncoder.xml(broken, parts: parts) == nil) }
    let encoded = try ChecklistsFileCoding.encode(broken, format: .xml)
    #expect(encoded.format == .binary)
    #expect(
      encoded.formatNote?.hasSuffix("an item holds control characters that XML cannot store")
        == true)
  }

  /// Each part's size is known before it is written, exactly, so that the parts are written
  /// straight into their places in one buffer: for items of every shape (escapes, CR, IDs of
  /// every length and sign, both booleans, the `hasDueDate` and unknown keys written as rare
  /// items) and however the parts fall.
  @Test func xmlPartSizesAreExact() throws {
    let texts = ["", "plain", "a & b", "<tag>", "cr\rlf\r\n", "&&&<<>>", "語 & 🇩🇪", "tab\tend"]
    let ids = [0, 7, -1, -42, 9, 10, 99_999, Int.max, Int.min]
    var items: [ChecklistItem] = []
    for (index, text) in texts.enumerated() {
      for (offset, id) in ids.enumerated() {
        items.append(
          ChecklistItem(
            text: text, checked: offset % 2 == 0,
            dueDate: Date(timeIntervalSinceReferenceDate: Double(index * 1_000 + offset)),
            shouldRemind: offset % 3 == 0, hasDueDate: offset == 4, itemID: id,
            unknownFields: offset == 5 ? ["xNote": .string("a <note> & \(text)")] : [:]))
      }
    }
    for item in items {
      let one = [Checklist(name: "L", iconName: "Folder", items: [item])]
      let written = try #require(ChecklistsFileEncoder.xml(one, parts: 1))
      let sized = ChecklistsFileEncoder.xmlSize(of: one, .init(slice: 0, of: 1, itemCount: 1))
      #expect(sized + "</plist>\n".utf8.count == written.count, "\(item)")
    }
    let layouts = [
      Self.bigLists(),
      [
        Checklist(name: "A & <B>", iconName: "Folder", items: items),
        Checklist(name: "Empty", iconName: "Trips", unknownFields: ["xColour": .integer(2)]),
        Checklist(name: "C\r", iconName: "Folder", items: Array(items.prefix(5))),
      ],
    ]
    for lists in layouts {
      let whole = try #require(ChecklistsFileEncoder.xml(lists, parts: 1))
      let itemCount = lists.reduce(0) { $0 + $1.items.count }
      for parts in [1, 2, 3, 7] {
        let sizes = (0..<parts).map {
          ChecklistsFileEncoder.xmlSize(
            of: lists, .init(slice: $0, of: parts, itemCount: itemCount))
        }
        #expect(sizes.reduce(0, +) + "</plist>\n".utf8.count == whole.count, "\(parts) parts")
      }
    }
  }

  /// Parts written into regions of one buffer give the document written in order whether their
  /// regions fit them exactly, leave room to close up, or are outgrown (then each is copied).
  @Test func xmlPartsInRegionsThatFitOrAreOutgrownGiveTheSameBytes() throws {
    let lists = Self.bigLists()
    let whole = try #require(ChecklistsFileEncoder.xml(lists, parts: 1))
    let itemCount = lists.reduce(0) { $0 + $1.items.count }
    for parts in [2, 3] {
      let exact = (0..<parts).map {
        ChecklistsFileEncoder.xmlSize(of: lists, .init(slice: $0, of: parts, itemCount: itemCount))
      }
      let shapes: [(String, [Int])] = [
        ("exact", exact),
        ("loose", exact.map { $0 + 4_099 }),
        ("first outgrown", [exact[0] - 1] + exact.dropFirst()),
        ("last outgrown", exact.dropLast() + [exact[parts - 1] / 2]),
      ]
      for (shape, bounds) in shapes {
        let same = ChecklistsFileEncoder.xml(lists, parts: parts, bounds: bounds) == whole
        #expect(same, "\(shape), \(parts) parts")
      }
    }
  }

  /// Reads `data` as a checklists XML file, with the second thread or in order.
  private static func xmlLists(_ data: Data, splitting: Bool, decodingItems: Bool = true) throws
    -> (lists: [Checklist], split: Bool)
  {
    let (tree, split) = try data.withUnsafeBytes { raw in
      try XMLPlistReader.parseReportingSplit(
        raw, decodingItems: decodingItems, splitting: splitting)
    }
    let lists = try ChecklistsSchemaDecoder(source: PlistTreeSource(root: tree)).decodeInOrder()
    return (lists, split)
  }

  /// The error reading `data` gives, with or without the second thread.
  private static func xmlError(_ data: Data, splitting: Bool) -> PlistError? {
    do {
      _ = try data.withUnsafeBytes { raw in
        try XMLPlistReader.parseReportingSplit(raw, decodingItems: true, splitting: splitting)
      }
      return nil
    } catch {
      return error as? PlistError
    }
  }

  /// A big XML file is read on two threads, the second from an item near the middle: the lists
  /// are those of reading in order, every error is the same (with its line) wherever it is,
  /// and a place that only looks like an item (here inside a comment) is passed by.
  @Test func aBigXMLFileIsReadOnTwoThreadsAsInOrder() throws {
    let lists = Self.bigLists()
    let data = try #require(ChecklistsFileEncoder.xml(lists, parts: 1))
    // XML keeps dates to the second: what reading in order gives is the reference.
    let inOrder = try Self.xmlLists(data, splitting: false)
    #expect(!inOrder.split)
    // Items in the writer's layout are read by a shortcut: the general reading agrees.
    let general = try Self.xmlLists(data, splitting: false, decodingItems: false)
    #expect(general.lists == inOrder.lists, "the general reading")
    #expect(inOrder.lists.map(\.items.count) == lists.map(\.items.count))
    #expect(inOrder.lists.map(\.name) == lists.map(\.name))
    let twoThreads = try Self.xmlLists(data, splitting: true)
    #expect(twoThreads.split == (ItemSlices.threads > 1))
    #expect(twoThreads.lists == inOrder.lists, "two threads")
    #expect(try ChecklistsFileCoding.decode(data).lists == inOrder.lists, "the codec")

    let bytes = [UInt8](data)
    func firstIndex(of text: String, after start: Int) throws -> Int {
      let needle = Array(text.utf8)
      return try #require(
        (start..<(bytes.count - needle.count)).first {
          bytes[$0..<($0 + needle.count)].elementsEqual(needle)
        })
    }
    // A damaged tag before the middle, just after it and near the end.
    for fraction in [0.25, 0.5, 0.9] {
      var damaged = bytes
      let at = try firstIndex(of: "</string>", after: Int(Double(bytes.count) * fraction))
      damaged[at + 7] = UInt8(ascii: "X")
      let error = try #require(Self.xmlError(Data(damaged), splitting: false))
      #expect(error.message.contains("expected </string> but found </strinX>"))
      #expect(Self.xmlError(Data(damaged), splitting: true) == error, "at \(fraction)")
    }
    // An item's layout inside a comment near the middle: the guess lands in it, and is passed by.
    let after = try firstIndex(of: "</dict>\n", after: bytes.count / 2) + 8
    let comment = Array("<!--\n\t\t\t<dict>\n-->".utf8)
    let commented = Array(bytes[..<after]) + comment + Array(bytes[after...])
    let guess = commented.withUnsafeBufferPointer { XMLPlistReader.splitPosition(in: $0) }
    #expect(guess == after + 8)
    let passedBy = try Self.xmlLists(Data(commented), splitting: true)
    #expect(!passedBy.split)
    #expect(passedBy.lists == inOrder.lists, "passed by")
  }

  @Test func smallFilesAreReadWithoutThreadsAndXMLInOrder() throws {
    let small = Array(Self.bigLists().suffix(10))
    let binary = ChecklistsSchemaDecoder(
      source: try BinaryPlistReader(bytes: [UInt8](ChecklistsFileEncoder.binary(small))))
    // One pass over the lists either way: no threads below the threshold, no second reading.
    let expected = ProcessInfo.processInfo.activeProcessorCount > 1 ? small : nil
    #expect(ConcurrentItemDecoding(decoder: binary).lists() == expected)
    let document = try #require(ChecklistsFileEncoder.xml(small, parts: 1))
    let tree = try [UInt8](document).withUnsafeBytes { raw in
      try XMLPlistReader.parse(raw, decodingItems: true)
    }
    let xml = ChecklistsSchemaDecoder(source: PlistTreeSource(root: tree))
    #expect(ConcurrentItemDecoding(decoder: xml).lists() == nil)
  }

  /// A small file whose lists share one items array, which repeats one item, would unfold into
  /// millions of items: it is refused like any other expansion past the budget.
  @Test func sharedItemsCannotUnfoldIntoMillions() throws {
    let data = Self.sharedItemsFile(lists: 300, itemsPerList: 20_000)
    #expect(data.count < 50_000)
    #expect(throws: FileFormatError("binary property list expands to too many values")) {
      try ChecklistsFileCoding.decode(data)
    }
    // The same sharing within the budget reads as the items it stands for.
    let small = try ChecklistsFileCoding.decode(Self.sharedItemsFile(lists: 3, itemsPerList: 50))
    #expect(small.lists.count == 3)
    #expect(small.lists.allSatisfy { $0.items.count == 50 && $0.items[49].text == "n" })
  }

  /// A binary plist whose top array refers `lists` times to one list, whose items array refers
  /// `itemsPerList` times to one item (2-byte references, 4-byte offsets).
  private static func sharedItemsFile(lists: Int, itemsPerList: Int) -> Data {
    func be(_ value: Int, _ size: Int) -> [UInt8] {
      (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * (size - 1 - $0))) }
    }
    func ascii(_ text: String) -> [UInt8] { [0x50 | UInt8(text.utf8.count)] + Array(text.utf8) }
    func refs(_ objects: [Int]) -> [UInt8] { objects.flatMap { be($0, 2) } }
    let objects: [[UInt8]] = [
      [0xAF, 0x12] + be(lists, 4) + refs(Array(repeating: 1, count: lists)),  // 0: lists
      [0xD3] + refs([3, 4, 5]) + refs([6, 7, 2]),  // 1: the list
      [0xAF, 0x12] + be(itemsPerList, 4) + refs(Array(repeating: 8, count: itemsPerList)),
      ascii("name"), ascii("iconName"), ascii("items"), ascii("n"), ascii("i"),  // 3-7
      [0xD5] + refs([9, 10, 11, 12, 13]) + refs([6, 14, 15, 14, 16]),  // 8: the item
      ascii("text"), ascii("checked"), ascii("dueDate"), ascii("shouldRemind"), ascii("itemID"),
      [0x08], [0x33] + be(0, 8), [0x10, 0x01],  // 14: false, 15: a date, 16: 1
    ]
    var bytes = Array("bplist00".utf8)
    var offsets: [Int] = []
    for object in objects {
      offsets.append(bytes.count)
      bytes += object
    }
    let table = bytes.count
    for offset in offsets { bytes += be(offset, 4) }
    bytes += [0, 0, 0, 0, 0, 0, 4, 2] + be(objects.count, 8) + be(0, 8) + be(table, 8)
    return Data(bytes)
  }

  /// The first problem in file order is the one reported, even when a later list's own fields
  /// are read (and fail) before the earlier list's items.
  @Test func theErrorIsTheFirstInFileOrder() throws {
    var tree = Support.tree(Self.bigLists())
    guard case .array(var lists) = tree, case .dictionary(var giant) = lists[2],
      case .array(var items) = giant["items"], case .dictionary(var item) = items[19_999],
      case .dictionary(var later) = lists[10]
    else {
      Issue.record("unexpected tree shape")
      return
    }
    item["checked"] = .string("yes")
    items[19_999] = .dictionary(item)
    giant["items"] = .array(items)
    lists[2] = .dictionary(giant)
    later["name"] = .integer(5)
    lists[10] = .dictionary(later)
    tree = .array(lists)
    let data = try Support.foundationWrite(tree, format: .binary)

    let expected =
      "list 3 (\"List 2\"), item 20000: \"checked\" should be true/false but is a string"
    #expect(throws: FileFormatError(expected)) { try ChecklistsFileCoding.decode(data) }
    let decoder = ChecklistsSchemaDecoder(source: try BinaryPlistReader(bytes: [UInt8](data)))
    #expect(throws: FileFormatError(expected)) { try decoder.decodeInOrder() }
    #expect(ConcurrentItemDecoding(decoder: decoder).lists() == nil)
  }
}
