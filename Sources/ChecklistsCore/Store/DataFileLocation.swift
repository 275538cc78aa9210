import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Where the data file and its state file are, worked out from the environment and `--file`.
///
/// The data file is `$XDG_DATA_HOME/checklists/Checklists.plist` (XDG's default data home is
/// `~/.local/share`); `$CHECKLISTS_FILE` overrides it and `--file PATH` overrides both. The state
/// lives in `$XDG_STATE_HOME/checklists/` (default `~/.local/state`), one file per data file.
public struct DataFileLocation: Equatable, Sendable {
  /// The data file's absolute path, as given (a symbolic link stays a link).
  public var dataFile: String
  /// The state file's absolute path.
  public var stateFile: String
  /// The home directory, used to show paths as `~/…`.
  public var homeDirectory: String?

  /// Creates a location from its paths.
  public init(dataFile: String, stateFile: String, homeDirectory: String? = nil) {
    self.dataFile = dataFile
    self.stateFile = stateFile
    self.homeDirectory = homeDirectory
  }

  /// Resolves the location from environment variables and an optional `--file` path.
  ///
  /// Relative paths are taken relative to `currentDirectory`.
  public static func resolve(
    environment: [String: String],
    filePath: String? = nil,
    currentDirectory: String = FileManager.default.currentDirectoryPath
  ) throws(StoreError) -> DataFileLocation {
    let home = nonEmpty(environment["HOME"]) ?? PathText.accountHome()
    let chosen: String
    if let filePath = nonEmpty(filePath) {
      chosen = filePath
    } else if let fromEnvironment = nonEmpty(environment["CHECKLISTS_FILE"]) {
      chosen = fromEnvironment
    } else {
      let dataHome = absolute(environment["XDG_DATA_HOME"]) ?? home + "/.local/share"
      chosen = dataHome + "/checklists/Checklists.plist"
    }
    let dataFile = PathText.normalized(
      PathText.absolute(PathText.expandingTilde(chosen, home: home), base: currentDirectory))
    if chosen.hasSuffix("/") || dataFile == "/" {
      throw StoreError(.invalidPath, path: dataFile, detail: "the path names a folder")
    }
    let stateHome = absolute(environment["XDG_STATE_HOME"]) ?? home + "/.local/state"
    let stem = PathText.stem(of: PathText.name(of: dataFile))
    let padded = PathHash.hex(dataFile)
    let stateFile = stateHome + "/checklists/\(stem)-\(padded).json"
    return DataFileLocation(dataFile: dataFile, stateFile: stateFile, homeDirectory: home)
  }

  /// `path` with the home directory shown as `~`.
  public func display(_ path: String) -> String {
    guard let home = homeDirectory, !home.isEmpty, home != "/" else { return path }
    if path == home { return "~" }
    if path.hasPrefix(home + "/") { return "~" + path.dropFirst(home.count) }
    return path
  }

  /// The data file's path as shown to the user (`~/…/Checklists.plist`).
  public var displayPath: String { display(dataFile) }

  /// The data file's name (`Checklists.plist`), which content errors begin with.
  public var fileName: String { PathText.name(of: dataFile) }

  private static func nonEmpty(_ value: String?) -> String? {
    guard let value, !value.isEmpty else { return nil }
    return value
  }

  /// XDG variables count only when they hold an absolute path.
  private static func absolute(_ value: String?) -> String? {
    guard let value = nonEmpty(value), value.hasPrefix("/") else { return nil }
    return value.count > 1 && value.hasSuffix("/") ? String(value.dropLast()) : value
  }

}

/// The FNV-1a 64-bit hash of a path, in 16 hexadecimal digits: names state files (the data
/// file's, and sync's of a data file and a vdir). The names must never change.
enum PathHash {
  static func hex(_ text: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01b3
    }
    return TextMatching.zeroPadded(String(hash, radix: 16), to: 16)
  }
}
