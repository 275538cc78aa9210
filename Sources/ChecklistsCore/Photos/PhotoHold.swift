import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// A running checklists' claim on photos it may still write back into the data file, so that no
/// sweep (by this or another process) removes them meanwhile.
///
/// A hold is a file `Photos/.holds/<pid>-<n>` listing photo names, one a line, or `*` for every
/// photo. Its owner keeps a shared `flock` on it for as long as the hold lasts; the kernel drops
/// that lock when the process ends however it ends, so a sweep that can lock the file
/// exclusively knows its owner is gone and removes it. Names are only ever appended, each before
/// the photo's file is written.
///
/// The app holds every photo its session has seen (deleted ones stay for undo until it exits);
/// a command holds everything (`*`) from before it reads the file until after it saved.
public final class PhotoHold: @unchecked Sendable {
  /// The hold file's path.
  public let path: String
  private let fileSystem: any FileSystem
  private let lock = ThreadLock()
  private var descriptor: Int32?
  private var names: Set<PhotoName> = []
  private var holdsEverything: Bool

  private init(path: String, fileSystem: any FileSystem, descriptor: Int32, everything: Bool) {
    self.path = path
    self.fileSystem = fileSystem
    self.descriptor = descriptor
    self.holdsEverything = everything
  }

  /// The folder of hold files in a Photos folder.
  static func holdsFolder(_ photos: String) -> String { photos + "/.holds" }

  /// Takes a hold in the library's Photos folder (creating the folders), holding every photo
  /// when `everything`, else none until `add`.
  public static func acquire(
    _ library: PhotoLibrary, everything: Bool = false
  ) throws(PhotoError) -> PhotoHold {
    let fileSystem = library.fileSystem
    let folder = holdsFolder(library.folder)
    let writer = AtomicFileWriter(fileSystem: fileSystem)
    do {
      try writer.createFolders(folder)
      guard try fileSystem.lstat(library.folder).kind == .directory,
        try fileSystem.lstat(folder).kind == .directory
      else { throw PhotoError(.symbolicLink, path: library.folder) }
    } catch let error as PhotoError {
      throw error
    } catch let error as SystemCallError {
      throw PhotoError(.systemCall, path: folder, cause: error)
    } catch {
      throw PhotoError(.systemCall, path: folder)
    }
    // Made under a temporary name, locked and filled, then renamed: a sweep never sees a hold
    // file that is not yet locked or not yet filled.
    let number = TemporaryCounter.shared.next()
    let final = "\(folder)/\(getpid())-\(number)"
    let temporary = "\(folder)/tmp-\(getpid())-\(number)"
    do throws(SystemCallError) {
      let fd = try fileSystem.open(
        temporary, flags: O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_APPEND, mode: 0o600)
      do {
        try fileSystem.flock(fd, operation: LOCK_SH | LOCK_NB)
        if everything { try fileSystem.write(fd, Data("*\n".utf8)) }
        try fileSystem.rename(temporary, final)
      } catch {
        try? fileSystem.close(fd)
        try? fileSystem.unlink(temporary)
        throw error
      }
      return PhotoHold(path: final, fileSystem: fileSystem, descriptor: fd, everything: everything)
    } catch {
      throw PhotoError(.systemCall, path: temporary, cause: error)
    }
  }

  /// Adds photos to the hold (before their files are written, for new ones).
  public func add<Names: Sequence<PhotoName>>(_ more: Names) throws(PhotoError) {
    lock.lock()
    defer { lock.unlock() }
    guard let fd = descriptor, !holdsEverything else { return }
    let new = more.filter { !names.contains($0) }
    guard !new.isEmpty else { return }
    let text = new.map { $0.fileName + "\n" }.joined()
    do {
      try fileSystem.write(fd, Data(text.utf8))
    } catch {
      throw PhotoError(.systemCall, path: path, cause: error)
    }
    names.formUnion(new)
  }

  /// The photos held (all of them when the hold is for everything).
  public var heldNames: Set<PhotoName> {
    lock.lock()
    defer { lock.unlock() }
    return names
  }

  /// Ends the hold (also done when the hold is deinitialized).
  public func release() {
    lock.lock()
    defer { lock.unlock() }
    guard let fd = descriptor else { return }
    descriptor = nil
    try? fileSystem.unlink(path)
    try? fileSystem.close(fd)
  }

  deinit { release() }

  /// The photos held by running processes in the Photos folder `photos`; nil when one of them
  /// holds everything. Removes the hold files of processes that have ended.
  static func liveHolds(in photos: String, fileSystem: any FileSystem) -> Set<PhotoName>? {
    let folder = holdsFolder(photos)
    guard let entries = try? fileSystem.listDirectory(folder) else { return [] }
    var held = Set<PhotoName>()
    for entry in entries {
      let path = folder + "/" + entry
      if entry.hasPrefix("tmp-") {
        // Made by `acquire` a moment ago, or left by a process that ended during it.
        let parts = entry.split(separator: "-")
        if parts.count == 3, let pid = Int32(parts[1]), pid != getpid(),
          !fileSystem.processExists(pid)
        {
          try? fileSystem.unlink(path)
        }
        continue
      }
      let fd: Int32
      do {
        fd = try fileSystem.open(path, flags: O_RDONLY | O_NOFOLLOW | O_NONBLOCK, mode: 0)
      } catch {
        // Gone meanwhile: released. Any other failure: it may hold anything.
        if error.code == ENOENT { continue }
        return nil
      }
      defer { try? fileSystem.close(fd) }
      do {
        try fileSystem.flock(fd, operation: LOCK_EX | LOCK_NB)
        // Nobody holds it: its process has ended.
        try? fileSystem.unlink(path)
        continue
      } catch {
        guard error.code == EWOULDBLOCK else { continue }
      }
      guard let data = try? fileSystem.readAll(fd, limit: 1 << 24) else { return nil }
      for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
        if line == "*" { return nil }
        if let name = PhotoName(fileName: String(line)) { held.insert(name) }
      }
    }
    return held
  }
}
