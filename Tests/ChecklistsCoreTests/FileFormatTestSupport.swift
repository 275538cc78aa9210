import ChecklistsTestSupport
import Foundation
import Testing

@testable import ChecklistsCore

/// Paths and tools the file-format tests share.
enum FileFormatTestSupport {
  /// The repository root.
  static var repositoryRoot: URL { URL(fileURLWithPath: BuiltBinary.repositoryRoot) }

  /// The file written by the iPhone app, kept in `Tests/Fixtures`.
  static var iosFixture: URL {
    repositoryRoot.appendingPathComponent("Tests/Fixtures/Checklists-ios.plist")
  }

  /// `python3`'s path when it is installed.
  static var python3: String? {
    let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(
      separator: ":")
    for directory in paths {
      let candidate = "\(directory)/python3"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }

  /// `python3`'s path; throws (failing the test, not skipping it) when it is missing: `.ci/run`
  /// installs it, so a missing python3 is a broken setup.
  static func requirePython3() throws -> String {
    try #require(python3, "python3 is not installed (.ci/run installs it)")
  }

  /// Runs python3 with a script and arguments.
  static func runPython(_ python: String, script: String, arguments: [String]) throws
    -> ProcessResult
  {
    try runProcess(python, ["-c", script] + arguments)
  }

  /// A fresh temporary file path.
  static func temporaryFile(_ name: String) -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent(
      "checklists-codec-\(UUID().uuidString)-\(name)")
  }

  // MARK: - Random models

  private static let pieces: [String] = [
    "a", "Z", "milk", " ", "42", "<", ">", "&", "\"", "'", "\n", "\t", "é", "e\u{301}",
    "日本", "語", "😀", "👩‍👩‍👧", "🇯🇵", "ß", "Ω", "\u{0627}\u{0644}", "]]>", "&amp;", "—",
    "\u{10FFFF}", "\u{FFFD}", "x\u{20DD}",
  ]

  /// A random string of mixed scripts (no control characters other than tab and LF).
  static func randomString(_ generator: inout SeededGenerator, maxPieces: Int = 6) -> String {
    let count = Int.random(in: 0...maxPieces, using: &generator)
    var string = ""
    for _ in 0..<count { string += pieces.randomElement(using: &generator) ?? "" }
    return string
  }

  /// A random date; whole seconds when `wholeSeconds`.
  static func randomDate(_ generator: inout SeededGenerator, wholeSeconds: Bool) -> Date {
    var seconds = Double.random(in: -3e9...3e9, using: &generator)
    seconds = wholeSeconds ? seconds.rounded(.down) : seconds
    return Date(timeIntervalSinceReferenceDate: seconds)
  }

  /// A random plist value of any type, nested at most `depth` more levels.
  static func randomValue(_ generator: inout SeededGenerator, depth: Int, wholeSeconds: Bool)
    -> PlistValue
  {
    let choice = Int.random(in: 0..<(depth > 0 ? 10 : 8), using: &generator)
    switch choice {
    case 0: return .string(randomString(&generator))
    case 1:
      let options: [Int64] = [0, 1, -1, 255, 256, 65_535, 65_536, Int64.max, Int64.min, -70_000]
      return .integer(
        Bool.random(using: &generator)
          ? options.randomElement(using: &generator) ?? 0
          : Int64.random(in: Int64.min...Int64.max, using: &generator))
    case 2:
      return .unsignedInteger(
        UInt64.random(in: (UInt64(Int64.max) + 1)...UInt64.max, using: &generator))
    case 3:
      let options = [
        0.0, -0.0, 1.5, 0.1, -1e300, Double.leastNonzeroMagnitude, Double.greatestFiniteMagnitude,
      ]
      return .real(
        Bool.random(using: &generator)
          ? options.randomElement(using: &generator) ?? 0
          : Double.random(in: -1e6...1e6, using: &generator))
    case 4: return .bool(Bool.random(using: &generator))
    case 5: return .date(randomDate(&generator, wholeSeconds: wholeSeconds))
    case 6:
      let count = Int.random(in: 0...80, using: &generator)
      return .data(Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }))
    case 7: return .string("")
    case 8:
      let count = Int.random(in: 0...4, using: &generator)
      return .array(
        (0..<count).map { _ in
          randomValue(&generator, depth: depth - 1, wholeSeconds: wholeSeconds)
        })
    default:
      return .dictionary(randomFields(&generator, depth: depth - 1, wholeSeconds: wholeSeconds))
    }
  }

  /// Random unknown keys (never one of the model's own keys).
  static func randomFields(_ generator: inout SeededGenerator, depth: Int, wholeSeconds: Bool)
    -> [PlistKey: PlistValue]
  {
    var fields: [PlistKey: PlistValue] = [:]
    for _ in 0..<Int.random(in: 0...3, using: &generator) {
      let key = "x" + randomString(&generator, maxPieces: 3)
      let value = randomValue(&generator, depth: depth, wholeSeconds: wholeSeconds)
      // Foundation's dictionaries merge keys that differ only in normalisation, as `String`
      // does: such a key replaces the value of the one already there
      // (FileFormatCompatibilityTests covers keeping both, against plistlib).
      let same = fields.keys.first { $0.string == key }
      fields[same ?? PlistKey(key)] = value
    }
    return fields
  }

  /// A random model; `wholeSeconds` for XML, which keeps whole seconds only.
  static func randomLists(
    _ generator: inout SeededGenerator, wholeSeconds: Bool, unknown: Bool = true
  ) -> [Checklist] {
    (0..<Int.random(in: 0...5, using: &generator)).map { _ in
      let items = (0..<Int.random(in: 0...6, using: &generator)).map { _ in
        ChecklistItem(
          text: randomString(&generator),
          checked: Bool.random(using: &generator),
          dueDate: randomDate(&generator, wholeSeconds: wholeSeconds),
          shouldRemind: Bool.random(using: &generator),
          itemID: Bool.random(using: &generator)
            ? Int.random(in: 0...1_000, using: &generator)
            : Int.random(in: Int.min...Int.max, using: &generator),
          unknownFields: unknown && Int.random(in: 0..<3, using: &generator) == 0
            ? randomFields(&generator, depth: 2, wholeSeconds: wholeSeconds) : [:])
      }
      return Checklist(
        name: randomString(&generator),
        iconName: IconName.allCases.randomElement(using: &generator)?.rawValue ?? "",
        items: items,
        unknownFields: unknown && Bool.random(using: &generator)
          ? randomFields(&generator, depth: 2, wholeSeconds: wholeSeconds) : [:])
    }
  }

  // MARK: - Foundation bridge

  /// The lists as one `PlistValue` tree, unknown keys included.
  static func tree(_ lists: [Checklist]) -> PlistValue {
    .array(
      lists.map { list in
        var dictionary = list.unknownFields
        dictionary["name"] = .string(list.name)
        dictionary["iconName"] = .string(list.iconName)
        dictionary["items"] = .array(
          list.items.map { item in
            var fields = item.unknownFields
            fields["text"] = .string(item.text)
            fields["checked"] = .bool(item.checked)
            fields["dueDate"] = .date(item.dueDate)
            fields["shouldRemind"] = .bool(item.shouldRemind)
            fields["itemID"] = .integer(Int64(item.itemID))
            return .dictionary(fields)
          })
        return .dictionary(dictionary)
      })
  }

  /// The lists without unknown keys, as Foundation's `Codable` path sees them.
  static func stripped(_ lists: [Checklist]) -> [Checklist] {
    lists.map { list in
      Checklist(
        name: list.name, iconName: list.iconName,
        items: list.items.map { item in
          var item = item
          item.unknownFields = [:]
          return item
        })
    }
  }

  /// A value in Foundation's object form, for `PropertyListSerialization`.
  static func foundationObject(_ value: PlistValue) -> Any {
    switch value {
    case .string(let string): return string
    case .integer(let integer): return NSNumber(value: integer)
    case .unsignedInteger(let integer): return NSNumber(value: integer)
    case .real(let real): return NSNumber(value: real)
    case .bool(let bool): return bool
    case .date(let date): return date
    case .data(let data): return data
    case .array(let elements): return elements.map { foundationObject($0) }
    case .uid(let uid): return ["CF$UID": NSNumber(value: uid)]
    case .dictionary(let dictionary):
      // Swift's dictionary merges keys that differ only in normalisation; the tests that
      // need both keep Foundation out.
      return Dictionary(
        dictionary.map { ($0.key.string, foundationObject($0.value)) },
        uniquingKeysWith: { first, _ in first })
    }
  }

  /// Foundation's object form as a `PlistValue`, or nil for something else.
  static func plistValue(_ object: Any) -> PlistValue? {
    switch object {
    case let bool as Bool where type(of: object) == Bool.self: return .bool(bool)
    case let string as String: return .string(string)
    case let date as Date: return .date(date)
    case let data as Data: return .data(data)
    case let number as NSNumber:
      let type = String(cString: number.objCType)
      if type == "d" || type == "f" { return .real(number.doubleValue) }
      if let signed = number as? Int64 { return .integer(signed) }
      if let unsigned = number as? UInt64 { return .unsignedInteger(unsigned) }
      return .real(number.doubleValue)
    case let array as [Any]:
      var values: [PlistValue] = []
      for element in array {
        guard let value = plistValue(element) else { return nil }
        values.append(value)
      }
      return .array(values)
    case let dictionary as [String: Any]:
      var values: [PlistKey: PlistValue] = [:]
      for (key, element) in dictionary {
        guard let value = plistValue(element) else { return nil }
        values[PlistKey(key)] = value
      }
      return .dictionary(values)
    default:
      return nil
    }
  }

  /// Foundation's reading of a file as a `PlistValue`.
  static func foundationRead(_ data: Data) throws -> PlistValue? {
    plistValue(try PropertyListSerialization.propertyList(from: data, format: nil))
  }

  /// Foundation's writing of a value.
  static func foundationWrite(_ value: PlistValue, format: PlistFormat) throws -> Data {
    try PropertyListSerialization.data(
      fromPropertyList: foundationObject(value),
      format: format == .binary ? .binary : .xml, options: 0)
  }
}
