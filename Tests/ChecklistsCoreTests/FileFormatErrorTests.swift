import Foundation
import Testing

@testable import ChecklistsCore

@Suite struct FileFormatErrorTests {
  private func item(_ overrides: [PlistKey: PlistValue?] = [:]) -> PlistValue {
    var fields: [PlistKey: PlistValue] = [
      "text": .string("Milk"), "checked": .bool(false),
      "dueDate": .date(Date(timeIntervalSinceReferenceDate: 0)), "shouldRemind": .bool(false),
      "itemID": .integer(7),
    ]
    for (key, value) in overrides { fields[key] = value }
    return .dictionary(fields)
  }

  private func list(_ name: String, items: [PlistValue], _ overrides: [PlistKey: PlistValue?] = [:])
    -> PlistValue
  {
    var fields: [PlistKey: PlistValue] = [
      "name": .string(name), "iconName": .string("Groceries"), "items": .array(items),
    ]
    for (key, value) in overrides { fields[key] = value }
    return .dictionary(fields)
  }

  /// The decode error for `value`, written by our writer in `format`.
  private func message(_ value: PlistValue, _ format: PlistFormat) throws -> String? {
    let data = try value.encoded(as: format)
    return message(data)
  }

  private func message(_ data: Data) -> String? {
    do {
      _ = try ChecklistsFileCoding.decode(data)
      return nil
    } catch {
      return error.message
    }
  }

  /// A file whose second list is "Groceries" and whose third item there is `bad`.
  private func fileWithBadItem(_ bad: PlistValue) -> PlistValue {
    .array([
      list("Trips", items: [item()]),
      list("Groceries", items: [item(), item(), bad]),
    ])
  }

  @Test(arguments: [PlistFormat.binary, .xml])
  func wrongTypeAtEachItemKey(format: PlistFormat) throws {
    let cases: [(String, PlistValue, String)] = [
      ("text", .integer(3), "\"text\" should be a string but is an integer"),
      ("checked", .string("yes"), "\"checked\" should be true/false but is a string"),
      ("dueDate", .real(1.5), "\"dueDate\" should be a date but is a real number"),
      ("shouldRemind", .array([]), "\"shouldRemind\" should be true/false but is an array"),
      ("itemID", .bool(true), "\"itemID\" should be an integer but is a boolean"),
      ("itemID", .dictionary([:]), "\"itemID\" should be an integer but is a dictionary"),
      ("text", .data(Data([1])), "\"text\" should be a string but is data"),
      (
        "checked", .date(Date(timeIntervalSinceReferenceDate: 0)),
        "\"checked\" should be true/false but is a date"
      ),
    ]
    for (key, value, text) in cases {
      let got = try message(fileWithBadItem(item([PlistKey(key): value])), format)
      #expect(got == "list 2 (\"Groceries\"), item 3: " + text)
    }
  }

  @Test(arguments: [PlistFormat.binary, .xml])
  func missingItemKeys(format: PlistFormat) throws {
    for key in ["text", "checked", "dueDate", "shouldRemind", "itemID"] {
      let file = PlistValue.array([list("Trips", items: [item(), item([PlistKey(key): nil])])])
      #expect(try message(file, format) == "list 1 (\"Trips\"), item 2: \"\(key)\" is missing")
    }
  }

  @Test(arguments: [PlistFormat.binary, .xml])
  func listKeys(format: PlistFormat) throws {
    let missingName = PlistValue.array([list("x", items: [], ["name": nil])])
    #expect(try message(missingName, format) == "list 1: \"name\" is missing")
    let numberName = PlistValue.array([list("x", items: [], ["name": .integer(5)])])
    #expect(
      try message(numberName, format) == "list 1: \"name\" should be a string but is an integer")
    let missingIcon = PlistValue.array([list("Trips", items: [], ["iconName": nil])])
    #expect(try message(missingIcon, format) == "list 1 (\"Trips\"): \"iconName\" is missing")
    let badIcon = PlistValue.array([list("Trips", items: [], ["iconName": .bool(true)])])
    #expect(
      try message(badIcon, format)
        == "list 1 (\"Trips\"): \"iconName\" should be a string but is a boolean")
    let missingItems = PlistValue.array([list("Trips", items: [], ["items": nil])])
    #expect(try message(missingItems, format) == "list 1 (\"Trips\"): \"items\" is missing")
    let badItems = PlistValue.array([list("Trips", items: [], ["items": .dictionary([:])])])
    #expect(
      try message(badItems, format)
        == "list 1 (\"Trips\"): \"items\" should be an array but is a dictionary")
    let notDictionary = PlistValue.array([list("Trips", items: []), .string("hello")])
    #expect(try message(notDictionary, format) == "list 2 should be a dictionary but is a string")
    let itemNotDictionary = PlistValue.array([list("Trips", items: [item(), .integer(1)])])
    #expect(
      try message(itemNotDictionary, format)
        == "list 1 (\"Trips\"), item 2 should be a dictionary but is an integer")
    let quotedName = PlistValue.array([list("Say \"hi\"\n", items: [item(["text": nil])])])
    #expect(
      try message(quotedName, format)
        == "list 1 (\"Say \\\"hi\\\"\\n\"), item 1: \"text\" is missing")
  }

  @Test(arguments: [PlistFormat.binary, .xml])
  func topLevel(format: PlistFormat) throws {
    #expect(
      try message(.dictionary(["a": .integer(1)]), format)
        == "the top level should be an array of checklists but is a dictionary")
    #expect(
      try message(.string("hi"), format)
        == "the top level should be an array of checklists but is a string")
  }

  @Test func itemIDAndDateRanges() throws {
    let big = fileWithBadItem(item(["itemID": .unsignedInteger(UInt64.max)]))
    for format in [PlistFormat.binary, .xml] {
      #expect(
        try message(big, format)
          == "list 2 (\"Groceries\"), item 3: \"itemID\" 18446744073709551615 is too large"
          + " (the largest is 9223372036854775807)")
    }
    let nan = fileWithBadItem(item(["dueDate": .date(Date(timeIntervalSinceReferenceDate: .nan))]))
    #expect(
      try message(nan, .binary)
        == "list 2 (\"Groceries\"), item 3: \"dueDate\" is not a finite date")
  }

  @Test func emptyGarbageAndTruncated() throws {
    #expect(message(Data()) == "the file is empty")
    #expect(message(Data("hello".utf8)) == "not a property list (neither bplist00 nor XML)")
    #expect(message(Data([0, 1, 2, 3])) == "not a property list (neither bplist00 nor XML)")
    #expect(
      message(Data("bplist15xxxx".utf8)) == "binary property list version \"15\" is not supported")
    #expect(message(Data("bplist00\u{A1}".utf8)) == "binary property list is truncated")
    let valid = try PlistValue.array([list("Trips", items: [item()])]).encoded(as: .binary)
    let truncated = message(valid.prefix(valid.count / 2))
    #expect(truncated?.hasPrefix("binary property list") == true)
    let xml = Data(
      "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<array>\n<dict>\n<key>name</key>\n<string>Tr"
        .utf8)
    #expect(message(xml) == "XML error at line 6: unterminated <string>")
    let mismatched = Data("<plist version=\"1.0\">\n<array>\n</dict>\n</plist>\n".utf8)
    #expect(message(mismatched) == "XML error at line 3: expected </array> but found </dict>")
    let unknownTag = Data("<plist>\n<array>\n<foo/>\n</array>\n</plist>".utf8)
    #expect(message(unknownTag) == "XML error at line 3: unknown element <foo>")
    let trailing = Data("<plist><array/></plist>junk".utf8)
    #expect(message(trailing) == "XML error at line 1: content after the end of the property list")
  }

  /// An XML error knows its column too, and is shown after the file's name as a compiler
  /// writes it (`file:line:column: reason`).
  @Test func anXMLErrorNamesItsLineAndColumn() throws {
    func error(_ text: String) -> FileFormatError? {
      do {
        _ = try ChecklistsFileCoding.decode(Data(text.utf8))
        return nil
      } catch {
        return error
      }
    }
    let cut = try #require(
      error("<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<array>\n  <dict><key>na</kee>"))
    #expect(cut.position == TextPosition(line: 4, column: 16))
    #expect(cut.reason == "expected </key> but found </kee>")
    #expect(cut.shown(in: "bad.plist") == "bad.plist:4:16: expected </key> but found </kee>")
    let accented = try #require(error("<plist><array><string>café</string><foo/></array></plist>"))
    #expect(accented.position == TextPosition(line: 1, column: 36))
    #expect(accented.shown(in: "f.plist") == "f.plist:1:36: unknown element <foo>")
    // Other errors have no place: the name and the message.
    let empty = try #require(error(""))
    #expect(empty.shown(in: "f.plist") == "f.plist: the file is empty")
  }

  @Test func badUTF8InXML() {
    var bytes = Array("<plist version=\"1.0\">\n<array>\n<dict>\n<key>name</key>\n<string>".utf8)
    bytes += [0x41, 0xFF, 0xFE, 0x42]
    bytes += Array("</string>\n</dict>\n</array>\n</plist>\n".utf8)
    #expect(message(Data(bytes)) == "XML error at line 5: invalid UTF-8 in <string>")
    let control = Data("<plist><array><string>a\u{1}b</string></array></plist>".utf8)
    #expect(
      message(control) == "XML error at line 1: control character U+0001 is not allowed in XML")
  }

  /// A file cut short inside a closing tag says so; it said "expected </date> but found
  /// </date>".
  @Test func aFileCutInsideAClosingTagSaysSo() throws {
    let lists = [
      Checklist(
        name: "A",
        items: [
          ChecklistItem(text: "x", dueDate: Date(timeIntervalSinceReferenceDate: 0), itemID: 1)
        ])
    ]
    let whole = try #require(ChecklistsFileEncoder.xml(lists, parts: 1))
    let text = String(decoding: whole, as: UTF8.self)
    for tag in ["</date>", "</string>"] {
      let end = try #require(text.range(of: tag)).upperBound
      // Cut before the `>`, in the name, or just after `</`.
      for kept in [1, 3, tag.count - 2] {
        let cut = Data(text[..<text.index(end, offsetBy: -kept)].utf8)
        let found = try #require(message(cut))
        #expect(found.hasSuffix("the file ends inside \(tag) (cut short?)"), "\(found)")
      }
      let spaced = Data((text[..<text.index(before: end)] + " x>" + text[end...]).utf8)
      #expect(message(spaced)?.hasSuffix("expected > to end \(tag.dropLast())") == true)
    }
  }

  @Test func deepNestingInXML() {
    let depth = 10_000
    let text =
      "<plist version=\"1.0\">" + String(repeating: "<array>", count: depth)
      + String(repeating: "</array>", count: depth) + "</plist>"
    #expect(message(Data(text.utf8)) == "nesting deeper than 512 levels")
    #expect(throws: PlistError("nesting deeper than 512 levels")) {
      try PlistValue.decode(from: Data(text.utf8))
    }
    // 512 levels are fine.
    let fine =
      "<plist>" + String(repeating: "<array>", count: 512)
      + String(repeating: "</array>", count: 512)
      + "</plist>"
    #expect(message(Data(fine.utf8)) == "list 1 should be a dictionary but is an array")
  }

  /// A binary plist of `depth` nested arrays: object i is `[i + 1]`, the last is empty.
  private func nestedBinary(depth: Int, topInList: Bool) -> Data {
    // 4-byte offsets and references; with `topInList`, object 0 is `[1]`, object 1 is
    // `{"x": 2}` and the nesting starts at object 2; the key string "x" comes last.
    var bytes = Array("bplist00".utf8)
    var offsets: [Int] = []
    let count = depth + (topInList ? 2 : 0)
    let keyObject = count
    if topInList {
      offsets.append(bytes.count)
      bytes += [0xA1] + be32(1)
      offsets.append(bytes.count)
      bytes += [0xD1] + be32(UInt32(keyObject)) + be32(2)
    }
    let base = topInList ? 2 : 0
    for level in 0..<depth {
      offsets.append(bytes.count)
      if level == depth - 1 {
        bytes += [0xA0]
      } else {
        bytes += [0xA1] + be32(UInt32(base + level + 1))
      }
    }
    offsets.append(bytes.count)
    bytes += [0x51, UInt8(ascii: "x")]
    let table = bytes.count
    for offset in offsets { bytes += be32(UInt32(offset)) }
    bytes += [0, 0, 0, 0, 0, 0, 4, 4]
    bytes += be64(UInt64(offsets.count)) + be64(0) + be64(UInt64(table))
    return Data(bytes)
  }

  private func be32(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
  }

  private func be64(_ value: UInt64) -> [UInt8] {
    be32(UInt32(value >> 32)) + be32(UInt32(value & 0xFFFF_FFFF))
  }

  @Test func deepNestingInBinary() {
    #expect(
      message(nestedBinary(depth: 10_000, topInList: false)) == "nesting deeper than 512 levels")
    #expect(
      message(nestedBinary(depth: 10_000, topInList: true)) == "nesting deeper than 512 levels")
    #expect(throws: PlistError("nesting deeper than 512 levels")) {
      try PlistValue.decode(from: nestedBinary(depth: 10_000, topInList: false))
    }
    // Within the limit, the nested arrays sit in an unknown key of list 1 (which has no name).
    #expect(message(nestedBinary(depth: 100, topInList: true)) == "list 1: \"name\" is missing")
  }
}
