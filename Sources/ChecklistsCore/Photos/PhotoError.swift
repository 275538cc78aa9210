import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Why a photo could not be read, stored or removed, with a message for the user.
public struct PhotoError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What went wrong.
  public enum Kind: Equatable, Sendable {
    /// The file is larger than a photo may be (`PhotoLibrary.maximumFileSize`).
    case tooLarge(bytes: Int64)
    /// The file is not a JPEG, PNG, WebP or GIF image (by its first bytes).
    case notAnImage
    /// The path names a folder, a device, a FIFO… instead of a regular file.
    case notRegularFile
    /// A symbolic link where the Photos folder or a photo must be a real folder or file.
    case symbolicLink
    /// The photo named in the data file is not in the Photos folder.
    case missing
    /// A system call failed (`cause` tells which and why).
    case systemCall
    /// The data file could not be read to see which photos it still uses; nothing was removed.
    case dataFileUnreadable
  }

  /// What went wrong.
  public var kind: Kind
  /// The file concerned, absolute.
  public var path: String
  /// The failed system call, when there is one.
  public var cause: SystemCallError?
  /// More words, e.g. the data file's error.
  public var detail: String?

  /// Creates an error.
  public init(_ kind: Kind, path: String, cause: SystemCallError? = nil, detail: String? = nil) {
    self.kind = kind
    self.path = path
    self.cause = cause
    self.detail = detail
  }

  /// The message for the user, e.g. `/tmp/big.jpg is too large for a photo (…; the limit is …)`.
  public var message: String {
    switch kind {
    case .tooLarge(let bytes):
      return "\(path) is too large for a photo (\(bytes) bytes; the limit is 100 MB)"
    case .notAnImage:
      return "\(path) is not a JPEG, PNG, WebP or GIF image"
    case .notRegularFile:
      return "\(path) is not a regular file"
    case .symbolicLink:
      return "\(path) is a symbolic link; photos are read and written only as real files"
    case .missing:
      return "\(path) is missing"
    case .systemCall:
      return "\(path): \(cause?.reason ?? "unknown error")"
    case .dataFileUnreadable:
      return "\(path) could not be read to see which photos it uses (\(detail ?? "unknown"));"
        + " no photo was removed"
    }
  }

  /// The message.
  public var description: String { message }
}
