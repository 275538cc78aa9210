import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Small real file systems for tests of full and read-only disks (mounting needs root).
public enum Tmpfs {
  /// Why a mount failed.
  public struct MountError: Error, CustomStringConvertible {
    /// The command and what it printed.
    public var description: String
  }

  /// Whether this process may mount a tmpfs (tried once, on a scratch folder): the condition
  /// of tests that need one, so that they are reported as skipped, not passed.
  public static let isAvailable: Bool = {
    guard geteuid() == 0 else { return false }
    let point = NSTemporaryDirectory() + "checklists-tmpfs-probe-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: point) }
    guard (try? mount(at: point, size: "64k")) != nil else { return false }
    unmount(point)
    return true
  }()

  /// Mounts a tmpfs of `size` (e.g. "64k", "4m") at `point`, created when missing.
  public static func mount(at point: String, size: String, mode: String? = nil) throws {
    try? FileManager.default.createDirectory(atPath: point, withIntermediateDirectories: true)
    let options = "size=\(size)" + (mode.map { ",mode=\($0)" } ?? "")
    let result = try runProcess("/bin/mount", ["-t", "tmpfs", "-o", options, "tmpfs", point])
    guard result.status == 0 else {
      throw MountError(
        description: "mount -t tmpfs failed (status \(result.status); needs root): "
          + result.stderr)
    }
  }

  /// Makes a mounted tmpfs read-only; false when that failed.
  public static func remountReadOnly(_ point: String) -> Bool {
    (try? runProcess("/bin/mount", ["-o", "remount,ro", point]))?.status == 0
  }

  /// Unmounts `point`.
  public static func unmount(_ point: String) {
    _ = try? runProcess("/bin/umount", [point])
  }
}
