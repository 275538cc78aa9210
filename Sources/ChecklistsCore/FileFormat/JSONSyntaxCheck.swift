import FoundationEssentials

/// Where a JSON text first breaks the grammar (RFC 8259), and what was expected there.
public struct JSONSyntaxError: Error, Equatable, Sendable {
  /// The place, as an editor shows it.
  public var position: TextPosition
  /// What is wrong there, e.g. "expected , or ] after an element of an array".
  public var reason: String
}

/// Finds the first syntax error of a JSON text, for a message that names its line and column.
///
/// Foundation's decoder only says that a text is not JSON; this runs after it failed, once,
/// over the same bytes: strict RFC 8259 (no comments, no trailing commas, no single quotes),
/// UTF-8, nesting up to `maximumDepth` as the decoder allows (the open arrays and objects are
/// kept in a list, and a level costs at most one call while it opens).
public struct JSONSyntaxCheck {
  /// The deepest nesting accepted, as Foundation's decoder (`JSONScanner`) allows.
  public static let maximumDepth = 512

  /// What a value can start with, for "expected a value".
  static let valueStarts = "true, false, null, a number, a string, [ or {"

  private let bytes: [UInt8]
  private var offset = 0

  /// The first syntax error in `data`, or nil when it is JSON.
  public static func firstError(in data: Data) -> JSONSyntaxError? {
    var check = JSONSyntaxCheck(bytes: [UInt8](data))
    do {
      try check.document()
      return nil
    } catch {
      return error
    }
  }

  private init(bytes: [UInt8]) { self.bytes = bytes }

  private enum Container {
    case array, object
  }

  private func fail(_ reason: String, at place: Int? = nil) -> JSONSyntaxError {
    JSONSyntaxError(position: .of(offset: place ?? offset, in: bytes), reason: reason)
  }

  private var atEnd: Bool { offset >= bytes.count }

  private mutating func skipSpace() {
    while offset < bytes.count {
      switch bytes[offset] {
      case 0x20, 0x09, 0x0A, 0x0D: offset += 1
      default: return
      }
    }
  }

  private mutating func document() throws(JSONSyntaxError) {
    // As the decoder: a UTF-8 byte order mark is skipped.
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { offset = 3 }
    skipSpace()
    if atEnd { throw fail("the file is empty; expected a value (\(Self.valueStarts))") }
    var stack: [Container] = []
    // Each turn reads one value (a container's opening counts as its value's start).
    while true {
      try value(stack: &stack)
      // After a value: close containers and find the next value, or the end.
      while true {
        skipSpace()
        guard let container = stack.last else {
          guard atEnd else {
            throw fail("expected the end of the file after the JSON value (only one may be here)")
          }
          return
        }
        guard !atEnd else {
          throw fail(
            container == .array
              ? "the file ends inside an array: expected , or ]"
              : "the file ends inside an object: expected , or }")
        }
        let byte = bytes[offset]
        if byte == UInt8(ascii: ",") {
          offset += 1
          skipSpace()
          // As the decoder: one comma may end an array or an object (`[1, 2,]`).
          let close = UInt8(ascii: container == .array ? "]" : "}")
          if !atEnd, bytes[offset] == close {
            offset += 1
            stack.removeLast()
            continue
          }
          if container == .object { try key(afterComma: true) }
          break
        }
        if container == .array && byte == UInt8(ascii: "]")
          || container == .object && byte == UInt8(ascii: "}")
        {
          offset += 1
          stack.removeLast()
          continue
        }
        throw fail(
          container == .array
            ? "expected , or ] after an element of an array"
            : "expected , or } after a value in an object")
      }
    }
  }

  /// A key and its colon, after `{` or `,` and any space; leaves the offset at the value.
  private mutating func key(afterComma: Bool) throws(JSONSyntaxError) {
    guard !atEnd else { throw fail("the file ends inside an object: expected a key in \"quotes\"") }
    guard bytes[offset] == UInt8(ascii: "\"") else {
      throw fail(
        afterComma
          ? "expected a key in \"quotes\" after ,"
          : "expected a key in \"quotes\" or } after {")
    }
    try string()
    skipSpace()
    guard !atEnd, bytes[offset] == UInt8(ascii: ":") else {
      throw fail(atEnd ? "the file ends after a key: expected :" : "expected : after the key")
    }
    offset += 1
    skipSpace()
  }

  /// One value at the offset; a container's opening is pushed on `stack` (and an empty one is
  /// read whole). Leaves the offset after what it read.
  private mutating func value(stack: inout [Container]) throws(JSONSyntaxError) {
    skipSpace()
    guard !atEnd else {
      throw fail("the file ends where a value was expected (\(Self.valueStarts))")
    }
    let byte = bytes[offset]
    switch byte {
    case UInt8(ascii: "["), UInt8(ascii: "{"):
      guard stack.count < Self.maximumDepth else {
        throw fail("arrays and objects are nested deeper than \(Self.maximumDepth) levels")
      }
      offset += 1
      skipSpace()
      if byte == UInt8(ascii: "[") {
        if !atEnd, bytes[offset] == UInt8(ascii: "]") {
          offset += 1
          return
        }
        stack.append(.array)
        try value(stack: &stack)
      } else {
        if !atEnd, bytes[offset] == UInt8(ascii: "}") {
          offset += 1
          return
        }
        stack.append(.object)
        try key(afterComma: false)
        try value(stack: &stack)
      }
    case UInt8(ascii: "\""):
      try string()
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      try number()
    default:
      for word in ["true", "false", "null"] where bytes[offset...].starts(with: word.utf8) {
        let end = offset + word.utf8.count
        // `trueish` is not `true` followed by something: the word goes on.
        if end < bytes.count, Self.isWordByte(bytes[end]) { break }
        offset = end
        return
      }
      throw fail("expected a value (\(Self.valueStarts))")
    }
  }

  private static func isWordByte(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
      || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
      || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
  }

  private static func isDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }

  private mutating func digits(_ reason: String) throws(JSONSyntaxError) {
    guard !atEnd, Self.isDigit(bytes[offset]) else { throw fail(reason) }
    while !atEnd, Self.isDigit(bytes[offset]) { offset += 1 }
  }

  private mutating func number() throws(JSONSyntaxError) {
    let start = offset
    if bytes[offset] == UInt8(ascii: "-") { offset += 1 }
    if !atEnd, bytes[offset] == UInt8(ascii: "0") {
      offset += 1
      if !atEnd, Self.isDigit(bytes[offset]) {
        throw fail("a number may not start with 0 followed by digits (write 7, not 07)")
      }
    } else {
      try digits("expected a digit after -")
    }
    if !atEnd, bytes[offset] == UInt8(ascii: ".") {
      offset += 1
      try digits("expected a digit after the decimal point")
    }
    if !atEnd, bytes[offset] | 0x20 == UInt8(ascii: "e") {
      offset += 1
      if !atEnd, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") {
        offset += 1
      }
      try digits("expected a digit in the exponent")
    }
    // `12abc`: a number runs into letters.
    if !atEnd, Self.isWordByte(bytes[offset]) || bytes[offset] == UInt8(ascii: ".") {
      throw fail("unexpected \(Self.shown(bytes[offset])) after a number")
    }
    // The decoder reads numbers as doubles: 1e400 is not one.
    let text = String(decoding: bytes[start..<offset], as: UTF8.self)
    if let value = Double(text), !value.isFinite {
      throw fail("\(text) is too large a number (the largest is about 1.8e308)", at: start)
    }
  }

  private static func shown(_ byte: UInt8) -> String {
    byte >= 0x21 && byte < 0x7F ? "\"\(Character(Unicode.Scalar(byte)))\"" : "byte 0x\(hex(byte))"
  }

  private static func hex(_ value: some BinaryInteger, width: Int = 2) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(width - digits.count, 0)) + digits
  }

  /// A string at the offset (its opening quote), read to after its closing quote.
  private mutating func string() throws(JSONSyntaxError) {
    let start = offset
    offset += 1
    while true {
      guard !atEnd else {
        throw fail("a string that starts here is never closed (no \" before the end)", at: start)
      }
      let byte = bytes[offset]
      switch byte {
      case UInt8(ascii: "\""):
        offset += 1
        return
      case UInt8(ascii: "\\"):
        try escape()
      case 0x00..<0x20:
        let named: [UInt8: String] = [0x0A: "\\n", 0x09: "\\t", 0x0D: "\\r"]
        let written = named[byte] ?? "\\u00\(Self.hex(byte))"
        throw fail(
          "a control character (U+00\(Self.hex(byte))) in a string: write it as \(written)"
            + (byte == 0x0A ? ", or is a closing \" missing?" : ""))
      case 0x80...:
        try utf8Character()
      default:
        offset += 1
      }
    }
  }

  private mutating func escape() throws(JSONSyntaxError) {
    let start = offset
    offset += 1
    guard !atEnd else {
      throw fail("a string that ends in \\ is never closed", at: start)
    }
    let letter = bytes[offset]
    switch letter {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
      UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
      offset += 1
    case UInt8(ascii: "u"):
      let unit = try hexUnit(at: start)
      if (0xD800...0xDBFF).contains(unit) {
        guard bytes[offset...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) else {
          throw fail(
            "\\u\(Self.hex(unit, width: 4)) is the first half of a surrogate pair: "
              + "\\uDC00 to \\uDFFF must follow", at: start)
        }
        let second = offset
        offset += 1
        let low = try hexUnit(at: second)
        guard (0xDC00...0xDFFF).contains(low) else {
          throw fail(
            "\\u\(Self.hex(unit, width: 4)) is the first half of a surrogate pair: "
              + "\\uDC00 to \\uDFFF must follow, not \\u\(Self.hex(low, width: 4))", at: second)
        }
      } else if (0xDC00...0xDFFF).contains(unit) {
        throw fail(
          "\\u\(Self.hex(unit, width: 4)) is the second half of a surrogate pair, "
            + "without the first", at: start)
      }
    default:
      throw fail(
        "\\\(letter >= 0x21 && letter < 0x7F ? String(Character(Unicode.Scalar(letter))) : "") "
          + "is not an escape in JSON (use \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX)",
        at: start)
    }
  }

  /// The four hex digits after `\u` (the offset at the `u`), read past them.
  private mutating func hexUnit(at start: Int) throws(JSONSyntaxError) -> Int {
    offset += 1
    var unit = 0
    for _ in 0..<4 {
      guard !atEnd, let digit = Self.hexValue(bytes[offset]) else {
        throw fail("\\u must be followed by four hex digits", at: start)
      }
      unit = unit * 16 + digit
      offset += 1
    }
    return unit
  }

  private static func hexValue(_ byte: UInt8) -> Int? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int(byte - UInt8(ascii: "a")) + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return Int(byte - UInt8(ascii: "A")) + 10
    default: return nil
    }
  }

  /// One UTF-8 sequence of two to four bytes at the offset, checked (no overlong forms, no
  /// surrogates, nothing past U+10FFFF).
  private mutating func utf8Character() throws(JSONSyntaxError) {
    let lead = bytes[offset]
    let length: Int
    let lowest: UInt32
    switch lead {
    case 0xC2...0xDF: (length, lowest) = (2, 0x80)
    case 0xE0...0xEF: (length, lowest) = (3, 0x800)
    case 0xF0...0xF4: (length, lowest) = (4, 0x10000)
    default: throw fail("invalid UTF-8 (byte 0x\(Self.hex(lead))): save the file as UTF-8")
    }
    guard offset + length <= bytes.count else {
      throw fail("invalid UTF-8 (a character cut short): save the file as UTF-8")
    }
    var scalar = UInt32(lead) & (0xFF >> (length + 1))
    for index in 1..<length {
      let next = bytes[offset + index]
      guard next & 0xC0 == 0x80 else {
        throw fail(
          "invalid UTF-8 (byte 0x\(Self.hex(lead)) then 0x\(Self.hex(next))): save the file as UTF-8"
        )
      }
      scalar = scalar << 6 | UInt32(next & 0x3F)
    }
    guard scalar >= lowest, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else {
      throw fail("invalid UTF-8 (byte 0x\(Self.hex(lead))): save the file as UTF-8")
    }
    offset += length
  }
}
