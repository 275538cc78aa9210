import Foundation
import Testing

@testable import ChecklistsCore

/// A big XML file's bytes are given back to the system as they are read (`ReadBytesRelease`):
/// the lists read are the same, the bytes behind are really gone, and a file that fails to
/// read still gets the exact message of intact bytes.
@Suite struct FileFormatXMLReleaseTests {
  /// Lists of about 9.7 MB of XML: four lists of 9,000 items.
  static func bigLists() -> [Checklist] {
    var itemID = 0
    return (0..<4).map { list in
      Checklist(
        name: "List \(list)", iconName: "Folder",
        items: (0..<9_000).map { index in
          itemID += 1
          return ChecklistItem(
            text: "Item \(itemID) of list \(list): milk, eggs, bread and crème fraîche",
            checked: index % 3 == 0,
            dueDate: Date(timeIntervalSinceReferenceDate: Double(itemID) * 60),
            shouldRemind: index % 5 == 0, itemID: itemID)
        })
    }
  }

  static func xml(_ lists: [Checklist]) throws -> [UInt8] {
    [UInt8](try ChecklistsFileCoding.encode(lists, format: .xml).data)
  }

  @Test func theListsAreTheSameAndTheBytesBehindAreGivenBack() throws {
    let lists = Self.bigLists()
    let bytes = try Self.xml(lists)
    #expect(bytes.count > ReadBytesRelease.minimumBytes + (1 << 20))
    let kept = try ChecklistsFileCoding.decode(bytes: bytes)
    // A copy of its own: the decoding below gives its bytes back.
    let given = bytes.map { $0 }
    let release = ReadBytesRelease()
    release.markReady()
    let read = try ChecklistsFileCoding.decode(bytes: given, release: release)
    #expect(read.lists == kept.lists)
    #expect(read.lists == lists)
    #expect(release.releasedAny)
    // The first megabytes read as zeros now; the last ones (the end of the document) do not.
    let zeros = given.withUnsafeBufferPointer { buffer in
      buffer.prefix(4 << 20).filter { $0 == 0 }.count
    }
    #expect(zeros >= 2 << 20)
    #expect(given.suffix(64) == bytes.suffix(64))
  }

  @Test func nothingIsGivenBackBeforeTheOtherReaderIsDone() throws {
    let bytes = try Self.xml(Self.bigLists())
    let given = bytes.map { $0 }
    let release = ReadBytesRelease()
    _ = try ChecklistsFileCoding.decode(bytes: given, release: release)
    #expect(!release.releasedAny)
    #expect(given == bytes)
  }

  @Test func aFileThatFailsLateGetsTheMessageOfIntactBytes() throws {
    var bytes = try Self.xml(Self.bigLists())
    // Break the last item's text: an unescaped "<" near the end of the file.
    let marker = Array("crème fraîche</string>".utf8)
    let last = try #require(
      (0...(bytes.count - marker.count)).reversed().first {
        bytes[$0..<($0 + marker.count)].elementsEqual(marker)
      })
    bytes[last] = UInt8(ascii: "<")
    let expected = #expect(throws: FileFormatError.self) {
      try ChecklistsFileCoding.decode(bytes: bytes)
    }
    #expect(expected?.message.hasPrefix("XML error at line ") == true)
    // Given back while read, the same bytes give another message (the zeros count no lines):
    // what the store's second reading is for.
    let release = ReadBytesRelease()
    release.markReady()
    let spoiled = #expect(throws: FileFormatError.self) {
      try ChecklistsFileCoding.decode(bytes: bytes.map { $0 }, release: release)
    }
    #expect(release.releasedAny)
    #expect(spoiled != nil && spoiled?.message != expected?.message)

    // Through the store, which gives the bytes back as it reads.
    let folder = StoreTestFolder()
    defer { folder.remove() }
    folder.write("Checklists.plist", Data(bytes))
    #expect {
      _ = try ChecklistsStore.open(location: folder.location())
    } throws: { error in
      guard let message = (error as? StoreError)?.message, let expected else { return false }
      return message == expected.shown(in: "Checklists.plist")
    }
  }

  /// A document whose middle is a long comment holding what looks like items: the second
  /// thread starts there and reads (and gives back) megabytes of it, but the first thread
  /// skips the comment and never takes that work, so it cannot trust the second half.
  @Test func aSecondHalfNotTakenAfterItGaveBytesBackIsNotTrusted() throws {
    let lists = [
      Checklist(
        name: "Real", iconName: "Folder",
        items: [
          ChecklistItem(text: "Milk", dueDate: Date(timeIntervalSinceReferenceDate: 0), itemID: 1)
        ])
    ]
    let real = String(decoding: try Self.xml(lists), as: UTF8.self)
    let fakeItem =
      "\n\t\t\t<dict>\n\t\t\t\t<key>checked</key>\n\t\t\t\t<false/>\n"
      + "\t\t\t\t<key>dueDate</key>\n\t\t\t\t<date>2001-01-01T00:00:00Z</date>\n"
      + "\t\t\t\t<key>itemID</key>\n\t\t\t\t<integer>9</integer>\n"
      + "\t\t\t\t<key>shouldRemind</key>\n\t\t\t\t<false/>\n"
      + "\t\t\t\t<key>text</key>\n\t\t\t\t<string>Not an item</string>\n\t\t\t</dict>"
    let comment =
      "<!-- " + String(repeating: fakeItem, count: 40_000)
      + "\n\t\t</array>\n\t</dict>\n</array>\n-->\n"
    // The comment goes just before the end of the lists.
    let end = try #require(real.range(of: "</array>\n</plist>", options: .backwards))
    var document = real
    document.insert(contentsOf: comment, at: end.lowerBound)
    let bytes = Array(document.utf8)
    #expect(bytes.count > ReadBytesRelease.minimumBytes + (1 << 20))

    let release = ReadBytesRelease()
    release.markReady()
    #expect(throws: FileFormatError.self) {
      try ChecklistsFileCoding.decode(bytes: bytes.map { $0 }, release: release)
    }
    #expect(release.releasedAny)
    // Read whole, it is the one real list; and so the store reads it.
    #expect(try ChecklistsFileCoding.decode(bytes: bytes).lists == lists)
    let folder = StoreTestFolder()
    defer { folder.remove() }
    folder.write("Checklists.plist", Data(bytes))
    let (store, load) = try ChecklistsStore.open(location: folder.location())
    store.close()
    #expect(load.model.lists == lists)
  }

  @Test func theStoreLoadsABigXMLFile() throws {
    let lists = Self.bigLists()
    let folder = StoreTestFolder()
    defer { folder.remove() }
    folder.write("Checklists.plist", Data(try Self.xml(lists)))
    let (store, load) = try ChecklistsStore.open(location: folder.location())
    defer { store.close() }
    #expect(load.model.lists.map(\.items) == lists.map(\.items))
    // The file on disk is untouched, and a save after the load sees no change made elsewhere.
    #expect(folder.bytes("Checklists.plist") == Data(try Self.xml(lists)))
    var changed = load.model
    let list = try #require(changed.lists.first)
    let item = changed.makeItem(text: "One more", dueDate: Date(timeIntervalSince1970: 1e9))
    let change = try #require(changed.insertItem(item, listID: list.id))
    changed.apply(change)
    #expect(try store.save(changed).outcome == .saved)
  }
}
