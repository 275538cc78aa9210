import ChecklistsCore

/// Why a photo cannot be shown, with a message for the user.
public struct ImageError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What went wrong.
  public enum Kind: Equatable, Sendable {
    /// The bytes are not a JPEG, PNG, WebP or GIF image.
    case notAnImage
    /// The image is damaged or cut short (`reason` from the library).
    case unreadable(reason: String)
    /// More pixels than a photo may have (`ImageDecoder.maximumPixels`).
    case tooManyPixels(width: Int, height: Int)
    /// The library for this format (or for the terminal's image protocol) is not installed.
    case libraryMissing(reason: String)
    /// Memory ran out while decoding.
    case outOfMemory
    /// The photo's file could not be read.
    case file(PhotoError)
  }

  /// What went wrong.
  public var kind: Kind

  /// Creates an error.
  public init(_ kind: Kind) { self.kind = kind }

  /// The message, e.g. `cannot read this image: the file ends early (truncated)`.
  public var message: String {
    switch kind {
    case .notAnImage:
      return "cannot read this image: not a JPEG, PNG, WebP or GIF image"
    case .unreadable(let reason):
      return "cannot read this image: \(reason)"
    case .tooManyPixels(let width, let height):
      return "this image is too large to show (\(width)×\(height), over 100 megapixels)"
    case .libraryMissing(let reason):
      return "cannot show photos: an image library is missing (\(reason))"
    case .outOfMemory:
      return "cannot read this image: out of memory"
    case .file(let error):
      return error.message
    }
  }

  /// The message.
  public var description: String { message }
}
