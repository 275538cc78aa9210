import ChecklistsTestSupport
import Foundation
import Testing

@testable import ChecklistsCore

/// The plist layer on its own: binary objects and structure errors, XML syntax, dates.
@Suite struct PlistCodecTests {
  // MARK: - Hand-built binary files

  /// A `bplist00` file of `objects` (already encoded), 1-byte offsets unless they do not fit.
  private func bplist(
    _ objects: [[UInt8]], top: UInt64 = 0, refSize: UInt8 = 1, objectCount: UInt64? = nil,
    tableOffset: UInt64? = nil, offsetSize: UInt8? = nil, patchOffsets: [Int: UInt64] = [:]
  ) -> Data {
    var bytes = Array("bplist00".utf8)
    var offsets: [UInt64] = []
    for object in objects {
      offsets.append(UInt64(bytes.count))
      bytes += object
    }
    for (index, offset) in patchOffsets { offsets[index] = offset }
    let table = bytes.count
    let size = offsetSize ?? (table > 255 ? 2 : 1)
    for offset in offsets { bytes += be(offset, Int(size)) }
    bytes += [0, 0, 0, 0, 0, 0, size, refSize]
    bytes += be(objectCount ?? UInt64(objects.count), 8) + be(top, 8)
    bytes += be(tableOffset ?? UInt64(table), 8)
    return Data(bytes)
  }

  private func be(_ value: UInt64, _ size: Int) -> [UInt8] {
    (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> UInt64($0 * 8)) }
  }

  private func decode(_ data: Data) throws(PlistError) -> PlistValue {
    try PlistValue.decode(from: data).value
  }

  private func message(_ data: Data) -> String? {
    do {
      _ = try decode(data)
      return nil
    } catch {
      return error.message
    }
  }

  @Test func binaryScalarsOfEveryWidth() throws {
    let objects: [[UInt8]] = [
      [0xAF, 0x10, 14] + Array(1...14),
      [0x10, 0xFF],
      [0x11] + be(0x1234, 2),
      [0x12] + be(0x1234_5678, 4),
      [0x13] + be(UInt64(bitPattern: -5), 8),
      [0x14] + be(0, 8) + be(UInt64.max, 8),
      [0x14] + be(UInt64.max, 8) + be(UInt64(bitPattern: -2), 8),
      [0x22] + be(UInt64(Float(1.5).bitPattern), 4),
      [0x23] + be(Double(0.1).bitPattern, 8),
      [0x33] + be(Double(-0.25).bitPattern, 8),
      [0x09],
      [0x45, 1, 2, 3, 4, 5],
      [0x53] + Array("abc".utf8),
      [0x62, 0, 0x68, 0xD8, 0x3D, 0xDE, 0x00] + [],
      [0xD1, 12, 10],
    ]
    // The UTF-16 string is "h" + U+1F600 (three code units); fix its count.
    var fixed = objects
    fixed[13] = [0x63, 0, 0x68, 0xD8, 0x3D, 0xDE, 0x00]
    let value = try decode(bplist(fixed))
    #expect(
      value
        == .array([
          .integer(255), .integer(0x1234), .integer(0x1234_5678), .integer(-5),
          .unsignedInteger(UInt64.max), .integer(-2), .real(1.5), .real(0.1),
          .date(Date(timeIntervalSinceReferenceDate: -0.25)), .bool(true),
          .data(Data([1, 2, 3, 4, 5])), .string("abc"), .string("h\u{1F600}"),
          .dictionary(["abc": .bool(true)]),
        ]))
    // Foundation reads the same file the same way.
    // Foundation reads the same file the same way, except that it takes a negative 128-bit
    // integer (which no writer produces; negatives are 8 bytes) as its low 64 bits unsigned.
    let foundation = try FileFormatTestSupport.foundationRead(bplist(fixed))
    guard case .array(var theirs) = foundation, case .array(var ours) = value else {
      Issue.record("Foundation read \(String(describing: foundation))")
      return
    }
    #expect(theirs.remove(at: 5) == .unsignedInteger(UInt64.max - 1))
    #expect(ours.remove(at: 5) == .integer(-2))
    #expect(theirs == ours)
  }

  @Test func ourIntegersRoundTripAtEveryWidth() throws {
    let values: [PlistValue] = [
      .integer(0), .integer(255), .integer(256), .integer(65_535), .integer(65_536),
      .integer(4_294_967_295), .integer(4_294_967_296), .integer(Int64.max), .integer(-1),
      .integer(Int64.min), .unsignedInteger(UInt64(Int64.max) + 1), .unsignedInteger(UInt64.max),
    ]
    for format in [PlistFormat.binary, .xml] {
      let data = try PlistValue.array(values).encoded(as: format)
      #expect(try decode(data) == .array(values))
      #expect(try FileFormatTestSupport.foundationRead(data) == .array(values))
    }
  }

  /// UTF-16 strings become the same `String` the standard library decodes, ASCII-only and
  /// mixed, with every surrogate pair; an unpaired surrogate anywhere is refused.
  @Test func utf16TextDecodesLikeTheStandardLibrary() {
    var generator = SeededGenerator(seed: 11)
    let pool: [Unicode.Scalar] = [
      "a", "Z", " ", "\u{7F}", "é", "ß", "\u{7FF}", "\u{800}", "東",
      "\u{FFFD}", "\u{FFFF}", "\u{10000}", "🛒", "\u{10FFFF}", "\u{301}",
    ]
    for _ in 0..<2_000 {
      let length = Int.random(in: 0...40, using: &generator)
      let asciiOnly = Bool.random(using: &generator)
      var text = String.UnicodeScalarView()
      for _ in 0..<length {
        text.append(
          asciiOnly
            ? pool[Int.random(in: 0..<4, using: &generator)]
            : pool.randomElement(using: &generator) ?? "a")
      }
      let string = String(text)
      var bytes: [UInt8] = []
      for unit in string.utf16 { bytes += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
      let decoded = bytes.withUnsafeBufferPointer { UTF16BigEndianText.string($0) }
      #expect(decoded == string)
      #expect(decoded?.utf8.elementsEqual(string.utf8) == true)
      #expect(decoded.map { $0.unicodeScalars.count } == string.unicodeScalars.count)
      guard !bytes.isEmpty else { continue }
      let at = 2 * Int.random(in: 0...(bytes.count / 2), using: &generator)
      let lone: [UInt8] = Bool.random(using: &generator) ? [0xD8, 0x3D] : [0xDE, 0x00]
      let broken = Array(bytes[..<at]) + lone + Array(bytes[at...])
      // A high surrogate followed by a low one makes a pair; everything else is unpaired.
      let pairs =
        lone[0] == 0xD8 && at < bytes.count && bytes[at] & 0xFC == 0xDC
        || lone[0] == 0xDE && at > 0 && bytes[at - 2] & 0xFC == 0xD8
      if !pairs {
        #expect(broken.withUnsafeBufferPointer { UTF16BigEndianText.string($0) } == nil)
      }
    }
  }

  /// Strings are written as ASCII or big-endian UTF-16 with the right unit count, eight bytes
  /// at a time or one by one, whatever the mix and the length.
  @Test func stringsAreWrittenAsTheirUTF16() {
    var generator = SeededGenerator(seed: 5)
    let pool: [String] = ["a", "bcdefgh", "Z", " ", "é", "東", "🛒", "\u{10FFFF}", "\u{7F}", "ß"]
    for round in 0..<3_000 {
      var string = ""
      for _ in 0..<Int.random(in: 0...30, using: &generator) {
        string += pool[Int.random(in: 0..<(round % 3 == 0 ? 4 : pool.count), using: &generator)]
      }
      let out = OutputBuffer()
      BinaryPlistWriter.encodeString(string, to: out)
      let bytes = Array(out.bytes)
      let ascii = string.utf8.allSatisfy { $0 < 0x80 }
      let units = Array(string.utf16)
      let count = ascii ? string.utf8.count : units.count
      let header = count < 15 ? 1 : count < 256 ? 3 : 4
      #expect(bytes[0] >> 4 == (ascii ? 0x5 : 0x6), "\(string)")
      #expect(bytes.count == header + (ascii ? count : 2 * count), "\(string)")
      if ascii {
        #expect(Array(bytes[header...]) == Array(string.utf8))
      } else {
        let written = stride(from: header, to: bytes.count, by: 2).map {
          UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1])
        }
        #expect(written == units, "\(string)")
      }
    }
  }

  /// Our UTF-8 check accepts exactly what the standard library accepts, on random bytes near
  /// every edge of the table (overlong forms, surrogates, past U+10FFFF, cut sequences), and
  /// the strings are the same.
  @Test func utf8IsCheckedLikeTheStandardLibrary() {
    var generator = SeededGenerator(seed: 9)
    let interesting: [UInt8] = [
      0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1,
      0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF,
    ]
    var valid = 0
    for round in 0..<20_000 {
      var bytes: [UInt8] = []
      for _ in 0..<Int.random(in: 0...24, using: &generator) {
        bytes.append(
          round % 4 == 0
            ? UInt8.random(in: 0...0xFF, using: &generator)
            : interesting.randomElement(using: &generator) ?? 0x41)
      }
      // Some rounds are well-formed text, with long ASCII runs.
      if round % 5 == 0 {
        bytes = Array("plain ASCII run é東🛒 \(round) and more ASCII".utf8)
      }
      let expected = bytes.withUnsafeBufferPointer { String(validating: $0, as: UTF8.self) }
      let ours = bytes.withUnsafeBufferPointer { UTF8Text.string($0) }
      #expect(ours == expected, "\(bytes)")
      #expect(ours?.utf8.elementsEqual(bytes) ?? true)
      if expected != nil { valid += 1 }
    }
    #expect(valid > 4_000)
  }

  /// Dates as the writers write them are read at fixed places, to the same instant as the
  /// general reading; anything else is left to it.
  @Test func writtenDatesReadLikeTheGeneralReading() {
    var generator = SeededGenerator(seed: 3)
    for _ in 0..<5_000 {
      let seconds = Double(Int64.random(in: -63_000_000_000...250_000_000_000, using: &generator))
      guard let text = PlistDateFormat.format(seconds) else { continue }
      let bytes = Array(text.utf8)
      let fast = bytes.withUnsafeBufferPointer { PlistDateFormat.parseWritten($0) }
      #expect(fast == seconds, "\(text)")
      #expect(fast == PlistDateFormat.parse(text))
    }
    for text in [
      "2024-01-32T00:00:00Z", "2023-02-29T00:00:00Z", "2024-13-01T00:00:00Z",
      "2024-01-01T24:00:00Z", "2024-01-01T00:00:60Z", "2024-01-01T00:00:00.5Z",
      " 2024-01-01T00:00:00Z", "-0001-01-01T00:00:00Z", "2024-01-01 00:00:00Z",
      "2024-1-01T0:00:00Z",
    ] {
      let fast = Array(text.utf8).withUnsafeBufferPointer { PlistDateFormat.parseWritten($0) }
      #expect(fast == nil, "\(text)")
    }
    let leap = Array("2024-02-29T23:59:59Z".utf8).withUnsafeBufferPointer {
      PlistDateFormat.parseWritten($0)
    }
    #expect(leap != nil && leap == PlistDateFormat.parse("2024-02-29T23:59:59Z"))
  }

  /// What XML can store is decided as by looking at every character: C0 controls other than
  /// tab, LF and CR, and U+FFFE or U+FFFF, anywhere in texts of any length, are refused.
  @Test func xmlCanStoreExactlyWhatItCanHold() {
    var generator = SeededGenerator(seed: 13)
    let pool: [String] = [
      "a", "plain text ", "\t", "\n", "\r", "\u{0}", "\u{1F}", "\u{7}", " ", "\u{7F}", "é",
      "\u{EFFF}", "\u{F000}", "\u{FFFD}", "\u{FFFE}", "\u{FFFF}", "🛒", "\u{FEFF}",
    ]
    for _ in 0..<5_000 {
      var text = ""
      for _ in 0..<Int.random(in: 0...12, using: &generator) {
        text += pool.randomElement(using: &generator) ?? "a"
      }
      let expected = !text.unicodeScalars.contains {
        ($0.value < 0x20 && $0.value != 0x09 && $0.value != 0x0A && $0.value != 0x0D)
          || $0.value == 0xFFFE || $0.value == 0xFFFF
      }
      #expect(XMLPlistWriter.canStore(text) == expected, "\(Array(text.unicodeScalars))")
    }
    #expect(XMLPlistWriter.canStore(Date(timeIntervalSinceReferenceDate: 0)))
    #expect(!XMLPlistWriter.canStore(Date(timeIntervalSinceReferenceDate: .infinity)))
    #expect(!XMLPlistWriter.canStore(Date(timeIntervalSinceReferenceDate: 252_423_993_600)))
    #expect(XMLPlistWriter.canStore(Date(timeIntervalSinceReferenceDate: -63_113_904_000)))
    #expect(!XMLPlistWriter.canStore(Date(timeIntervalSinceReferenceDate: -63_113_904_001)))
  }

  /// The one-pass proof of the usual file accepts only what the walk accepts: random graphs of
  /// arrays, dictionaries and shared scalars, in writer order or not, some with cycles, deep
  /// chains, unreachable damage or references past the end, give the same verdict both ways.
  @Test func theOnePassProofAgreesWithTheWalk() throws {
    var generator = SeededGenerator(seed: 7)
    var proven = 0
    for round in 0..<3_000 {
      let count = Int.random(in: 1...24, using: &generator)
      let forward = round % 3 != 0
      var objects: [[UInt8]] = []
      for index in 0..<count {
        if Int.random(in: 0..<3, using: &generator) == 0 {
          objects.append([0x09])
          continue
        }
        let slots = Int.random(in: 0...3, using: &generator)
        func target() -> UInt8 {
          if Int.random(in: 0..<60, using: &generator) == 0 { return UInt8(count + 1) }
          let low = forward && index + 1 < count && !Bool.random(using: &generator) ? index + 1 : 0
          return UInt8(Int.random(in: low..<count, using: &generator))
        }
        if Bool.random(using: &generator) {
          objects.append([0xA0 | UInt8(slots)] + (0..<slots).map { _ in target() })
        } else {
          objects.append([0xD0 | UInt8(slots)] + (0..<(2 * slots)).map { _ in target() })
        }
      }
      let bytes = [UInt8](bplist(objects))
      let walked = Result { () throws(PlistError) in
        try BinaryPlistReader(bytes: bytes, walkingOnly: true)
      }
      let either = Result { () throws(PlistError) in
        try BinaryPlistReader(bytes: bytes, proofRuns: 1)
      }
      // The proof in runs, one per thread, reaches the same verdict as in one run.
      for runs in [2, 3, 5] {
        let inRuns = Result { () throws(PlistError) in
          try BinaryPlistReader(bytes: bytes, proofRuns: runs)
        }
        switch (either, inRuns) {
        case (.success(let one), .success(let split)):
          #expect(one.provenInWriterOrder == split.provenInWriterOrder, "round \(round) \(runs)")
        case (.failure(let one), .failure(let split)):
          #expect(one == split, "round \(round) \(runs)")
        default:
          Issue.record("round \(round): the proof in \(runs) runs disagrees on \(objects)")
        }
      }
      switch (walked, either) {
      case (.success, .success(let reader)):
        if reader.provenInWriterOrder { proven += 1 }
      case (.failure(let walkError), .failure(let error)):
        #expect(walkError == error, "round \(round)")
      default:
        Issue.record("round \(round): the walk and the proof disagree on \(objects)")
      }
    }
    // A real share of the sound graphs took the one-pass path.
    #expect(proven > 200)
    // A chain deeper than the limit in writer order is walked, and refused as before.
    let depth = PlistLimits.maximumDepth + 1
    let chain = (0..<depth).map { [0xA1] + FileFormatCompatibilityTests.be(UInt64($0 + 1), 2) }
    let deep = [UInt8](bplist(chain + [[0x09]], refSize: 2))
    for runs in [1, 2, 3, 7] {
      #expect(throws: PlistError("nesting deeper than 512 levels")) {
        try BinaryPlistReader(bytes: deep, proofRuns: runs)
      }
      // One level less is within the limit, and proven across the runs' edges.
      let allowed = (0..<(depth - 1)).map {
        [0xA1] + FileFormatCompatibilityTests.be(UInt64($0 + 1), 2)
      }
      let deepest = [UInt8](bplist(allowed + [[0x09]], refSize: 2))
      #expect(try BinaryPlistReader(bytes: deepest, proofRuns: runs).provenInWriterOrder)
    }
  }

  /// Files our writer makes, and the iPhone app's written by CoreFoundation's binary writer
  /// (the one Foundation uses here), are proven in one pass.
  @Test func ourFilesAndTheIPhoneAppsAreProvenInOnePass() throws {
    let ours = encodedBytes(adding("Laundry", to: sampleModel()), format: .binary)
    #expect(try BinaryPlistReader(ours).provenInWriterOrder)
    let xml = try Data(contentsOf: FileFormatTestSupport.iosFixture)
    let tree = try PropertyListSerialization.propertyList(from: xml, format: nil)
    let ios = try PropertyListSerialization.data(
      fromPropertyList: tree, format: .binary, options: 0)
    #expect(try BinaryPlistReader(ios).provenInWriterOrder)
  }

  @Test func binaryStructureErrors() {
    #expect(message(bplist([[0xA1, 0]])) == "binary property list contains a cycle (object 0)")
    #expect(
      message(bplist([[0xA2, 1, 2], [0xA1, 0], [0x09]]))
        == "binary property list contains a cycle (object 0)")
    #expect(
      message(bplist([[0xA1, 5]]))
        == "binary property list refers to object 5, which does not exist")
    #expect(
      message(bplist([[0xA1, 1], [0x09]], patchOffsets: [1: 200]))
        == "binary property list has a bad offset for object 1")
    #expect(
      message(bplist([[0x09]], refSize: 9))
        == "binary property list has a damaged trailer (offset size 1, reference size 9; "
        + "each must be 1 to 8 bytes)")
    #expect(
      message(bplist([[0x09]], refSize: 0))
        == "binary property list has a damaged trailer (offset size 1, reference size 0; "
        + "each must be 1 to 8 bytes)")
    #expect(message(bplist([[0x09]], top: 1)) == "binary property list has a damaged trailer")
    #expect(
      message(bplist([[0x09]], tableOffset: 2))
        == "binary property list has a bad offset table position")
    #expect(
      message(bplist([[0x09], [0x08]], objectCount: 1_000))
        == "binary property list has a damaged trailer")
    #expect(
      message(bplist(Array(repeating: [0x09], count: 3), objectCount: 5))
        == "binary property list claims 5 objects, more than its size allows")
    #expect(
      message(bplist([[0x5F, 0x10, 200, 0x41]])) == "binary property list is truncated")
    #expect(
      message(bplist([[0x90, 1]]))
        == "binary property list has an unsupported object type 0x90 (object 0)")
    #expect(
      message(bplist([[0x61, 0xDC, 0x00]]))
        == "binary property list has a string with a broken UTF-16 surrogate")
    #expect(
      message(bplist([[0x14] + be(1, 8) + be(0, 8)]))
        == "binary property list has an integer too large for 64 bits")
    #expect(
      message(bplist([[0xD1, 1, 1], [0x09]]))
        == "binary property list has a dictionary key that is not a string")
    #expect(
      message(bplist([[0x52, 0xFF, 0xFE]]))
        == "binary property list has a string that is not valid text")
  }

  @Test func sharedObjectsCannotExpandWithoutLimit() {
    // Object i is [i + 1, i + 1]: 2^60 values if expanded.
    var objects: [[UInt8]] = (0..<60).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] }
    objects.append([0x09])
    #expect(message(bplist(objects)) == "binary property list expands to too many values")
  }

  // MARK: - XML syntax

  @Test func xmlReferencesCDATACommentsAndDoctype() throws {
    let text = """
      \u{FEFF}<?xml version="1.0" encoding="UTF-8"?>
      <!-- a comment -->
      <!DOCTYPE plist [ <!ENTITY x "y"> ]>
      <plist version="1.0">
      <dict>
      \t<key>entities</key>
      \t<string>&amp;&lt;&gt;&quot;&apos;&#65;&#x1F600;</string>
      \t<key>cdata</key>
      \t<string>a<![CDATA[<b>&amp;]]>c<!-- skipped -->d</string>
      \t<key></key>
      \t<string/>
      \t<key>flags</key>
      \t<array><true/><false></false><integer> -12 </integer><integer>0x1F</integer></array>
      \t<key>reals</key>
      \t<array><real>nan</real><real>+infinity</real><real>-infinity</real><real>2.5e3</real></array>
      \t<key>data</key>
      \t<data>
      \tAQID
      \tBA==
      \t</data>
      \t<key>date</key>
      \t<date>2001-01-01T00:00:01Z</date>
      </dict>
      </plist>
      """
    let value = try decode(Data(text.utf8))
    guard case .dictionary(let dictionary) = value else {
      Issue.record("not a dictionary: \(value)")
      return
    }
    #expect(dictionary["entities"] == .string("&<>\"'A\u{1F600}"))
    #expect(dictionary["cdata"] == .string("a<b>&amp;cd"))
    #expect(dictionary[""] == .string(""))
    #expect(
      dictionary["flags"] == .array([.bool(true), .bool(false), .integer(-12), .integer(31)]))
    guard case .array(let reals) = dictionary["reals"], reals.count == 4,
      case .real(let nan) = reals[0]
    else {
      Issue.record("reals: \(String(describing: dictionary["reals"]))")
      return
    }
    #expect(nan.isNaN)
    #expect(Array(reals.dropFirst()) == [.real(.infinity), .real(-.infinity), .real(2_500)])
    #expect(dictionary["data"] == .data(Data([1, 2, 3, 4])))
    #expect(dictionary["date"] == .date(Date(timeIntervalSinceReferenceDate: 1)))
  }

  @Test func xmlErrors() {
    let cases: [(String, String)] = [
      ("<plist><string>&bogus;</string></plist>", "XML error at line 1: unknown entity &bogus;"),
      (
        "<plist><string>&#0;</string></plist>",
        "XML error at line 1: &#0; is not a character XML allows"
      ),
      (
        "<plist>\n<dict><key>a</key></dict></plist>",
        "XML error at line 2: <key>a</key> has no value"
      ),
      (
        "<plist><date>2001-02-30T00:00:00Z</date></plist>",
        "XML error at line 1: \"2001-02-30T00:00:00Z\" is not a date"
      ),
      ("<plist><integer>12a</integer></plist>", "XML error at line 1: \"12a\" is not an integer"),
      (
        "<plist><integer>99999999999999999999</integer></plist>",
        "XML error at line 1: \"99999999999999999999\" is not an integer"
      ),
      ("<plist><data>@@@@</data></plist>", "XML error at line 1: <data> is not valid base64"),
      ("<plist><key>a</key></plist>", "XML error at line 1: <key> outside a <dict>"),
      ("<plist><array>text</array></plist>", "XML error at line 1: unexpected text"),
      (
        "<plist><string>a<b/></string></plist>",
        "XML error at line 1: unexpected element inside <string>"
      ),
      ("<plist/>", "XML error at line 1: <plist> is empty"),
      ("<!-- never closed", "XML error at line 1: unterminated comment"),
      ("<plist><array>", "XML error at line 1: unexpected end of file"),
    ]
    for (text, expected) in cases {
      #expect(message(Data(text.utf8)) == expected, "\(text)")
    }
  }

  // MARK: - Dates

  @Test func xmlDatesMatchFoundationsFormatter() {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    var generator = SeededGenerator(seed: 5)
    for _ in 0..<500 {
      let seconds = Double(Int64.random(in: -60_000_000_000...250_000_000_000, using: &generator))
      let date = Date(timeIntervalSinceReferenceDate: seconds)
      guard let text = PlistDateFormat.format(seconds) else {
        Issue.record("no text for \(seconds)")
        continue
      }
      if seconds > -13_000_000_000 {
        // Foundation's formatter switches to the Julian calendar before 1582; compare after.
        #expect(text == formatter.string(from: date))
      }
      #expect(PlistDateFormat.parse(text) == seconds)
    }
    #expect(PlistDateFormat.format(.nan) == nil)
    #expect(PlistDateFormat.format(1e15) == nil)
    #expect(PlistDateFormat.format(-0.5) == "2000-12-31T23:59:59Z")
    #expect(PlistDateFormat.parse("2001-01-01T00:00:00.5Z") == 0.5)
  }
}
