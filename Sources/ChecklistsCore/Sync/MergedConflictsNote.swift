import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Conflicts `sync-merge` settled for vdirsyncer, kept until the next sync pass tells them
/// (stderr, exit 1, the app's status line): vdirsyncer needs the command's exit 0 to take the
/// merge, so the command cannot say it by its status. Kept beside the state as
/// `sync-<id>.conflicts`, a line each (tab-separated, escaped as in the state).
enum MergedConflictsNote {
  /// The note of a state file.
  static func path(statePath: String) -> String {
    statePath.hasSuffix(".state")
      ? String(statePath.dropLast(6)) + ".conflicts" : statePath + ".conflicts"
  }

  /// Adds conflicts to the note (under the sync's lock, so a pass reading it misses none).
  static func append(_ conflicts: [MergeConflict], statePath: String) {
    guard !conflicts.isEmpty else { return }
    let text =
      conflicts.map {
        [$0.place, $0.field, $0.kept, $0.other].map(SyncState.escape).joined(separator: "\t")
      }.joined(separator: "\n") + "\n"
    let path = path(statePath: statePath)
    let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
    guard fd >= 0 else { return }
    defer { close(fd) }
    let bytes = Array(text.utf8)
    var written = 0
    while written < bytes.count {
      let count = bytes.withUnsafeBytes {
        write(fd, $0.baseAddress?.advanced(by: written), bytes.count - written)
      }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return }
      written += count
    }
  }

  /// The conflicts noted since the last pass told them (none when there is no note).
  static func read(statePath: String) -> [MergeConflict] {
    guard let bytes = try? Vdir.read(path(statePath: statePath)) else { return [] }
    var conflicts: [MergeConflict] = []
    for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map {
        SyncState.unescape(String($0))
      }
      guard fields.count == 4 else { continue }
      conflicts.append(
        MergeConflict(place: fields[0], field: fields[1], kept: fields[2], other: fields[3]))
    }
    return conflicts
  }

  /// Forgets the note once a pass has told it.
  static func remove(statePath: String) {
    unlink(path(statePath: statePath))
  }

  /// The note of tasks vdirsyncer met in a conflict before a pass recorded them
  /// (`SyncState.Item.unsure`): `sync-<id>.unsure`, a UID a line.
  static func unsurePath(statePath: String) -> String {
    path(statePath: statePath).dropLast(".conflicts".count) + ".unsure"
  }

  /// Notes a task's UID for the next pass.
  static func noteUnsure(uid: String, statePath: String) {
    let fd = open(
      unsurePath(statePath: statePath), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
    guard fd >= 0 else { return }
    defer { close(fd) }
    let bytes = Array((SyncState.escape(uid) + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, bytes.count) }
  }

  /// The UIDs noted.
  static func unsure(statePath: String) -> Set<String> {
    guard let bytes = try? Vdir.read(unsurePath(statePath: statePath)) else { return [] }
    return Set(
      String(decoding: bytes, as: UTF8.self).split(separator: "\n").map {
        SyncState.unescape(String($0))
      })
  }
}
