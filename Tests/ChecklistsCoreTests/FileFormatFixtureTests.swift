import Foundation
import Testing

@testable import ChecklistsCore

@Suite struct FileFormatFixtureTests {
  /// An instant in UTC, computed by Foundation's calendar as the reference.
  private func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
    let components = DateComponents(
      year: year, month: month, day: day, hour: hour, minute: minute, second: 0)
    return calendar.date(from: components) ?? .distantPast
  }

  private func fixtureData() throws -> Data {
    try Data(contentsOf: FileFormatTestSupport.iosFixture)
  }

  @Test func fixtureLoadsEveryField() throws {
    let document = try ChecklistsFileCoding.decode(try fixtureData())
    #expect(document.format == .xml)
    let expected: [Checklist] = [
      Checklist(
        name: "Birthdays", iconName: "Birthdays",
        items: [
          ChecklistItem(
            text: "Buy a present for Ana", checked: false, dueDate: utc(2026, 12, 1, 9, 30),
            shouldRemind: true, itemID: 0),
          ChecklistItem(
            text: "Call grandma", checked: true, dueDate: utc(2026, 11, 28, 9, 30),
            shouldRemind: false, itemID: 1),
        ]),
      Checklist(
        name: "Groceries", iconName: "Groceries",
        items: [
          ChecklistItem(
            text: "Milk", checked: true, dueDate: utc(2026, 12, 1, 9, 30), shouldRemind: false,
            itemID: 2),
          ChecklistItem(
            text: "Eggs", checked: true, dueDate: utc(2026, 12, 1, 9, 30), shouldRemind: false,
            itemID: 3),
        ]),
      Checklist(name: "To Do", iconName: "Inbox", items: []),
      Checklist(
        name: "Trips", iconName: "No Icon",
        items: [
          ChecklistItem(
            text: "Renew passport \u{2014} before 15 Jan", checked: false,
            dueDate: utc(2027, 1, 10, 9, 30), shouldRemind: true, itemID: 4)
        ]),
    ]
    #expect(document.lists.count == 4)
    for (list, want) in zip(document.lists, expected) {
      #expect(list.name == want.name)
      #expect(list.iconName == want.iconName)
      #expect(list.unknownFields.isEmpty)
      #expect(list.items.count == want.items.count)
      for (item, wantItem) in zip(list.items, want.items) {
        #expect(item.text == wantItem.text)
        #expect(item.checked == wantItem.checked)
        #expect(item.dueDate == wantItem.dueDate)
        #expect(item.shouldRemind == wantItem.shouldRemind)
        #expect(item.itemID == wantItem.itemID)
        #expect(item.unknownFields.isEmpty)
      }
    }
    #expect(document.lists == expected)
    #expect(document.lists[3].items[0].text.unicodeScalars.contains("\u{2014}"))
    // Foundation, the reference, reads the same lists.
    let foundation = try PropertyListDecoder().decode([Checklist].self, from: try fixtureData())
    #expect(foundation == expected)
  }

  @Test func fixtureRoundTripsThroughXMLByteForByte() throws {
    let original = try fixtureData()
    let first = try ChecklistsFileCoding.encode(
      try ChecklistsFileCoding.decode(original).lists, format: .xml)
    #expect(first.format == .xml)
    #expect(first.formatNote == nil)
    let second = try ChecklistsFileCoding.encode(
      try ChecklistsFileCoding.decode(first.data).lists, format: .xml)
    #expect(first.data == second.data)
    // The fixture is laid out as Apple writes it, and so is our output.
    #expect(first.data == original)
  }

  @Test func fixtureRoundTripsThroughBinary() throws {
    let lists = try ChecklistsFileCoding.decode(try fixtureData()).lists
    let binary = try ChecklistsFileCoding.encode(lists, format: .binary)
    #expect(binary.format == .binary)
    #expect(binary.data.starts(with: Array("bplist00".utf8)))
    let decoded = try ChecklistsFileCoding.decode(binary.data)
    #expect(decoded.format == .binary)
    #expect(decoded.lists == lists)
    let again = try ChecklistsFileCoding.encode(decoded.lists, format: .binary)
    #expect(again.data == binary.data)
    #expect(try PropertyListDecoder().decode([Checklist].self, from: binary.data) == lists)
    // And back to XML gives the fixture's bytes again.
    let xml = try ChecklistsFileCoding.encode(decoded.lists, format: .xml)
    #expect(xml.data == (try fixtureData()))
  }
}
