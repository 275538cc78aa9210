#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A mutual-exclusion lock for state shared between threads, used as `NSLock` is (which needs
/// all of Foundation): `lock()`, then `unlock()`, on the same thread.
public final class ThreadLock: @unchecked Sendable {
  // A pthread mutex must not move: it lives in memory of its own.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>

  /// Creates an unlocked lock.
  public init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Waits for the lock and takes it.
  public func lock() { pthread_mutex_lock(mutex) }

  /// Gives the lock back.
  public func unlock() { pthread_mutex_unlock(mutex) }
}
