import Foundation
import Testing

@testable import ChecklistsCore

/// The book's first editions saved `Checklists.plist` with `NSKeyedArchiver`. Fixtures are
/// made three ways: by Foundation's own `NSKeyedArchiver` (classes named as Swift and as
/// Objective-C named them), by hand in the layout Apple's archiver uses, and by plistlib.
@Suite struct FileFormatKeyedArchiveTests {
  private typealias Support = FileFormatTestSupport

  static var oldLists: [ArchivedBookChecklist] {
    [
      ArchivedBookChecklist(
        name: "Birthdays", iconName: "Birthdays",
        items: [
          ArchivedBookItem("Buy a card 🎂", checked: false, due: 600_000_000.5, remind: true, id: 4),
          ArchivedBookItem("Café & <cake>", checked: true, due: 600_086_400, remind: false, id: 7),
        ]),
      ArchivedBookChecklist(name: "Empty", iconName: "No Icon", items: []),
    ]
  }

  /// What `oldLists` read as.
  static let expected = [
    Checklist(
      name: "Birthdays", iconName: "Birthdays",
      items: [
        ChecklistItem(
          text: "Buy a card 🎂", dueDate: Date(timeIntervalSinceReferenceDate: 600_000_000.5),
          shouldRemind: true, itemID: 4),
        ChecklistItem(
          text: "Café & <cake>", checked: true,
          dueDate: Date(timeIntervalSinceReferenceDate: 600_086_400), itemID: 7),
      ]),
    Checklist(name: "Empty", iconName: "No Icon"),
  ]

  /// Foundation's archive of `oldLists` under `$top` key `Checklists`, its classes named as
  /// the Swift editions (`Checklists.Checklist`) or the Objective-C ones (`Checklist`) did.
  ///
  /// swift-corelibs-foundation's archiver ignores `setClassName`, so the names it wrote
  /// (`ChecklistsCoreTests.ArchivedBook…`) are changed by reading and writing the archive with
  /// `PropertyListSerialization`, which keeps its UIDs.
  static func foundationArchive(
    swiftNames: Bool, format: PropertyListSerialization.PropertyListFormat
  ) throws -> Data {
    let archiver = NSKeyedArchiver(requiringSecureCoding: false)
    archiver.outputFormat = format
    archiver.encode(NSArray(array: oldLists), forKey: "Checklists")
    archiver.finishEncoding()
    let prefix = swiftNames ? "Checklists." : ""
    let names = [
      NSStringFromClass(ArchivedBookChecklist.self): prefix + "Checklist",
      NSStringFromClass(ArchivedBookItem.self): prefix + "ChecklistItem",
    ]
    var read = format
    let object = try PropertyListSerialization.propertyList(
      from: archiver.encodedData, format: &read)
    guard var top = object as? [String: Any], var objects = top["$objects"] as? [Any] else {
      throw FileFormatError("Foundation's archive is not a keyed archive")
    }
    var renamed = 0
    for (index, element) in objects.enumerated() {
      guard var fields = element as? [String: Any], let name = fields["$classname"] as? String,
        let new = names[name]
      else { continue }
      fields["$classname"] = new
      fields["$classes"] = [new, "NSObject"]
      objects[index] = fields
      renamed += 1
    }
    #expect(renamed == 2)
    top["$objects"] = objects
    return try PropertyListSerialization.data(fromPropertyList: top, format: format, options: 0)
  }

  @Test(arguments: [true, false])
  func foundationsArchivesAreRead(swiftNames: Bool) throws {
    for format in [PropertyListSerialization.PropertyListFormat.binary, .xml] {
      let data = try Self.foundationArchive(swiftNames: swiftNames, format: format)
      let top = try PlistValue.decode(from: data).value
      guard case .dictionary(let archive) = top else {
        Issue.record("not a dictionary")
        continue
      }
      #expect(archive["$archiver"] == .string("NSKeyedArchiver"))
      #expect(String(decoding: data, as: UTF8.self).contains("CF$UID") == (format == .xml))
      let document = try ChecklistsFileCoding.decode(data)
      #expect(document.lists == Self.expected, "\(format)")
      #expect(document.isKeyedArchive)
      #expect(document.format == .binary)
    }
  }

  // MARK: - By hand, laid out as Apple's archiver lays it out

  /// An archive of `$objects` with the lists at `$top`'s `key`.
  static func archive(_ objects: [PlistValue], top key: PlistKey = "Checklists") -> PlistValue {
    .dictionary([
      "$archiver": .string("NSKeyedArchiver"), "$version": .integer(100_000),
      "$top": .dictionary([key: .uid(1)]), "$objects": .array(objects),
    ])
  }

  static func classInfo(_ name: String, _ chain: [String]) -> PlistValue {
    .dictionary([
      "$classname": .string(name), "$classes": .array(([name] + chain).map { .string($0) }),
    ])
  }

  /// `$null`, the lists array, one list of two items (the second from an edition without
  /// due dates or IDs), their classes.
  static func handBuiltObjects(listClass: String, itemClass: String) -> [PlistValue] {
    [
      .string("$null"),
      // 1: the lists
      .dictionary(["NS.objects": .array([.uid(2)]), "$class": .uid(12)]),
      // 2: a list
      .dictionary([
        "Name": .uid(3), "Items": .uid(4), "IconName": .uid(5), "$class": .uid(11),
      ]),
      .string("Groceries"),
      // 4: its items
      .dictionary(["NS.objects": .array([.uid(6), .uid(9)]), "$class": .uid(13)]),
      .string("Groceries"),
      // 6: an item
      .dictionary([
        "Text": .uid(7), "Checked": .bool(true), "DueDate": .uid(8),
        "ShouldRemind": .bool(false), "ItemID": .integer(41), "$class": .uid(10),
      ]),
      .string("Milk"),
      .dictionary(["NS.time": .real(700_000_000), "$class": .uid(14)]),
      // 9: an item of the first edition: text and checked only; a mutable string
      .dictionary(["Text": .uid(15), "Checked": .bool(false), "$class": .uid(10)]),
      classInfo(itemClass, ["NSObject"]),
      classInfo(listClass, ["NSObject"]),
      classInfo("NSMutableArray", ["NSArray", "NSObject"]),
      classInfo("NSArray", ["NSObject"]),
      classInfo("NSDate", ["NSObject"]),
      // 15
      .dictionary(["NS.string": .string("Eggs"), "$class": .uid(16)]),
      classInfo("NSMutableString", ["NSString", "NSObject"]),
    ]
  }

  @Test(arguments: [
    ("Checklist", "ChecklistItem"), ("Checklists.Checklist", "Checklists.ChecklistItem"),
    ("_TtC10Checklists9Checklist", "_TtC10Checklists13ChecklistItem"),
  ])
  func handBuiltArchivesAreRead(names: (String, String)) throws {
    let value = Self.archive(Self.handBuiltObjects(listClass: names.0, itemClass: names.1))
    for format in [PlistFormat.binary, .xml] {
      let data = try value.encoded(as: format)
      let lists = try ChecklistsFileCoding.decode(data).lists
      #expect(lists.count == 1)
      #expect(lists[0].name == "Groceries")
      #expect(lists[0].iconName == "Groceries")
      let items = lists[0].items
      #expect(items.count == 2)
      #expect(items[0].text == "Milk")
      #expect(items[0].checked)
      #expect(items[0].dueDate == Date(timeIntervalSinceReferenceDate: 700_000_000))
      #expect(items[0].itemID == 41)
      // The first edition's item: the app's defaults, and an ID no other item has.
      #expect(items[1].text == "Eggs")
      #expect(!items[1].checked && !items[1].shouldRemind)
      #expect(items[1].itemID == 42)
      // Foundation reads the same archive as a property list.
      #expect((try? PropertyListSerialization.propertyList(from: data, format: nil)) != nil)
    }
  }

  @Test func anythingElseInAKeyedArchiveIsNamed() throws {
    let prefix = "old keyed-archive (NSKeyedArchiver) file: "
    let good = Self.handBuiltObjects(listClass: "Checklist", itemClass: "ChecklistItem")
    var wrongClass = good
    wrongClass[11] = Self.classInfo("Checklists.Reminder", ["NSObject"])
    var notAnArray = good
    notAnArray[4] = .string("oops")
    var badDate = good
    badDate[8] = .string("yesterday")
    var dangling = good
    dangling[2] = .dictionary([
      "Name": .uid(3), "Items": .uid(99), "IconName": .uid(5), "$class": .uid(11),
    ])
    let cases: [(PlistValue, String)] = [
      (
        Self.archive(good, top: "root"),
        ""
      ),
      (
        Self.archive(good, top: "Something"),
        "\"$top\" has no \"Checklists\" key (it holds \"Something\"); this archive is not a "
          + "Checklists file"
      ),
      (
        Self.archive(wrongClass),
        "list 1 should be a Checklist object but is of class "
          + "\"Checklists.Reminder\""
      ),
      (
        Self.archive(notAnArray),
        "list 1 (\"Groceries\"): \"Items\" should be an array of items but is \"oops\""
      ),
      (
        Self.archive(badDate),
        "list 1 (\"Groceries\"), item 1: \"DueDate\" should be a date (NSDate) but is "
          + "\"yesterday\""
      ),
      (
        Self.archive(dangling),
        "list 1 (\"Groceries\"): \"Items\" refers to object 99, which does not exist"
      ),
      (
        .dictionary(["$archiver": .string("NSArchiver"), "$objects": .array([])]),
        "\"$archiver\" should be \"NSKeyedArchiver\" but is \"NSArchiver\""
      ),
    ]
    for (value, message) in cases {
      let data = try value.encoded(as: .binary)
      do {
        let document = try ChecklistsFileCoding.decode(data)
        #expect(message.isEmpty, "read: \(message)")
        #expect(document.lists.count == 1)
      } catch {
        #expect(error.message == prefix + message)
      }
    }
  }

  @Test func sharedListsCannotUnfoldIntoMillionsOfItems() throws {
    // 200 references to one list whose items array holds 2,000 references to one item.
    var objects: [PlistValue] = [.string("$null")]
    objects.append(.dictionary(["NS.objects": .array(Array(repeating: .uid(2), count: 200))]))
    objects.append(
      .dictionary(["Name": .string("L"), "Items": .uid(3), "$class": .uid(5)]))
    objects.append(.dictionary(["NS.objects": .array(Array(repeating: .uid(4), count: 2_000))]))
    objects.append(.dictionary(["Text": .string("x"), "$class": .uid(6)]))
    objects.append(Self.classInfo("Checklist", []))
    objects.append(Self.classInfo("ChecklistItem", []))
    let data = try Self.archive(objects).encoded(as: .binary)
    #expect(throws: FileFormatError.self) { try ChecklistsFileCoding.decode(data) }
  }

  // MARK: - plistlib

  @Test func plistlibsArchiveIsReadAndOurUIDsAreItsUIDs() throws {
    let python = try Support.requirePython3()
    let script = """
      import plistlib, sys
      U = plistlib.UID
      cls = lambda n: {"$classname": n, "$classes": [n, "NSObject"]}
      objects = ["$null", {"NS.objects": [U(2)], "$class": U(6)},
                 {"Name": "Trips", "Items": U(3), "IconName": "Trips", "$class": U(7)},
                 {"NS.objects": [U(4)], "$class": U(6)},
                 {"Text": "Pack", "Checked": False, "DueDate": U(5), "ShouldRemind": True,
                  "ItemID": 3, "$class": U(8)},
                 {"NS.time": 1000.25, "$class": U(9)},
                 cls("NSArray"), cls("Checklists.Checklist"), cls("ChecklistItem"), cls("NSDate")]
      archive = {"$archiver": "NSKeyedArchiver", "$version": 100000,
                 "$top": {"Checklists": U(1)}, "$objects": objects}
      with open(sys.argv[1], "wb") as handle:
          plistlib.dump(archive, handle, fmt=plistlib.FMT_BINARY)
      """
    let file = Support.temporaryFile("archive.plist")
    defer { try? FileManager.default.removeItem(at: file) }
    let run = try Support.runPython(python, script: script, arguments: [file.path])
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    let data = try Data(contentsOf: file)
    let lists = try ChecklistsFileCoding.decode(data).lists
    #expect(
      lists == [
        Checklist(
          name: "Trips", iconName: "Trips",
          items: [
            ChecklistItem(
              text: "Pack", dueDate: Date(timeIntervalSinceReferenceDate: 1000.25),
              shouldRemind: true, itemID: 3)
          ])
      ])
    // And plistlib reads our writing of the same archive back to the same value.
    let value = try PlistValue.decode(from: data).value
    let ours = try value.encoded(as: .binary)
    let lines = try FileFormatCompatibilityTests.plistlib([data, ours], python: python)
    #expect(lines.count == 2 && lines[0] == lines[1])
    #expect(lines.first == FileFormatCompatibilityTests.canonical(value))
  }

  // MARK: - Opening and saving

  @Test func theFirstSaveConvertsKeepsTheOriginalAsBakAndSaysSoOnce() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    let original = try Self.foundationArchive(swiftNames: true, format: .binary)
    folder.write("Checklists.plist", original)
    let location = folder.location()
    let (store, load) = try ChecklistsStore.open(location: location)
    defer { store.close() }
    #expect(load.model.lists.map(\.name) == ["Birthdays", "Empty"])
    #expect(load.warnings.isEmpty)
    // Nothing changed: nothing written, the archive stays.
    #expect(try store.save(load.model).outcome == .unchanged)
    #expect(folder.bytes("Checklists.plist") == original)

    func adding(_ text: String, to model: DataModel) -> DataModel {
      var model = model
      let item = model.makeItem(text: text, dueDate: Date(timeIntervalSinceReferenceDate: 0))
      if let change = model.insertItem(item, listID: model.lists[0].id) { model.apply(change) }
      return model
    }
    let changed = adding("Balloons", to: load.model)
    let first = try store.save(changed)
    #expect(
      first.formatNote
        == "converted from the old archive format; the original is in \(location.displayPath).bak"
    )
    #expect(folder.bytes("Checklists.plist.bak") == original)
    let saved = try #require(folder.bytes("Checklists.plist"))
    let document = try ChecklistsFileCoding.decode(saved)
    #expect(!document.isKeyedArchive)
    #expect(document.format == .binary)
    #expect(document.lists == changed.lists)
    #expect(document.lists[0].items.count == 3)
    // Said once.
    let second = try store.save(adding("Hats", to: changed))
    #expect(second.formatNote == nil)
  }
}

/// The book's `Checklist` class, as its first editions archived it.
final class ArchivedBookChecklist: NSObject, NSCoding {
  let name: String
  let iconName: String
  let items: [ArchivedBookItem]

  init(name: String, iconName: String, items: [ArchivedBookItem]) {
    self.name = name
    self.iconName = iconName
    self.items = items
  }

  func encode(with coder: NSCoder) {
    coder.encode(name, forKey: "Name")
    coder.encode(NSArray(array: items), forKey: "Items")
    coder.encode(iconName, forKey: "IconName")
  }

  init?(coder: NSCoder) { nil }
}

/// The book's `ChecklistItem` class, as its first editions archived it.
final class ArchivedBookItem: NSObject, NSCoding {
  let text: String
  let checked: Bool
  let dueDate: Date
  let shouldRemind: Bool
  let itemID: Int

  init(_ text: String, checked: Bool, due: Double, remind: Bool, id: Int) {
    self.text = text
    self.checked = checked
    self.dueDate = Date(timeIntervalSinceReferenceDate: due)
    self.shouldRemind = remind
    self.itemID = id
  }

  func encode(with coder: NSCoder) {
    coder.encode(text, forKey: "Text")
    coder.encode(checked, forKey: "Checked")
    coder.encode(dueDate as NSDate, forKey: "DueDate")
    coder.encode(shouldRemind, forKey: "ShouldRemind")
    coder.encode(itemID, forKey: "ItemID")
  }

  init?(coder: NSCoder) { nil }
}
