import CTerminalSupport
import ChecklistsCore
import ChecklistsUI
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Events made on other threads (a photo decoded by a worker) for the main loop: posted under a
/// lock, with one byte written to a pipe that the loop's `poll` watches.
final class EventInbox: @unchecked Sendable {
  private let lock = ThreadLock()
  private var events: [InputEvent] = []
  /// The pipe's read end, for `poll`; -1 when no pipe could be made (then events wait for
  /// the next wake-up).
  let descriptor: Int32
  private let writeEnd: Int32

  init() {
    var ends: [Int32] = [-1, -1]
    if pipe(&ends) == 0 {
      for end in ends {
        _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        _ = fcntl(end, F_SETFD, FD_CLOEXEC)
      }
      descriptor = ends[0]
      writeEnd = ends[1]
    } else {
      descriptor = -1
      writeEnd = -1
    }
  }

  deinit {
    if descriptor >= 0 { close(descriptor) }
    if writeEnd >= 0 { close(writeEnd) }
  }

  /// Posts an event from any thread and wakes the loop.
  func post(_ event: InputEvent) {
    lock.lock()
    events.append(event)
    lock.unlock()
    guard writeEnd >= 0 else { return }
    var byte: UInt8 = 1
    _ = write(writeEnd, &byte, 1)
  }

  /// The events posted so far, oldest first; empties the pipe.
  func take() -> [InputEvent] {
    if descriptor >= 0 {
      var buffer = [UInt8](repeating: 0, count: 64)
      while read(descriptor, &buffer, buffer.count) > 0 {}
    }
    lock.lock()
    defer { lock.unlock() }
    let taken = events
    events.removeAll()
    return taken
  }
}
