import ChecklistsTestSupport
import Foundation
import Testing

@testable import ChecklistsCore

/// Our codec against Foundation (the reference implementation) and Python's plistlib.
@Suite struct FileFormatDifferentialTests {
  private typealias Support = FileFormatTestSupport

  @Test(arguments: [PlistFormat.binary, .xml])
  func ourReaderAgreesWithFoundationOnFoundationFiles(format: PlistFormat) throws {
    var generator = SeededGenerator(seed: format == .binary ? 11 : 12)
    for _ in 0..<80 {
      let lists = Support.randomLists(&generator, wholeSeconds: format == .xml)
      let tree = Support.tree(lists)
      let data = try Support.foundationWrite(tree, format: format)
      let document = try ChecklistsFileCoding.decode(data)
      #expect(document.format == format)
      #expect(document.lists == lists)
      // Both readers see the same values, unknown keys included.
      let foundationTree = try Support.foundationRead(data)
      #expect(foundationTree == tree)
      #expect(try PlistValue.decode(from: data).value == foundationTree)
      #expect(Support.tree(document.lists) == foundationTree)
      // And Foundation's Codable path gives the same known fields.
      let decoded = try PropertyListDecoder().decode([Checklist].self, from: data)
      #expect(decoded == Support.stripped(document.lists))
    }
  }

  @Test(arguments: [PlistFormat.binary, .xml])
  func foundationReadsOurOutput(format: PlistFormat) throws {
    var generator = SeededGenerator(seed: format == .binary ? 21 : 22)
    for _ in 0..<80 {
      let lists = Support.randomLists(&generator, wholeSeconds: format == .xml)
      let encoded = try ChecklistsFileCoding.encode(lists, format: format)
      #expect(encoded.format == format)
      #expect(encoded.formatNote == nil)
      #expect(try Support.foundationRead(encoded.data) == Support.tree(lists))
      let decoded = try PropertyListDecoder().decode([Checklist].self, from: encoded.data)
      #expect(decoded == Support.stripped(lists))
      // Ours reads it back, and writing again gives the same bytes.
      let again = try ChecklistsFileCoding.decode(encoded.data)
      #expect(again.lists == lists)
      #expect(try ChecklistsFileCoding.encode(again.lists, format: format).data == encoded.data)
    }
  }

  @Test func plainValuesMatchFoundation() throws {
    var generator = SeededGenerator(seed: 31)
    for index in 0..<200 {
      let format: PlistFormat = index % 2 == 0 ? .binary : .xml
      let value = Support.randomValue(&generator, depth: 4, wholeSeconds: format == .xml)
      let ours = try value.encoded(as: format)
      #expect(try Support.foundationRead(ours) == value)
      let theirs = try Support.foundationWrite(value, format: format)
      #expect(try PlistValue.decode(from: theirs).value == value)
      #expect(try PlistValue.decode(from: theirs).format == format)
    }
  }

  @Test func binaryKeepsSubSecondDatesAndXMLKeepsWholeSeconds() throws {
    let due = Date(timeIntervalSinceReferenceDate: 123_456.789_012_5)
    let lists = [
      Checklist(name: "Trips", items: [ChecklistItem(text: "Go", dueDate: due, itemID: 1)])
    ]
    let binary = try ChecklistsFileCoding.encode(lists, format: .binary)
    #expect(try ChecklistsFileCoding.decode(binary.data).lists[0].items[0].dueDate == due)
    let xml = try ChecklistsFileCoding.encode(lists, format: .xml)
    let text = String(decoding: xml.data, as: UTF8.self)
    #expect(text.contains("<date>2001-01-02T10:17:36Z</date>"))
    let whole = Date(timeIntervalSinceReferenceDate: 123_456)
    #expect(try ChecklistsFileCoding.decode(xml.data).lists[0].items[0].dueDate == whole)
    // Foundation rounds the same way.
    let foundation = try PropertyListEncoder.xml.encode(lists)
    #expect(try ChecklistsFileCoding.decode(foundation).lists[0].items[0].dueDate == whole)
  }

  @Test func carriageReturnsSurviveXML() throws {
    let due = Date(timeIntervalSinceReferenceDate: 86_400)
    let lists = [
      Checklist(name: "a\rb\r\nc", items: [ChecklistItem(text: "x\r", dueDate: due, itemID: 1)])
    ]
    let encoded = try ChecklistsFileCoding.encode(lists, format: .xml)
    #expect(encoded.format == .xml)
    #expect(String(decoding: encoded.data, as: UTF8.self).contains("a&#13;b&#13;\nc"))
    #expect(try ChecklistsFileCoding.decode(encoded.data).lists == lists)
    #expect(try Support.foundationRead(encoded.data) == Support.tree(lists))
  }

  /// Loads files with plistlib and prints their lists' known fields and key sets as JSON.
  private static let pythonScript = """
    import datetime, json, plistlib, sys
    reference = datetime.datetime(2001, 1, 1)
    result = []
    for path in sys.argv[1:]:
        with open(path, "rb") as handle:
            top = plistlib.load(handle)
        lists = []
        for checklist in top:
            items = []
            for item in checklist["items"]:
                due = item["dueDate"].replace(tzinfo=None)
                items.append([item["text"], item["checked"], (due - reference).total_seconds(),
                              item["shouldRemind"], str(item["itemID"]), sorted(item.keys())])
            lists.append([checklist["name"], checklist["iconName"], sorted(checklist.keys()), items])
        result.append(lists)
    print(json.dumps(result))
    """

  /// Checks that plistlib reads `data` as `lists`.
  static func expectPlistlibReads(_ data: Data, as lists: [Checklist], python: String) throws {
    let file = Support.temporaryFile("plistlib.plist")
    try data.write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let run = try Support.runPython(python, script: pythonScript, arguments: [file.path])
    #expect(run.status == 0, "plistlib failed: \(run.stderr)")
    guard run.status == 0,
      let files = try JSONSerialization.jsonObject(with: run.stdoutBytes) as? [[Any]],
      let read = files.first
    else { return }
    #expect(read.count == lists.count)
    for (listObject, list) in zip(read, lists) {
      guard let fields = listObject as? [Any], fields.count == 4,
        let items = fields[3] as? [[Any]]
      else {
        Issue.record("unexpected plistlib output \(listObject)")
        continue
      }
      #expect(fields[0] as? String == list.name)
      #expect(fields[1] as? String == list.iconName)
      let listKeys = Set<PlistKey>(["name", "iconName", "items"]).union(list.unknownFields.keys)
      #expect(Set((fields[2] as? [String] ?? []).map { PlistKey($0) }) == listKeys)
      #expect(items.count == list.items.count)
      for (itemFields, item) in zip(items, list.items) {
        #expect(itemFields[0] as? String == item.text)
        #expect(itemFields[1] as? Bool == item.checked)
        let seconds = (itemFields[2] as? NSNumber)?.doubleValue ?? .nan
        #expect(abs(seconds - item.dueDate.timeIntervalSinceReferenceDate) < 1e-5)
        #expect(itemFields[3] as? Bool == item.shouldRemind)
        #expect(itemFields[4] as? String == String(item.itemID))
        let keys = Set<PlistKey>(["text", "checked", "dueDate", "shouldRemind", "itemID"]).union(
          item.unknownFields.keys)
        #expect(Set((itemFields[5] as? [String] ?? []).map { PlistKey($0) }) == keys)
      }
    }
  }

  @Test(arguments: [PlistFormat.binary, .xml])
  func plistlibReadsOurOutput(format: PlistFormat) throws {
    let python = try Support.requirePython3()
    var generator = SeededGenerator(seed: format == .binary ? 41 : 42)
    for _ in 0..<8 {
      let lists = Support.randomLists(&generator, wholeSeconds: format == .xml)
      let encoded = try ChecklistsFileCoding.encode(lists, format: format)
      try Self.expectPlistlibReads(encoded.data, as: lists, python: python)
    }
  }
}

extension PropertyListEncoder {
  /// An encoder that writes XML.
  fileprivate static var xml: PropertyListEncoder {
    let encoder = PropertyListEncoder()
    encoder.outputFormat = .xml
    return encoder
  }
}
