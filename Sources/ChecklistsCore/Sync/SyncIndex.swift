import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The fast first look of a sync pass: a small file beside the state holding only fingerprints.
///
/// `sync-<id>.index` records the state file's, the data file's, the vdir folder's, each
/// collection folder's and each of its metadata and item files' fingerprints (inode, size,
/// modification time in nanoseconds) as the last pass left them, when both sides then matched
/// the state. A pass whose every fingerprint is still the recorded one has nothing to do and
/// stops there, without reading the state or listing a folder: a file added, removed or renamed
/// changes its folder's modification time, a file changed changes its own fingerprint, the data
/// file is replaced on every save, and a rewritten or lost state no longer matches.
public enum SyncIndex {
  /// How recent a modification time may be and still be trusted: a change within the same
  /// clock tick as the recorded one could keep it (nanoseconds; two seconds where the file
  /// system keeps whole seconds only).
  public static let settleNanoseconds: Int64 = 100_000_000

  private static let magic = "checklists-sync-index 2"

  /// The index file beside a state file.
  public static func path(statePath: String) -> String {
    (statePath.hasSuffix(".state") ? String(statePath.dropLast(6)) : statePath) + ".index"
  }

  /// The index's text for a state file, a data file and a vdir as `snapshot` found it; nil when
  /// it cannot be trusted (a modification time too recent, a name that would need escaping).
  static func encoded(
    stateFile: FileFingerprint, dataFile: FileFingerprint, snapshot: VdirSnapshot, now: Int64,
    settle: Int64
  ) -> String? {
    guard let root = snapshot.fingerprint else { return nil }
    func settled(_ print: FileFingerprint) -> Bool {
      let window = print.modified % 1_000_000_000 == 0 ? max(settle, 2_000_000_000) : settle
      return print.modified <= now - window
    }
    func plain(_ name: String) -> Bool {
      !name.utf8.contains { $0 == 9 || $0 == 10 || $0 == 13 }
    }
    func line(_ kind: String, _ name: String?, _ print: FileFingerprint) -> String {
      kind + "\t" + (name.map { $0 + "\t" } ?? "") + "\(print.inode)\t\(print.size)\t"
        + "\(print.modified)"
    }
    guard settled(root) else { return nil }
    var lines = [
      magic, line("state", nil, stateFile), line("data", nil, dataFile), line("root", nil, root),
    ]
    lines.reserveCapacity(snapshot.itemFileCount + snapshot.folders.count * 3 + 5)
    for folder in snapshot.folders {
      guard let print = folder.fingerprint, settled(print), plain(folder.name) else { return nil }
      lines.append(line("folder", folder.name, print))
      for file in folder.metadata + folder.items {
        guard settled(file.fingerprint), plain(file.href) else { return nil }
        lines.append(line("f", file.href, file.fingerprint))
      }
    }
    lines.append("end")
    return lines.joined(separator: "\n") + "\n"
  }

  /// Records the index when `snapshot` and the data file match `state` (the state file at
  /// `statePath` holding it); else removes any index, so the next pass looks at everything.
  static func record(
    state: SyncState, statePath: String, dataFile: String, snapshot: VdirSnapshot,
    settle: Int64 = settleNanoseconds
  ) {
    let indexPath = path(statePath: statePath)
    var clock = timespec()
    clock_gettime(CLOCK_REALTIME, &clock)
    let now = Int64(clock.tv_sec) * 1_000_000_000 + Int64(clock.tv_nsec)
    guard let stateFile = FileFingerprint.of(statePath), let data = FileFingerprint.of(dataFile),
      SyncEngine.isUnchanged(state: state, snapshot: snapshot, dataFile: data),
      let text = encoded(
        stateFile: stateFile, dataFile: data, snapshot: snapshot, now: now, settle: settle)
    else {
      unlink(indexPath)
      return
    }
    _ = try? Vdir.writeAtomically(Array(text.utf8), to: indexPath)
  }

  /// Whether every fingerprint the index records is still the same: nothing changed on either
  /// side since the last pass. False when there is no index or it cannot be read.
  public static func isUnchanged(statePath: String, dataFile: String, vdir: String) -> Bool {
    guard var bytes = try? Vdir.read(path(statePath: statePath)) else { return false }
    return bytes.withUnsafeMutableBufferPointer { buffer in
      matches(buffer, statePath: statePath, dataFile: dataFile, vdir: vdir)
    }
  }

  /// Walks the index's lines, `stat`ing each file it names (names are read in place: each
  /// name's closing tab becomes the NUL that ends it).
  private static func matches(
    _ data: UnsafeMutableBufferPointer<UInt8>, statePath: String, dataFile: String, vdir: String
  ) -> Bool {
    guard let base = data.baseAddress else { return false }
    var folder: Int32 = -1
    defer { if folder >= 0 { close(folder) } }
    var position = 0
    var lineNumber = 0
    var fields: [Range<Int>] = []
    fields.reserveCapacity(5)
    func number(_ range: Range<Int>) -> Int64? { DecimalField.int64(data, range) }
    /// The fingerprint in the last three fields.
    func recorded() -> FileFingerprint? {
      let count = fields.count
      guard count >= 4, let inode = number(fields[count - 3]), let size = number(fields[count - 2]),
        let modified = number(fields[count - 1])
      else { return nil }
      return FileFingerprint(inode: UInt64(inode), size: size, modified: modified)
    }
    func kind(_ text: StaticString) -> Bool {
      let range = fields[0]
      guard range.count == text.utf8CodeUnitCount else { return false }
      for offset in 0..<range.count where data[range.lowerBound + offset] != text.utf8Start[offset]
      {
        return false
      }
      return true
    }
    while position < data.count {
      var end = position
      while end < data.count && data[end] != 10 { end += 1 }
      guard end < data.count else { return false }  // a cut line: not written whole
      fields.removeAll(keepingCapacity: true)
      var start = position
      for index in position...end where index == end || data[index] == 9 {
        fields.append(start..<index)
        start = index + 1
      }
      let line = position..<end
      position = end + 1
      lineNumber += 1
      if lineNumber == 1 {
        guard String(decoding: UnsafeBufferPointer(rebasing: data[line]), as: UTF8.self) == magic
        else { return false }
        continue
      }
      if kind("end") { return lineNumber >= 5 }
      guard let expected = recorded() else { return false }
      if kind("f") {
        guard fields.count == 5, folder >= 0 else { return false }
        data[fields[1].upperBound] = 0
        var record = stat()
        guard fstatat(folder, base + fields[1].lowerBound, &record, 0) == 0,
          FileFingerprint(record) == expected
        else { return false }
      } else if kind("folder") {
        guard fields.count == 5 else { return false }
        if folder >= 0 { close(folder) }
        let name = String(decoding: UnsafeBufferPointer(rebasing: data[fields[1]]), as: UTF8.self)
        folder = open(vdir + "/" + name, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        var record = stat()
        guard folder >= 0, fstat(folder, &record) == 0, FileFingerprint(record) == expected
        else { return false }
      } else {
        guard fields.count == 4 else { return false }
        let path: String
        switch lineNumber {
        case 2 where kind("state"): path = statePath
        case 3 where kind("data"): path = dataFile
        case 4 where kind("root"): path = vdir
        default: return false
        }
        guard FileFingerprint.of(path) == expected else { return false }
      }
    }
    return false
  }
}
