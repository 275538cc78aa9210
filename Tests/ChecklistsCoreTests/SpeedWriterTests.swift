import Foundation
import Testing

@testable import ChecklistsCore

/// The binary writer's sharing of equal values, its output buffer, and reading files into
/// arrays: what the speed passes added.
@Suite struct SpeedWriterTests {
  /// The object count in a `bplist00` trailer.
  private func objectCount(_ data: Data) -> Int {
    let bytes = [UInt8](data)
    var value = 0
    for byte in bytes[(bytes.count - 24)..<(bytes.count - 16)] { value = value << 8 | Int(byte) }
    return value
  }

  /// Reads a file back through the project's reader and through Foundation.
  private func readBack(_ data: Data) throws -> (ours: PlistValue, foundation: Any) {
    let ours = try PlistValue.decode(from: data).value
    let foundation = try PropertyListSerialization.propertyList(from: data, format: nil)
    return (ours, foundation)
  }

  @Test func equalStringsDatesAndIntegersShareOneObject() throws {
    var writer = BinaryPlistWriter()
    let top = writer.reserve()
    var elements: [Int] = []
    let date = Date(timeIntervalSinceReferenceDate: 123_456.789)
    for _ in 0..<1_000 {
      elements.append(writer.string("milk"))
      elements.append(writer.string("Größe 日本"))
      elements.append(writer.date(date))
      elements.append(writer.integer(7))
      elements.append(writer.integer(5_000_000_000))
      elements.append(writer.integer(-3))
      elements.append(writer.bool(true))
    }
    #expect(Set(elements).count == 7)
    writer.setArray(top, elements)
    let data = writer.finish(top: top)
    // The array and the seven distinct values.
    #expect(objectCount(data) == 8)
    let (ours, foundation) = try readBack(data)
    guard case .array(let values) = ours else {
      Issue.record("not an array: \(ours)")
      return
    }
    #expect(values.count == 7_000)
    #expect(values[0] == .string("milk"))
    #expect(values[1] == .string("Größe 日本"))
    #expect(values[2] == .date(date))
    #expect(values[3] == .integer(7))
    #expect(values[4] == .integer(5_000_000_000))
    #expect(values[5] == .integer(-3))
    #expect(values[6] == .bool(true))
    #expect(values[6_999] == .bool(true))
    #expect((foundation as? [Any])?.count == 7_000)
  }

  @Test func distinctValuesEachGetAnObjectAndRoundTrip() throws {
    var writer = BinaryPlistWriter(capacity: 16)
    let top = writer.reserve()
    var elements: [Int] = []
    var expected: [PlistValue] = []
    // Far more than the sharing table's first size, so that it grows.
    for index in 0..<20_000 {
      elements.append(writer.string("item \(index)"))
      expected.append(.string("item \(index)"))
      let date = Date(timeIntervalSinceReferenceDate: Double(index) * 0.5)
      elements.append(writer.date(date))
      expected.append(.date(date))
      elements.append(writer.integer(Int64(index) * 1_000_003))
      expected.append(.integer(Int64(index) * 1_000_003))
    }
    writer.setArray(top, elements)
    let data = writer.finish(top: top)
    // Each string, date and integer is distinct (a date and an integer never share).
    #expect(objectCount(data) == 1 + 60_000)
    let (ours, foundation) = try readBack(data)
    #expect(ours == .array(expected))
    #expect((foundation as? [Any])?.count == 60_000)
  }

  /// Files whose object count or offset table position sits at a size boundary: references
  /// must count every object and offsets must reach the table, or Foundation refuses the file.
  @Test(arguments: [254, 255, 256, 257, 65_535, 65_536])
  func sizesAtByteBoundariesStayReadableByFoundation(objects: Int) throws {
    var writer = BinaryPlistWriter()
    let top = writer.reserve()
    let elements = (0..<(objects - 1)).map { writer.integer(Int64($0) + 1_000) }
    writer.setArray(top, elements)
    let data = writer.finish(top: top)
    #expect(objectCount(data) == objects)
    let (ours, foundation) = try readBack(data)
    #expect(ours == .array((0..<(objects - 1)).map { .integer(Int64($0) + 1_000) }))
    #expect((foundation as? [Any])?.count == objects - 1)
  }

  /// The same writer calls give the same file whatever the number of runs `finish` writes
  /// the collections and the offset table in: runs split anywhere, collections of 14, 15 and
  /// 70,000 entries (one-byte and longer counts), more runs than objects.
  @Test(arguments: [1, 3, 70_000])
  func finishingInRunsGivesTheSameBytes(width: Int) throws {
    func written(parts: Int) -> Data {
      var writer = BinaryPlistWriter()
      let top = writer.reserve()
      var children: [Int] = []
      for row in 0..<max(width / 1_000, 1) {
        let array = writer.reserve()
        let count = [0, 14, 15, 1_000][row % 4]
        let elements = (0..<count).map { writer.uniqueString("row \(row) item \($0) ö") }
        writer.setArray(array, elements)
        let dictionary = writer.reserve()
        writer.setDictionary(
          dictionary, keys: [writer.string("k"), writer.string("l")],
          values: [array, writer.integer(Int64(row))])
        children.append(dictionary)
      }
      if width >= 70_000 {
        let big = writer.reserve()
        writer.setArray(big, (0..<width).map { writer.integer(Int64($0) + 1_000) })
        children.append(big)
      }
      writer.setArray(top, children)
      return writer.finish(top: top, parts: parts)
    }
    let one = written(parts: 1)
    for parts in [2, 3, 7, 1_000_000] {
      // Compared outside `#expect`, whose diff of two big unequal files would take minutes.
      let same = written(parts: parts) == one
      #expect(same, "\(parts) runs")
    }
    let (ours, foundation) = try readBack(one)
    guard case .array(let rows) = ours else {
      Issue.record("not an array: \(ours)")
      return
    }
    #expect(rows.count == (foundation as? [Any])?.count)
  }

  @Test(arguments: [200, 240, 250, 255, 256, 300])
  func anOffsetTableNearByte256StaysReadableByFoundation(textLength: Int) throws {
    var writer = BinaryPlistWriter()
    let top = writer.reserve()
    let elements = [
      writer.string("x"), writer.uniqueString(String(repeating: "a", count: textLength)),
    ]
    writer.setArray(top, elements)
    let data = writer.finish(top: top)
    let (ours, foundation) = try readBack(data)
    #expect(ours == .array([.string("x"), .string(String(repeating: "a", count: textLength))]))
    #expect((foundation as? [Any])?.count == 2)
  }

  @Test func uniqueValuesAreNotShared() throws {
    var writer = BinaryPlistWriter()
    let top = writer.reserve()
    let date = Date(timeIntervalSinceReferenceDate: 0)
    var elements: [Int] = []
    for _ in 0..<100 {
      elements.append(writer.uniqueString("same"))
      elements.append(writer.uniqueDate(date))
    }
    #expect(Set(elements).count == 200)
    writer.setArray(top, elements)
    let data = writer.finish(top: top)
    #expect(objectCount(data) == 201)
    let (ours, _) = try readBack(data)
    #expect(
      ours
        == .array(
          Array(repeating: [PlistValue.string("same"), .date(date)], count: 100).flatMap { $0 }))
  }

  @Test func aFileOfEqualItemsSharesKeysAndBooleansButNotTextsDatesOrIDs() throws {
    let date = Date(timeIntervalSinceReferenceDate: 700_000_000)
    let items = (0..<500).map { _ in
      ChecklistItem(text: "same", checked: false, dueDate: date, shouldRemind: false, itemID: 3)
    }
    let lists = [
      Checklist(name: "A", iconName: "Folder", items: items),
      Checklist(name: "A", iconName: "Folder", items: items),
    ]
    let data = try ChecklistsFileCoding.encode(lists, format: .binary).data
    // Top array, 5 item keys, 3 list keys, "A", "Folder", true, false; per list a dictionary
    // and an items array; per item a dictionary, its date, its ID and its text (an item's
    // objects are made without looking for equal ones, so that parts can be made at once).
    #expect(objectCount(data) == 1 + 5 + 3 + 4 + 2 * 2 + 1_000 * 4)
    let document = try ChecklistsFileCoding.decode(data)
    #expect(document.lists.map(\.items) == lists.map(\.items))
    #expect(try PropertyListSerialization.propertyList(from: data, format: nil) is [Any])
    // Deterministic: the same lists give the same bytes.
    #expect(try ChecklistsFileCoding.encode(lists, format: .binary).data == data)
  }

  /// Lists of usual items whose scalars the room overestimates least (short texts) or most.
  private static func roomCases() -> [(name: String, lists: [Checklist])] {
    let due = Date(timeIntervalSinceReferenceDate: 800_000_000)
    func list(_ name: String, _ count: Int, dated: Bool = false, text: (Int) -> String)
      -> Checklist
    {
      let items = (0..<count).map { index in
        ChecklistItem(
          text: text(index), checked: index.isMultiple(of: 2), dueDate: due,
          shouldRemind: index.isMultiple(of: 3), hasDueDate: dated, itemID: index)
      }
      return Checklist(name: name, iconName: "Folder", items: items)
    }
    return [
      ("nothing", []),
      ("empty texts, one big list", [list("Big", 70_000) { _ in "" }]),
      ("one-letter texts, dated", [list("Dated", 20_000, dated: true) { _ in "a" }]),
      ("many small lists", (0..<3_000).map { list("L\($0)", 3) { _ in "" } }),
      ("lists of 14, 15 and 16", [14, 15, 16].map { list("\($0)", $0) { _ in "" } }),
      ("CJK and emoji", [list("漢字", 5_000) { $0.isMultiple(of: 2) ? "日本語のテキスト" : "🙂👍🏽" }]),
      ("long ASCII", [list("Long", 2_000) { String(repeating: "x", count: 200 + $0 % 50) }]),
    ]
  }

  /// The room for exact counts holds the file: an array of `count` distinct short strings, its
  /// marker 1 byte below 15 elements and 3 to 4 from there.
  @Test(arguments: [1, 14, 15, 255, 256, 70_000])
  func theRoomForExactCountsHoldsTheFile(count: Int) {
    var writer = BinaryPlistWriter()
    let top = writer.reserve()
    let texts = (0..<count).map { "s\($0)" }
    writer.setArray(top, texts.map { writer.uniqueString($0) })
    let size = writer.finish(top: top).count
    let scalars = texts.reduce(0) { $0 + 1 + $1.utf8.count }
    let room = BinaryPlistWriter.fileRoom(objects: count + 1, refs: count, scalarBytes: scalars)
    #expect(room >= size)
  }

  /// The room holds collections whose markers take more than a byte: a thousand arrays of 15
  /// and of 16 references to the same strings.
  @Test(arguments: [15, 16])
  func theRoomHoldsLongCollectionMarkers(length: Int) {
    var writer = BinaryPlistWriter()
    let top = writer.reserve()
    let shared = (0..<length).map { writer.uniqueString("\($0 % 10)") }
    let arrays = (0..<1_000).map { _ in
      let array = writer.reserve()
      writer.setArray(array, shared)
      return array
    }
    writer.setArray(top, arrays)
    let size = writer.finish(top: top).count
    let room = BinaryPlistWriter.fileRoom(
      objects: 1 + length + 1_000, refs: 1_000 * length + 1_000, scalarBytes: 2 * length)
    #expect(room >= size)
  }

  /// The encoder's room for usual items holds every shape of file: the saving of a quit that
  /// comes from not moving 8 MB to a bigger buffer holds for all of them.
  @Test func theWriterMakesRoomForTheWholeFileAtOnce() {
    for (name, lists) in Self.roomCases() {
      let room = ChecklistsFileEncoder.UsualSizes(lists).fileRoom
      let size = ChecklistsFileEncoder.binary(lists).count
      #expect(room >= size, "\(name): room \(room) for \(size) bytes")
    }
  }

  /// Parts encoded into regions of the file's buffer end up one after the other, in order,
  /// whether each fits its region (moved down) or outgrew it (copied from its own memory).
  @Test(arguments: [false, true])
  func partsWrittenInRegionsFollowEachOther(outgrow: Bool) throws {
    var writer = BinaryPlistWriter()
    let top = writer.reserve()
    writer.setArray(top, [writer.uniqueString("head")])
    let regions = writer.scalarRegions([4, 3, 5])
    let parts = regions.map { OutputBuffer(borrowing: $0) }
    let contents: [[UInt8]] = [[1, 2, 3], outgrow ? [4, 5, 6, 7, 8, 9] : [4, 5], [10, 11]]
    for (part, bytes) in zip(parts, contents) { part.append(contentsOf: bytes) }
    #expect(parts.map(\.isBorrowed) == [true, !outgrow, true])
    let starts = writer.commitScalars(parts, in: regions)
    let file = [UInt8](writer.finish(top: top))
    #expect(starts == [starts[0], starts[0] + 3, starts[0] + 3 + contents[1].count])
    #expect(Array(file[starts[0]..<(starts[0] + 5 + contents[1].count)]) == contents.flatMap { $0 })
    // The head string is still read back.
    #expect(try PlistValue.decode(from: Data(file)).value == .array([.string("head")]))
  }

  @Test func aBorrowingBufferMovesToItsOwnMemoryWhenItOutgrowsItsRegion() {
    let region = UnsafeMutableRawBufferPointer.allocate(byteCount: 8, alignment: 8)
    defer { region.deallocate() }
    region.initializeMemory(as: UInt8.self, repeating: 0xEE)
    let buffer = OutputBuffer(borrowing: region)
    buffer.append(contentsOf: [1, 2, 3, 4, 5, 6, 7, 8])
    #expect(buffer.isBorrowed)
    #expect(Array(region) == [1, 2, 3, 4, 5, 6, 7, 8])
    buffer.append(contentsOf: Array(9...40))
    #expect(!buffer.isBorrowed)
    #expect(Array(buffer.bytes) == Array(1...40))
    // The region is left as it was when the bytes moved.
    #expect(Array(region) == [1, 2, 3, 4, 5, 6, 7, 8])
    #expect(buffer.takeData() == Data(1...40))
  }

  @Test func outputBufferGrowsAndHandsOverItsBytes() {
    let buffer = OutputBuffer(capacity: 3)
    var expected: [UInt8] = []
    for index in 0..<50_000 {
      let byte = UInt8(truncatingIfNeeded: index)
      buffer.append(byte)
      expected.append(byte)
      if index % 1_000 == 0 {
        buffer.appendUInt(0x0102_0304_0506_0708, size: 8)
        expected += [1, 2, 3, 4, 5, 6, 7, 8]
        buffer.appendUInt(0xABCD, size: 2)
        expected += [0xAB, 0xCD]
        buffer.append(utf8: "é")
        expected += [0xC3, 0xA9]
      }
    }
    buffer.append(uninitialized: 3) { raw in
      raw[0] = 9
      raw[1] = 8
      raw[2] = 7
    }
    expected += [9, 8, 7]
    buffer.removeLast(1)
    expected.removeLast()
    #expect(Array(buffer.bytes) == expected)
    let data = buffer.takeData()
    #expect([UInt8](data) == expected)
    #expect(buffer.count == 0)
    #expect(buffer.takeData().isEmpty)
  }

  @Test func readAllBytesMatchesReadAll() throws {
    let system = SystemFileSystem()
    let split = SystemFileSystem.splitReadBytes
    for count in [0, 1, 65_535, 65_536, 200_001, split - 1, split, split + 3, 3 * split + 1] {
      let url = FileFormatTestSupport.temporaryFile("speed-read-\(count).bin")
      defer { try? FileManager.default.removeItem(at: url) }
      let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7) }
      try Data(bytes).write(to: url)
      let fd = try system.open(url.path, flags: O_RDONLY, mode: 0)
      let read = try system.readAllBytes(fd, limit: 1 << 30)
      try system.close(fd)
      // Compared outside `#expect`, whose diff of big unequal arrays takes minutes.
      let same = read == bytes
      #expect(same, "length \(count)")
      // A limit below the size stops after limit + 1 bytes, so the caller sees the excess.
      if count > 10 {
        let limited = try system.open(url.path, flags: O_RDONLY, mode: 0)
        let part = try system.readAllBytes(limited, limit: 10)
        try system.close(limited)
        #expect(part == Array(bytes.prefix(11)))
      }
      // A big file read in halves up to a limit.
      if count > split + 1 {
        let limited = try system.open(url.path, flags: O_RDONLY, mode: 0)
        let part = try system.readAllBytes(limited, limit: split + 1)
        try system.close(limited)
        let samePart = part == Array(bytes.prefix(split + 2))
        #expect(samePart)
      }
    }
  }

  /// Read in halves, a file shorter than expected (it shrank since its size was taken) gives
  /// its bytes from the start in one piece and leaves the position after them; an error is
  /// reported.
  @Test func readingInHalvesStopsWhereTheFileEnds() throws {
    let system = SystemFileSystem()
    let url = FileFormatTestSupport.temporaryFile("speed-read-halves.bin")
    defer { try? FileManager.default.removeItem(at: url) }
    let size = 5_000_000
    let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ $0 >> 9) }
    try Data(bytes).write(to: url)
    // Expected 12 MB: the file ends in the first half; expected 6 MB: in the second.
    for expected in [12_000_000, 6_000_000, size] {
      let fd = try system.open(url.path, flags: O_RDONLY, mode: 0)
      defer { try? system.close(fd) }
      let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: expected)
      defer { buffer.deallocate() }
      let (read, error) = SystemFileSystem.readInHalves(fd, into: buffer, count: expected)
      #expect(error == 0)
      #expect(read == size, "expected \(expected)")
      let same = Array(UnsafeBufferPointer(start: buffer, count: read)) == bytes
      #expect(same)
      #expect(lseek(fd, 0, SEEK_CUR) == off_t(size))
    }
    let writeOnly = try system.open(url.path, flags: O_WRONLY, mode: 0)
    defer { try? system.close(writeOnly) }
    let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
    defer { buffer.deallocate() }
    #expect(SystemFileSystem.readInHalves(writeOnly, into: buffer, count: size).error == EBADF)
  }
}
