import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// A folder's entry as the photo picker lists it.
public struct FolderEntry: Equatable, Sendable {
  /// The file name (any bytes the file system allows, decoded as UTF-8 with replacements).
  public var name: String
  /// Whether it is a folder (a symbolic link to one counts).
  public var isFolder: Bool

  /// Creates an entry.
  public init(name: String, isFolder: Bool) {
    self.name = name
    self.isFolder = isFolder
  }
}

/// Where photos are chosen from: the pictures folder, and listing a folder's folders and images.
public enum PictureFolder {
  /// The file name extensions of the images the picker lists (lowercased).
  public static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "webp", "gif"]

  /// Whether a file name ends like an image the app can show.
  public static func isImageName(_ name: String) -> Bool {
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
    return imageExtensions.contains(name[name.index(after: dot)...].lowercased())
  }

  /// The folder the picker opens first: `XDG_PICTURES_DIR` from `user-dirs.dirs` in
  /// `$XDG_CONFIG_HOME` (else `~/.config`), else the environment variable, else `~/Pictures`,
  /// else `current`, taking the first that is a folder.
  public static func start(environment: [String: String], current: String) -> String {
    let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
    var candidates: [String] = []
    let configHome =
      environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
      ?? home.map { $0 + "/.config" }
    if let configHome,
      let text = try? String(contentsOfFile: configHome + "/user-dirs.dirs", encoding: .utf8),
      let value = userDirsValue(text, key: "XDG_PICTURES_DIR", home: home)
    {
      candidates.append(value)
    }
    if let value = environment["XDG_PICTURES_DIR"], value.hasPrefix("/") {
      candidates.append(value)
    }
    if let home { candidates.append(home + "/Pictures") }
    return candidates.first(where: isFolder) ?? current
  }

  /// A value of `user-dirs.dirs` (`XDG_PICTURES_DIR="$HOME/Pictures"`), with `$HOME` expanded.
  static func userDirsValue(_ text: String, key: String, home: String?) -> String? {
    for line in text.split(separator: "\n") {
      let trimmed = line.trimmingSpaces()
      guard trimmed.hasPrefix(key + "=") else { continue }
      var value = String(trimmed.dropFirst(key.count + 1))
      if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
        value = String(value.dropFirst().dropLast())
      }
      if value.hasPrefix("$HOME") {
        guard let home else { return nil }
        value = home + value.dropFirst(5)
      }
      return value.hasPrefix("/") ? value : nil
    }
    return nil
  }

  /// Whether `path` is a folder (following symbolic links).
  public static func isFolder(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
  }

  /// The folders and image files in `path` (no hidden ones), folders first, each group in the
  /// app's natural order. One `readdir` pass; only entries of unknown type or symbolic links
  /// are `stat`ed, so a folder of thousands of photos lists in milliseconds.
  public static func list(_ path: String) throws(SystemCallError) -> [FolderEntry] {
    guard let directory = opendir(path) else {
      throw SystemCallError(errno, call: "opendir")
    }
    defer { closedir(directory) }
    var folders: [FolderEntry] = []
    var images: [FolderEntry] = []
    while let entry = readdir(directory) {
      let type = entry.pointee.d_type
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name.hasPrefix(".") { continue }
      var folder = type == UInt8(DT_DIR)
      if type == UInt8(DT_LNK) || type == UInt8(DT_UNKNOWN) {
        folder = isFolder(path == "/" ? "/" + name : path + "/" + name)
      }
      if folder {
        folders.append(FolderEntry(name: name, isFolder: true))
      } else if isImageName(name) {
        images.append(FolderEntry(name: name, isFolder: false))
      }
    }
    let order: (FolderEntry, FolderEntry) -> Bool = {
      NaturalOrder.areInIncreasingOrder($0.name, $1.name)
    }
    return folders.sorted(by: order) + images.sorted(by: order)
  }
}
