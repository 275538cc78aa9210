import Foundation
import Testing

@testable import ChecklistsCore

/// The program's own replacements for what only all of Foundation gave (NSString's paths,
/// trimming, ICU's search folding, printf, NSLock, FileHandle, Process), each checked against
/// Foundation itself, which the tests may still use.
@Suite struct FoundationFreeTextTests {
  static let paths = [
    "/a/b.txt", "/a/b/", "/a", "/", "a/b", "/a//b", ".profile", "/x/.profile",
    "/x/archive.tar.gz", "/x/y.", "~/lists/Checklists.plist", "/a/b///", "name.plist",
  ]

  @Test(arguments: paths) func pathPartsAsNSStringGivesThem(path: String) {
    let ns = path as NSString
    #expect(PathText.folder(of: path) == ns.deletingLastPathComponent, "\(path)")
    #expect(PathText.name(of: path) == ns.lastPathComponent, "\(path)")
    #expect(PathText.fileExtension(of: path) == ns.pathExtension, "\(path)")
    #expect(
      PathText.stem(of: PathText.name(of: path))
        == (ns.lastPathComponent as NSString).deletingPathExtension, "\(path)")
  }

  /// Where Foundation on Linux crashes (an empty path, a one-letter name), the expected parts.
  @Test func pathPartsOfEdgeCases() {
    #expect(PathText.folder(of: "") == "")
    #expect(PathText.name(of: "") == "")
    #expect(PathText.folder(of: "a") == "")
    #expect(PathText.name(of: "a") == "a")
    #expect(PathText.folder(of: "//a") == "/")
    #expect(PathText.name(of: "//a") == "a")
    #expect(PathText.joined("/a", "b") == "/a/b")
    #expect(PathText.joined("/", "b") == "/b")
    #expect(PathText.joined("", "b") == "b")
  }

  @Test func trimmingAsFoundationTrims() {
    let samples = [
      "  a b  ", "\n\t x\r\n", "", "   ", "\u{00A0}nbsp\u{2003}", "x", " \n", "line\n\n",
      "\u{3000}全角\u{3000}",
    ]
    for text in samples {
      #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespacesAndNewlines))
      #expect(text.trimmingSpaces() == text.trimmingCharacters(in: .whitespaces), "\(text)")
      #expect(text.trimmingLineBreaks() == text.trimmingCharacters(in: .newlines))
    }
  }

  /// Every letter with accents of Latin, Greek and Cyrillic folds as Foundation's folding
  /// (ICU) folds it, except where ours goes further: letters with a stroke, and ё, й, ї, ў.
  @Test func searchFoldingMatchesFoundationForAccentedLetters() {
    var differences: [String] = []
    let blocks: [ClosedRange<UInt32>] = [
      0xC0...0x24F, 0x370...0x3FF, 0x400...0x4FF, 0x1E00...0x1EFF,
    ]
    for value in blocks.joined() {
      guard let scalar = Unicode.Scalar(value), scalar.properties.isAlphabetic else { continue }
      let text = String(scalar)
      let ours = String(decoding: SearchFolding.fold(text), as: UTF8.self)
      let theirs = text.folding(
        options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil
      ).lowercased()
      if ours != theirs { differences.append("\(text) \(ours) \(theirs)") }
    }
    // Where they differ, ours went further (ø → o, ł → l): what Foundation gives folds, by
    // ours, to the same. Six rare letters fold by their names where their lower case has no
    // accent in its name (ẚ, Ɵ, Ⱥ, Ⱦ, ϓ, ϔ).
    let rare: Set<Character> = ["ẚ", "Ɵ", "Ⱥ", "Ⱦ", "ϓ", "ϔ"]
    for line in differences where !rare.contains(line.first ?? " ") {
      let parts = line.split(separator: " ").map(String.init)
      #expect(SearchFolding.fold(parts[2]) == Array(parts[1].utf8), "\(line)")
    }
    for (text, folded) in [
      ("Łódź", "lodz"), ("Ørsted", "orsted"), ("ёлка", "елка"), ("ｆｕｌｌ", "full"),
      ("Straße", "strasse"), ("ǟ", "a"),
    ] {
      #expect(SearchFolding.fold(text) == Array(folded.utf8))
    }
  }

  @Test func containsFoldingAsFoundationFinds() {
    let texts = ["Buy MILK", "milk", "Crème brûlée", "ÉCOLE", "a-b-c", "", "x", "Straße", "ＣＡＦＥ"]
    let needles = [
      "milk", "MiLk", "brûlée", "BRULEE", "école", "ecole", "b-c", "", "zz", "x", "STRASSE", "cafe",
    ]
    let options: String.CompareOptions = [
      .caseInsensitive, .diacriticInsensitive, .widthInsensitive,
    ]
    for text in texts {
      for needle in needles {
        #expect(
          TextMatching.contains(text, folding: needle)
            == (needle.isEmpty || text.range(of: needle, options: options) != nil),
          "\(text) \(needle)")
      }
    }
  }

  @Test func firstAndLastRangeAsFoundationFindsThem() {
    let cases: [(String, String)] = [
      (".Photo-ab.jpg.tmp-123-4", ".tmp-"),
      ("/usr/share/zoneinfo/posix/zoneinfo/Europe", "zoneinfo/"),
      ("LATIN SMALL LETTER E WITH ACUTE", " WITH "), ("Straße café 東京 tmp", "東京"),
      ("aaaa", "aa"), ("aaa", "aa"), ("abc", "abcd"), ("abc", "x"), ("", "a"), ("tmp", "tmp"),
    ]
    for (text, needle) in cases {
      let ours = TextMatching.firstRange(of: needle, in: text).map { text[$0] }
      let theirs = text.range(of: needle).map { text[$0] }
      #expect(ours == theirs, "first \(needle) in \(text)")
      let lastOurs = TextMatching.lastRange(of: needle, in: text)
      let lastTheirs = text.range(of: needle, options: .backwards)
      #expect(lastOurs == lastTheirs, "last \(needle) in \(text)")
    }
    #expect(TextMatching.firstRange(of: "", in: "abc") == nil)
    #expect(TextMatching.lastRange(of: "", in: "abc") == nil)
    // Overlapping occurrences: the last one starts at the second "a", as a backward search.
    #expect(
      TextMatching.lastRange(of: "aa", in: "aaa") == "aaa".range(of: "aa", options: .backwards))
  }

  @Test func percentDecodingPrefixAndPadding() {
    for text in ["/a%20b/c%C3%A9.jpg", "plain", "%41%42", "%", "%4", "%zz", "%FF"] {
      #expect(TextMatching.removingPercentEncoding(text) == text.removingPercentEncoding, "\(text)")
    }
    #expect(TextMatching.commonPrefix("photo-1.jpg", "photo-2.jpg") == "photo-")
    #expect(TextMatching.commonPrefix("café", "cafe") == "caf")
    #expect(TextMatching.padded("ab", to: 4) == "ab  ")
    #expect(TextMatching.padded("abcdef", to: 4) == "abcdef")
    #expect(TextMatching.replacing("-", with: "\\-", in: "a-b-\u{301}") == "a\\-b\\-\u{301}")
  }

  @Test func printfFormattingAsStringFormat() {
    for value in [0.1, 1.0 / 3.0, 1e300, -0.0, 123_456_789.125, 2.5e-300] {
      #expect(CFormat.string("%.17g", value) == String(format: "%.17g", value))
    }
    for value: UInt32 in [0, 0x1B, 0x7F, 0x2028, 0x10FFFF] {
      #expect(CFormat.string("<U+%04X>", value) == String(format: "<U+%04X>", value))
    }
  }

  @Test func readingAFileInPiecesAndSpawning() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "checklists-read-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: url) }
    let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    try Data(bytes).write(to: url)
    let file = try #require(ReadOnlyFile(path: url.path))
    #expect(file.read(upToCount: 10) == Array(bytes.prefix(10)))
    #expect(file.readToEnd() == Array(bytes.dropFirst(10)))
    #expect(file.read(upToCount: 10) == [])
    file.close()
    #expect(ReadOnlyFile(path: url.path + "-missing") == nil)
    #expect(SpawnedProcess.run("/bin/sh", ["-c", "exit 3"], timeout: 10) == .exited(3))
    #expect(SpawnedProcess.run("/bin/sh", ["-c", "kill -TERM $$"], timeout: 10) == .signalled(15))
    #expect(SpawnedProcess.run("/bin/sleep", ["5"], timeout: 0.2) == .timedOut)
    if case .notStarted = SpawnedProcess.run("/nonexistent/tool", [], timeout: 1) {
    } else {
      Issue.record("a missing program started")
    }
  }

  @Test func theLockKeepsCountsRightAcrossThreads() async {
    final class Counter: @unchecked Sendable {
      let lock = ThreadLock()
      var value = 0
    }
    let counter = Counter()
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        group.addTask {
          for _ in 0..<10_000 {
            counter.lock.lock()
            counter.value += 1
            counter.lock.unlock()
          }
        }
      }
    }
    #expect(counter.value == 80_000)
  }
}
