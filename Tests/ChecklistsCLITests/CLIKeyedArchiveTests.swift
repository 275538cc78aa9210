import ChecklistsCore
import ChecklistsTestSupport
import Foundation
import Testing

extension CLITests {
  /// The real binary on a `Checklists.plist` saved by the book's first editions
  /// (`NSKeyedArchiver`): read by every command, converted by the first one that writes.
  @Suite("CLI: old keyed-archive files", .serialized)
  struct CLIKeyedArchiveTests {
    /// A keyed archive of one list, "Groceries", holding "Milk" (checked, ID 5).
    static func archive() throws -> Data {
      func classInfo(_ name: String) -> PlistValue {
        .dictionary(["$classname": .string(name), "$classes": .array([.string(name)])])
      }
      let value = PlistValue.dictionary([
        "$archiver": .string("NSKeyedArchiver"), "$version": .integer(100_000),
        "$top": .dictionary(["Checklists": .uid(1)]),
        "$objects": .array([
          .string("$null"),
          .dictionary(["NS.objects": .array([.uid(2)]), "$class": .uid(8)]),
          .dictionary([
            "Name": .uid(3), "Items": .uid(4), "IconName": .uid(3), "$class": .uid(9),
          ]),
          .string("Groceries"),
          .dictionary(["NS.objects": .array([.uid(5)]), "$class": .uid(8)]),
          .dictionary([
            "Text": .uid(6), "Checked": .bool(true), "DueDate": .uid(7),
            "ShouldRemind": .bool(false), "ItemID": .integer(5), "$class": .uid(10),
          ]),
          .string("Milk"),
          .dictionary(["NS.time": .real(800_000_000)]),
          classInfo("NSMutableArray"), classInfo("Checklists.Checklist"),
          classInfo("Checklists.ChecklistItem"),
        ]),
      ])
      return try value.encoded(as: .binary)
    }

    @Test func commandsReadTheArchiveAndTheFirstWriteConvertsIt() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      let original = try Self.archive()
      try FileManager.default.createDirectory(
        atPath: (sandbox.dataFile as NSString).deletingLastPathComponent,
        withIntermediateDirectories: true)
      #expect(FileManager.default.createFile(atPath: sandbox.dataFile, contents: original))

      let lists = sandbox.call("lists")
      #expect(lists.status == 0, "\(lists.stderr)")
      #expect(lists.stdout == "1. Groceries — All Done!\n")
      let export = sandbox.call("export")
      #expect(export.status == 0)
      let json = try #require(
        try JSONSerialization.jsonObject(with: export.stdoutBytes) as? [[String: Any]])
      let item = try #require((json.first?["items"] as? [[String: Any]])?.first)
      #expect(item["text"] as? String == "Milk")
      #expect(item["itemID"] as? Int == 5)
      // Reading wrote nothing.
      #expect(sandbox.bytes() == original)

      let added = sandbox.call("add", "groceries", "Bread")
      #expect(added.status == 0)
      #expect(
        added.stderr.contains(
          "converted from the old archive format; the original is in "),
        "\(added.stderr)")
      #expect(added.stderr.contains("Checklists.plist.bak"))
      #expect(sandbox.bytes(sandbox.dataFile + ".bak") == original)
      let converted = try #require(sandbox.bytes())
      #expect(converted.starts(with: Array("bplist00".utf8)))
      let document = try ChecklistsFileCoding.decode(converted)
      #expect(!document.isKeyedArchive)
      #expect(document.lists.first?.items.map(\.text) == ["Milk", "Bread"])
      // Said once: the file is no longer an archive.
      let again = sandbox.call("add", "groceries", "Eggs")
      #expect(again.status == 0)
      #expect(!again.stderr.contains("converted"))
    }
  }
}
