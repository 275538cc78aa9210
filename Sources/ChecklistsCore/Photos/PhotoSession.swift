import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The app's photos for one session: the Photos folder beside the data file, and one hold on
/// every photo the session has seen, so that a sweep by another process never removes a photo
/// that undo may bring back.
///
/// The hold file is made on the first photo (a session without photos touches nothing), and
/// ended by `end`, which then sweeps what nothing uses any more.
public final class PhotoSession: @unchecked Sendable {
  /// The Photos folder.
  public let library: PhotoLibrary
  private let lock = ThreadLock()
  private var hold: PhotoHold?
  private var pending: Set<PhotoName> = []

  /// Creates a session for the data file's Photos folder.
  public init(library: PhotoLibrary) {
    self.library = library
  }

  /// Holds photos the session has seen (the loaded lists' and merged ones'); a failure to write
  /// the hold is retried with the next photo.
  public func hold(_ names: Set<PhotoName>) {
    guard !names.isEmpty else { return }
    lock.lock()
    defer { lock.unlock() }
    pending.formUnion(names)
    // Without a Photos folder there is nothing a sweep could remove yet.
    guard hold != nil || library.folderExists else { return }
    _ = try? takeHold().add(pending)
    pending.removeAll()
  }

  /// Copies the file at `path` into the Photos folder under a new name, held for the session.
  public func store(_ path: String) throws(PhotoError) -> PhotoName {
    let source = try PhotoLibrary.readSource(path)
    lock.lock()
    defer { lock.unlock() }
    let hold = try takeHold()
    if !pending.isEmpty {
      try hold.add(pending)
      pending.removeAll()
    }
    return try library.store(source, hold: hold)
  }

  /// The photos held so far.
  public var heldNames: Set<PhotoName> {
    lock.lock()
    defer { lock.unlock() }
    return (hold?.heldNames ?? []).union(pending)
  }

  /// Ends the hold; then, when `sweep` (the lists were saved), removes the copies that nothing
  /// uses any more (`knownReferences`: the lists as saved).
  public func end(sweep: Bool, knownReferences: Set<PhotoName>) {
    lock.lock()
    let held = hold
    hold = nil
    lock.unlock()
    held?.release()
    guard sweep, library.folderExists else { return }
    _ = try? library.sweep(knownReferences: knownReferences)
  }

  private func takeHold() throws(PhotoError) -> PhotoHold {
    if let hold { return hold }
    let made = try PhotoHold.acquire(library)
    hold = made
    return made
  }
}
