import Foundation
import Testing

@testable import ChecklistsCore

/// What other readers make of the files other writers made: odd binary layouts, UIDs, XML in
/// UTF-16 and UTF-32, keys that differ only in normalisation, and what no reader should take.
/// Each case is checked against plistlib and Foundation as well as ours.
@Suite struct FileFormatCompatibilityTests {
  private typealias Support = FileFormatTestSupport

  // MARK: - Building files

  /// A binary plist of `objects` (already encoded, references `refSize` bytes wide) with an
  /// offset table of `offsetSize`-byte entries.
  static func bplist(_ objects: [[UInt8]], refSize: Int, offsetSize: Int) -> Data {
    var bytes = Array("bplist00".utf8)
    var offsets: [Int] = []
    for object in objects {
      offsets.append(bytes.count)
      bytes += object
    }
    let table = bytes.count
    for offset in offsets { bytes += be(UInt64(offset), offsetSize) }
    bytes += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(refSize)]
    bytes += be(UInt64(objects.count), 8) + be(0, 8) + be(UInt64(table), 8)
    return Data(bytes)
  }

  static func be(_ value: UInt64, _ size: Int) -> [UInt8] {
    (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> UInt64($0 * 8)) }
  }

  /// `{"a": [1, "xy", UID 7], "b": true}` with references of `refSize` bytes.
  static func sample(refSize: Int, offsetSize: Int) -> Data {
    let ref = { (index: UInt64) in be(index, refSize) }
    return bplist(
      [
        [0xD2] + ref(1) + ref(2) + ref(3) + ref(4),  // 0: the dictionary
        [0x51, 0x61],  // 1: "a"
        [0x51, 0x62],  // 2: "b"
        [0xA3] + ref(5) + ref(6) + ref(7),  // 3: the array
        [0x09],  // 4: true
        [0x10, 0x01],  // 5: 1
        [0x52, 0x78, 0x79],  // 6: "xy"
        [0x80, 0x07],  // 7: UID 7
      ], refSize: refSize, offsetSize: offsetSize)
  }

  static let sampleValue = PlistValue.dictionary([
    "a": .array([.integer(1), .string("xy"), .uid(7)]), "b": .bool(true),
  ])

  // MARK: - plistlib

  /// Reads each file with plistlib and prints, per file, a canonical form of its value or
  /// `error: …`; the canonical form is `canonical(_:)` below.
  private static let pythonScript = """
    import datetime, plistlib, struct, sys
    ref = datetime.datetime(2001, 1, 1)
    def canon(v):
        if isinstance(v, bool): return "b1" if v else "b0"
        if isinstance(v, int): return "i%d" % v
        if isinstance(v, float): return "r" + struct.pack(">d", v).hex()
        if isinstance(v, str): return "s" + ".".join("%x" % ord(c) for c in v)
        if isinstance(v, bytes): return "x" + v.hex()
        if isinstance(v, plistlib.UID): return "u%d" % v.data
        if isinstance(v, datetime.datetime):
            return "d%d" % round((v.replace(tzinfo=None) - ref).total_seconds() * 1e6)
        if isinstance(v, list): return "[" + ",".join(canon(e) for e in v) + "]"
        if isinstance(v, dict):
            return "{" + ",".join(sorted(canon(k) + ":" + canon(e) for k, e in v.items())) + "}"
        return "?" + type(v).__name__
    for path in sys.argv[1:]:
        try:
            with open(path, "rb") as handle:
                print(canon(plistlib.load(handle)))
        except Exception as error:
            print("error: %s" % type(error).__name__)
    """

  /// The same canonical form as the Python script's.
  static func canonical(_ value: PlistValue) -> String {
    func text(_ string: String) -> String {
      "s" + string.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: ".")
    }
    switch value {
    case .bool(let bool): return bool ? "b1" : "b0"
    case .integer(let integer): return "i\(integer)"
    case .unsignedInteger(let integer): return "i\(integer)"
    case .real(let real):
      let hex = String(real.bitPattern, radix: 16)
      return "r" + String(repeating: "0", count: 16 - hex.count) + hex
    case .string(let string): return text(string)
    case .data(let data): return "x" + data.map { String(format: "%02x", $0) }.joined()
    case .uid(let uid): return "u\(uid)"
    case .date(let date):
      return "d\(Int64((date.timeIntervalSinceReferenceDate * 1e6).rounded()))"
    case .array(let elements): return "[" + elements.map(canonical).joined(separator: ",") + "]"
    case .dictionary(let dictionary):
      let entries = dictionary.map { text($0.key.string) + ":" + canonical($0.value) }
      return "{"
        + entries.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.joined(separator: ",")
        + "}"
    }
  }

  /// plistlib's reading of each file: a canonical value or "error: …".
  static func plistlib(_ files: [Data], python: String) throws -> [String] {
    let paths = files.map { _ in Support.temporaryFile("compat.plist") }
    defer { for path in paths { try? FileManager.default.removeItem(at: path) } }
    for (file, path) in zip(files, paths) { try file.write(to: path) }
    let run = try Support.runPython(python, script: pythonScript, arguments: paths.map(\.path))
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    return run.stdout.split(separator: "\n").map(String.init)
  }

  private func ours(_ data: Data) -> Result<PlistValue, PlistError> {
    Result { () throws(PlistError) -> PlistValue in try PlistValue.decode(from: data).value }
  }

  private func foundationAccepts(_ data: Data) -> Bool {
    (try? PropertyListSerialization.propertyList(from: data, format: nil)) != nil
  }

  // MARK: - What every reader reads

  @Test func anyReferenceAndOffsetSizeFromOneToEightIsRead() throws {
    var files: [Data] = []
    for refSize in 1...8 {
      for offsetSize in [1, 3, 5, 8] {
        let data = Self.sample(refSize: refSize, offsetSize: offsetSize)
        #expect(try PlistValue.decode(from: data).value == Self.sampleValue, "\(refSize)")
        // Foundation reads them too (a UID is not a value its bridge knows: no value check).
        #expect(foundationAccepts(data), "ref \(refSize), offset \(offsetSize)")
        files.append(data)
      }
    }
    let python = try Support.requirePython3()
    for line in try Self.plistlib(files, python: python) {
      #expect(line == Self.canonical(Self.sampleValue))
    }
  }

  @Test func uidsRoundTripInBothFormats() throws {
    let value = PlistValue.array([
      .uid(0), .uid(255), .uid(256), .uid(70_000), .uid(1 << 40),
      .dictionary(["$class": .uid(3), "CF$UID": .string("not a UID")]),
    ])
    let binary = try value.encoded(as: .binary)
    #expect(try PlistValue.decode(from: binary).value == value)
    let xml = try value.encoded(as: .xml)
    #expect(String(decoding: xml, as: UTF8.self).contains("<key>CF$UID</key>"))
    #expect(try PlistValue.decode(from: xml).value == value)
    // A UID is written the way plistlib writes one: marker 0x80 + size - 1.
    #expect(
      Array(try PlistValue.uid(300).encoded(as: .binary).dropFirst(8).prefix(3)) == [0x81, 1, 44])
    // Foundation's UIDs are 32-bit: it reads those.
    let small = PlistValue.array([.uid(0), .uid(255), .uid(256), .uid(70_000), .uid(1 << 31)])
    #expect(foundationAccepts(try small.encoded(as: .binary)))
    #expect(foundationAccepts(try small.encoded(as: .xml)))
    let python = try Support.requirePython3()
    #expect(try Self.plistlib([binary], python: python) == [Self.canonical(value)])
  }

  @Test func xmlInUTF16AndUTF32IsRead() throws {
    let body =
      "<plist version=\"1.0\"><dict><key>név</key><string>日本 😀 &amp; é</string></dict></plist>"
    let expected = PlistValue.dictionary(["név": .string("日本 😀 & é")])
    let cases: [(String, String.Encoding, Bool, Bool)] = [
      // (declared encoding, bytes, with a BOM, plistlib reads it)
      ("UTF-16", .utf16LittleEndian, true, true),
      ("UTF-16", .utf16BigEndian, true, true),
      ("UTF-16", .utf16BigEndian, false, false),
      ("UTF-16LE", .utf16LittleEndian, false, false),
      ("UTF-32", .utf32BigEndian, true, false),
      ("UTF-32", .utf32LittleEndian, true, false),
    ]
    var files: [Data] = []
    for (name, encoding, bom, _) in cases {
      let text = (bom ? "\u{FEFF}" : "") + "<?xml version=\"1.0\" encoding=\"\(name)\"?>\n" + body
      let data = try #require(text.data(using: encoding))
      let decoded = try PlistValue.decode(from: data)
      #expect(decoded.value == expected, "\(name) \(encoding) \(bom)")
      #expect(decoded.format == .xml)
      // Foundation reads the ones with a byte-order mark.
      if bom { #expect(try Support.foundationRead(data) == expected, "\(name) \(encoding)") }
      files.append(data)
    }
    // Latin-1 and a legacy encoding Foundation converts.
    let latin1 = try #require(
      ("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><plist><string>café</string></plist>")
        .data(using: .isoLatin1))
    #expect(try PlistValue.decode(from: latin1).value == .string("café"))
    // Mac Roman's é is 0x8E, and 0xBC is º (Foundation on Linux writes é as 0xBC: not used).
    let roman = Data(
      Array("<?xml version=\"1.0\" encoding=\"macintosh\"?><plist><string>caf".utf8) + [0x8E]
        + Array(" is ".utf8) + [0xBC] + Array("</string></plist>".utf8))
    #expect(try PlistValue.decode(from: roman).value == .string("café is º"))
    // The other legacy encodings, each with letters of its own.
    let legacy: [(name: String, bytes: [UInt8], text: String)] = [
      ("windows-1252", [0x80, 0x20, 0xE9], "€ é"), ("ISO-8859-2", [0xB1, 0xEA], "ąę"),
      ("windows-1250", [0x9A, 0xE8], "šč"), ("windows-1251", [0xC4, 0xEE, 0xEC], "Дом"),
      ("Shift_JIS", [0x93, 0xFA, 0x96, 0x7B, 0x5C], "日本\\"), ("EUC-JP", [0xC6, 0xFC], "日"),
      ("ISO-2022-JP", [0x1B, 0x24, 0x42, 0x46, 0x7C, 0x1B, 0x28, 0x42], "日"),
    ]
    for (name, bytes, text) in legacy {
      let document = Data(
        Array("<?xml version=\"1.0\" encoding=\"\(name)\"?><plist><string>".utf8) + bytes
          + Array("</string></plist>".utf8))
      #expect(try PlistValue.decode(from: document).value == .string(text), "\(name)")
    }
    let python = try Support.requirePython3()
    let lines = try Self.plistlib(files, python: python)
    for (line, testCase) in zip(lines, cases) {
      if testCase.3 {
        #expect(line == Self.canonical(expected), "\(testCase.0)")
      } else {
        #expect(line.hasPrefix("error"), "\(testCase.0)")
      }
    }
  }

  @Test func unsupportedEncodingsAreNamed() {
    let text = "<?xml version=\"1.0\" encoding=\"KOI8-R\"?><plist><string>a</string></plist>"
    guard case .failure(let error) = ours(Data(text.utf8)) else {
      Issue.record("KOI8-R read")
      return
    }
    #expect(error.message.hasPrefix("XML encoding \"KOI8-R\" is not supported"))
    let mislabelled = "<?xml version=\"1.0\" encoding=\"UTF-16\"?><plist><string/></plist>"
    guard case .failure(let second) = ours(Data(mislabelled.utf8)) else {
      Issue.record("8-bit UTF-16 read")
      return
    }
    #expect(second.message == "XML declares encoding \"UTF-16\" but is written in 8-bit characters")
    // A broken surrogate in UTF-16 is refused, not replaced.
    var broken = Array("\u{FEFF}<plist><string>".utf16)
    broken += [0xD800] + Array("</string></plist>".utf16)
    let bytes = broken.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    guard case .failure(let third) = ours(Data(bytes)) else {
      Issue.record("broken UTF-16 read")
      return
    }
    #expect(third.message == "UTF-16 XML has a broken surrogate pair")
  }

  @Test(arguments: [PlistFormat.binary, .xml])
  func keysThatDifferOnlyInNormalisationAreTwoKeys(format: PlistFormat) throws {
    let composed = "caf\u{E9}"
    let decomposed = "cafe\u{301}"
    #expect(composed == decomposed)  // what String does, and why keys are PlistKeys
    let value = PlistValue.dictionary([
      PlistKey(composed): .integer(1), PlistKey(decomposed): .integer(2),
    ])
    guard case .dictionary(let dictionary) = value else {
      Issue.record("not a dictionary: \(value)")
      return
    }
    #expect(dictionary.count == 2)
    let data = try value.encoded(as: format)
    #expect(try PlistValue.decode(from: data).value == value)
    // Unknown keys of an item keep both too.
    let lists = [
      Checklist(
        name: "L",
        items: [
          ChecklistItem(
            text: "t", dueDate: Date(timeIntervalSinceReferenceDate: 0), itemID: 1,
            unknownFields: [PlistKey(composed): .integer(1), PlistKey(decomposed): .integer(2)])
        ])
    ]
    let file = try ChecklistsFileCoding.encode(lists, format: format)
    #expect(try ChecklistsFileCoding.decode(file.data).lists == lists)
    let python = try Support.requirePython3()
    #expect(try Self.plistlib([data], python: python) == [Self.canonical(value)])
  }

  @Test func dayThirtyTwoRollsOverLikeFoundationAndOtherImpossibleDaysAreRefused() throws {
    let day32 = Data("<plist><date>2024-12-32T10:00:00Z</date></plist>".utf8)
    let expected = Date(timeIntervalSince1970: 1_735_725_600)  // 2025-01-01T10:00:00Z
    #expect(try PlistValue.decode(from: day32).value == .date(expected))
    #expect(try Support.foundationRead(day32) == .date(expected))
    let april31 = Data("<plist><date>2024-04-31T10:00:00Z</date></plist>".utf8)
    #expect(throws: PlistError.self) { try PlistValue.decode(from: april31) }
    let day33 = Data("<plist><date>2024-12-33T10:00:00Z</date></plist>".utf8)
    #expect(throws: PlistError.self) { try PlistValue.decode(from: day33) }
  }

  // MARK: - What we refuse

  /// Files some reader once took but should not, with our message.
  static let refused: [(name: String, data: Data, message: String, foundationRefuses: Bool)] = [
    (
      "marker 0x7n", bplist([[0x71, 0x41]], refSize: 1, offsetSize: 1),
      "binary property list has object type 0x71 (object 0), which bplist00 does not define "
        + "(strings are 0x5n or 0x6n)", true
    ),
    (
      "hex real", Data("<plist><real>0x10</real></plist>".utf8),
      "XML error at line 1: \"0x10\" is not a real number (a plist real is decimal)", true
    ),
    (
      "hex float", Data("<plist><real>0x1p-2</real></plist>".utf8),
      "XML error at line 1: \"0x1p-2\" is not a real number (a plist real is decimal)", true
    ),
    (
      "nan payload", Data("<plist><real>nan(1)</real></plist>".utf8),
      "XML error at line 1: \"nan(1)\" is not a real number (a plist real is decimal)", true
    ),
    (
      "nameless attribute", Data("<plist><string =\"x\">a</string></plist>".utf8),
      "XML error at line 1: malformed attribute in <string> (expected a name after a space)",
      false
    ),
    (
      "&#8;", Data("<plist><string>a&#8;b</string></plist>".utf8),
      "XML error at line 1: &#8; is not a character XML allows", false
    ),
    (
      "&#xFFFE;", Data("<plist><string>a&#xFFFE;b</string></plist>".utf8),
      "XML error at line 1: &#xFFFE; is not a character XML allows", false
    ),
    (
      "&#0;", Data("<plist><string>a&#0;b</string></plist>".utf8),
      "XML error at line 1: &#0; is not a character XML allows", false
    ),
  ]

  @Test func lenienciesNoOtherReaderSharesAreRefused() throws {
    for file in Self.refused {
      guard case .failure(let error) = ours(file.data) else {
        Issue.record("\(file.name) was read")
        continue
      }
      #expect(error.message == file.message, "\(file.name)")
      if file.foundationRefuses { #expect(!foundationAccepts(file.data), "\(file.name)") }
    }
    // What stays accepted: decimal forms and the special values Apple writes.
    let reals = ["1", "-1.5", ".5", "5.", "1e3", "-2.5E-3", "+7", "nan", "+infinity", "-inf"]
    for real in reals {
      let data = Data("<plist><real>\(real)</real></plist>".utf8)
      #expect(throws: Never.self, "\(real)") { try PlistValue.decode(from: data) }
    }
    // Attributes as XML writes them.
    let attributes = Data(
      "<plist version = '1.0' a=\"b\"><string x=\"1\"/></plist>".utf8)
    #expect(try PlistValue.decode(from: attributes).value == .string(""))
    let python = try Support.requirePython3()
    // plistlib refuses every one of them.
    let lines = try Self.plistlib(Self.refused.map(\.data), python: python)
    #expect(lines.count == Self.refused.count)
    for (line, file) in zip(lines, Self.refused) {
      #expect(line.hasPrefix("error"), "plistlib read \(file.name): \(line)")
    }
  }
}
