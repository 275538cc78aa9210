/// Why time zone rules could not be read.
public enum ZoneRulesError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A POSIX `TZ` string that does not follow the syntax.
  case invalidRule(String, reason: String)
  /// A TZif file (RFC 8536) that is not well formed.
  case invalidFile(String, reason: String)
  /// A zone name that cannot name a file of the database (empty, absolute, or with `..`).
  case invalidName(String)
  /// A file that could not be opened or read.
  case unreadable(String, reason: String)
  /// A file larger than any real zone file.
  case tooLarge(String, bytes: Int)

  /// The message for the user.
  public var description: String {
    switch self {
    case .invalidRule(let text, let reason):
      return "\"\(text)\" is not a POSIX TZ rule: \(reason)"
    case .invalidFile(let path, let reason):
      return "\(path) is not a valid time zone file (TZif): \(reason)"
    case .invalidName(let name):
      return "\"\(name)\" is not a time zone name (like Europe/Berlin)"
    case .unreadable(let path, let reason):
      return "cannot read the time zone file \(path): \(reason)"
    case .tooLarge(let path, let bytes):
      return "\(path) is \(bytes) bytes, too large for a time zone file (at most 1 MB)"
    }
  }
}
