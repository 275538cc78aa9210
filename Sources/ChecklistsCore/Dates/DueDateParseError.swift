/// Why a typed due date could not be read.
public struct DueDateParseError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What to show the user.
  public var message: String

  /// Creates an error.
  public init(_ message: String) { self.message = message }

  /// The message.
  public var description: String { message }
}
