import ChecklistsTestSupport
import Testing

@testable import ChecklistsCore

/// `XMLPlistReader.textRun`, which reads an item's text eight bytes at a time, against the same
/// rules byte by byte: it stops at `<`, refuses `&`, control characters other than tab, line
/// feed and carriage return, and the end of the bytes, and says whether the text is ASCII.
@Suite struct PlistXMLTextRunTests {
  /// The rules, one byte at a time.
  private func reference(_ bytes: [UInt8], from start: Int) -> (range: Range<Int>, ascii: Bool)? {
    var ascii = true
    for index in start..<bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "<") { return (start..<index, ascii) }
      if byte == UInt8(ascii: "&") { return nil }
      if byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D { return nil }
      if byte >= 0x80 { ascii = false }
    }
    return nil
  }

  private func run(_ bytes: [UInt8], from start: Int) -> (range: Range<Int>, ascii: Bool)?? {
    bytes.withUnsafeBufferPointer { buffer in
      var at = start
      let found = XMLPlistReader.textRun(buffer, from: &at)
      // Where it stopped: at the `<` when found.
      if let found, at != found.range.upperBound { return .some(nil) }
      return .some(found)
    }
  }

  @Test func everyMarkAtEveryPlaceInAWord() throws {
    let marks: [UInt8] = [
      0x3C, 0x26, 0x00, 0x01, 0x09, 0x0A, 0x0D, 0x1F, 0x20, 0x3B, 0x3D, 0x7F, 0x80, 0xBC, 0xE2,
      0xFF,
    ]
    for length in 0..<20 {
      for place in 0..<max(length, 1) {
        for mark in marks {
          for start in 0..<3 {
            var bytes =
              Array(repeating: UInt8(ascii: "a"), count: start + length) + Array("</string>".utf8)
            if length > 0 { bytes[start + place] = mark }
            let expected = reference(bytes, from: start)
            let found = try #require(run(bytes, from: start))
            #expect(found?.range == expected?.range, "\(bytes) from \(start)")
            #expect(found?.ascii == expected?.ascii, "\(bytes) from \(start)")
          }
        }
      }
    }
  }

  @Test func randomTexts() throws {
    var generator = SeededGenerator(seed: 7)
    let alphabet: [UInt8] =
      Array("ab <&\t\n\r".utf8) + [0x01, 0x1F, 0x7F, 0x80, 0xC3, 0xA9, 0xF0, 0x9F]
    for _ in 0..<20_000 {
      let count = Int.random(in: 0..<40, using: &generator)
      let bytes = (0..<count).map { _ in
        // Mostly letters, so that runs get long.
        Int.random(in: 0..<4, using: &generator) == 0
          ? alphabet.randomElement(using: &generator) ?? 0x61 : UInt8(ascii: "x")
      }
      let start = count == 0 ? 0 : Int.random(in: 0..<count, using: &generator)
      let found = try #require(run(bytes, from: start))
      let expected = reference(bytes, from: start)
      #expect(found?.range == expected?.range, "\(bytes) from \(start)")
      #expect(found?.ascii == expected?.ascii, "\(bytes) from \(start)")
    }
  }
}
