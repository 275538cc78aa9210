import Foundation
import Testing

@testable import ChecklistsCore

/// The iPhone app's own model, as its source declares it: `Codable` classes with these keys
/// and no others. Decoding our files with it is what the app does.
private struct PhoneChecklist: Codable {
  var name: String
  var iconName: String
  var items: [PhoneItem]
}

private struct PhoneItem: Codable {
  var text: String
  var checked: Bool
  var dueDate: Date
  var shouldRemind: Bool
  var itemID: Int
}

@Suite("File format: the note and repeat keys of items")
struct FileFormatPlannerKeysTests {
  let due = Date(timeIntervalSinceReferenceDate: 800_000_000)

  func lists() -> [Checklist] {
    var plants = ChecklistItem(text: "Water plants", dueDate: due, hasDueDate: true, itemID: 1)
    plants.note = "The fern by the window\nneeds less"
    plants.repeatRule = RepeatRule(.weekly, interval: 2)
    plants.unknownFields[.repeatDay] = .integer(31)
    var call = ChecklistItem(text: "Call Ana", dueDate: due, itemID: 2)
    call.note = "Ünïcode ✓ & <xml> \"quotes\""
    return [
      Checklist(
        name: "Home",
        items: [plants, call, ChecklistItem(text: "Plain", dueDate: due, itemID: 3)])
    ]
  }

  @Test(arguments: [PlistFormat.binary, .xml])
  func noteAndRepeatRoundTrip(format: PlistFormat) throws {
    let data = try ChecklistsFileCoding.encode(lists(), format: format).data
    let decoded = try ChecklistsFileCoding.decode(data).lists
    #expect(decoded == lists())
    let items = decoded[0].items
    #expect(items[0].note == "The fern by the window\nneeds less")
    #expect(items[0].repeatRule == RepeatRule(.weekly, interval: 2))
    #expect(items[1].repeatRule == nil)
    #expect(items[2].note.isEmpty)
    #expect(items[2].unknownFields.isEmpty)
    // Written again, the bytes are the same.
    #expect(try ChecklistsFileCoding.encode(decoded, format: format).data == data)
    // Foundation reads the keys as plain strings.
    let plain = try PropertyListSerialization.propertyList(from: data, format: nil)
    let plainItems = (plain as? [[String: Any]])?.first?["items"] as? [[String: Any]]
    #expect(plainItems?[0]["repeat"] as? String == "every 2 weeks")
    #expect(plainItems?[0]["note"] as? String == "The fern by the window\nneeds less")
    #expect(plainItems?[2]["note"] == nil)
  }

  @Test(arguments: [PlistFormat.binary, .xml])
  func theIPhoneAppsDecoderReadsAnEditedFile(format: PlistFormat) throws {
    let data = try ChecklistsFileCoding.encode(lists(), format: format).data
    let phone = try PropertyListDecoder().decode([PhoneChecklist].self, from: data)
    #expect(phone.count == 1)
    #expect(phone[0].items.map(\.text) == ["Water plants", "Call Ana", "Plain"])
    #expect(phone[0].items.map(\.itemID) == [1, 2, 3])
    #expect(phone[0].items[0].dueDate == due)
    // What the app writes back (no extra keys) reads here as items without note or repeat.
    let rewritten = try PropertyListEncoder().encode(phone)
    let back = try ChecklistsFileCoding.decode(rewritten).lists
    #expect(back[0].items.allSatisfy { $0.note.isEmpty && $0.repeatRule == nil })
  }

  @Test func theIPhoneFixtureStillRoundTripsByteForByteAndReadsWithTheAppsDecoder() throws {
    let original = try Data(contentsOf: FileFormatTestSupport.iosFixture)
    let lists = try ChecklistsFileCoding.decode(original).lists
    #expect(lists.allSatisfy { $0.items.allSatisfy { $0.note.isEmpty && $0.repeatRule == nil } })
    #expect(try ChecklistsFileCoding.encode(lists, format: .xml).data == original)
    // Edited with a note and a rule, it still opens in the app's decoder.
    var edited = lists
    var item = edited[0].items[0]
    item.note = "A note"
    item.hasDueDate = true
    item.repeatRule = .monthly
    edited[0].replaceItem(at: 0, with: item)
    for format in [PlistFormat.binary, .xml] {
      let data = try ChecklistsFileCoding.encode(edited, format: format).data
      let phone = try PropertyListDecoder().decode([PhoneChecklist].self, from: data)
      #expect(phone.map(\.name) == lists.map(\.name))
      #expect(phone[0].items[0].text == item.text)
    }
  }

  @Test func aNoteOrRuleOfAnotherTypeIsKeptButNotUsed() throws {
    let item: [String: Any] = [
      "text": "Milk", "checked": false, "dueDate": Date(), "shouldRemind": false, "itemID": 7,
      "note": 12, "repeat": ["every": 2],
    ]
    let file: [[String: Any]] = [["name": "L", "iconName": "No Icon", "items": [item]]]
    let data = try PropertyListSerialization.data(fromPropertyList: file, format: .xml, options: 0)
    let read = try ChecklistsFileCoding.decode(data).lists[0].items[0]
    #expect(read.note.isEmpty)
    #expect(read.repeatRule == nil)
    #expect(read.unknownFields[.note] == .integer(12))
    let again = try ChecklistsFileCoding.decode(
      try ChecklistsFileCoding.encode([Checklist(name: "L", items: [read])], format: .xml).data)
    #expect(again.lists[0].items[0] == read)
  }

  @Test func theMergeTakesNoteAndRepeatFieldByField() throws {
    var plants = ChecklistItem(text: "Water plants", dueDate: due, hasDueDate: true, itemID: 1)
    plants.note = "old note"
    let base = DataModel(lists: [Checklist(name: "Home", items: [plants])])
    func edited(_ edit: (inout ChecklistItem) -> Void) -> DataModel {
      var model = base
      var item = model.lists[0].items[0]
      edit(&item)
      if let change = model.replaceItem(listID: model.lists[0].id, at: 0, with: item) {
        model.apply(change)
      }
      return model
    }
    // Ours changes the note, theirs sets a rule and checks it: all three are kept.
    let ours = edited { $0.note = "new note" }
    let theirs = edited {
      $0.repeatRule = .weekly
      $0.checked = true
    }
    let result = ModelMerge.merge(base: base, ours: ours, theirs: theirs.lists)
    let merged = result.model.lists[0].items[0]
    #expect(merged.note == "new note")
    #expect(merged.repeatRule == .weekly)
    #expect(merged.checked)
    #expect(result.report.conflicts.isEmpty)
    // Both change the note: ours is kept and the conflict is reported under "note".
    let other = edited { $0.note = "their note" }
    let conflicted = ModelMerge.merge(base: base, ours: ours, theirs: other.lists)
    #expect(conflicted.model.lists[0].items[0].note == "new note")
    #expect(conflicted.report.conflicts.map(\.field) == ["note"])
  }
}
