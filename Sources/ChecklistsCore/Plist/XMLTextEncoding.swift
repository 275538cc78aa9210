import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The character encoding of an XML property list, found as XML 1.0 (appendix F) says: by a
/// byte-order mark, else by how `<?xml` is laid out, else by the `encoding` declaration.
///
/// The reader works on UTF-8; anything else is transcoded first. UTF-16 and UTF-32 (either byte
/// order), US-ASCII and ISO-8859-1 are read, as Foundation and plistlib read them, and a few
/// legacy encodings Foundation converts (`others`, converted here by the C library's `iconv`);
/// any other declared encoding is refused by name.
enum XMLTextEncoding: Equatable {
  case utf8
  case utf16(bigEndian: Bool)
  case utf32(bigEndian: Bool)
  case latin1
  /// Another 8-bit or multi-byte encoding Foundation converts: its `iconv` name and its
  /// declared name.
  case other(iconv: String, name: String)

  /// Declared encodings other than UTF-8 and Latin-1 that are read, by lowercased IANA name:
  /// their names for `iconv`. Shift_JIS is read as Windows does (and Foundation): 0x5C is a
  /// backslash, not a yen sign.
  private static let others: [String: String] = [
    "windows-1252": "CP1252", "cp1252": "CP1252", "macintosh": "MACINTOSH",
    "x-mac-roman": "MACINTOSH", "macroman": "MACINTOSH", "iso-8859-2": "ISO-8859-2",
    "windows-1250": "CP1250", "windows-1251": "CP1251",
    "shift_jis": "CP932", "euc-jp": "EUC-JP", "iso-2022-jp": "ISO-2022-JP",
  ]

  /// The encoding of `bytes` and the length of its byte-order mark.
  static func detect(_ bytes: UnsafeRawBufferPointer) throws(PlistError) -> (
    encoding: XMLTextEncoding, bomLength: Int
  ) {
    func starts(_ prefix: [UInt8]) -> Bool { bytes.starts(with: prefix) }
    // UTF-32 first: its little-endian mark begins with UTF-16's.
    if starts([0x00, 0x00, 0xFE, 0xFF]) { return (.utf32(bigEndian: true), 4) }
    if starts([0xFF, 0xFE, 0x00, 0x00]) { return (.utf32(bigEndian: false), 4) }
    if starts([0xFE, 0xFF]) { return (.utf16(bigEndian: true), 2) }
    if starts([0xFF, 0xFE]) { return (.utf16(bigEndian: false), 2) }
    if starts([0xEF, 0xBB, 0xBF]) { return (.utf8, 3) }
    // No mark: `<` (or white space) laid out in 2 or 4 bytes.
    if bytes.count >= 4 {
      let first = Array(bytes.prefix(4))
      if first[0] == 0, first[1] == 0, first[2] == 0, first[3] != 0 {
        return (.utf32(bigEndian: true), 0)
      }
      if first[0] != 0, first[1] == 0, first[2] == 0, first[3] == 0 {
        return (.utf32(bigEndian: false), 0)
      }
      if first[0] == 0, first[1] != 0, first[2] == 0, first[3] != 0 {
        return (.utf16(bigEndian: true), 0)
      }
      if first[0] != 0, first[1] == 0, first[2] != 0, first[3] == 0 {
        return (.utf16(bigEndian: false), 0)
      }
    }
    // 8-bit: the declaration says which encoding.
    guard let declared = declaredEncoding(bytes) else { return (.utf8, 0) }
    switch declared.lowercased() {
    case "utf-8", "utf8", "us-ascii", "ascii": return (.utf8, 0)
    case "iso-8859-1", "iso_8859-1", "latin1", "latin-1", "l1": return (.latin1, 0)
    case "utf-16", "utf-16le", "utf-16be", "utf-32", "utf-32le", "utf-32be":
      throw PlistError(
        "XML declares encoding \"\(declared)\" but is written in 8-bit characters")
    default:
      if let encoding = others[declared.lowercased()] {
        return (.other(iconv: encoding, name: declared), 0)
      }
      throw PlistError(
        "XML encoding \"\(declared)\" is not supported (UTF-8, UTF-16, UTF-32, US-ASCII, "
          + "ISO-8859-1, ISO-8859-2, Windows-1250 to 1252, Mac Roman, Shift_JIS, EUC-JP and "
          + "ISO-2022-JP are)")
    }
  }

  /// The `encoding` of an `<?xml …?>` declaration at the start of 8-bit text, if any.
  private static func declaredEncoding(_ bytes: UnsafeRawBufferPointer) -> String? {
    guard bytes.starts(with: Array("<?xml".utf8)) else { return nil }
    let limit = min(bytes.count, 512)
    guard let end = (5..<limit).first(where: { bytes[$0] == UInt8(ascii: "?") }) else {
      return nil
    }
    let declaration = String(decoding: bytes[0..<end], as: UTF8.self)
    guard let range = TextMatching.firstRange(of: "encoding", in: declaration) else { return nil }
    var rest = declaration[range.upperBound...].drop { $0 == " " || $0 == "\t" || $0 == "\n" }
    guard rest.first == "=" else { return nil }
    rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
    guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
    rest = rest.dropFirst()
    guard let close = rest.firstIndex(of: quote) else { return nil }
    return String(rest[..<close])
  }

  /// The UTF-8 form of a document in `encoding` (without its byte-order mark).
  static func utf8(
    _ bytes: UnsafeRawBufferPointer, encoding: XMLTextEncoding
  ) throws(PlistError) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    switch encoding {
    case .utf8:
      out.append(contentsOf: bytes)
    case .latin1:
      for byte in bytes {
        if byte < 0x80 {
          out.append(byte)
        } else {
          out.append(0xC0 | byte >> 6)
          out.append(0x80 | byte & 0x3F)
        }
      }
    case .other(let encoding, let name):
      guard let converted = convert(bytes, from: encoding) else {
        throw PlistError("XML is not valid \(name) text")
      }
      out = converted
    case .utf16(let bigEndian):
      guard bytes.count % 2 == 0 else {
        throw PlistError("UTF-16 XML has an odd number of bytes")
      }
      let units = stride(from: 0, to: bytes.count, by: 2).lazy.map { index -> UInt16 in
        let high = bigEndian ? bytes[index] : bytes[index + 1]
        let low = bigEndian ? bytes[index + 1] : bytes[index]
        return UInt16(high) << 8 | UInt16(low)
      }
      let failed = transcode(
        units.makeIterator(), from: UTF16.self, to: UTF8.self, stoppingOnError: true
      ) { out.append($0) }
      if failed { throw PlistError("UTF-16 XML has a broken surrogate pair") }
    case .utf32(let bigEndian):
      guard bytes.count % 4 == 0 else {
        throw PlistError("UTF-32 XML has a number of bytes that is not a multiple of 4")
      }
      for index in stride(from: 0, to: bytes.count, by: 4) {
        var value: UInt32 = 0
        for offset in 0..<4 {
          let byte = bytes[bigEndian ? index + offset : index + 3 - offset]
          value = value << 8 | UInt32(byte)
        }
        guard let scalar = Unicode.Scalar(value) else {
          throw PlistError(
            "UTF-32 XML holds \(String(value, radix: 16, uppercase: true)), not a character")
        }
        UTF8.encode(scalar) { out.append($0) }
      }
    }
    return out
  }

  /// `bytes` in the encoding `iconv` calls `name`, as UTF-8; nil when they are not valid text
  /// in it (or `iconv` does not know it).
  private static func convert(_ bytes: UnsafeRawBufferPointer, from name: String) -> [UInt8]? {
    let converter = iconv_open("UTF-8", name)
    guard converter != iconv_t(bitPattern: -1) else { return nil }
    defer { iconv_close(converter) }
    var input = Array(bytes).map { CChar(bitPattern: $0) }
    var output = [CChar](repeating: 0, count: input.count * 4 + 16)
    let written = input.withUnsafeMutableBufferPointer { inBuffer -> Int? in
      output.withUnsafeMutableBufferPointer { outBuffer -> Int? in
        var inPointer = inBuffer.baseAddress
        var inLeft = inBuffer.count
        var outPointer = outBuffer.baseAddress
        var outLeft = outBuffer.count
        // Input and then the shift state's end (ISO-2022-JP).
        guard iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft) != -1,
          iconv(converter, nil, nil, &outPointer, &outLeft) != -1
        else { return nil }
        return outBuffer.count - outLeft
      }
    }
    guard let written else { return nil }
    return output.prefix(written).map { UInt8(bitPattern: $0) }
  }
}
