import CDesktopBus

#if canImport(Glibc)
  import Glibc
#endif

/// A timer that fires at a wall-clock time: a timerfd on the real-time clock, so a time that
/// passed while the machine slept fires at wake-up, and setting the clock wakes it too (the
/// owner then works out the next time again). The owner waits on `descriptor` with `poll`.
public final class WallClockTimer {
  /// The descriptor to wait on for reading.
  public let descriptor: Int32

  private init(descriptor: Int32) { self.descriptor = descriptor }

  deinit { close(descriptor) }

  /// A disarmed timer; nil when the system has no timerfd.
  public static func make() -> WallClockTimer? {
    let fd = cl_wall_timer_create()
    return fd >= 0 ? WallClockTimer(descriptor: fd) : nil
  }

  /// Fires at `secondsSince1970` (a fraction allowed); nil disarms it.
  public func arm(at secondsSince1970: Double?) {
    guard let time = secondsSince1970 else {
      _ = cl_wall_timer_set(descriptor, 0, 0)
      return
    }
    // A time at or before 1970 would disarm the timer: one nanosecond after it fires at once.
    let clamped = min(max(time, 0), 253_402_300_799)
    let seconds = clamped.rounded(.down)
    let nanoseconds = max(Int64((clamped - seconds) * 1e9), seconds == 0 ? 1 : 0)
    _ = cl_wall_timer_set(descriptor, Int64(seconds), nanoseconds)
  }

  /// Reads the expiry after the descriptor was readable; true when the clock was set.
  @discardableResult public func drain() -> Bool { cl_wall_timer_drain(descriptor) == 1 }
}
