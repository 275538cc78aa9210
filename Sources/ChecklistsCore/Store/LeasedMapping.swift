#if canImport(Glibc)
  import Glibc
#endif

/// A big data file's bytes mapped into memory for the time of one call, under a read lease,
/// so that it is decoded where it already lies in the page cache instead of being copied into
/// fresh memory: a 100,000-item file (12 MB) took 4–5 ms to read, and 21–42 ms in two runs of
/// five where the host had to supply that memory first; mapping and touching it took under
/// 1.5 ms.
///
/// A mapped file that another program shortens in place kills the reader (`SIGBUS`) when it
/// touches a page that is gone. The read lease rules that out: while it is held, the kernel
/// makes every other open for writing and every truncation of the file wait until it is given
/// up, which happens as soon as `body` returns (tens of milliseconds at 100,000 items, up to
/// about a second for the biggest files); an open with `O_NONBLOCK` fails with `EAGAIN`
/// meanwhile. The kernel waits at most `/proc/sys/fs/lease-break-time` seconds (45 by default)
/// for a lease holder, so only a program stopped in the middle of a load (a debugger) could
/// still be hit. Writers that replace the file by renaming (this program, many editors, sync
/// tools) are not held up at all: the mapping keeps the old file.
///
/// No lease, no mapping: when the file is open for writing anywhere, belongs to another user
/// (without `CAP_LEASE`), or lies on a file system other than a local disk or memory one (a
/// lease on a network or FUSE file system does not hold off other machines, and a page that
/// cannot be fetched stops the program where `read` reports an error), `run` returns nil and
/// the caller reads the file as before. The one risk left is the disk's: a page that cannot be
/// read from it stops the program, where `read` would have reported `EIO`.
enum LeasedMapping {
  /// Smaller files are read: there is little to gain.
  static let minimumBytes = 1 << 20

  /// Runs `body` on the `size` bytes of the regular file open read-only at `fd`, mapped under a
  /// read lease; the bytes are valid only during the call. Nil, without running `body`, when the
  /// file is smaller than `minimumBytes`, cannot be leased or mapped, or its size is no longer
  /// `size` once leased.
  static func run<Result, Failure: Error>(
    _ fd: Int32, size: Int, _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
  ) throws(Failure) -> Result? {
    #if os(Linux) && (arch(x86_64) || arch(arm64))
      guard size >= minimumBytes, isLocal(fd) else { return nil }
      // A lease that another process breaks signals its holder, with SIGIO unless told
      // otherwise, and SIGIO would end this program. SIGURG is ignored unless handled, and
      // nothing here handles it: the break needs no answer, as the lease ends with `body`.
      guard fcntl(fd, Self.setSignal, SIGURG) == 0 else { return nil }
      defer { _ = fcntl(fd, Self.setSignal, 0) }
      guard fcntl(fd, Self.setLease, Int32(F_RDLCK)) == 0 else { return nil }
      defer { _ = fcntl(fd, Self.setLease, Int32(F_UNLCK)) }
      // The file cannot change now; it must still be the one the caller measured.
      var status = stat()
      guard fstat(fd, &status) == 0, status.st_size == size else { return nil }
      guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0),
        Int(bitPattern: base) != -1
      else { return nil }
      defer { munmap(base, size) }
      // Start reading a file that is not in memory yet in big pieces, not page by page as the
      // decoding threads touch it.
      _ = madvise(base, size, MADV_WILLNEED)
      return try body(
        UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: size))
    #else
      return nil
    #endif
  }

  /// `F_SETLEASE`, which the C library declares only for GNU sources.
  private static let setLease: Int32 = 1024
  /// `F_SETSIG`, likewise.
  private static let setSignal: Int32 = 10

  /// The file systems whose files are mapped (`statfs` `f_type`): ext2/3/4, XFS, Btrfs, tmpfs,
  /// F2FS, bcachefs and ZFS, all of one machine's own disks or memory.
  static let localFileSystems: Set<Int> = [
    0xEF53, 0x5846_5342, 0x9123_683E, 0x0102_1994, 0xF2F5_2010, 0xCA45_1A4E, 0x2FC1_2FC1,
  ]

  /// Whether the file open at `fd` lies on one of the `localFileSystems`.
  static func isLocal(_ fd: Int32) -> Bool {
    #if os(Linux) && (arch(x86_64) || arch(arm64))
      guard let fstatfs = fileSystemStatus else { return false }
      // `struct statfs` (120 bytes here) starts with `f_type`, a `long`.
      let record = UnsafeMutableRawPointer.allocate(byteCount: 256, alignment: 8)
      defer { record.deallocate() }
      guard fstatfs(fd, record) == 0 else { return false }
      return localFileSystems.contains(record.load(as: Int.self))
    #else
      return false
    #endif
  }

  /// The C library's `fstatfs`, found by name: `sys/vfs.h` is not part of its module.
  private static let fileSystemStatus: (@convention(c) (Int32, UnsafeMutableRawPointer) -> Int32)? =
    {
      guard let symbol = dlsym(nil, "fstatfs") else { return nil }
      return unsafeBitCast(
        symbol, to: (@convention(c) (Int32, UnsafeMutableRawPointer) -> Int32).self)
    }()
}
