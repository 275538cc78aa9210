import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Writes XML property lists the way Apple's writer lays them out (tabs, sorted keys).
///
/// Callers check `XMLPlistWriter.canStore` first: XML 1.0 cannot hold every string or date.
struct XMLPlistWriter {
  /// The bytes written so far; handed to the `Data` of `finish` without a copy.
  private let bytes: OutputBuffer

  /// Starts a document: the XML declaration, the DOCTYPE and `<plist version="1.0">`;
  /// `capacity` is the expected size in bytes. Without `header`, a later part of a document
  /// (see `regions`).
  init(capacity: Int = 4_096, header: Bool = true) {
    bytes = OutputBuffer(capacity: capacity)
    if header { append(Self.header) }
  }

  /// Starts a part of a document written straight into `region` (see `regions`), which must
  /// stay valid while it is written; should the part outgrow it, it moves to memory of its own.
  init(borrowing region: UnsafeMutableRawBufferPointer, header: Bool) {
    bytes = OutputBuffer(borrowing: region)
    if header { append(Self.header) }
  }

  /// The declaration, the DOCTYPE and `<plist version="1.0">` that start a document.
  private static let header: StaticString = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" \
    "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">

    """

  /// The bytes written so far, with those counted by `skip`.
  var size: Int { bytes.count + skipped }

  /// Bytes counted by `skip` and not written, when the writer only measures.
  private var skipped = 0

  /// Counts `count` bytes as written without writing them: a writer that measures a document
  /// writes what is rare and counts what it can size without writing.
  mutating func skip(_ count: Int) { skipped += count }

  /// The room for parts of at most `bounds` bytes each, in order, after the bytes written so
  /// far: each part is written into its region on a thread of its own (`init(borrowing:)`) and
  /// `commit` puts them in place. Valid until the writer next grows.
  mutating func regions(_ bounds: [Int]) -> [UnsafeMutableRawBufferPointer] {
    bytes.regions(bounds)
  }

  /// Counts the parts written into `regions` as written, each moved down to follow the one
  /// before (copying parts from buffers of their own took 14 MB of fresh memory at 100,000
  /// items). A part that outgrew its region lies in memory of its own: then every part is first
  /// copied out and all are appended in order.
  mutating func commit(_ parts: [XMLPlistWriter], in regions: [UnsafeMutableRawBufferPointer]) {
    let buffers = parts.map(\.bytes)
    if bytes.closeUp(buffers, in: regions) != nil { return }
    let copies = OutputBuffer.copies(of: buffers)
    defer { for copy in copies { copy.deallocate() } }
    for copy in copies { bytes.append(UnsafeRawBufferPointer(copy)) }
  }

  /// Ends the document and returns its bytes.
  consuming func finish() -> Data {
    append("</plist>\n")
    return bytes.takeData()
  }

  // MARK: - What XML can hold

  /// Whether XML 1.0 can hold every character of `string` (tab, LF and CR are the only C0
  /// controls it allows; U+FFFE and U+FFFF are not characters).
  static func canStore(_ string: String) -> Bool {
    var string = string
    let suspect = string.withUTF8 { mayNotStore($0) }
    guard suspect else { return true }
    var mayHoldNonCharacter = false
    for byte in string.utf8 {
      if byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D { return false }
      if byte == 0xEF { mayHoldNonCharacter = true }  // U+F000…U+FFFF start with 0xEF
    }
    guard mayHoldNonCharacter else { return true }
    return !string.unicodeScalars.contains { $0.value == 0xFFFE || $0.value == 0xFFFF }
  }

  /// False when `utf8` surely has no byte below 0x20 and no 0xEF (which starts U+F000…U+FFFF),
  /// looked at eight bytes at a time; true sends it to the exact look.
  private static func mayNotStore(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
    let raw = UnsafeRawBufferPointer(utf8)
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    var index = 0
    while index + 8 <= utf8.count {
      let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      // A byte below 0x20 (bytes from 0x80 up cannot match), or a byte equal to 0xEF.
      let below = (word &- ones &* 0x20) & ~word & highs
      let ef = word ^ (ones &* 0xEF)
      if below != 0 || (ef &- ones) & ~ef & highs != 0 { return true }
      index += 8
    }
    while index < utf8.count {
      if utf8[index] < 0x20 || utf8[index] == 0xEF { return true }
      index += 1
    }
    return false
  }

  /// Whether an XML date can hold `date` (finite, years 1–9999).
  static func canStore(_ date: Date) -> Bool {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: PlistDateFormat.textLength) {
      guard let base = $0.baseAddress else { return false }
      return PlistDateFormat.write(date.timeIntervalSinceReferenceDate, into: base)
    }
  }

  /// Whether XML can hold every string, key and date inside `value`.
  static func canStore(_ value: PlistValue) -> Bool {
    switch value {
    case .string(let string): return canStore(string)
    case .date(let date): return canStore(date)
    case .integer, .unsignedInteger, .real, .bool, .data, .uid: return true
    case .array(let elements): return elements.allSatisfy { canStore($0) }
    case .dictionary(let dictionary):
      return dictionary.allSatisfy { canStore($0.key.string) && canStore($0.value) }
    }
  }

  // MARK: - Writing

  private mutating func append(_ text: StaticString) {
    text.withUTF8Buffer { bytes.append($0) }
  }

  private mutating func indent(_ level: Int) {
    for _ in 0..<level { bytes.append(0x09) }
  }

  /// The bytes `string` takes once escaped (`appendEscaped`).
  static func escapedSize(_ string: String) -> Int {
    var string = string
    return string.withUTF8 { utf8 in
      var size = utf8.count
      for byte in utf8 {
        switch byte {
        case UInt8(ascii: "&"), 0x0D: size += 4
        case UInt8(ascii: "<"), UInt8(ascii: ">"): size += 3
        default: break
        }
      }
      return size
    }
  }

  /// Appends text with `&`, `<`, `>` escaped and CR as `&#13;` (so it reads back as CR).
  private mutating func appendEscaped(_ string: String) {
    // Most text needs no escape: copy it whole.
    let copied = string.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
      for byte in utf8
      where byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
        || byte == 0x0D
      {
        return false
      }
      bytes.append(utf8)
      return true
    }
    if copied == true { return }
    for byte in string.utf8 {
      switch byte {
      case UInt8(ascii: "&"): append("&amp;")
      case UInt8(ascii: "<"): append("&lt;")
      case UInt8(ascii: ">"): append("&gt;")
      case 0x0D: append("&#13;")
      default: bytes.append(byte)
      }
    }
  }

  /// Writes `<key>…</key>` at `level` for a key that needs no escape.
  mutating func key(_ key: StaticString, level: Int) {
    indent(level)
    append("<key>")
    append(key)
    append("</key>\n")
  }

  /// Writes `<key>…</key>` at `level`.
  mutating func key(_ key: String, level: Int) {
    indent(level)
    append("<key>")
    appendEscaped(key)
    append("</key>\n")
  }

  /// Writes a string element.
  mutating func string(_ value: String, level: Int) {
    indent(level)
    append("<string>")
    appendEscaped(value)
    append("</string>\n")
  }

  /// Writes `<true/>` or `<false/>`.
  mutating func bool(_ value: Bool, level: Int) {
    indent(level)
    if value { append("<true/>\n") } else { append("<false/>\n") }
  }

  /// Writes an integer element.
  mutating func integer(_ value: Int64, level: Int) {
    indent(level)
    append("<integer>")
    bytes.append(utf8: String(value))
    append("</integer>\n")
  }

  /// Writes a date element, whole seconds (the caller checked `canStore`).
  mutating func date(_ value: Date, level: Int) {
    indent(level)
    append("<date>")
    let seconds = value.timeIntervalSinceReferenceDate
    bytes.append(upTo: PlistDateFormat.textLength) { out in
      PlistDateFormat.write(seconds, into: out) ? PlistDateFormat.textLength : 0
    }
    append("</date>\n")
  }

  /// Opens an array or dictionary element.
  mutating func open(dictionary: Bool, level: Int) {
    indent(level)
    if dictionary { append("<dict>\n") } else { append("<array>\n") }
  }

  /// Closes an array or dictionary element.
  mutating func close(dictionary: Bool, level: Int) {
    indent(level)
    if dictionary { append("</dict>\n") } else { append("</array>\n") }
  }

  /// Writes an empty array or dictionary.
  mutating func empty(dictionary: Bool, level: Int) {
    indent(level)
    if dictionary { append("<dict/>\n") } else { append("<array/>\n") }
  }

  /// Writes any value, dictionary keys in `PlistKeyOrder`.
  mutating func value(_ value: PlistValue, level: Int) {
    switch value {
    case .string(let string): self.string(string, level: level)
    case .integer(let integer): self.integer(integer, level: level)
    case .unsignedInteger(let integer):
      indent(level)
      append("<integer>")
      bytes.append(utf8: String(integer))
      append("</integer>\n")
    case .real(let real):
      indent(level)
      append("<real>")
      bytes.append(utf8: Self.realText(real))
      append("</real>\n")
    case .bool(let bool): self.bool(bool, level: level)
    case .date(let date): self.date(date, level: level)
    case .data(let data):
      indent(level)
      append("<data>\n")
      for line in Base64.encodeLines(data, lineLength: 68) {
        indent(level)
        bytes.append(utf8: line)
        bytes.append(0x0A)
      }
      indent(level)
      append("</data>\n")
    case .uid(let uid):
      // As Apple writes a keyed archive's reference in XML: a one-key dictionary.
      self.value(.dictionary([Self.uidKey: .unsignedInteger(uid)]), level: level)
    case .array(let elements):
      if elements.isEmpty {
        empty(dictionary: false, level: level)
        return
      }
      open(dictionary: false, level: level)
      for element in elements { self.value(element, level: level + 1) }
      close(dictionary: false, level: level)
    case .dictionary(let dictionary):
      if dictionary.isEmpty {
        empty(dictionary: true, level: level)
        return
      }
      open(dictionary: true, level: level)
      for name in PlistKeyOrder.sorted(Array(dictionary.keys)) {
        guard let element = dictionary[name] else { continue }
        key(name.string, level: level + 1)
        self.value(element, level: level + 1)
      }
      close(dictionary: true, level: level)
    }
  }

  /// The key of the one-key dictionary that stands for a UID in XML.
  static let uidKey: PlistKey = "CF$UID"

  /// A real as Apple writes it: 17 significant digits, `nan`, `+infinity`, `-infinity`.
  static func realText(_ value: Double) -> String {
    if value.isNaN { return "nan" }
    if value.isInfinite { return value < 0 ? "-infinity" : "+infinity" }
    return CFormat.string("%.17g", value)
  }
}
