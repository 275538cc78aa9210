import Foundation
import Testing

@testable import ChecklistsCore

/// The iPhone app's model (its `Codable` keys and no others), to decode our files as it does.
private struct PhoneList: Codable {
  var name: String
  var iconName: String
  var items: [PhoneEntry]
}

private struct PhoneEntry: Codable {
  var text: String
  var checked: Bool
  var dueDate: Date
  var shouldRemind: Bool
  var itemID: Int
}

@Suite("File format: the subtask, priority and tags keys of items")
struct FileFormatOutlineKeysTests {
  let due = Date(timeIntervalSinceReferenceDate: 800_000_000)

  func item(_ text: String, _ id: Int, parent: Int? = nil) -> ChecklistItem {
    var item = ChecklistItem(text: text, dueDate: due, itemID: id)
    item.parentItemID = parent
    return item
  }

  /// Trip ▸ Passport ▸ Photo; Trip ▸ Tickets; Groceries (tags, priority 3 as a phone wrote it).
  func lists() -> [Checklist] {
    var trip = item("Trip", 1)
    trip.priorityLevel = .high
    var passport = item("Passport", 2, parent: 1)
    passport.tags = ["Papers", "urgent"]
    var groceries = item("Groceries", 5)
    groceries.priority = 3
    groceries.tags = ["Grocery list"]
    return [
      Checklist(
        name: "Home",
        items: [
          trip, passport, item("Photo", 3, parent: 2), item("Tickets", 4, parent: 1), groceries,
        ])
    ]
  }

  @Test(arguments: [PlistFormat.binary, .xml])
  func theKeysRoundTripByteForByte(format: PlistFormat) throws {
    let data = try ChecklistsFileCoding.encode(lists(), format: format).data
    let decoded = try ChecklistsFileCoding.decode(data).lists
    #expect(decoded == lists())
    let items = decoded[0].items
    #expect(items.map(\.parentItemID) == [nil, 1, 2, 1, nil])
    #expect(items[0].priority == 1)
    #expect(items[0].priorityLevel == .high)
    #expect(items[4].priority == 3)
    #expect(items[4].priorityLevel == .high)
    #expect(items[1].tags == ["Papers", "urgent"])
    #expect(items[4].tags == ["Grocery list"])
    #expect(try ChecklistsFileCoding.encode(decoded, format: format).data == data)
    // Foundation reads them as plain values under the documented keys.
    let plain = try PropertyListSerialization.propertyList(from: data, format: nil)
    let plainItems = (plain as? [[String: Any]])?.first?["items"] as? [[String: Any]]
    #expect(plainItems?[1]["parentItemID"] as? Int == 1)
    #expect(plainItems?[0]["priority"] as? Int == 1)
    #expect(plainItems?[1]["tags"] as? [String] == ["Papers", "urgent"])
    #expect(plainItems?[3]["tags"] == nil)
    #expect(plainItems?[3]["priority"] == nil)
  }

  @Test(arguments: [PlistFormat.binary, .xml])
  func theIPhoneAppsDecoderReadsEveryItem(format: PlistFormat) throws {
    let data = try ChecklistsFileCoding.encode(lists(), format: format).data
    let phone = try PropertyListDecoder().decode([PhoneList].self, from: data)
    #expect(phone[0].items.map(\.text) == ["Trip", "Passport", "Photo", "Tickets", "Groceries"])
    #expect(phone[0].items.map(\.itemID) == [1, 2, 3, 4, 5])
    // What the app saves back has no extra keys: every item top-level, none lost.
    let back = try ChecklistsFileCoding.decode(try PropertyListEncoder().encode(phone)).lists
    #expect(back[0].items.count == 5)
    #expect(
      back[0].items.allSatisfy { $0.parentItemID == nil && $0.priority == 0 && $0.tags.isEmpty })
  }

  @Test func theIPhoneFixtureReadsWithoutTheKeysAndWithThemInTheAppsDecoder() throws {
    let original = try Data(contentsOf: FileFormatTestSupport.iosFixture)
    var lists = try ChecklistsFileCoding.decode(original).lists
    #expect(lists.allSatisfy { $0.items.allSatisfy { $0.unknownFields.isEmpty } })
    #expect(try ChecklistsFileCoding.encode(lists, format: .xml).data == original)
    guard var list = lists.first, list.items.count >= 2 else {
      Issue.record("the fixture should have a list of two items")
      return
    }
    var child = list.items[1]
    child.parentItemID = list.items[0].itemID
    child.priorityLevel = .low
    child.tags = ["work"]
    list.replaceItem(at: 1, with: child)
    lists[0] = list
    let data = try ChecklistsFileCoding.encode(lists, format: .binary).data
    let phone = try PropertyListDecoder().decode([PhoneList].self, from: data)
    #expect(phone.map(\.items.count) == lists.map(\.items.count))
  }

  @Test(arguments: [PlistFormat.binary, .xml])
  func valuesThisVersionCannotReadAreKept(format: PlistFormat) throws {
    var odd = item("Odd", 1)
    odd.unknownFields[.parentItemID] = .string("one")
    odd.unknownFields[.priority] = .integer(12)
    odd.unknownFields[.tags] = .string("work")
    var mixed = item("Mixed", 2)
    mixed.unknownFields[.tags] = .array([.string("a"), .integer(3), .string("A"), .string("b")])
    let lists = [Checklist(name: "L", items: [odd, mixed])]
    let decoded = try ChecklistsFileCoding.decode(
      try ChecklistsFileCoding.encode(lists, format: format).data
    ).lists
    #expect(decoded == lists)
    let items = decoded[0].items
    #expect(items[0].parentItemID == nil)
    #expect(items[0].priority == 0)
    #expect(items[0].tags.isEmpty)
    #expect(items[0].unknownFields[.priority] == .integer(12))
    #expect(items[1].tags == ["a", "b"])
    // Setting the field replaces the value.
    var fixed = items[0]
    fixed.priorityLevel = .medium
    fixed.tags = ["x"]
    #expect(fixed.unknownFields[.priority] == .integer(5))
    #expect(fixed.unknownFields[.tags] == .array([.string("x")]))
  }

  /// Lists whose items have the three keys and `hasDueDate` (one of each form), and a list
  /// with values of other types and a key of a newer app.
  func fastAndGeneralLists() -> (usual: Checklist, unusual: Checklist) {
    var dated = item("Dated", 6, parent: 5)
    dated.hasDueDate = true
    dated.priority = 7
    dated.unknownFields[.tags] = .array([.string("Ünïcode & <more>"), .string("")])
    var untagged = item("Untagged", 7)
    untagged.unknownFields[.tags] = .array([])
    let usual = Checklist(name: "Usual", items: lists()[0].items + [dated, untagged])
    var odd = item("Odd", 8)
    odd.unknownFields[.priority] = .string("high")
    var mixed = item("Mixed", 9)
    mixed.unknownFields[.tags] = .array([.string("a"), .integer(3)])
    var newer = item("Newer", 10)
    newer.priority = 2
    newer.unknownFields["color"] = .string("red")
    var negative = item("Negative", 11)
    negative.unknownFields[.parentItemID] = .integer(-4)
    return (usual, Checklist(name: "Unusual", items: [odd, mixed, newer, negative]))
  }

  /// The binary reader reads items with the keys by its fast path (so a big file's items are
  /// read on all cores) into what the general reading gives; other values are left to it.
  @Test func theBinaryFastPathReadsTheKeys() throws {
    let (usual, unusual) = fastAndGeneralLists()
    let data = try ChecklistsFileCoding.encode([usual, unusual], format: .binary).data
    let reader = try BinaryPlistReader(data)
    let decoder = ChecklistsSchemaDecoder(source: reader)
    let listNodes = try decoder.topLevelLists()
    let usualNodes = try decoder.listParts(listNodes[0], number: 1).itemNodes
    #expect(usualNodes.map { reader.decodedItem($0) } == usual.items)
    let unusualNodes = try decoder.listParts(listNodes[1], number: 2).itemNodes
    for (index, node) in unusualNodes.enumerated() {
      let text = unusual.items[index].text
      // Negative numbers are written in eight bytes, which the fast path reads too.
      #expect((reader.decodedItem(node) == nil) == (text != "Negative"), "\(text)")
    }
    #expect(try decoder.decodeInOrder() == [usual, unusual])
    #expect(try ChecklistsFileCoding.decode(data).lists == [usual, unusual])
  }

  /// The XML reader keeps a list whose items have the keys as one array of items, as the
  /// general reading would read them; a list with other values is read by the general path.
  @Test func theXMLFastPathReadsTheKeys() throws {
    let (usual, unusual) = fastAndGeneralLists()
    let data = try ChecklistsFileCoding.encode([usual, unusual], format: .xml).data
    func lists(decodingItems: Bool) throws -> (lists: [Checklist], decoded: [Bool]) {
      let tree = try XMLPlistReader.parse(data, decodingItems: decodingItems)
      let decoder = ChecklistsSchemaDecoder(source: PlistTreeSource(root: tree))
      let decoded = try decoder.topLevelLists().enumerated().map { index, node in
        try decoder.listParts(node, number: index + 1).decodedItems != nil
      }
      return (try decoder.decodeInOrder(), decoded)
    }
    let fast = try lists(decodingItems: true)
    #expect(fast.decoded == [true, false])
    #expect(fast.lists == [usual, unusual])
    let general = try lists(decodingItems: false)
    #expect(general.decoded == [false, false])
    #expect(general.lists == fast.lists)
  }

  @Test func aStoredPriorityStaysUntilTheLevelChanges() {
    var item = item("Phone's", 1)
    item.priority = 3
    item.text = "Renamed"
    item.priorityLevel = .high  // the level it has: nothing changes
    #expect(item.priority == 3)
    item.priorityLevel = .medium
    #expect(item.priority == 5)
    item.priorityLevel = .low
    #expect(item.priority == 9)
    item.priority = 7
    #expect(item.priorityLevel == .low)
    item.priorityLevel = .none
    #expect(item.unknownFields[.priority] == nil)
    #expect(PriorityLevel(priority: 4) == .high)
    #expect(PriorityLevel(priority: 6) == .low)
    #expect(PriorityLevel(priority: 0) == .none)
    #expect(PriorityLevel(name: "HIGH") == .high)
    #expect(PriorityLevel(name: "urgent") == nil)
    #expect(PriorityLevel.allCases.map(\.marks) == ["", "!", "!!", "!!!"])
    #expect(PriorityLevel(marks: "!!") == .medium)
  }

  @Test func tagsKeepOrderAndSpellingAndDedupeIgnoringCase() {
    var item = item("Tagged", 1)
    item.tags = ["Work", "home", "WORK", "", "Grocery list"]
    #expect(item.tags == ["Work", "home", "Grocery list"])
    #expect(item.hasTag("work"))
    let addedHome = item.addTag("HOME")
    let addedLater = item.addTag("later")
    #expect(!addedHome && addedLater)
    #expect(item.tags == ["Work", "home", "Grocery list", "later"])
    let removedGrocery = item.removeTag("grocery LIST")
    let removedAbsent = item.removeTag("absent")
    #expect(removedGrocery && !removedAbsent)
    #expect(item.tags == ["Work", "home", "later"])
    item.tags = []
    #expect(item.unknownFields.isEmpty)
  }

  @Test func theOutlineFollowsTheArray() {
    let list = lists()[0]
    #expect(list.outline() == [nil, 0, 1, 0, nil])
    #expect(list.depths() == [0, 1, 2, 1, 0])
    #expect(list.subtreeRange(at: 0) == 0..<4)
    #expect(list.subtreeRange(at: 1) == 1..<3)
    #expect(list.subtreeRange(at: 2) == 2..<3)
    #expect(list.subtreeRange(at: 4) == 4..<5)
    #expect(list.descendantCount(at: 0) == 3)
    #expect(list.outlineIsConsistent)
    // A parent that is missing, later in the list or not the subtree just read: top-level.
    let odd = Checklist(
      name: "Odd",
      items: [
        item("Orphan", 1, parent: 99), item("Before", 2, parent: 3), item("Parent", 3),
        item("Other", 4), item("Away", 5, parent: 3),
      ])
    #expect(odd.outline() == [nil, nil, nil, nil, nil])
    #expect(!odd.outlineIsConsistent)
  }

  @Test func repairMakesOrphansTopLevelAndMovesChildrenAfterTheirParents() {
    var list = Checklist(
      name: "Odd",
      items: [
        item("Orphan", 1, parent: 99), item("Early child", 2, parent: 3), item("Parent", 3),
        item("Other", 4), item("Away", 5, parent: 3), item("Loop A", 6, parent: 7),
        item("Loop B", 7, parent: 6), item("Self", 8, parent: 8),
      ])
    let repaired = list.repairOutline()
    #expect(repaired)
    #expect(
      list.items.map(\.text) == [
        "Orphan", "Parent", "Early child", "Away", "Other", "Loop A", "Loop B", "Self",
      ])
    #expect(list.items.map(\.parentItemID) == [nil, nil, 3, 3, nil, nil, 6, nil])
    #expect(list.outlineIsConsistent)
    let repairedAgain = list.repairOutline()
    #expect(!repairedAgain)
    #expect(list.uncheckedCount == 8)
  }
}

@Suite("Search: tags and priorities")
struct SearchOutlineTests {
  @Test func hashFindsTagsAndMarksFindOneLevel() {
    var work = ChecklistItem(text: "Report", itemID: 1)
    work.tags = ["Wörk", "Grocery list"]
    work.priorityLevel = .high
    var note = ChecklistItem(text: "See #work in the text", itemID: 2)
    note.priorityLevel = .medium
    let other = ChecklistItem(text: "Other!!!", itemID: 3)
    let index = SearchIndex(DataModel(lists: [Checklist(name: "L", items: [work, note, other])]))
    func texts(_ query: String) -> [String] {
      index.groups(index.search(query)).flatMap(\.rows).map(\.item.text)
    }
    #expect(texts("#work") == ["Report", "See #work in the text"])
    #expect(texts("#grocery l") == ["Report"])
    #expect(texts("#nothing").isEmpty)
    #expect(texts("!!!") == ["Report"])
    #expect(texts(" !! ") == ["See #work in the text"])
    #expect(texts("!").isEmpty)
    #expect(texts("Other!!!") == ["Other!!!"])
    // Typing on from a special query searches afresh.
    var session = SearchSession(index.model)
    session.update(query: "#wo")
    #expect(session.update(query: "#wor").count == 2)
    #expect(session.update(query: "!!!").count == 1)
  }
}
