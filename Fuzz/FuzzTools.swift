import Foundation

#if canImport(Glibc)
  import Glibc
#endif

// Helper program for the fuzzing scripts, built with the core sources (one module):
//   fuzz-tools seeds DIR [FIXTURE]   writes the hand-made seed files into DIR
//   fuzz-tools make CASE FILE        writes one large input (see `LargeInput`)
//   fuzz-tools load FILE             loads a file, prints "ok …" or "error: …" and the time

/// The large inputs that libFuzzer's small inputs never reach.
enum LargeInput: String, CaseIterable {
  case string100MBXML = "string-100mb-xml"
  case string100MBBinary = "string-100mb-binary"
  case items1MXML = "items-1m-xml"
  case items1MBinary = "items-1m-binary"
  case deep10kXML = "deep-10k-xml"
  case deep10kXMLInItem = "deep-10k-xml-in-item"
  case deep10kBinary = "deep-10k-binary"
  case deep10kBinaryInItem = "deep-10k-binary-in-item"
  case trailer2p60Objects = "trailer-2^60-objects"
  case trailer2p60Objects8 = "trailer-2^60-objects-8-byte-offsets"
  case trailerMaxObjects8 = "trailer-2^64-1-objects-8-byte-refs"
  case trailer2p60Top = "trailer-2^60-top-object"
  case trailer2p60Offsets = "trailer-2^60-offset-table"
  case count2p60Array = "array-claims-2^60-elements"
  case string2p60 = "string-claims-2^60-chars"

  /// The file's bytes.
  func bytes() -> Data {
    let due = Date(timeIntervalSinceReferenceDate: 820_000_000)
    switch self {
    case .string100MBXML, .string100MBBinary:
      let text = String(repeating: "a", count: 100_000_000)
      let lists = [
        Checklist(name: "Big", items: [ChecklistItem(text: text, dueDate: due, itemID: 1)])
      ]
      return encoded(lists, self == .string100MBXML ? .xml : .binary)
    case .items1MXML, .items1MBinary:
      var items: [ChecklistItem] = []
      items.reserveCapacity(1_000_000)
      for index in 0..<1_000_000 {
        items.append(
          ChecklistItem(
            text: "Item number \(index)", checked: index % 3 == 0,
            dueDate: due.addingTimeInterval(Double(index)), shouldRemind: index % 7 == 0,
            itemID: index))
      }
      let lists = [Checklist(name: "Many", items: items)]
      return encoded(lists, self == .items1MXML ? .xml : .binary)
    case .deep10kXML:
      return Data(xmlDocument(nestedXML(10_000)).utf8)
    case .deep10kXMLInItem:
      return Data(xmlDocument(xmlList(extraItemXML: "<key>deep</key>" + nestedXML(10_000))).utf8)
    case .deep10kBinary:
      return BinaryBuilder.nestedArrays(depth: 10_000, inItem: false)
    case .deep10kBinaryInItem:
      return BinaryBuilder.nestedArrays(depth: 10_000, inItem: true)
    case .trailer2p60Objects:
      return BinaryBuilder.patchedTrailer(Self.smallBinary(), objectCount: 1 << 60)
    case .trailer2p60Objects8:
      return BinaryBuilder.patchedTrailer(Self.smallBinary(), objectCount: 1 << 60, widths: (8, 1))
    case .trailerMaxObjects8:
      return BinaryBuilder.patchedTrailer(Self.smallBinary(), objectCount: .max, widths: (8, 8))
    case .trailer2p60Top:
      return BinaryBuilder.patchedTrailer(Self.smallBinary(), topObject: 1 << 60)
    case .trailer2p60Offsets:
      return BinaryBuilder.patchedTrailer(Self.smallBinary(), offsetTable: 1 << 60)
    case .count2p60Array:
      return BinaryBuilder.hugeCount(marker: 0xA0)
    case .string2p60:
      return BinaryBuilder.hugeCount(marker: 0x50)
    }
  }

  /// A one-list, one-item binary file.
  static func smallBinary() -> Data {
    let item = ChecklistItem(text: "x", dueDate: Date(timeIntervalSinceReferenceDate: 0), itemID: 0)
    return encoded([Checklist(name: "L", items: [item])], .binary)
  }
}

/// Encodes lists, or exits when the codec refuses.
func encoded(_ lists: [Checklist], _ format: PlistFormat) -> Data {
  do {
    return try ChecklistsFileCoding.encode(lists, format: format).data
  } catch {
    FileHandle.standardError.write(Data("encode failed: \(error.message)\n".utf8))
    exit(2)
  }
}

/// `depth` nested `<array>` elements with an empty one inside.
func nestedXML(_ depth: Int) -> String {
  String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth)
}

/// A full XML plist document around `body`.
func xmlDocument(_ body: String) -> String {
  """
  <?xml version="1.0" encoding="UTF-8"?>
  <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
  <plist version="1.0">
  \(body)
  </plist>

  """
}

/// An XML top-level array of one list with one item; `item` replaces the item's known keys.
func xmlList(
  name: String = "<string>Seed</string>", extraListXML: String = "", extraItemXML: String = "",
  item: String? = nil
) -> String {
  let known =
    item
      ?? """
      <key>checked</key><false/><key>dueDate</key><date>2026-12-01T09:30:00Z</date>
      <key>itemID</key><integer>7</integer><key>shouldRemind</key><true/>
      <key>text</key><string>Seed item</string>
      """
  return """
    <array><dict><key>iconName</key><string>Inbox</string><key>items</key><array><dict>
    \(known)\(extraItemXML)</dict></array><key>name</key>\(name)\(extraListXML)</dict></array>
    """
}

/// Hand-written `bplist00` files for shapes the project's writer never produces.
enum BinaryBuilder {
  /// A binary file whose objects are given; refs and offsets 2 bytes wide.
  static func file(objects: [[UInt8]], top: Int) -> Data {
    var out = Array("bplist00".utf8)
    var offsets: [Int] = []
    for object in objects {
      offsets.append(out.count)
      out += object
    }
    let tableOffset = out.count
    let offsetSize = tableOffset > 0xFFFF ? 4 : 2
    for offset in offsets { out += bigEndian(UInt64(offset), size: offsetSize) }
    out += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), 2]
    out += bigEndian(UInt64(objects.count), size: 8)
    out += bigEndian(UInt64(top), size: 8)
    out += bigEndian(UInt64(tableOffset), size: 8)
    return Data(out)
  }

  static func bigEndian(_ value: UInt64, size: Int) -> [UInt8] {
    (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
  }

  static func ref(_ index: Int) -> [UInt8] { bigEndian(UInt64(index), size: 2) }

  static func ascii(_ text: String) -> [UInt8] {
    precondition(text.utf8.count < 15)
    return [0x50 | UInt8(text.utf8.count)] + Array(text.utf8)
  }

  /// `depth` arrays each holding the next; at the top, or as an unknown key of an item.
  static func nestedArrays(depth: Int, inItem: Bool) -> Data {
    var objects: [[UInt8]] = []
    let first = inItem ? 18 : 0
    if inItem {
      // 0 top array, 1 list dict, 2 items array, 3 item dict, 4… keys and values, 18 deep.
      objects.append([0xA1] + ref(1))
      objects.append([0xD3] + ref(4) + ref(5) + ref(6) + ref(7) + ref(2) + ref(8))
      objects.append([0xA1] + ref(3))
      objects.append(
        [0xD6] + ref(9) + ref(10) + ref(11) + ref(12) + ref(13) + ref(14)
          + ref(15) + ref(16) + ref(17) + ref(15) + ref(7) + ref(first))
      objects.append(ascii("iconName"))  // 4
      objects.append(ascii("items"))  // 5
      objects.append(ascii("name"))  // 6
      objects.append(ascii("Inbox"))  // 7
      objects.append(ascii("Deep"))  // 8
      objects.append(ascii("checked"))  // 9
      objects.append(ascii("dueDate"))  // 10
      objects.append(ascii("itemID"))  // 11
      objects.append(ascii("shouldRemind"))  // 12
      objects.append(ascii("text"))  // 13
      objects.append(ascii("deep"))  // 14
      objects.append([0x08])  // 15 false
      objects.append([0x33] + bigEndian(0, size: 8))  // 16 date 2001-01-01
      objects.append([0x10, 0x07])  // 17 integer 7
    }
    for level in 0..<depth {
      let index = first + level
      objects.append(level == depth - 1 ? [0xA0] : [0xA1] + ref(index + 1))
    }
    return file(objects: objects, top: 0)
  }

  /// A small file whose trailer is changed.
  static func patchedTrailer(
    _ data: Data, objectCount: UInt64? = nil, topObject: UInt64? = nil, offsetTable: UInt64? = nil,
    widths: (offset: UInt8, ref: UInt8)? = nil
  ) -> Data {
    var bytes = [UInt8](data)
    let trailer = bytes.count - 32
    if let widths {
      bytes[trailer + 6] = widths.offset
      bytes[trailer + 7] = widths.ref
    }
    func put(_ value: UInt64?, at position: Int) {
      guard let value else { return }
      bytes.replaceSubrange(position..<position + 8, with: bigEndian(value, size: 8))
    }
    put(objectCount, at: trailer + 8)
    put(topObject, at: trailer + 16)
    put(offsetTable, at: trailer + 24)
    return Data(bytes)
  }

  /// A top-level object with `marker` whose count says 2^60 (an 8-byte integer follows 0x_F).
  static func hugeCount(marker: UInt8) -> Data {
    let object = [marker | 0x0F, 0x13] + bigEndian(1 << 60, size: 8)
    return file(objects: [object], top: 0)
  }
}

/// The hand-made seeds: name and bytes.
func seedFiles() -> [(String, Data)] {
  var seeds: [(String, Data)] = []
  func xml(_ name: String, _ body: String) { seeds.append((name, Data(xmlDocument(body).utf8))) }
  func item(_ id: String, _ date: String = "<date>2026-12-01T09:30:00Z</date>") -> String {
    """
    <key>checked</key><false/><key>dueDate</key>\(date)<key>itemID</key>\(id)
    <key>shouldRemind</key><false/><key>text</key><string>t</string>
    """
  }
  // Top array, list, items and item are 4 levels: 508 more reach the limit of 512.
  xml("deep-nesting-512.xml", xmlList(extraItemXML: "<key>deep</key>" + nestedXML(508)))
  xml("deep-nesting-513.xml", xmlList(extraItemXML: "<key>deep</key>" + nestedXML(509)))
  seeds.append(("deep-nesting-600.bplist", BinaryBuilder.nestedArrays(depth: 600, inItem: true)))
  seeds.append(("deep-nesting-100.bplist", BinaryBuilder.nestedArrays(depth: 100, inItem: false)))
  for (name, value) in [
    ("int64-max", "9223372036854775807"), ("int64-min", "-9223372036854775808"),
    ("uint64-max", "18446744073709551615"), ("int-too-big", "99999999999999999999999"),
    ("int-hex", "0x7fffffffffffffff"), ("int-negative", "-1"),
  ] {
    xml("itemid-\(name).xml", xmlList(item: item("<integer>\(value)</integer>")))
  }
  for (name, value) in [
    ("year-9999", "9999-12-31T23:59:59Z"), ("year-0001", "0001-01-01T00:00:00Z"),
    ("year-negative", "-4713-01-01T12:00:00Z"), ("leap-second", "2016-12-31T23:59:60Z"),
    ("fraction", "2026-12-01T09:30:00.999999Z"), ("feb-30", "2025-02-30T00:00:00Z"),
  ] {
    xml("date-\(name).xml", xmlList(item: item("<integer>7</integer>", "<date>\(value)</date>")))
  }
  for (name, seconds) in [
    ("1e300", 1e300), ("minus-1e300", -1e300), ("nan", Double.nan), ("inf", Double.infinity),
    ("year-10000", 252_423_993_600.0), ("subsecond", 0.5),
  ] {
    let lists = [
      Checklist(
        name: "Dates",
        items: [
          ChecklistItem(
            text: "d", dueDate: Date(timeIntervalSinceReferenceDate: seconds), itemID: 1)
        ])
    ]
    seeds.append(("date-\(name).bplist", encoded(lists, .binary)))
  }
  var nonUTF8 = Data(xmlDocument(xmlList(name: "<string>caf\u{1}</string>")).utf8)
  if let at = nonUTF8.firstIndex(of: 0x01) { nonUTF8[at] = 0xE9 }
  seeds.append(("non-utf8.xml", nonUTF8))
  seeds.append(
    (
      "utf16-encoded.xml",
      Data(xmlDocument(xmlList()).utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
    ))
  let unicode = [
    Checklist(
      name: "日本語 ✓ 🇵🇹",
      items: [
        ChecklistItem(
          text: "Café \u{1F600} e\u{301}", dueDate: Date(timeIntervalSinceReferenceDate: 1),
          itemID: 3)
      ])
  ]
  let utf16Binary = encoded(unicode, .binary)
  seeds.append(("utf16-strings.bplist", utf16Binary))
  // The emoji's high surrogate (D8 3D) followed by something that is not a low surrogate.
  var loneSurrogate = [UInt8](utf16Binary)
  for index in 0..<(loneSurrogate.count - 3)
  where loneSurrogate[index] == 0xD8 && loneSurrogate[index + 1] == 0x3D {
    loneSurrogate[index + 2] = 0x00
    loneSurrogate[index + 3] = 0x41
    break
  }
  seeds.append(("utf16-lone-surrogate.bplist", Data(loneSurrogate)))
  for (index, name) in ["&#x10FFFF;", "&#xFFFFFFFFFFFFFFFFFFFF;", "&#0;", "&#xD800;", "&lt;&amp;"]
    .enumerated()
  {
    xml("entity-\(index).xml", xmlList(name: "<string>\(name)</string>"))
  }
  for (index, value) in [
    "<real>1e400</real>", "<real>-0</real>", "<real>0x1p3</real>", "<real>nan</real>",
    "<integer>+5</integer>", "<integer>-0x8000000000000000</integer>",
    "<date>9999-12-31T23:59:60Z</date>", "<data>AAEC/w==</data>", "<string><![CDATA[x]]></string>",
  ].enumerated() {
    xml("unknown-value-\(index).xml", xmlList(extraItemXML: "<key>extra</key>\(value)"))
  }
  xml("duplicate-keys.xml", xmlList(extraItemXML: "<key>text</key><string>second</string>"))
  xml(
    "duplicate-list-keys.xml", xmlList(extraListXML: "<key>name</key><string>Again</string>"))
  xml(
    "empty-items.xml",
    "<array><dict><key>iconName</key><string>Inbox</string><key>items</key><array/><key>name</key><string>E</string></dict></array>"
  )
  xml("empty-item-dict.xml", xmlList(item: ""))
  xml("empty-top-array.xml", "<array/>")
  xml("missing-keys.xml", "<array><dict/></array>")
  let unknown: [PlistKey: PlistValue] = [
    "uString": .string("s"), "uInteger": .integer(-42), "uUnsigned": .unsignedInteger(.max),
    "uReal": .real(2.5), "uNaN": .real(.nan), "uBool": .bool(true),
    "uDate": .date(Date(timeIntervalSinceReferenceDate: 12.75)), "uData": .data(Data([0, 1, 255])),
    "uArray": .array([.integer(1), .string("two"), .array([])]),
    "uDict": .dictionary(["k": .bool(false), "n": .dictionary([:])]),
  ]
  let withUnknown = [
    Checklist(
      name: "Unknown", iconName: "Trips",
      items: [
        ChecklistItem(
          text: "u", dueDate: Date(timeIntervalSinceReferenceDate: 5), itemID: 9,
          unknownFields: unknown)
      ], unknownFields: unknown)
  ]
  seeds.append(("unknown-keys.bplist", encoded(withUnknown, .binary)))
  seeds.append(("unknown-keys.xml", encoded(withUnknown, .xml)))
  seeds.append(("control-char-text.bplist", encoded([Checklist(name: "Esc\u{1B}")], .binary)))
  seeds.append(("trailer-2p60-objects.bplist", LargeInput.trailer2p60Objects.bytes()))
  seeds.append(("array-claims-2p60.bplist", LargeInput.count2p60Array.bytes()))
  seeds.append(("empty", Data()))
  seeds.append(("magic-only.bplist", Data("bplist00".utf8)))
  seeds += compatibilitySeeds()
  return seeds
}

/// Seeds of the files other writers make: odd reference sizes, UIDs, keyed archives, XML in
/// UTF-16, UTF-32 and a declared legacy encoding.
func compatibilitySeeds() -> [(String, Data)] {
  var seeds: [(String, Data)] = []
  // One list of one item, references 3 bytes wide and offsets 5 (CoreFoundation reads any
  // size from 1 to 8).
  func ref(_ index: Int) -> [UInt8] { BinaryBuilder.bigEndian(UInt64(index), size: 3) }
  let ascii = BinaryBuilder.ascii
  let objects: [[UInt8]] = [
    [0xA1] + ref(1),
    [0xD3] + ref(2) + ref(3) + ref(4) + ref(5) + ref(6) + ref(7),
    ascii("name"), ascii("iconName"), ascii("items"), ascii("N"), ascii("Inbox"),
    [0xA1] + ref(8),
    [0xD5] + ref(9) + ref(10) + ref(11) + ref(12) + ref(13) + ref(14) + ref(15) + ref(16)
      + ref(17) + ref(18),
    ascii("checked"), ascii("dueDate"), ascii("itemID"), ascii("shouldRemind"), ascii("text"),
    [0x09], [0x33] + BinaryBuilder.bigEndian(Double(700_000_000).bitPattern, size: 8),
    [0x10, 0x05], [0x08], ascii("t"),
  ]
  var out = Array("bplist00".utf8)
  var offsets: [Int] = []
  for object in objects {
    offsets.append(out.count)
    out += object
  }
  let table = out.count
  for offset in offsets { out += BinaryBuilder.bigEndian(UInt64(offset), size: 5) }
  out += [0, 0, 0, 0, 0, 0, 5, 3]
  out += BinaryBuilder.bigEndian(UInt64(objects.count), size: 8)
  out += BinaryBuilder.bigEndian(0, size: 8) + BinaryBuilder.bigEndian(UInt64(table), size: 8)
  seeds.append(("refsize-3-offsets-5.bplist", Data(out)))

  // UIDs among an item's unknown keys.
  let withUIDs = [
    Checklist(
      name: "U",
      items: [
        ChecklistItem(
          text: "u", dueDate: Date(timeIntervalSinceReferenceDate: 5), itemID: 1,
          unknownFields: ["uid": .uid(7), "uids": .array([.uid(0), .uid(300), .uid(70_000)])])
      ])
  ]
  seeds.append(("uid-values.bplist", encoded(withUIDs, .binary)))
  seeds.append(("uid-values.xml", encoded(withUIDs, .xml)))

  // A keyed archive of the book's first editions, as Apple's archiver lays it out.
  func classInfo(_ name: String) -> PlistValue {
    .dictionary(["$classname": .string(name), "$classes": .array([.string(name)])])
  }
  let archive = PlistValue.dictionary([
    "$archiver": .string("NSKeyedArchiver"), "$version": .integer(100_000),
    "$top": .dictionary(["Checklists": .uid(1)]),
    "$objects": .array([
      .string("$null"),
      .dictionary(["NS.objects": .array([.uid(2)]), "$class": .uid(9)]),
      .dictionary(["Name": .uid(3), "Items": .uid(4), "IconName": .uid(3), "$class": .uid(10)]),
      .string("Trips"),
      .dictionary(["NS.objects": .array([.uid(5)]), "$class": .uid(9)]),
      .dictionary([
        "Text": .uid(6), "Checked": .bool(true), "DueDate": .uid(7),
        "ShouldRemind": .bool(false), "ItemID": .integer(3), "$class": .uid(11),
      ]),
      .string("Pack"),
      .dictionary(["NS.time": .real(700_000_000.5), "$class": .uid(8)]),
      classInfo("NSDate"), classInfo("NSMutableArray"), classInfo("Checklists.Checklist"),
      classInfo("ChecklistItem"),
    ]),
  ])
  if let binary = try? archive.encoded(as: .binary), let xml = try? archive.encoded(as: .xml) {
    seeds.append(("keyed-archive.bplist", binary))
    seeds.append(("keyed-archive.xml", xml))
  }

  // XML in other encodings.
  let body =
    "<plist version=\"1.0\"><array><dict><key>iconName</key><string>Inbox</string>"
    + "<key>items</key><array/><key>name</key><string>Café 日本</string></dict></array></plist>"
  let encodings: [(String, String, String.Encoding, Bool)] = [
    ("utf16le-bom.xml", "UTF-16", .utf16LittleEndian, true),
    ("utf16be-no-bom.xml", "UTF-16", .utf16BigEndian, false),
    ("utf32be-bom.xml", "UTF-32", .utf32BigEndian, true),
    ("shift-jis.xml", "Shift_JIS", .shiftJIS, false),
  ]
  for (name, declared, encoding, bom) in encodings {
    let text =
      (bom ? "\u{FEFF}" : "") + "<?xml version=\"1.0\" encoding=\"\(declared)\"?>\n" + body
    if let data = text.data(using: encoding) { seeds.append((name, data)) }
  }
  return seeds
}

/// Prints the peak resident set size from /proc (VmHWM), for when /usr/bin/time is missing.
func peakRSS() -> String {
  guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
    let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
  else { return "?" }
  return line.dropFirst(6).trimmingCharacters(in: .whitespaces)
}

@main
struct FuzzTools {
  static func main() {
    let arguments = CommandLine.arguments
    func usage() -> Never {
      let cases = LargeInput.allCases.map(\.rawValue).joined(separator: " ")
      print("usage: fuzz-tools seeds DIR [FIXTURE] | make CASE FILE | load FILE\ncases: \(cases)")
      exit(2)
    }
    guard arguments.count >= 3 else { usage() }
    switch arguments[1] {
    case "seeds":
      let directory = URL(fileURLWithPath: arguments[2])
      var seeds = seedFiles()
      if arguments.count > 3, let fixture = FileManager.default.contents(atPath: arguments[3]) {
        seeds.append(("fixture-ios.xml", fixture))
        if let lists = try? ChecklistsFileCoding.decode(fixture).lists {
          seeds.append(("fixture-ios.bplist", encoded(lists, .binary)))
        }
      }
      for (name, data) in seeds {
        do {
          try data.write(to: directory.appendingPathComponent(name))
        } catch {
          print("cannot write \(name): \(error)")
          exit(1)
        }
      }
      print("wrote \(seeds.count) seeds to \(directory.path)")
    case "make":
      guard arguments.count == 4, let input = LargeInput(rawValue: arguments[2]) else { usage() }
      do {
        try input.bytes().write(to: URL(fileURLWithPath: arguments[3]))
      } catch {
        print("cannot write: \(error)")
        exit(1)
      }
    case "load":
      guard let data = FileManager.default.contents(atPath: arguments[2]) else {
        print("cannot read \(arguments[2])")
        exit(1)
      }
      let start = DispatchTime.now().uptimeNanoseconds
      let result: String
      do {
        let document = try ChecklistsFileCoding.decode(data)
        let items = document.lists.reduce(0) { $0 + $1.items.count }
        result = "ok: \(document.format), \(document.lists.count) lists, \(items) items"
      } catch {
        result = "error: \(error.message)"
      }
      let milliseconds = (DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
      print("\(result) | \(data.count) bytes | load \(milliseconds) ms | peak RSS \(peakRSS())")
    default:
      usage()
    }
  }
}
