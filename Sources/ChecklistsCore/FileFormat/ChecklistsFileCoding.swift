import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// A decoded `Checklists.plist`: the lists and the format the file was in.
public struct ChecklistsDocument: Equatable, Sendable {
  /// The lists, in file order.
  public var lists: [Checklist]
  /// The format the bytes were in; binary (what saving writes) for a keyed archive.
  public var format: PlistFormat
  /// Whether the file was an `NSKeyedArchiver` archive of the book's first editions (see
  /// `KeyedArchiveDecoder`), which saving turns into today's format.
  public var isKeyedArchive: Bool

  /// Creates a document.
  public init(lists: [Checklist], format: PlistFormat, isKeyedArchive: Bool = false) {
    self.lists = lists
    self.format = format
    self.isKeyedArchive = isKeyedArchive
  }
}

/// The bytes of a `Checklists.plist`, and the format actually used.
public struct EncodedChecklists: Sendable {
  /// The file's bytes.
  public var data: Data
  /// The format written; binary when XML was asked for but the text cannot be XML.
  public var format: PlistFormat
  /// Why the format differs from the one asked for, to tell the user; nil when it does not.
  public var formatNote: String?
}

/// What is wrong with a file's content, with the key path ("list 2 ("Groceries"), item 3: …").
public struct FileFormatError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The human-readable reason, without the file name.
  public var message: String
  /// Where in a text file (XML, JSON) the error is, when it is a syntax error.
  public var position: TextPosition?
  /// What is wrong at `position`, without it (the message says the line in words).
  public var reason: String?

  /// Creates an error with its message.
  public init(_ message: String) { self.message = message }

  /// A syntax error at a place in a text file; `message` is `prefix` and the reason.
  public init(_ message: String, reason: String, at position: TextPosition) {
    self.message = message
    self.reason = reason
    self.position = position
  }

  /// The message.
  public var description: String { message }

  /// The message after the file's name as compilers write it: `bad.json:1:47: expected a
  /// value …` for a syntax error, else `bad.json: …`.
  public func shown(in name: String) -> String {
    guard let position, let reason else { return "\(name): \(message)" }
    return "\(name):\(position): \(reason)"
  }
}

/// Reads and writes the iPhone app's `Checklists.plist` (a top-level array of checklists).
///
/// Both formats are read and written by the project's own codec; unknown keys of lists and
/// items are kept in `unknownFields` and written back unchanged.
public enum ChecklistsFileCoding {
  /// Decodes a file's bytes, binary or XML.
  public static func decode(_ data: Data) throws(FileFormatError) -> ChecklistsDocument {
    try decode(bytes: [UInt8](data))
  }

  /// Decodes a file's bytes, binary or XML, reading straight from `bytes` without a copy.
  ///
  /// With `release`, a big XML file's bytes are given back to the system as they are read
  /// (read bytes then read as zeros: the caller must not use them again, and must decode a
  /// fresh read when this fails after giving any back; see `ReadBytesRelease`).
  static func decode(bytes: [UInt8], release: ReadBytesRelease? = nil) throws(FileFormatError)
    -> ChecklistsDocument
  {
    try bytes.withUnsafeBufferPointer { buffer throws(FileFormatError) in
      try decode(buffer: buffer, release: release)
    }
  }

  /// Decodes the bytes in `buffer`, binary or XML, which must stay valid during the call (the
  /// document holds none of them); `release` as for `decode(bytes:release:)`.
  static func decode(buffer: UnsafeBufferPointer<UInt8>, release: ReadBytesRelease? = nil)
    throws(FileFormatError) -> ChecklistsDocument
  {
    let bytes = DocumentBytes(borrowing: buffer)
    do {
      let format = try bytes.withUnsafeBytes { raw throws(PlistError) in
        try PlistFormatSniffer.format(of: raw)
      }
      switch format {
      case .binary:
        let reader = try BinaryPlistReader(bytes)
        if let archive = try KeyedArchiveDecoder.archive(in: reader) {
          return try keyedArchive(archive)
        }
        let lists = try ChecklistsSchemaDecoder(source: reader).decode()
        return ChecklistsDocument(lists: lists, format: .binary)
      case .xml:
        let tree = try bytes.withUnsafeBytes { raw throws(PlistError) in
          try XMLPlistReader.parse(raw, decodingItems: true, release: release)
        }
        let source = PlistTreeSource(root: tree)
        if let archive = try KeyedArchiveDecoder.archive(in: source) {
          return try keyedArchive(archive)
        }
        let lists = try ChecklistsSchemaDecoder(source: source).decode()
        return ChecklistsDocument(lists: lists, format: .xml)
      }
    } catch let error as PlistError {
      guard let position = error.position, let reason = error.reason else {
        throw FileFormatError(error.message)
      }
      throw FileFormatError(error.message, reason: reason, at: position)
    } catch let error as FileFormatError {
      throw error
    } catch {
      throw FileFormatError("\(error)")
    }
  }

  /// The document of a keyed archive; saving it writes binary.
  private static func keyedArchive(_ archive: PlistValue) throws(FileFormatError)
    -> ChecklistsDocument
  {
    ChecklistsDocument(
      lists: try KeyedArchiveDecoder.lists(archive), format: .binary, isKeyedArchive: true)
  }

  /// Encodes lists in `format` (binary instead when the text cannot be XML 1.0).
  ///
  /// The same lists always give the same bytes.
  public static func encode(_ lists: [Checklist], format: PlistFormat) throws(FileFormatError)
    -> EncodedChecklists
  {
    switch format {
    case .binary:
      return EncodedChecklists(
        data: ChecklistsFileEncoder.binary(lists), format: .binary, formatNote: nil)
    case .xml:
      if let data = ChecklistsFileEncoder.xml(lists, concurrent: true) {
        return EncodedChecklists(data: data, format: .xml, formatNote: nil)
      }
      let problem = ChecklistsFileEncoder.xmlProblem(lists) ?? "XML cannot store its text"
      return EncodedChecklists(
        data: ChecklistsFileEncoder.binary(lists), format: .binary,
        formatNote: "saved as a binary property list because \(problem)")
    }
  }
}
