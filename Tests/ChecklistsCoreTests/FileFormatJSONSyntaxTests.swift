import Foundation
import Testing

@testable import ChecklistsCore

/// Any JSON value, to ask Foundation's decoder whether a text is JSON.
private enum AnyJSON: Decodable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([AnyJSON])
  case object([String: AnyJSON])

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([AnyJSON].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: AnyJSON].self))
    }
  }
}

@Suite("File format: a JSON syntax error names its line, column and what was expected")
struct FileFormatJSONSyntaxTests {
  static func error(_ text: String) -> String? {
    JSONSyntaxCheck.firstError(in: Data(text.utf8)).map { "\($0.position): \($0.reason)" }
  }

  static let value = "expected a value (true, false, null, a number, a string, [ or {)"

  @Test(arguments: [
    (#"[{"checked":tru}]"#, "1:13: \(value)"),
    (#"[True]"#, "1:2: \(value)"),
    (#"[nulls]"#, "1:2: \(value)"),
    (#"['a']"#, "1:2: \(value)"),
    ("[+1]", "1:2: \(value)"),
    ("[.5]", "1:2: \(value)"),
    (
      "", "1:1: the file is empty; expected a value (true, false, null, a number, a string, [ or {)"
    ),
    (
      "  \n ",
      "2:2: the file is empty; expected a value (true, false, null, a number, a string, [ or {)"
    ),
    ("[1, 2", "1:6: the file ends inside an array: expected , or ]"),
    ("[1 2]", "1:4: expected , or ] after an element of an array"),
    ("[1,,]", "1:4: \(value)"),
    ("[,]", "1:2: \(value)"),
    ("{,}", "1:2: expected a key in \"quotes\" or } after {"),
    ("[1e400]", "1:2: 1e400 is too large a number (the largest is about 1.8e308)"),
    (
      "[1,",
      "1:4: the file ends where a value was expected (true, false, null, a number, a string, [ or {)"
    ),
    (#"{"a" 1}"#, "1:6: expected : after the key"),
    (#"{"a""#, "1:5: the file ends after a key: expected :"),
    (#"{"a":1 "b":2}"#, "1:8: expected , or } after a value in an object"),
    (#"{a:1}"#, "1:2: expected a key in \"quotes\" or } after {"),
    (#"{"a":1,2}"#, "1:8: expected a key in \"quotes\" after ,"),
    (#"{"a":1"#, "1:7: the file ends inside an object: expected , or }"),
    ("{", "1:2: the file ends inside an object: expected a key in \"quotes\""),
    (#"[] []"#, "1:4: expected the end of the file after the JSON value (only one may be here)"),
    (#"["abc"#, "1:2: a string that starts here is never closed (no \" before the end)"),
    (
      "[\"a\nb\"]",
      "1:4: a control character (U+000A) in a string: write it as \\n, or is a closing \" missing?"
    ),
    ("[\"a\tb\"]", "1:4: a control character (U+0009) in a string: write it as \\t"),
    (
      #"["a\qb"]"#,
      "1:4: \\q is not an escape in JSON (use \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX)"
    ),
    (#"["\u12G4"]"#, "1:3: \\u must be followed by four hex digits"),
    (
      #"["\uD83D"]"#,
      "1:3: \\uD83D is the first half of a surrogate pair: \\uDC00 to \\uDFFF must follow"
    ),
    (
      #"["\uD83D\u0041"]"#,
      "1:9: \\uD83D is the first half of a surrogate pair: \\uDC00 to \\uDFFF must follow, not \\u0041"
    ),
    (#"["\uDE00"]"#, "1:3: \\uDE00 is the second half of a surrogate pair, without the first"),
    ("[-]", "1:3: expected a digit after -"),
    ("[01]", "1:3: a number may not start with 0 followed by digits (write 7, not 07)"),
    ("[1.]", "1:4: expected a digit after the decimal point"),
    ("[1e]", "1:4: expected a digit in the exponent"),
    ("[1e+]", "1:5: expected a digit in the exponent"),
    ("[12abc]", "1:4: unexpected \"a\" after a number"),
    // Columns count characters: "é" is one, as an editor shows it.
    ("[\"café\", x]", "1:10: \(value)"),
    ("[\n  1,\n  x\n]", "3:3: \(value)"),
  ])
  func eachSyntaxErrorIsNamed(text: String, expected: String) {
    #expect(Self.error(text) == expected)
  }

  /// What the decoder takes beyond RFC 8259 the checker takes too: a trailing comma, a byte
  /// order mark.
  @Test func whatTheDecoderTakesIsNoError() {
    #expect(Self.error("[1, 2,]") == nil)
    #expect(Self.error(#"{"a": [1,], }"#) == nil)
    #expect(Self.error("\u{FEFF}[1]") == nil)
  }

  @Test func bytesThatAreNotUTF8AreNamed() {
    let invalid = Data([0x5B, 0x22, 0xFF, 0x22, 0x5D])
    #expect(
      JSONSyntaxCheck.firstError(in: invalid)?.reason
        == "invalid UTF-8 (byte 0xFF): save the file as UTF-8")
    let overlong = Data([0x5B, 0x22, 0xC0, 0x80, 0x22, 0x5D])
    #expect(JSONSyntaxCheck.firstError(in: overlong)?.position == TextPosition(line: 1, column: 3))
    let cut = Data([0x5B, 0x22, 0xE2, 0x82])
    #expect(
      JSONSyntaxCheck.firstError(in: cut)?.reason
        == "invalid UTF-8 (a character cut short): save the file as UTF-8")
  }

  @Test func deepNestingIsRefusedPastTheDecodersLimit() {
    let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
    #expect(
      Self.error(deep) == "1:513: arrays and objects are nested deeper than 512 levels")
    let fine = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
    #expect(Self.error(fine) == nil)
  }

  /// The checker and Foundation's decoder agree on what is JSON: every text made from a valid
  /// one by deleting, doubling or replacing one byte is refused by both or by neither.
  @Test func agreesWithFoundationsDecoderOnEveryOneByteChange() {
    let valid = Array(
      #"[{"name":"Caf\u00e9 \"x\"","items":[{"text":"a\nb","checked":false,"n":-1.5e+3},null,true,[]]}, {}, 0]"#
        .utf8)
    #expect(JSONSyntaxCheck.firstError(in: Data(valid)) == nil)
    let replacements: [UInt8] = Array(#" ,:[]{}"\0a1-.eEtu"#.utf8) + [0x0A, 0xFF]
    var texts: [[UInt8]] = []
    for index in valid.indices {
      var deleted = valid
      deleted.remove(at: index)
      texts.append(deleted)
      var doubled = valid
      doubled.insert(valid[index], at: index)
      texts.append(doubled)
      for byte in replacements where byte != valid[index] {
        var replaced = valid
        replaced[index] = byte
        texts.append(replaced)
      }
    }
    var disagreements: [String] = []
    for text in texts {
      let data = Data(text)
      let decoded = (try? JSONDecoder().decode(AnyJSON.self, from: data)) != nil
      let checked = JSONSyntaxCheck.firstError(in: data) == nil
      if decoded != checked {
        disagreements.append(
          "\(String(decoding: text, as: UTF8.self)): decoder \(decoded), checker \(checked)")
      }
    }
    #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
    #expect(texts.count > 1000)
  }
}
