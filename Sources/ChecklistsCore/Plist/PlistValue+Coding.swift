import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

extension PlistValue {
  /// Reads a whole property list, binary (`bplist00`) or XML, and says which it was.
  public static func decode(from data: Data) throws(PlistError) -> (
    value: PlistValue, format: PlistFormat
  ) {
    switch try PlistFormatSniffer.format(of: data) {
    case .binary:
      let reader = try BinaryPlistReader(data)
      return (try reader.value(of: reader.root), .binary)
    case .xml:
      return (try XMLPlistReader.parse(data).value(), .xml)
    }
  }

  /// Writes the value in `format`; XML fails when a string or date cannot be XML 1.0.
  public func encoded(as format: PlistFormat) throws(PlistError) -> Data {
    switch format {
    case .binary:
      var writer = BinaryPlistWriter()
      let top = writer.value(self)
      return writer.finish(top: top)
    case .xml:
      guard XMLPlistWriter.canStore(self) else {
        throw PlistError("XML cannot store a control character or a date outside years 1–9999")
      }
      var writer = XMLPlistWriter()
      writer.value(self, level: 0)
      return writer.finish()
    }
  }
}

/// Tells binary and XML property lists apart by their first bytes.
enum PlistFormatSniffer {
  /// The format of `data`, or an error saying why it is neither.
  static func format(of data: Data) throws(PlistError) -> PlistFormat {
    let result = data.withUnsafeBytes { raw in
      Result { () throws(PlistError) -> PlistFormat in try format(of: raw) }
    }
    return try result.get()
  }

  /// The format of the bytes in `bytes`, or an error saying why it is neither.
  static func format(of bytes: UnsafeRawBufferPointer) throws(PlistError) -> PlistFormat {
    guard !bytes.isEmpty else { throw PlistError("the file is empty") }
    if bytes.starts(with: "bplist00".utf8) { return .binary }
    if bytes.starts(with: "bplist".utf8) {
      let version = String(decoding: bytes.prefix(8).suffix(2), as: UTF8.self)
      throw PlistError("binary property list version \"\(version)\" is not supported")
    }
    switch try? XMLTextEncoding.detect(bytes).encoding {
    case .utf16, .utf32: return .xml
    default: break
    }
    var index = 0
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index += 3 }
    while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    if index < bytes.count, bytes[index] == UInt8(ascii: "<") { return .xml }
    throw PlistError("not a property list (neither bplist00 nor XML)")
  }
}
