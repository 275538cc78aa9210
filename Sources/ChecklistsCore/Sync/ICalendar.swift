import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Why an iCalendar file could not be read.
public struct ICSError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The 1-based line (after unfolding, counted in physical lines) where it went wrong; 0 for
  /// the file as a whole.
  public var line: Int
  /// What is wrong.
  public var message: String

  /// Creates an error.
  public init(line: Int, message: String) {
    self.line = line
    self.message = message
  }

  /// "line 3: no colon in a content line", or the message alone for the whole file.
  public var description: String { line > 0 ? "line \(line): \(message)" : message }
}

/// One content line of an iCalendar file (RFC 5545 §3.1): `NAME;PARAM=VALUE:value`.
///
/// A property read from a file keeps its original text, folding included, and is written back
/// exactly so until it is changed: what we do not own stays byte for byte.
public struct ICSProperty: Equatable, Sendable {
  /// The name in upper case, e.g. `SUMMARY`.
  public var name: String
  /// The parameters as written, e.g. `[("TZID", "Europe/Paris")]`; values keep their quotes.
  public var parameters: [(name: String, value: String)]
  /// The value as written (escaped for TEXT values).
  public var value: String
  /// The folded text read from the file (without the final line break); nil once changed.
  public var source: String?

  /// A new property (written folded by the serializer).
  public init(name: String, parameters: [(name: String, value: String)] = [], value: String) {
    self.name = name.uppercased()
    self.parameters = parameters
    self.value = value
    self.source = nil
  }

  /// A line inside a component that is not a valid content line (`PERCENT_COMPLETE:100`, as
  /// Synology writes it), kept as it was: its name is empty and its value is the unfolded text,
  /// so that no lookup finds it and it is written back byte for byte.
  public static func unreadable(_ folded: String) -> ICSProperty {
    var property = ICSProperty(name: "", value: ICalendar.unfold(folded))
    property.source = folded
    return property
  }

  /// Whether this is a line that was not a valid content line (see `unreadable(_:)`).
  public var isUnreadable: Bool { name.isEmpty }

  /// The first value of a parameter (case-insensitive name), quotes removed.
  public func parameter(_ name: String) -> String? {
    guard
      let found = parameters.first(where: { $0.name.lowercased() == name.lowercased() })
    else { return nil }
    var value = found.value
    if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
      value = String(value.dropFirst().dropLast())
    }
    return value
  }

  /// The unfolded content line this property stands for.
  public var contentLine: String {
    var line = name
    for parameter in parameters { line += ";\(parameter.name)=\(parameter.value)" }
    return line + ":" + value
  }

  /// Properties are equal when their name, parameters and value are (not their folding).
  public static func == (lhs: ICSProperty, rhs: ICSProperty) -> Bool {
    lhs.name == rhs.name && lhs.value == rhs.value
      && lhs.parameters.elementsEqual(rhs.parameters) { $0.name == $1.name && $0.value == $1.value }
  }
}

/// A component (`BEGIN:NAME` … `END:NAME`): its properties and subcomponents in file order.
public struct ICSComponent: Equatable, Sendable {
  /// One entry of a component, in the order of the file.
  public enum Entry: Equatable, Sendable {
    case property(ICSProperty)
    case component(ICSComponent)
  }

  /// The name in upper case, e.g. `VTODO`.
  public var name: String
  /// Properties and subcomponents, in the order of the file.
  public var entries: [Entry]

  /// Creates a component.
  public init(name: String, entries: [Entry] = []) {
    self.name = name.uppercased()
    self.entries = entries
  }

  /// The properties, in order.
  public var properties: [ICSProperty] {
    entries.compactMap {
      if case .property(let property) = $0 { return property }
      return nil
    }
  }

  /// The subcomponents, in order.
  public var components: [ICSComponent] {
    entries.compactMap {
      if case .component(let component) = $0 { return component }
      return nil
    }
  }

  /// The first property named `name`.
  public func property(_ name: String) -> ICSProperty? {
    for entry in entries {
      if case .property(let property) = entry, property.name == name { return property }
    }
    return nil
  }

  /// Replaces the first property named `property.name` in place (removing any later ones of
  /// that name), or adds it after the last property when there is none.
  public mutating func set(_ property: ICSProperty) {
    var replaced = false
    var result: [Entry] = []
    result.reserveCapacity(entries.count + 1)
    for entry in entries {
      if case .property(let existing) = entry, existing.name == property.name {
        if !replaced {
          result.append(.property(existing == property ? existing : property))
          replaced = true
        }
        continue
      }
      result.append(entry)
    }
    entries = result
    if !replaced { insertProperty(property) }
  }

  /// Adds a property after the last property (before the subcomponents).
  public mutating func insertProperty(_ property: ICSProperty) {
    let position =
      entries.lastIndex {
        if case .property = $0 { return true }
        return false
      }.map { $0 + 1 } ?? 0
    entries.insert(.property(property), at: position)
  }

  /// Removes every property named `name`.
  public mutating func remove(_ name: String) {
    entries.removeAll {
      if case .property(let property) = $0 { return property.name == name }
      return false
    }
  }
}

/// Reading and writing iCalendar text (RFC 5545): unfolding, folding, TEXT escaping.
public enum ICalendar {
  /// Parses a whole file into its top-level components (usually one `VCALENDAR`).
  ///
  /// Lines may end in CRLF or LF; a line that starts with a space or a tab continues the one
  /// before. The text must be UTF-8 and every `BEGIN` must have its `END`. A line inside a
  /// component that is not a valid content line is kept as an unreadable one (see
  /// `ICSProperty.unreadable`); one outside every component is an error.
  public static func parse(_ data: Data) throws(ICSError) -> [ICSComponent] {
    guard let text = String(data: data, encoding: .utf8) else {
      throw ICSError(line: 0, message: "not UTF-8 text")
    }
    return try parse(text)
  }

  /// Parses iCalendar text into its top-level components.
  public static func parse(_ text: String) throws(ICSError) -> [ICSComponent] {
    var stack: [ICSComponent] = []
    var top: [ICSComponent] = []
    for (lineNumber, folded) in unfoldedLines(text) {
      let property: ICSProperty
      do {
        property = try parseLine(folded, line: lineNumber)
      } catch {
        guard !stack.isEmpty else { throw error }
        stack[stack.count - 1].entries.append(.property(.unreadable(folded)))
        continue
      }
      if property.name == "BEGIN" {
        stack.append(ICSComponent(name: property.value.trimmingSpaces()))
        continue
      }
      if property.name == "END" {
        let name = property.value.trimmingSpaces().uppercased()
        guard let open = stack.popLast() else {
          throw ICSError(line: lineNumber, message: "END:\(name) without BEGIN")
        }
        guard open.name == name else {
          throw ICSError(line: lineNumber, message: "END:\(name) closes BEGIN:\(open.name)")
        }
        if stack.isEmpty {
          top.append(open)
        } else {
          stack[stack.count - 1].entries.append(.component(open))
        }
        continue
      }
      guard !stack.isEmpty else {
        throw ICSError(line: lineNumber, message: "\(property.name) outside any BEGIN…END")
      }
      stack[stack.count - 1].entries.append(.property(property))
    }
    if let open = stack.last {
      throw ICSError(line: 0, message: "BEGIN:\(open.name) has no END")
    }
    guard !top.isEmpty else { throw ICSError(line: 0, message: "no BEGIN:VCALENDAR") }
    return top
  }

  /// The logical lines of `text`, each with its first physical line's number and its folded
  /// text (line breaks inside it kept as they were, for writing back unchanged).
  static func unfoldedLines(_ text: String) -> [(Int, String)] {
    var result: [(Int, String)] = []
    var currentLine = 0
    let bytes = text.utf8
    var lineNumber = 0
    var index = bytes.startIndex
    var pieces: [(start: String.Index, end: String.Index)] = []
    func flush() {
      guard !pieces.isEmpty else { return }
      // The folding stays as written: from the first piece's start to the last one's end.
      result.append((currentLine, String(text[pieces[0].start..<pieces[pieces.count - 1].end])))
      pieces.removeAll(keepingCapacity: true)
    }
    while index < bytes.endIndex {
      lineNumber += 1
      var end = index
      while end < bytes.endIndex && bytes[end] != UInt8(ascii: "\n") {
        end = bytes.index(after: end)
      }
      var contentEnd = end
      if contentEnd > index {
        let before = bytes.index(before: contentEnd)
        if bytes[before] == UInt8(ascii: "\r") { contentEnd = before }
      }
      let next = end < bytes.endIndex ? bytes.index(after: end) : end
      if contentEnd > index,
        bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t"),
        !pieces.isEmpty
      {
        pieces.append((index, contentEnd))
      } else {
        flush()
        if contentEnd > index {
          currentLine = lineNumber
          pieces.append((index, contentEnd))
        }
      }
      index = next
    }
    flush()
    return result
  }

  /// Removes the folding from a logical line's text.
  static func unfold(_ folded: String) -> String {
    guard folded.utf8.contains(UInt8(ascii: "\n")) else { return folded }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(folded.utf8.count)
    var iterator = folded.utf8.makeIterator()
    var pending: UInt8?
    while let byte = pending ?? iterator.next() {
      pending = nil
      if byte == UInt8(ascii: "\r") {
        guard let after = iterator.next() else { break }
        if after == UInt8(ascii: "\n") {
          _ = iterator.next()  // the space or tab that starts the continuation
          continue
        }
        bytes.append(byte)
        pending = after
        continue
      }
      if byte == UInt8(ascii: "\n") {
        _ = iterator.next()
        continue
      }
      bytes.append(byte)
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Parses one logical line into a property that remembers its text.
  static func parseLine(_ folded: String, line: Int) throws(ICSError) -> ICSProperty {
    let text = unfold(folded)
    var name = ""
    var parameters: [(name: String, value: String)] = []
    var index = text.startIndex
    while index < text.endIndex, text[index] != ";", text[index] != ":" {
      index = text.index(after: index)
    }
    name = String(text[text.startIndex..<index])
    guard !name.isEmpty,
      name.unicodeScalars.allSatisfy({
        ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "-"
      })
    else {
      throw ICSError(line: line, message: "not a property name: \(quoted(name))")
    }
    while index < text.endIndex, text[index] == ";" {
      index = text.index(after: index)
      let nameStart = index
      while index < text.endIndex, text[index] != "=", text[index] != ":", text[index] != ";" {
        index = text.index(after: index)
      }
      guard index < text.endIndex, text[index] == "=" else {
        throw ICSError(line: line, message: "parameter without = in \(name)")
      }
      let parameterName = String(text[nameStart..<index])
      index = text.index(after: index)
      let valueStart = index
      var inQuotes = false
      while index < text.endIndex {
        let character = text[index]
        if character == "\"" {
          inQuotes.toggle()
        } else if !inQuotes, character == ";" || character == ":" {
          break
        }
        index = text.index(after: index)
      }
      guard !inQuotes else {
        throw ICSError(line: line, message: "unclosed quote in a parameter of \(name)")
      }
      parameters.append((parameterName, String(text[valueStart..<index])))
    }
    guard index < text.endIndex, text[index] == ":" else {
      throw ICSError(line: line, message: "no colon after \(name)")
    }
    var property = ICSProperty(
      name: name, parameters: parameters, value: String(text[text.index(after: index)...]))
    property.source = folded
    return property
  }

  /// Writes components as iCalendar text: CRLF line ends, new or changed lines folded at 75
  /// octets, lines read from a file as they were.
  public static func serialize(_ components: [ICSComponent]) -> String {
    var output = ""
    for component in components { write(component, into: &output) }
    return output
  }

  private static func write(_ component: ICSComponent, into output: inout String) {
    output += "BEGIN:\(component.name)\r\n"
    for entry in component.entries {
      switch entry {
      case .property(let property):
        if let source = property.source {
          output += normalizedBreaks(source)
        } else {
          output += fold(property.contentLine)
        }
        output += "\r\n"
      case .component(let child):
        write(child, into: &output)
      }
    }
    output += "END:\(component.name)\r\n"
  }

  /// A folded line's breaks as CRLF (a file may have been written with LF only).
  private static func normalizedBreaks(_ text: String) -> String {
    guard text.utf8.contains(UInt8(ascii: "\n")) else { return text }
    var bytes: [UInt8] = []
    var previous: UInt8 = 0
    for byte in text.utf8 {
      if byte == UInt8(ascii: "\n") && previous != UInt8(ascii: "\r") {
        bytes.append(UInt8(ascii: "\r"))
      }
      bytes.append(byte)
      previous = byte
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Folds a content line into lines of at most 75 octets, never inside a UTF-8 sequence.
  public static func fold(_ line: String) -> String {
    let bytes = Array(line.utf8)
    guard bytes.count > 75 else { return line }
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count + bytes.count / 70 * 3)
    var lineLength = 0
    var limit = 75
    var index = 0
    while index < bytes.count {
      // The length of the UTF-8 sequence that starts here.
      let byte = bytes[index]
      let length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
      if lineLength + length > limit {
        output += [UInt8(ascii: "\r"), UInt8(ascii: "\n"), UInt8(ascii: " ")]
        lineLength = 0
        limit = 74  // the leading space counts
      }
      let end = min(index + length, bytes.count)
      output += bytes[index..<end]
      lineLength += end - index
      index = end
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// Escapes a TEXT value: backslash, semicolon, comma and line breaks.
  public static func escapeText(_ text: String) -> String {
    var output = ""
    output.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": output += "\\\\"
      case ";": output += "\\;"
      case ",": output += "\\,"
      case "\n": output += "\\n"
      case "\r": continue
      default: output.unicodeScalars.append(scalar)
      }
    }
    return output
  }

  /// Undoes TEXT escaping (`\n` and `\N` are line breaks; an unknown escape keeps its
  /// character).
  public static func unescapeText(_ text: String) -> String {
    guard text.contains("\\") else { return text }
    var output = ""
    var escaping = false
    for scalar in text.unicodeScalars {
      if escaping {
        switch scalar {
        case "n", "N": output += "\n"
        default: output.unicodeScalars.append(scalar)
        }
        escaping = false
      } else if scalar == "\\" {
        escaping = true
      } else {
        output.unicodeScalars.append(scalar)
      }
    }
    if escaping { output += "\\" }
    return output
  }

  static func quoted(_ text: String) -> String {
    "\"" + text.prefix(40) + (text.count > 40 ? "…" : "") + "\""
  }
}
