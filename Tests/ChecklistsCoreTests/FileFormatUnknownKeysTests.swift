import Foundation
import Testing

@testable import ChecklistsCore

/// Unknown keys survive load and save, and text XML cannot hold makes the file binary.
@Suite struct FileFormatUnknownKeysTests {
  private typealias Support = FileFormatTestSupport

  private let everyType: [PlistKey: PlistValue] = [
    "aString": .string("héllo 😀"),
    "anInteger": .integer(-42),
    "aBigInteger": .unsignedInteger(UInt64.max),
    "aReal": .real(0.1),
    "aBool": .bool(true),
    "aDate": .date(Date(timeIntervalSinceReferenceDate: 700_000_000)),
    "someData": .data(Data((0..<100).map { UInt8($0) })),
    "anArray": .array([.integer(1), .string("two"), .array([]), .dictionary([:])]),
    "aDictionary": .dictionary([
      "nested": .dictionary(["deeper": .array([.real(-1e300), .data(Data())])]),
      "when": .date(Date(timeIntervalSinceReferenceDate: -1)),
    ]),
  ]

  private var lists: [Checklist] {
    [
      Checklist(
        name: "Trips", iconName: "Trips",
        items: [
          ChecklistItem(
            text: "Pack", checked: true, dueDate: Date(timeIntervalSinceReferenceDate: 1_000),
            shouldRemind: true, itemID: 9, unknownFields: everyType),
          ChecklistItem(
            text: "Go", dueDate: Date(timeIntervalSinceReferenceDate: 2_000), itemID: 10),
        ],
        unknownFields: everyType.merging(["colour": .string("blue")]) { $1 })
    ]
  }

  @Test(arguments: [PlistFormat.binary, .xml])
  func unknownKeysSurviveDecodeEncodeDecode(format: PlistFormat) throws {
    let first = try ChecklistsFileCoding.encode(lists, format: format)
    #expect(first.format == format)
    let decoded = try ChecklistsFileCoding.decode(first.data)
    #expect(decoded.lists == lists)
    #expect(decoded.lists[0].unknownFields["colour"] == .string("blue"))
    #expect(decoded.lists[0].items[0].unknownFields == everyType)
    let second = try ChecklistsFileCoding.encode(decoded.lists, format: format)
    #expect(second.data == first.data)
    #expect(try ChecklistsFileCoding.decode(second.data).lists == lists)
  }

  /// A list key of our own holding dictionaries shaped exactly like items (the XML reader
  /// reads those as items wherever they are, and arrays of nothing but them as one array of
  /// items) reads back as the dictionaries it is, alone, mixed with other values, or empty.
  @Test(arguments: [PlistFormat.binary, .xml])
  func itemShapedDictionariesInAnUnknownKeyStayDictionaries(format: PlistFormat) throws {
    func itemShaped(_ id: Int64) -> PlistValue {
      .dictionary([
        "checked": .bool(id % 2 == 0), "dueDate": .date(Date(timeIntervalSinceReferenceDate: 60)),
        "itemID": .integer(id), "shouldRemind": .bool(false), "text": .string("archived \(id)"),
      ])
    }
    let unknown: [PlistKey: PlistValue] = [
      "xArchive": .array([itemShaped(1), itemShaped(2)]),
      "xMixed": .array([itemShaped(3), .string("not an item"), itemShaped(4)]),
      "xEmpty": .array([]),
    ]
    let lists = [
      Checklist(
        name: "Trips",
        items: [
          ChecklistItem(text: "Go", dueDate: Date(timeIntervalSinceReferenceDate: 0), itemID: 10)
        ],
        unknownFields: unknown)
    ]
    let encoded = try ChecklistsFileCoding.encode(lists, format: format)
    let decoded = try ChecklistsFileCoding.decode(encoded.data)
    #expect(decoded.lists[0].unknownFields == unknown)
    #expect(decoded.lists == lists)
  }

  @Test(arguments: [PlistFormat.binary, .xml])
  func unknownKeysInAFoundationFileAreWrittenBack(format: PlistFormat) throws {
    let tree = Support.tree(lists)
    let original = try Support.foundationWrite(tree, format: format)
    let decoded = try ChecklistsFileCoding.decode(original)
    let saved = try ChecklistsFileCoding.encode(decoded.lists, format: format)
    #expect(try Support.foundationRead(saved.data) == tree)
  }

  @Test func xmlKeysAreSortedAndKnownKeysWin() throws {
    var list = Checklist(
      name: "Real", items: [], unknownFields: ["name": .string("shadow"), "B": .bool(true)])
    list.unknownFields["a"] = .integer(1)
    let encoded = try ChecklistsFileCoding.encode([list], format: .xml)
    let text = String(decoding: encoded.data, as: UTF8.self)
    let keys = text.components(separatedBy: "<key>").dropFirst().map {
      String($0.prefix { $0 != "<" })
    }
    #expect(keys == ["B", "a", "iconName", "items", "name"])
    #expect(!text.contains("shadow"))
    #expect(try ChecklistsFileCoding.decode(encoded.data).lists[0].name == "Real")
  }

  // MARK: - Text XML cannot hold

  @Test func controlCharacterInAnItemMakesTheFileBinary() throws {
    let due = Date(timeIntervalSinceReferenceDate: 5_000)
    let lists = [
      Checklist(
        name: "Inbox",
        items: [ChecklistItem(text: "bell \u{7} and nul \u{0}", dueDate: due, itemID: 1)])
    ]
    let encoded = try ChecklistsFileCoding.encode(lists, format: .xml)
    #expect(encoded.format == .binary)
    #expect(
      encoded.formatNote
        == "saved as a binary property list because an item holds control characters that XML"
        + " cannot store")
    #expect(try ChecklistsFileCoding.decode(encoded.data).lists == lists)
    #expect(try PropertyListDecoder().decode([Checklist].self, from: encoded.data) == lists)
    if let python = Support.python3 {
      try FileFormatDifferentialTests.expectPlistlibReads(encoded.data, as: lists, python: python)
    }
  }

  @Test func otherTextXMLCannotHold() throws {
    let due = Date(timeIntervalSinceReferenceDate: 5_000)
    let item = ChecklistItem(text: "fine\ttab\nline", dueDate: due, itemID: 1)
    let listNote =
      "saved as a binary property list because a list holds control characters that XML cannot"
      + " store"
    let itemNote =
      "saved as a binary property list because an item holds control characters that XML cannot"
      + " store"
    let cases: [([Checklist], String?)] = [
      ([Checklist(name: "ok", items: [item])], nil),
      ([Checklist(name: "non\u{FFFE}character", items: [item])], listNote),
      ([Checklist(name: "ok", iconName: "\u{FFFF}", items: [item])], listNote),
      ([Checklist(name: "ok", items: [item], unknownFields: ["k\u{1B}": .integer(1)])], listNote),
      (
        [
          Checklist(
            name: "ok",
            items: [
              ChecklistItem(
                text: "t", dueDate: due, itemID: 2,
                unknownFields: ["deep": .array([.dictionary(["x": .string("\u{1F}")])])])
            ])
        ], itemNote
      ),
      (
        [
          Checklist(
            name: "ok",
            items: [
              ChecklistItem(
                text: "t", dueDate: Date(timeIntervalSinceReferenceDate: 1e15), itemID: 2)
            ])
        ],
        "saved as a binary property list because an item's due date is outside the years 1 to"
          + " 9999 that XML can store"
      ),
    ]
    for (lists, note) in cases {
      let encoded = try ChecklistsFileCoding.encode(lists, format: .xml)
      #expect(encoded.formatNote == note)
      #expect(encoded.format == (note == nil ? .xml : .binary))
      #expect(try ChecklistsFileCoding.decode(encoded.data).lists == lists)
      // plistlib's datetime stops at year 9999, so it only gets the files it can represent.
      let representable = lists.allSatisfy {
        $0.items.allSatisfy { $0.dueDate.timeIntervalSinceReferenceDate < 2e11 }
      }
      if let python = Support.python3, representable {
        try FileFormatDifferentialTests.expectPlistlibReads(encoded.data, as: lists, python: python)
      }
    }
  }
}

/// The XML reader's item fast path gives way to the general path whenever an item is unusual.
@Suite struct FileFormatXMLItemPathTests {
  private let due = Date(timeIntervalSinceReferenceDate: 7_200)

  @Test func itemShapedDictionaryInAnUnknownKeyStaysADictionary() throws {
    let itemLike: PlistValue = .dictionary([
      "text": .string("t"), "checked": .bool(true), "dueDate": .date(due),
      "shouldRemind": .bool(false), "itemID": .integer(3),
    ])
    let lists = [
      Checklist(
        name: "L", items: [ChecklistItem(text: "a", dueDate: due, itemID: 1)],
        unknownFields: ["shapes": .array([itemLike])])
    ]
    let encoded = try ChecklistsFileCoding.encode(lists, format: .xml)
    #expect(try ChecklistsFileCoding.decode(encoded.data).lists == lists)
  }

  @Test func unusualItemsReadLikeUsualOnes() throws {
    func file(_ item: String) -> Data {
      Data(
        """
        <plist version="1.0"><array><dict><key>name</key><string>L</string>
        <key>iconName</key><string>Inbox</string><key>items</key><array>\(item)</array>
        </dict></array></plist>
        """.utf8)
    }
    let usual =
      "<dict><key>text</key><string>Milk</string><key>checked</key><true/>"
      + "<key>dueDate</key><date>2001-01-01T02:00:00Z</date><key>shouldRemind</key><false/>"
      + "<key>itemID</key><integer>5</integer></dict>"
    let expected = ChecklistItem(
      text: "Milk", checked: true, dueDate: due, shouldRemind: false, itemID: 5)
    #expect(try ChecklistsFileCoding.decode(file(usual)).lists[0].items == [expected])
    let variants = [
      usual.replacingOccurrences(of: "Milk", with: "Mi&#108;k"),
      usual.replacingOccurrences(of: "<key>text</key>", with: "<key>te&#120;t</key>"),
      usual.replacingOccurrences(of: "<true/>", with: "<true></true>"),
      usual.replacingOccurrences(of: "<integer>5", with: "<integer> 5 "),
      usual.replacingOccurrences(of: "<dict>", with: "<dict><!-- note -->"),
      usual.replacingOccurrences(of: "<integer>5</integer>", with: "<integer>9</integer>")
        .replacingOccurrences(of: "</dict>", with: "<key>itemID</key><integer>5</integer></dict>"),
    ]
    for variant in variants {
      #expect(try ChecklistsFileCoding.decode(file(variant)).lists[0].items == [expected])
    }
    let withExtra = usual.replacingOccurrences(
      of: "</dict>", with: "<key>colour</key><string>red</string></dict>")
    let item = try ChecklistsFileCoding.decode(file(withExtra)).lists[0].items[0]
    #expect(item.unknownFields == ["colour": .string("red")])
    let negative = usual.replacingOccurrences(of: "<integer>5", with: "<integer>-5")
    #expect(try ChecklistsFileCoding.decode(file(negative)).lists[0].items[0].itemID == -5)
  }
}
