import FoundationEssentials
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Finding a zone's rules: by name in the time zone database, from a file, and from `TZ`.
extension ZoneRules {
  /// Where the time zone database is when `TZDIR` does not say.
  public static let systemDirectory = "/usr/share/zoneinfo"
  /// The system's own zone when `TZ` is not set.
  public static let systemLocaltime = "/etc/localtime"

  /// The zone of this process, resolved once from its environment (see `resolve`).
  public static let current: ZoneRules = resolve(environment: processEnvironment())

  /// The zone `TZ` of `environment` selects, as glibc reads it:
  ///
  /// - unset: `/etc/localtime` (named after its link target under `zoneinfo/`, else
  ///   "localtime"); UTC when it cannot be read;
  /// - `Area/City` or `:Area/City`: that file of the database (`TZDIR`, else
  ///   `/usr/share/zoneinfo`); a name with a `..` component is refused;
  /// - `/absolute/path` (or `:/absolute/path`): that file;
  /// - a POSIX rule (`EST5EDT,M3.2.0,M11.1.0`, `<+0545>-5:45`) when no file has that name;
  /// - empty, an unknown name, an unreadable file or a malformed rule: UTC.
  public static func resolve(
    environment: [String: String], localtime: String = systemLocaltime
  ) -> ZoneRules {
    let directory = databaseDirectory(environment: environment)
    guard var value = environment["TZ"] else {
      return (try? localZone(path: localtime)) ?? .utc
    }
    let colon = value.hasPrefix(":")
    if colon { value.removeFirst() }
    if value.isEmpty { return .utc }
    if value.hasPrefix("/") { return (try? file(atPath: value)) ?? .utc }
    if let zone = try? named(value, directory: directory) { return zone }
    if !colon, let zone = try? ZoneRules(posixRule: value) { return zone }
    return .utc
  }

  /// The database folder: `TZDIR` when set to an absolute path, else the system's.
  public static func databaseDirectory(environment: [String: String]) -> String {
    if let directory = environment["TZDIR"], directory.hasPrefix("/") { return directory }
    return systemDirectory
  }

  /// The zone named `name` ("Europe/Berlin") in the database at `directory` (by default
  /// `TZDIR` of the process, else the system's). Files once read are kept for the process.
  public static func named(_ name: String, directory: String? = nil) throws(ZoneRulesError)
    -> ZoneRules
  {
    guard isValidName(name) else { throw .invalidName(name) }
    let folder = directory ?? databaseDirectory(environment: processEnvironment())
    let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
    if let known = NamedZones.cache.withLock({ $0[path] }) { return try known.get() }
    let result: Result<ZoneRules, ZoneRulesError>
    do {
      let bytes = try readZoneFile(path)
      result = .success(
        try ZoneRules(tzif: bytes, identifier: name, databaseName: name))
    } catch {
      result = .failure(error)
    }
    NamedZones.cache.withLock {
      if $0.count >= NamedZones.limit { $0.removeAll() }
      $0[path] = result
    }
    return try result.get()
  }

  /// The zone in the TZif file at `path`, named after its path under `zoneinfo/` if it is
  /// there ("/usr/share/zoneinfo/Europe/Berlin" is "Europe/Berlin"), else after the path.
  public static func file(atPath path: String) throws(ZoneRulesError) -> ZoneRules {
    let bytes = try readZoneFile(path)
    let name = databaseName(inPath: path)
    return try ZoneRules(tzif: bytes, identifier: name ?? path, databaseName: name)
  }

  /// The zone of `/etc/localtime` (or `path`): named after its link target when that is under
  /// `zoneinfo/`, else "localtime".
  static func localZone(path: String) throws(ZoneRulesError) -> ZoneRules {
    let bytes = try readZoneFile(path)
    let name = linkTarget(path).flatMap(databaseName(inPath:))
    return try ZoneRules(tzif: bytes, identifier: name ?? "localtime", databaseName: name)
  }

  /// Whether `name` can name a file of the database: relative, no `..` component, no NUL.
  static func isValidName(_ name: String) -> Bool {
    guard !name.isEmpty, name.utf8.count <= 255, !name.hasPrefix("/"), !name.utf8.contains(0)
    else { return false }
    return !name.split(separator: "/", omittingEmptySubsequences: false).contains("..")
  }

  /// The part of `path` after its last `zoneinfo/`, when that is a valid name.
  private static func databaseName(inPath path: String) -> String? {
    guard let range = TextMatching.lastRange(of: "zoneinfo/", in: path) else { return nil }
    var name = String(path[range.upperBound...])
    // Debian's posix/ tree holds the same zones under the same names.
    if name.hasPrefix("posix/") { name.removeFirst("posix/".count) }
    return isValidName(name) ? name : nil
  }

  /// The target of the symbolic link at `path`, or nil when it is not one.
  private static func linkTarget(_ path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink(path, &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// The bytes of a zone file: a regular file of at most 1 MB.
  static func readZoneFile(_ path: String) throws(ZoneRulesError) -> [UInt8] {
    // Non-blocking, so that a FIFO named by TZ cannot hang the program before the check below.
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { throw .unreadable(path, reason: errorText(errno)) }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      throw .unreadable(path, reason: errorText(errno))
    }
    guard (status.st_mode & S_IFMT) == S_IFREG else {
      throw .unreadable(path, reason: "not a regular file")
    }
    let size = Int(status.st_size)
    guard size <= TZifReader.maximumFileSize else { throw .tooLarge(path, bytes: size) }
    var bytes = [UInt8](repeating: 0, count: size)
    var filled = 0
    while filled < size {
      let count = bytes.withUnsafeMutableBytes { buffer in
        read(descriptor, buffer.baseAddress.map { $0 + filled }, size - filled)
      }
      if count < 0 && errno == EINTR { continue }
      guard count >= 0 else { throw .unreadable(path, reason: errorText(errno)) }
      if count == 0 { break }
      filled += count
    }
    return Array(bytes[0..<filled])
  }

  private static func errorText(_ code: Int32) -> String {
    String(cString: strerror(code))
  }

  /// The environment of this process.
  static func processEnvironment() -> [String: String] {
    var result: [String: String] = [:]
    for name in ["TZ", "TZDIR"] {
      if let value = getenv(name) { result[name] = String(cString: value) }
    }
    return result
  }
}

/// Zones already read by name, with the failures, for the process.
private enum NamedZones {
  static let limit = 64
  static let cache = Mutex<[String: Result<ZoneRules, ZoneRulesError>]>([:])
}
