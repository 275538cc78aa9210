import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// vdirsyncer's conflict command (`conflict_resolution = ["command", "checklists",
/// "sync-merge"]`): vdirsyncer writes the two versions of a task changed on both sides to two
/// files and needs both to hold the same text afterwards. The base is the sync state's record of
/// the task; the merged text goes to both files; conflicts go to the conflict log.
///
/// Nothing but the two files and the log is written (not the state, not the vdir), so a call
/// killed at any moment leaves vdirsyncer's sync of that task undone (it needs a zero exit) and
/// the next one merges again.
public enum ConflictResolution {
  /// What a call did.
  public struct Outcome: Sendable {
    /// The merge.
    public var merge: ConflictMerge.Outcome
    /// Whether the first file was the vdir's version (else the second).
    public var firstIsOurs: Bool
    /// Whether the merged text differs from each file's text before.
    public var changedFirst: Bool
    public var changedSecond: Bool
  }

  /// Merges the files `first` and `second` (vdirsyncer's a and b) and writes the result to both.
  public static func resolve(
    first: String, second: String, location: DataFileLocation, vdir: String, now: Date,
    timeZone: ZoneRules
  ) throws(ConflictMergeError) -> Outcome {
    let firstBytes = try read(first)
    let secondBytes = try read(second)
    let a = try ConflictMerge.read(firstBytes, file: first, timeZone: timeZone)
    let b = try ConflictMerge.read(secondBytes, file: second, timeZone: timeZone)
    guard a.uid == b.uid else { throw .differentUIDs(a.uid, b.uid) }
    let statePath = VdirSync.statePath(location: location, vdir: vdir)
    guard let stateBytes = try? Vdir.read(statePath),
      let (collection, record) = find(uid: a.uid, inState: stateBytes)
    else {
      // The next pass records it as unsure: the version it reads may not be the server's base.
      let lock = try? DataFileLock.acquire(
        dataFile: statePath, shownPath: location.display(statePath), wait: VdirSync.lockWait)
      MergedConflictsNote.noteUnsure(uid: a.uid, statePath: statePath)
      lock?.release()
      throw .notSynced(uid: a.uid, state: location.display(statePath))
    }
    // The vdir's side is the file that holds what the vdir holds now; else vdirsyncer's a (the
    // documented pair has the vdir as a).
    let current = try? Vdir.read(vdir + "/" + collection.folder + "/" + record.href)
    let firstIsOurs = current != secondBytes || current == firstBytes
    let ours = firstIsOurs ? a : b
    let theirs = firstIsOurs ? b : a
    let place =
      "list \(MergeReport.quote(collection.name)), item \(MergeReport.quote(ours.fields.text))"
    let merge = ConflictMerge.merge(
      ours: ours, theirs: theirs, history: record.history, unsure: record.unsure, place: place,
      now: now,
      timeZone: timeZone)
    let bytes = Array(merge.text.utf8)
    // The server's file first: a call killed between the two writes leaves the files unequal,
    // which vdirsyncer refuses like the failed call it is.
    let changedFirst = bytes != firstBytes
    let changedSecond = bytes != secondBytes
    for (path, changed) in firstIsOurs
      ? [(second, changedSecond), (first, changedFirst)]
      : [(first, changedFirst), (second, changedSecond)]
    where changed {
      do throws(SystemCallError) {
        try Vdir.writeAtomically(bytes, to: path)
      } catch {
        throw .unreadable(file: path, reason: "\(error)")
      }
    }
    if !merge.conflicts.isEmpty {
      var report = MergeReport()
      report.conflicts = merge.conflicts
      ChecklistsStore.appendToLog(report, location: location, now: now, timeZone: timeZone)
      // For the next pass to tell; under the pass's lock so that it misses none.
      let lock = try? DataFileLock.acquire(
        dataFile: statePath, shownPath: location.display(statePath), wait: VdirSync.lockWait)
      MergedConflictsNote.append(merge.conflicts, statePath: statePath)
      lock?.release()
    }
    return Outcome(
      merge: merge, firstIsOurs: firstIsOurs, changedFirst: changedFirst,
      changedSecond: changedSecond)
  }

  private static func read(_ path: String) throws(ConflictMergeError) -> [UInt8] {
    do throws(SystemCallError) {
      return try Vdir.read(path)
    } catch {
      throw .unreadable(file: path, reason: "\(error)")
    }
  }

  /// The collection and record of the task with `uid`.
  static func find(uid: String, in state: SyncState) -> (SyncState.Collection, SyncState.Item)? {
    for collection in state.collections where !collection.deleted {
      if let item = collection.items.first(where: { $0.uid == uid }) { return (collection, item) }
    }
    return nil
  }

  /// The same, from the state's text without decoding all of it (10,000 items take tens of
  /// milliseconds): the item lines holding the UID as a field, with their list's line and the
  /// lines that belong to them, decoded as a state of their own.
  static func find(uid: String, inState bytes: [UInt8]) -> (
    SyncState.Collection, SyncState.Item
  )? {
    let needle = Array(("\t" + SyncState.escape(uid) + "\t").utf8)
    guard let first = needle.first, bytes.count >= needle.count else { return nil }
    var start = 0
    while start + needle.count <= bytes.count {
      guard let hit = bytes[start...].firstIndex(of: first) else { return nil }
      start = hit + 1
      guard hit + needle.count <= bytes.count,
        bytes[hit..<(hit + needle.count)].elementsEqual(needle)
      else { continue }
      var lineStart = hit
      while lineStart > 0 && bytes[lineStart - 1] != 10 { lineStart -= 1 }
      guard bytes[lineStart...].starts(with: Array("item\t".utf8)) else { continue }
      // The list line before it.
      var listStart = lineStart
      repeat {
        var previous = listStart - 1
        guard previous > 0 else { return nil }
        while previous > 0 && bytes[previous - 1] != 10 { previous -= 1 }
        listStart = previous
      } while !bytes[listStart...].starts(with: Array("list\t".utf8))
      var listEnd = listStart
      while listEnd < bytes.count && bytes[listEnd] != 10 { listEnd += 1 }
      // The item line and its own lines after it (prev, base, new, unsure).
      var end = lineStart
      while end < bytes.count && bytes[end] != 10 { end += 1 }
      while end + 1 < bytes.count {
        let next = end + 1
        guard
          ["prev\t", "base\t", "new", "unsure"].contains(where: {
            bytes[next...].starts(with: Array($0.utf8))
          }), !bytes[next...].starts(with: Array("item\t".utf8))
        else { break }
        end = next
        while end < bytes.count && bytes[end] != 10 { end += 1 }
      }
      let text =
        Array((SyncState.magic + "\n").utf8) + bytes[listStart..<listEnd] + [10]
        + bytes[lineStart..<end] + [10]
      guard let state = SyncState.decode(text), let found = find(uid: uid, in: state) else {
        continue
      }
      return found
    }
    return nil
  }
}
