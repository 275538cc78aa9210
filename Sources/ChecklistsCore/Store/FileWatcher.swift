import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Tells when a file may have changed, without polling: an inotify watch on its folder (files
/// are replaced by rename, so the folder is what changes).
///
/// The owner waits on `descriptor` (with `poll`) and calls `drain()` when it is readable; the
/// answer says whether the file's name was among the events. Where inotify is missing, `open`
/// returns nil and the owner checks the file now and then instead.
public final class FileWatcher {
  /// The descriptor to wait on for reading.
  public let descriptor: Int32
  private let name: String
  /// The watch of the file's folder.
  private let fileWatch: Int32
  /// Watches of whole folders (a vdir's): any entry that is not a temporary file counts.
  private var folderWatches = Set<Int32>()

  private init(descriptor: Int32, name: String, fileWatch: Int32) {
    self.descriptor = descriptor
    self.name = name
    self.fileWatch = fileWatch
  }

  /// Watches the folder of `path` for changes to `path`'s name; nil when that is not possible.
  public static func open(path: String) -> FileWatcher? {
    #if os(Linux)
      let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
      guard fd >= 0 else { return nil }
      let folder = PathText.folder(of: path)
      let mask = UInt32(
        IN_MOVED_TO | IN_MOVED_FROM | IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_DELETE_SELF
          | IN_MOVE_SELF | IN_ATTRIB)
      let watch = inotify_add_watch(fd, folder.isEmpty ? "." : folder, mask)
      guard watch >= 0 else {
        close(fd)
        return nil
      }
      return FileWatcher(descriptor: fd, name: PathText.name(of: path), fileWatch: watch)
    #else
      return nil
    #endif
  }

  /// Set once `closeInBackground()` gave the descriptor away.
  private var released = false
  /// Set once `stopWatching()` removed the watches.
  private var stopped = false

  deinit {
    if !released { close(descriptor) }
  }

  /// Removes the watches; nothing is told afterwards. The kernel retires removed watches on its
  /// own time, about a millisecond later, while closing the descriptor with watches still on it
  /// waits for that retirement on the spot (a grace period: 0.1 to 20 ms measured here, 14 ms
  /// typical on a busy host). So a watcher that is about to go is stopped first, and closed
  /// only after some other work (the last save).
  public func stopWatching() {
    #if os(Linux)
      guard !stopped else { return }
      stopped = true
      inotify_rm_watch(descriptor, fileWatch)
      for watch in folderWatches { inotify_rm_watch(descriptor, watch) }
      folderWatches.removeAll()
    #endif
  }

  /// Stops watching (`stopWatching()`) and closes the descriptor on another thread, so that
  /// what is left of the kernel's retirement of the watches need not hold up the caller.
  public func closeInBackground() {
    guard !released else { return }
    stopWatching()
    released = true
    // A bare thread with a small stack (a Dispatch worker would keep more memory resident);
    // the descriptor travels as the argument, plus one so that 0 is not a null pointer.
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    // Where 64 KB is below the system's minimum the request fails and the default stands.
    pthread_attr_setstacksize(&attributes, 64 * 1024)
    var thread = pthread_t()
    let started = pthread_create(
      &thread, &attributes,
      { argument in
        _ = close(Int32(truncatingIfNeeded: Int(bitPattern: argument) - 1))
        return nil
      }, UnsafeMutableRawPointer(bitPattern: Int(descriptor) + 1))
    if started != 0 { close(descriptor) }
  }

  /// Also watches these folders: any change to an entry in them (other than a dot-file or a
  /// `.tmp` file) counts. Folders already watched are left as they are; missing ones skipped.
  public func watch(folders: [String]) {
    #if os(Linux)
      guard !released, !stopped else { return }
      let mask = UInt32(
        IN_MOVED_TO | IN_MOVED_FROM | IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_DELETE_SELF
          | IN_MOVE_SELF | IN_ONLYDIR)
      for folder in folders {
        let watch = inotify_add_watch(descriptor, folder, mask)
        if watch >= 0 { folderWatches.insert(watch) }
      }
    #endif
  }

  /// Reads every pending event; true when one concerned the file (or the folder itself, or
  /// events were lost), so the file should be checked.
  public func drain() -> Bool {
    #if os(Linux)
      guard !released, !stopped else { return false }
      var concerned = false
      let size = 64 * 1024
      let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
      defer { buffer.deallocate() }
      let header = MemoryLayout<inotify_event>.size
      while true {
        let count = read(descriptor, buffer, size)
        if count <= 0 { break }
        var offset = 0
        while offset + header <= count {
          let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
          let nameLength = Int(event.len)
          if event.mask & UInt32(IN_Q_OVERFLOW | IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
            concerned = true
          } else if nameLength > 0 {
            let start = buffer.advanced(by: offset + header).assumingMemoryBound(to: CChar.self)
            let entry = String(cString: start)
            if folderWatches.contains(event.wd) {
              if !entry.hasPrefix(".") && !entry.hasSuffix(".tmp") { concerned = true }
            } else if entry == name {
              concerned = true
            }
          }
          offset += header + nameLength
        }
      }
      return concerned
    #else
      return false
    #endif
  }
}
