import Foundation
import Testing

extension EndToEndProcesses {
  /// Text from the file never reaches the terminal as control bytes or escape sequences.
  @Suite(.serialized) struct ReliabilityHostileTextTests {
    typealias Harness = ReliabilityHarness

    /// Counts bytes that are not valid UTF-8 and decoded C1 controls (U+0080–U+009F).
    private func invalidAndC1(in bytes: Data) -> (invalid: Int, c1: Int) {
      var invalid = 0
      var c1 = 0
      var iterator = bytes.makeIterator()
      var codec = UTF8()
      loop: while true {
        switch codec.decode(&iterator) {
        case .scalarValue(let scalar): if (0x80...0x9F).contains(scalar.value) { c1 += 1 }
        case .error: invalid += 1
        case .emptyInput: break loop
        }
      }
      return (invalid, c1)
    }

    /// The terminal cells a captured row takes (tmux's capture keeps one character per cell).
    private func cells(_ line: Substring) -> Int {
      line.reduce(0) { total, character in
        let scalars = character.unicodeScalars
        if scalars.contains(where: { $0.properties.isEmojiPresentation })
          || (scalars.contains("\u{FE0F}") && scalars.first?.properties.isEmoji == true)
        {
          return total + 2
        }
        let zeroWidth = scalars.allSatisfy {
          [.format, .nonspacingMark, .enclosingMark, .control].contains(
            $0.properties.generalCategory)
            || $0.properties.isVariationSelector
        }
        return total + (zeroWidth ? 0 : 1)
      }
    }

    @Test func hostileListNamesAndItemTextsAreShownInert() throws {
      let session = try Harness.startRecordingShell(
        logOutput: true, prepare: HostileTextFixture.write)
      defer { session.close() }
      let title = Harness.paneFormat("#{pane_title}", in: session)
      let allLists = try session.waitFor(text: "Plain")
      #expect(session.text(of: "err") == "")

      // All Lists: the right-aligned subtitles end in the same column on every row.
      let rows = allLists.split(separator: "\n", omittingEmptySubsequences: false)
      let listRows = rows.filter { $0.hasSuffix("Remaining") || $0.hasSuffix("(No Items)") }
      #expect(listRows.count == 5, "\(allLists)")
      #expect(Set(listRows.map(cells)).count == 1, "\(listRows.map(cells)) \(allLists)")
      #expect(rows.first?.contains("Checklists") == true)

      // Into the list, down every item, into the item form of each.
      try Harness.open("Hostile", in: session)
      try session.waitFor(text: "Long x")
      for _ in 0..<13 {
        try session.sendKeys("Enter")
        try session.waitFor(text: "Edit Item")
        try session.sendKeys("Escape")
        try session.waitFor("the list again") { !$0.contains("Edit Item") }
        try session.sendKeys("Down")
      }
      try session.sendKeys("Escape")
      try session.waitFor(text: "Plain")
      // Every list, and the form of the named ones.
      for _ in 0..<4 {
        try session.sendKeys("Down", "e")
        try session.waitFor(text: "Edit List")
        try session.sendKeys("Escape")
        try session.waitFor("All Lists again") { !$0.contains("Edit List") }
      }
      try session.sendKeys("q")
      #expect(try Harness.finishedStatus(of: session) == "0")

      let log = try session.loggedOutputOfFinishedRun()
      let text = String(decoding: log, as: UTF8.self)
      #expect(text.contains("Hostile"))
      #expect(!log.contains(0x07), "a BEL byte was written")
      for payload in [
        "\u{1B}]", "\u{1B}P", "\u{1B}[31mred", "\u{1B}[2J\u{1B}[H\u{1B}[31m", "\u{1B}\\",
      ] {
        #expect(!text.contains(payload), "\(payload.debugDescription) reached the terminal")
      }
      let (invalid, c1) = invalidAndC1(in: log)
      #expect(invalid == 0)
      #expect(c1 == 0)
      #expect(Harness.paneFormat("#{pane_title}", in: session) == title)
      #expect(!title.contains("pwned"))
    }

    @Test func loneSurrogatesAreRefusedWithTheirPlaceAndTheFileIsLeftAlone() throws {
      let session = try Harness.startRecordingShell(
        prepare: HostileTextFixture.writeWithLoneSurrogates)
      defer { session.close() }
      let before = try Data(contentsOf: session.dataFile)
      #expect(try Harness.finishedStatus(of: session) == "1")
      let error = session.text(of: "err")
      #expect(error.hasPrefix("checklists: "))
      #expect(error.contains("list 1 (\"Hostile\"), item 12"), "\(error)")
      #expect(error.contains("surrogate"), "\(error)")
      #expect(error.split(separator: "\n").count == 1)
      #expect(try Data(contentsOf: session.dataFile) == before)
      #expect(session.text(of: "before") == session.text(of: "after"))
    }
  }
}
