/// Why bytes are not a property list this reader accepts, as a user-facing sentence.
public struct PlistError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The human-readable reason ("binary property list is truncated").
  public var message: String
  /// Where in an XML file the error is.
  public var position: TextPosition?
  /// What is wrong at `position`, without it.
  public var reason: String?

  /// Creates an error with its message.
  public init(_ message: String) { self.message = message }

  /// An error at a place in an XML file: the message says its line, `position` its column too.
  init(xml reason: String, at position: TextPosition) {
    self.message = "XML error at line \(position.line): \(reason)"
    self.reason = reason
    self.position = position
  }

  /// The message.
  public var description: String { message }
}

/// Limits that keep hostile files from exhausting the stack or memory.
public enum PlistLimits {
  /// The deepest nesting of arrays and dictionaries a reader accepts.
  public static let maximumDepth = 512

  /// The message for nesting deeper than `maximumDepth`.
  static var depthMessage: String { "nesting deeper than \(maximumDepth) levels" }
}
