import Foundation
import Testing

@testable import ChecklistsCore

/// Unknown keys survive load and save, and text XML cannot hold makes the file binary.
@Suite struct FileFormatUnknownKeysTests {
  private typealias Support = FileFormatTestSupport

  private let everyType: [String: PlistValue] = [
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
