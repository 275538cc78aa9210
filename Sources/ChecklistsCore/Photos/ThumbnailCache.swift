import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Small images of photos made for the screen, kept in `$XDG_CACHE_HOME/checklists/thumbnails/`
/// (default `~/.cache/…`) so that a photo is decoded once per size.
///
/// An entry is named `<photo id>-<width>x<height>-<file size>-<file mtime in ns>.thumb`: a photo
/// changed on disk (size or time) misses its old entries, which `store` then removes. An entry
/// is one line of text saying what the photo is (format, stored size, orientation) followed by
/// a PNG of the scaled picture. The cache holds only what can be made again; any entry may be
/// deleted at any time.
public struct ThumbnailCache: Sendable {
  /// The largest entry read back.
  public static let maximumEntrySize = 16 << 20
  /// The cache folder.
  public let folder: String
  let fileSystem: any FileSystem

  /// The cache for the environment's `XDG_CACHE_HOME` (or `~/.cache`).
  public init(environment: [String: String], fileSystem: any FileSystem = SystemFileSystem()) {
    var base = environment["XDG_CACHE_HOME"] ?? ""
    if !base.hasPrefix("/") {
      let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? PathText.accountHome()
      base = home + "/.cache"
    }
    if base.count > 1 && base.hasSuffix("/") { base.removeLast() }
    self.init(folder: base + "/checklists/thumbnails", fileSystem: fileSystem)
  }

  /// The cache in `folder`.
  public init(folder: String, fileSystem: any FileSystem = SystemFileSystem()) {
    self.folder = folder
    self.fileSystem = fileSystem
  }

  /// The entry's path for a photo whose file has `status`, at `width`×`height` pixels.
  public func path(for name: PhotoName, width: Int, height: Int, source status: FileStatus)
    -> String
  {
    "\(folder)/\(name.id)-\(width)x\(height)-\(status.size)-\(status.modificationNanoseconds).thumb"
  }

  /// The entry's bytes, or nil when there is none (or it is not a small regular file).
  public func read(for name: PhotoName, width: Int, height: Int, source status: FileStatus)
    -> [UInt8]?
  {
    let path = path(for: name, width: width, height: height, source: status)
    guard let fd = try? fileSystem.open(path, flags: O_RDONLY | O_NOFOLLOW | O_NONBLOCK, mode: 0)
    else { return nil }
    defer { try? fileSystem.close(fd) }
    guard let status = try? fileSystem.fstat(fd), status.kind == .regular,
      status.size <= Self.maximumEntrySize,
      let bytes = try? fileSystem.readAllBytes(fd, limit: Self.maximumEntrySize)
    else { return nil }
    return bytes
  }

  /// Stores an entry atomically and removes the photo's entries of the same size made from an
  /// older version of its file.
  public func store(
    _ bytes: [UInt8], for name: PhotoName, width: Int, height: Int, source status: FileStatus
  ) throws(PhotoError) {
    let path = path(for: name, width: width, height: height, source: status)
    do {
      try AtomicFileWriter(fileSystem: fileSystem).write(Data(bytes), to: path, keepBackup: false)
    } catch {
      throw PhotoError(.systemCall, path: path, cause: error.cause)
    }
    let prefix = "\(name.id)-\(width)x\(height)-"
    let current = PathText.name(of: path)
    for entry in (try? fileSystem.listDirectory(folder)) ?? []
    where entry.hasPrefix(prefix) && entry != current {
      try? fileSystem.unlink(folder + "/" + entry)
    }
  }

  /// Removes the entries of the photos with these ids (after a sweep removed them).
  public func remove(photoIDs ids: Set<String>) {
    guard !ids.isEmpty else { return }
    for entry in (try? fileSystem.listDirectory(folder)) ?? [] {
      guard let dash = entry.firstIndex(of: "-") else { continue }
      if ids.contains(String(entry[..<dash])) { try? fileSystem.unlink(folder + "/" + entry) }
    }
  }

  /// Removes the entries of photos whose ids are not in `ids` (after a sweep).
  public func prune(keeping ids: Set<String>) {
    for entry in (try? fileSystem.listDirectory(folder)) ?? [] {
      guard let dash = entry.firstIndex(of: "-") else { continue }
      let id = String(entry[..<dash])
      if id.count == 16, !ids.contains(id), entry.hasSuffix(".thumb") {
        try? fileSystem.unlink(folder + "/" + entry)
      }
    }
  }
}
