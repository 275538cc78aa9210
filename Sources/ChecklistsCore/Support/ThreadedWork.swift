#if canImport(Glibc)
  import Glibc
#endif

/// Work run on a thread of its own while the caller goes on, its result waited for with
/// `result()`: a second core's share where the caller will block on it, so it must never wait
/// behind a pool that may be busy.
///
/// Not `Sendable`: only its owner uses it. The work is `@Sendable` and its result `Sendable`,
/// as they cross to the new thread and back. The new thread holds the work and a slot for its
/// result, never the `ThreadedWork`, so the owner always joins the thread, even when it drops
/// the work without asking for the result.
final class ThreadedWork<Value: Sendable> {
  private let work: @Sendable () -> Value
  /// Written by the thread; read by the owner once the thread is joined.
  private let slot = Slot()
  private var thread = pthread_t()
  private var running = false

  /// Starts `work` on a new thread; where no thread can be made it runs in `result()`.
  init(_ work: @escaping @Sendable () -> Value) {
    self.work = work
    let slot = slot
    let body = ThreadBody { slot.value = work() }
    let argument = Unmanaged.passRetained(body).toOpaque()
    running =
      pthread_create(
        &thread, nil,
        { argument in
          guard let argument else { return nil }
          Unmanaged<ThreadBody>.fromOpaque(argument).takeRetainedValue().run()
          return nil
        }, argument) == 0
    if !running { Unmanaged<ThreadBody>.fromOpaque(argument).release() }
  }

  private init(value: Value) {
    work = { value }
    slot.value = value
  }

  /// Whether the work runs on a thread of its own (false: it runs in `result()`, where no
  /// thread could be made, or it was done already).
  var isThreaded: Bool { running }

  /// Work already done, for callers that start a thread only when it pays.
  static func finished(_ value: Value) -> ThreadedWork {
    ThreadedWork(value: value)
  }

  /// Waits for the work and returns what it gave; later calls return the same.
  func result() -> Value {
    if running {
      pthread_join(thread, nil)
      running = false
    }
    if let value = slot.value { return value }
    let computed = work()
    slot.value = computed
    return computed
  }

  deinit {
    if running { pthread_join(thread, nil) }
  }

  /// Where the thread leaves the work's result.
  private final class Slot: @unchecked Sendable {
    var value: Value?
  }
}

/// The closure a new thread runs (C start routines cannot capture generic context).
private final class ThreadBody {
  let run: () -> Void
  init(_ run: @escaping () -> Void) { self.run = run }
}
