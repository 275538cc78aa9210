import Foundation
import Testing

@testable import ChecklistsCore

@Suite("Store: files that cannot be loaded are refused and left alone")
struct StoreLoadErrorTests {
  static let goodXML = String(decoding: encodedBytes(sampleModel()), as: UTF8.self)

  /// Two lists; the third item of "Groceries" has a string for "checked".
  static let wrongTypesXML = """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0"><array>
    <dict><key>name</key><string>Chores</string><key>iconName</key><string>Chores</string>
    <key>items</key><array/></dict>
    <dict><key>name</key><string>Groceries</string><key>iconName</key><string>Groceries</string>
    <key>items</key><array>
    \(item(1, checked: "<false/>"))\(item(2, checked: "<true/>"))\(item(3, checked: "<string>yes</string>"))
    </array></dict>
    </array></plist>
    """

  static func item(_ id: Int, checked: String) -> String {
    """
    <dict><key>text</key><string>Item \(id)</string><key>checked</key>\(checked)
    <key>dueDate</key><date>2026-12-24T18:00:00Z</date><key>shouldRemind</key><false/>
    <key>itemID</key><integer>\(id)</integer></dict>
    """
  }

  /// Each kind of unreadable content, by name.
  static let contents: [(String, Data)] = [
    ("empty", Data()),
    ("truncated", Data(goodXML.prefix(goodXML.count / 2).utf8)),
    ("garbage", Data([0x00, 0xFF, 0x13, 0x37, 0x42] + Array("not a plist at all".utf8))),
    ("wrong types", Data(wrongTypesXML.utf8)),
    ("not an array", Data("<plist version=\"1.0\"><dict/></plist>".utf8)),
  ]

  @Test(arguments: contents.map(\.0))
  func unreadableContentGivesTheFileNameAndTheCodecMessageAndKeepsTheBytes(kind: String) throws {
    let bytes = try #require(Self.contents.first { $0.0 == kind }?.1)
    let folder = StoreTestFolder()
    defer { folder.remove() }
    folder.write("Checklists.plist", bytes)
    let expected: FileFormatError
    do {
      _ = try ChecklistsFileCoding.decode(bytes)
      Issue.record("the codec accepted the \(kind) file")
      return
    } catch {
      expected = error
    }
    do {
      _ = try ChecklistsStore.open(location: folder.location())
      Issue.record("the \(kind) file was accepted")
    } catch {
      #expect(error.kind == .invalidContent)
      // A syntax error says its line and column as a compiler does: file:line:column.
      #expect(error.message == expected.shown(in: "Checklists.plist"))
    }
    #expect(folder.bytes("Checklists.plist") == bytes)
    #expect(folder.names() == ["Checklists.plist"])
  }

  @Test func wrongTypesNameTheListAndTheItem() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    let bytes = try #require(Self.contents.first { $0.0 == "wrong types" }?.1)
    folder.write("Checklists.plist", bytes)
    #expect {
      _ = try ChecklistsStore.open(location: folder.location())
    } throws: { error in
      let message = (error as? StoreError)?.message ?? ""
      return message.hasPrefix("Checklists.plist: list 2 (\"Groceries\"), item 3")
    }
  }

  @Test func aFIFOIsRefusedBeforeReading() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    #expect(mkfifo(folder.path + "/Checklists.plist", 0o600) == 0)
    #expect {
      _ = try ChecklistsStore.open(location: folder.location())
    } throws: { error in
      (error as? StoreError)?.message
        == "\(folder.path)/Checklists.plist is not a regular file: it is a FIFO (named pipe)"
    }
    #expect(try SystemFileSystem().lstat(folder.path + "/Checklists.plist").kind == .fifo)
  }

  @Test func aFolderIsRefused() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    try FileManager.default.createDirectory(
      atPath: folder.path + "/Checklists.plist/inside", withIntermediateDirectories: true)
    #expect {
      _ = try ChecklistsStore.open(location: folder.location())
    } throws: { error in
      (error as? StoreError)?.message
        == "\(folder.path)/Checklists.plist is not a regular file: it is a folder"
    }
    #expect(folder.names() == ["Checklists.plist"])
  }

  @Test func devZeroIsRefused() throws {
    let location = DataFileLocation(dataFile: "/dev/zero", stateFile: "/nonexistent/state.json")
    #expect {
      _ = try ChecklistsStore.open(location: location)
    } throws: { error in
      (error as? StoreError)?.message == "/dev/zero is not a regular file: it is a character device"
    }
  }

  @Test func anAbsurdlyLargeFileIsRefusedBeforeReading() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    let path = folder.path + "/Checklists.plist"
    folder.write("Checklists.plist", Data())
    #expect(truncate(path, off_t(ChecklistsStore.sizeLimit + 1)) == 0)  // Sparse: no disk used.
    let faulty = FaultyFileSystem()
    #expect {
      _ = try ChecklistsStore.open(location: folder.location(), fileSystem: faulty)
    } throws: { error in
      (error as? StoreError)?.message
        == "\(path) is too large to be a checklists file (1073741825 bytes; the limit is 1 GiB)"
    }
    #expect(!faulty.calls.contains { $0.hasPrefix("read ") })
  }

  @Test func anUnreadableFileNamesTheCause() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    folder.write("Checklists.plist", encodedBytes(sampleModel()))
    let faulty = FaultyFileSystem(fault: .init(call: "read", code: EIO) { _ in true })
    #expect {
      _ = try ChecklistsStore.open(location: folder.location(), fileSystem: faulty)
    } throws: { error in
      (error as? StoreError)?.message
        == "Could not read \(folder.path)/Checklists.plist: Input/output error"
    }
  }
}
