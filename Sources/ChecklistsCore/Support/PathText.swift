#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Paths as text, the one place they are expanded, made absolute and normalised, and split as
/// `NSString`'s path methods split them (which need all of Foundation): `/a/b.txt` has the folder `/a`, the name `b.txt`, the stem `b` and the
/// extension `txt`. Trailing slashes are ignored; nothing touches the disk.
public enum PathText {
  /// The path without trailing slashes (`/` stays `/`).
  private static func trimmed(_ path: String) -> Substring {
    var result = Substring(path)
    while result.utf8.count > 1, result.hasSuffix("/") { result = result.dropLast() }
    return result
  }

  /// The folder that holds `path`: `/a` for `/a/b`, `/` for `/a`, `""` for a bare name.
  public static func folder(of path: String) -> String {
    let path = trimmed(path)
    guard let slash = path.lastIndex(of: "/") else { return "" }
    if slash == path.startIndex { return "/" }
    var end = slash
    // `a//b` has the folder `a`.
    while end > path.startIndex, path[path.index(before: end)] == "/" {
      end = path.index(before: end)
    }
    return end == path.startIndex ? "/" : String(path[..<end])
  }

  /// The last component of `path`: `b` for `/a/b/`, `/` for `/`.
  public static func name(of path: String) -> String {
    let path = trimmed(path)
    if path == "/" { return "/" }
    guard let slash = path.lastIndex(of: "/") else { return String(path) }
    return String(path[path.index(after: slash)...])
  }

  /// The extension of the last component, without its dot (`txt` for `b.txt`, `""` for
  /// `.profile` or `b`).
  public static func fileExtension(of path: String) -> String {
    let name = name(of: path)
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
    return String(name[name.index(after: dot)...])
  }

  /// The last component without its extension (`b` for `/a/b.txt`).
  public static func stem(of path: String) -> String {
    let name = name(of: path)
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
    return String(name[..<dot])
  }

  /// `name` inside `folder` (one slash between them).
  public static func joined(_ folder: String, _ name: String) -> String {
    if folder.isEmpty { return name }
    return folder.hasSuffix("/") ? folder + name : folder + "/" + name
  }

  /// `~` and `~/…` with the home folder in place of `~` (when there is one).
  static func expandingTilde(_ path: String, home: String?) -> String {
    guard let home else { return path }
    if path == "~" { return home }
    if path.hasPrefix("~/") { return home + path.dropFirst(1) }
    return path
  }

  /// A relative path joined to `base`; an absolute one as it is.
  public static func absolute(_ path: String, base: String) -> String {
    path.hasPrefix("/") ? path : base + "/" + path
  }

  /// An absolute path without "." and ".." components or repeated slashes, worked out on the
  /// text alone (symbolic links are not followed).
  static func normalized(_ path: String) -> String {
    var parts: [Substring] = []
    for part in path.split(separator: "/", omittingEmptySubsequences: true) {
      if part == "." { continue }
      if part == ".." {
        if !parts.isEmpty { parts.removeLast() }
        continue
      }
      parts.append(part)
    }
    return "/" + parts.joined(separator: "/")
  }

  /// The user's home folder from the account database (for when `HOME` is unset), else `/`.
  public static func accountHome() -> String {
    guard let entry = getpwuid(getuid()), let folder = entry.pointee.pw_dir else { return "/" }
    let text = String(cString: folder)
    return text.isEmpty ? "/" : text
  }
}
