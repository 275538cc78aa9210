import ChecklistsCore
import ChecklistsTestSupport
import Foundation
import Testing

extension CLITests {
  @Suite("CLI: items and lists found as search finds them, and by a unique prefix", .serialized)
  struct CLISelectorTests {
    static func lists() -> [Checklist] {
      var groceries = Checklist(name: "Groceries", iconName: "Groceries")
      for (id, text) in [(1, "Café au lait"), (2, "Milk"), (3, "Mint"), (4, "Straße map")] {
        groceries.insertItem(ChecklistItem(text: text, itemID: id))
      }
      return [groceries, Checklist(name: "Études"), Checklist(name: "Errands")]
    }

    @Test func anItemIsFoundWithoutItsAccentsOrByAUniquePrefix() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(Self.lists())
      let folded = sandbox.call("check", "Groceries", "cafe au lait")
      #expect(folded.status == 0, "\(folded.stderr)")
      #expect(folded.stdout == "Checked \"Café au lait\" in Groceries.\n")
      let prefix = sandbox.call("uncheck", "Groceries", "caf")
      #expect(prefix.status == 0, "\(prefix.stderr)")
      #expect(prefix.stdout == "Unchecked \"Café au lait\" in Groceries.\n")
      #expect(sandbox.call("check", "Groceries", "STRASSE").status == 0)
      let groceries = try #require(try sandbox.lists().first { $0.name == "Groceries" })
      #expect(groceries.items[3].checked)
    }

    @Test func anAmbiguousPrefixNamesTheCandidates() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(Self.lists())
      let before = sandbox.bytes()
      let run = sandbox.call("check", "Groceries", "mi")
      #expect(run.status == 1)
      #expect(
        run.stderr
          == "checklists: \"mi\" could be several items in \"Groceries\": 2 \"Milk\", 3 \"Mint\"; "
          + "give more of the text or the number\n")
      #expect(sandbox.bytes() == before)
      #expect(sandbox.call("check", "Groceries", "mil").status == 0)
      #expect(sandbox.call("check", "Groceries", "xyz").status == 1)
    }

    @Test func aListIsFoundTheSameWay() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData(Self.lists())
      let folded = sandbox.call("add", "etudes", "Scales")
      #expect(folded.status == 0, "\(folded.stderr)")
      #expect(folded.stdout.contains("to Études"))
      #expect(sandbox.call("show", "gro").status == 0)
      let ambiguous = sandbox.call("show", "e")
      #expect(ambiguous.status == 1)
      let names = try sandbox.lists().map(\.name)
      let candidates = names.enumerated().filter { $0.element != "Groceries" }.map {
        "\($0.offset + 1) \"\($0.element)\""
      }
      #expect(candidates.count == 2)
      #expect(
        ambiguous.stderr
          == "checklists: \"e\" could be several lists: \(candidates.joined(separator: ", ")); "
          + "give more of the name or the number\n")
    }
  }
}
