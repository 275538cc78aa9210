import Foundation
import Testing

@testable import ChecklistsCore

@Suite("File format: the hasDueDate key of items given a due date")
struct FileFormatDueDateKeyTests {
  let due = Date(timeIntervalSinceReferenceDate: 800_000_000)

  func lists(dated: Bool, unknown: [PlistKey: PlistValue] = [:]) -> [Checklist] {
    [
      Checklist(
        name: "Home",
        items: [
          ChecklistItem(text: "Pay rent", dueDate: due, hasDueDate: dated, itemID: 1),
          ChecklistItem(
            text: "Call", dueDate: due, shouldRemind: true, itemID: 2, unknownFields: unknown),
        ])
    ]
  }

  @Test(arguments: [PlistFormat.binary, .xml])
  func theKeyRoundTripsAndOnlyWhenTrue(format: PlistFormat) throws {
    let data = try ChecklistsFileCoding.encode(lists(dated: true), format: format).data
    let decoded = try ChecklistsFileCoding.decode(data).lists
    #expect(decoded == lists(dated: true))
    #expect(decoded[0].items[0].showsDueDate)
    #expect(decoded[0].items[1].showsDueDate)  // Remind Me on
    #expect(!decoded[0].items[1].hasDueDate)
    // Foundation sees the extra key on the dated item only.
    let plain = try PropertyListSerialization.propertyList(from: data, format: nil)
    let items = (plain as? [[String: Any]])?.first?["items"] as? [[String: Any]]
    #expect(items?[0]["hasDueDate"] as? Bool == true)
    #expect(items?[1]["hasDueDate"] == nil)
  }

  @Test(arguments: [PlistFormat.binary, .xml])
  func aFileWithoutTheKeyIsWrittenAsBefore(format: PlistFormat) throws {
    let data = try ChecklistsFileCoding.encode(lists(dated: false), format: format).data
    #expect(!String(decoding: data, as: UTF8.self).contains("hasDueDate"))
    let decoded = try ChecklistsFileCoding.decode(data).lists
    #expect(!decoded[0].items[0].hasDueDate)
    #expect(!decoded[0].items[0].showsDueDate)
  }

  @Test(arguments: [PlistFormat.binary, .xml])
  func theKeyLivesBesideUnknownKeysInKeyOrder(format: PlistFormat) throws {
    let unknown: [PlistKey: PlistValue] = ["colour": .string("red"), "zeta": .integer(1)]
    var model = lists(dated: true, unknown: unknown)
    var second = model[0].items[1]
    second.hasDueDate = true
    model[0].replaceItem(at: 1, with: second)
    let data = try ChecklistsFileCoding.encode(model, format: format).data
    #expect(try ChecklistsFileCoding.decode(data).lists == model)
    if format == .xml {
      let text = String(decoding: data, as: UTF8.self)
      // The second item's keys, then the list's "name".
      let keys = text.components(separatedBy: "<key>").dropFirst().map {
        String($0.prefix { $0 != "<" })
      }
      #expect(
        keys.dropLast().suffix(8) == [
          "checked", "colour", "dueDate", "hasDueDate", "itemID", "shouldRemind", "text", "zeta",
        ])
    }
  }

  @Test func aKeyFromFoundationIsRead() throws {
    let item: [String: Any] = [
      "text": "Milk", "checked": false, "dueDate": Date(), "shouldRemind": false, "itemID": 7,
      "hasDueDate": true,
    ]
    let file: [[String: Any]] = [["name": "L", "iconName": "No Icon", "items": [item]]]
    for format in [PropertyListSerialization.PropertyListFormat.binary, .xml] {
      let data = try PropertyListSerialization.data(
        fromPropertyList: file, format: format, options: 0)
      #expect(try ChecklistsFileCoding.decode(data).lists[0].items[0].hasDueDate)
    }
  }

  @Test func aKeyOfTheWrongTypeIsNamed() throws {
    let item: [String: Any] = [
      "text": "Milk", "checked": false, "dueDate": Date(), "shouldRemind": false, "itemID": 7,
      "hasDueDate": "yes",
    ]
    let file: [[String: Any]] = [["name": "L", "iconName": "No Icon", "items": [item]]]
    let data = try PropertyListSerialization.data(fromPropertyList: file, format: .xml, options: 0)
    #expect {
      _ = try ChecklistsFileCoding.decode(data)
    } throws: { error in
      "\(error)".contains("hasDueDate")
    }
  }
}
