/// The two encodings of a property list file.
public enum PlistFormat: String, Equatable, Sendable {
  /// `bplist00`, what the phone writes.
  case binary
  /// XML 1.0, what a new file gets.
  case xml
}
