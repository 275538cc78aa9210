import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// What one sync pass did, or would do with `--dry-run`.
public struct SyncReport: Equatable, Sendable {
  /// Items that came from the vdir into the data file.
  public var newFromVdir = 0
  /// Items changed from the vdir.
  public var changedFromVdir = 0
  /// Items deleted from the vdir.
  public var deletedFromVdir = 0
  /// Lists that came from the vdir (folders made on another device).
  public var newListsFromVdir = 0
  /// Item files written new into the vdir.
  public var newHere = 0
  /// Item files changed in the vdir (content, not only order or our id).
  public var changedHere = 0
  /// Item files deleted from the vdir.
  public var deletedHere = 0
  /// Folders made in the vdir for new lists.
  public var newListsHere = 0
  /// Lists deleted here because their folders went from the vdir, by name.
  public var deletedListsFromVdir: [String] = []
  /// The items of those lists (not counted in `deletedFromVdir`).
  public var itemsOfDeletedListsFromVdir = 0
  /// What the three-way merge reported (conflicts: ours kept, theirs in the conflict log).
  public var merge = MergeReport()
  /// Files skipped, with why (malformed files, duplicate UIDs, files changed during the pass).
  public var problems: [String] = []
  /// Conflicts `sync-merge` settled for vdirsyncer since the last pass (ours kept, theirs
  /// already in the conflict log), told by this pass.
  public var settledByVdirsyncer: [MergeConflict] = []
  /// Why the pass changed nothing at all (the vdir suddenly empty), or nil.
  public var refused: String?

  /// Creates an empty report.
  public init() {}

  /// Whether something needs the user: a refused pass, conflicts, skipped files.
  public var needsUser: Bool {
    refused != nil || !merge.conflicts.isEmpty || !problems.isEmpty
      || !settledByVdirsyncer.isEmpty
  }

  /// Adds a second pass's counts, conflicts and problems (a pass run again at once).
  mutating func add(_ other: SyncReport) {
    newFromVdir += other.newFromVdir
    changedFromVdir += other.changedFromVdir
    deletedFromVdir += other.deletedFromVdir
    newListsFromVdir += other.newListsFromVdir
    newHere += other.newHere
    changedHere += other.changedHere
    deletedHere += other.deletedHere
    newListsHere += other.newListsHere
    deletedListsFromVdir += other.deletedListsFromVdir
    itemsOfDeletedListsFromVdir += other.itemsOfDeletedListsFromVdir
    merge.add(other.merge)
    problems += other.problems
    settledByVdirsyncer += other.settledByVdirsyncer
    refused = refused ?? other.refused
  }

  /// Whether the pass changed nothing on either side.
  public var isNothing: Bool {
    newFromVdir + changedFromVdir + deletedFromVdir + newListsFromVdir + newHere + changedHere
      + deletedHere + newListsHere + deletedListsFromVdir.count == 0
  }

  /// `list "Groceries"`, `lists "Groceries", "Work" and 3 more`.
  public var deletedListsSummary: String {
    let names = deletedListsFromVdir
    let shown = names.prefix(3).map { MergeReport.quote($0) }.joined(separator: ", ")
    let more = names.count > 3 ? " and \(names.count - 3) more" : ""
    return (names.count == 1 ? "list " : "lists ") + shown + more
  }

  /// "2 new from the vdir, 1 changed here, 0 conflicts".
  public var summary: String {
    if let refused { return refused }
    var parts: [String] = []
    func add(_ count: Int, _ text: String) {
      if count > 0 { parts.append("\(count) \(text)") }
    }
    add(
      newListsFromVdir, newListsFromVdir == 1 ? "new list from the vdir" : "new lists from the vdir"
    )
    add(newFromVdir, "new from the vdir")
    add(changedFromVdir, "changed from the vdir")
    if !deletedListsFromVdir.isEmpty {
      let items = itemsOfDeletedListsFromVdir
      parts.append(
        "\(deletedListsSummary) deleted from the vdir (\(items) \(items == 1 ? "item" : "items"))")
    }
    add(deletedFromVdir, "deleted from the vdir")
    add(newListsHere, newListsHere == 1 ? "new list here" : "new lists here")
    add(newHere, "new here")
    add(changedHere, "changed here")
    add(deletedHere, "deleted here")
    if parts.isEmpty { parts.append("nothing to do") }
    let conflicts = merge.conflicts.count + settledByVdirsyncer.count
    parts.append("\(conflicts) \(conflicts == 1 ? "conflict" : "conflicts")")
    return parts.joined(separator: ", ")
  }
}

/// One pass's plan: the merged lists for the data file, the vdir's file operations, the state
/// to record once both sides hold the result.
public struct SyncPlan: Sendable {
  /// A change to a vdir file.
  enum Operation: Sendable {
    /// Make a collection folder.
    case createFolder(String)
    /// Write a metadata file (`displayname`, the icon).
    case writeMetadata(folder: String, file: String, text: String)
    /// Write an item file; `expected` is the fingerprint it must still have (nil for a new
    /// file), `collection`/`item` the state record to fill.
    case writeItem(
      folder: String, href: String, bytes: [UInt8], expected: FileFingerprint?, collection: Int,
      item: Int)
    /// Delete an item file if it still has `expected`.
    case deleteItem(folder: String, href: String, expected: FileFingerprint)
  }

  /// The lists the data file must hold after the pass.
  public var model: DataModel
  /// Whether `model` differs from the data file's lists.
  public var modelChanged: Bool
  /// What the pass does.
  public var report: SyncReport
  var operations: [Operation] = []
  /// The state to record before the vdir is written: each file to write is marked pending.
  var state: SyncState
}

/// Options of a sync pass.
public struct SyncOptions: Sendable {
  /// Sync even when the vdir suddenly holds nothing (deleting everything here).
  public var forceDelete = false
  /// The zone for days (`VALUE=DATE`) and floating times.
  public var timeZone: ZoneRules = .current
  /// The time stamped on changed items.
  public var now = Date()
  /// Make the vdir's folder (and its parents) when it does not exist (`sync --init`); without
  /// it a pass refuses a vdir that is not there.
  public var createsVdir = false
  /// Reminders done or dismissed here (item ID → when, seconds since 1970), for items whose
  /// reminder it was at their current due date: their alarms are marked `ACKNOWLEDGED`.
  public var acknowledgements: [Int: Int64] = [:]

  /// Default options.
  public init(
    forceDelete: Bool = false, timeZone: ZoneRules = .current, now: Date = Date(),
    createsVdir: Bool = false
  ) {
    self.forceDelete = forceDelete
    self.timeZone = timeZone
    self.now = now
    self.createsVdir = createsVdir
  }
}

/// The two-way sync between the lists and a vdir: a three-way merge (`ModelMerge`) of the
/// state's last synced version (base), the data file (ours) and the vdir (theirs).
public enum SyncEngine {
  /// Where an item of the vdir is, and what its file says.
  struct Located {
    var folder: String
    var href: String
    var uid: String
    var fingerprint: FileFingerprint
    var fields: TaskFields
    var calendar: ICSComponent?
    var stateRecord: SyncState.Item?
    /// Known but unreadable now: never written over or deleted.
    var unreadable = false
  }

  /// Whether neither side changed since the state was recorded: the data file's fingerprint and
  /// every vdir file's are the recorded ones (nothing needs reading).
  public static func isUnchanged(
    state: SyncState, snapshot: VdirSnapshot, dataFile: FileFingerprint?
  ) -> Bool {
    guard let recorded = state.dataFile, recorded == dataFile, snapshot.exists,
      state.pendingDeletions.isEmpty
    else {
      return false
    }
    var folders: [String: VdirSnapshot.Folder] = [:]
    for folder in snapshot.folders { folders[folder.name] = folder }
    var seen = 0
    for collection in state.collections {
      guard let folder = folders[collection.folder] else { return false }
      seen += 1
      if collection.deleted {
        if !folder.items.isEmpty { return false }
        continue
      }
      guard folder.displayName == collection.name,
        (folder.icon ?? IconName.noIcon.rawValue) == collection.icon,
        folder.items.count == collection.items.count
      else { return false }
      var recordedFiles: [String: FileFingerprint] = [:]
      recordedFiles.reserveCapacity(collection.items.count)
      for item in collection.items { recordedFiles[item.href] = item.fingerprint }
      for file in folder.items where recordedFiles[file.href] != file.fingerprint { return false }
    }
    return seen == snapshot.folders.count
  }

  /// Plans one pass: reads the vdir files that changed since `state`, merges, and decides what
  /// to write where. Nothing is written.
  public static func plan(
    ours: DataModel, state: SyncState, snapshot: VdirSnapshot, root: String,
    options: SyncOptions
  ) -> SyncPlan {
    var report = SyncReport()
    if state.itemCount > 0 && snapshot.itemFileCount == 0 && !options.forceDelete {
      report.refused =
        snapshot.exists
        ? "the vdir \(root) holds no items now, but \(state.itemCount) were synced: nothing "
          + "was deleted; if the lists were really emptied there, run again with --force-delete"
        : "the vdir \(root) is not there (a disk not mounted?): nothing was changed; run "
          + "again with --force-delete to delete the \(state.itemCount) synced items here"
      return SyncPlan(model: ours, modelChanged: false, report: report, state: state)
    }
    var planner = Planner(
      ours: ours, state: state, snapshot: snapshot, root: root, options: options)
    let plan = planner.run()
    // Lists whose folders went: the same guard as for a data file that lacks most items.
    let listItems = plan.report.itemsOfDeletedListsFromVdir
    if listItems >= massDeletion && listItems * 2 > state.itemCount && !options.forceDelete {
      report.refused =
        "this pass would delete \(plan.report.deletedListsSummary) here, \(listItems) of the "
        + "\(state.itemCount) synced items (their folders are gone from the vdir \(root)): nothing "
        + "was changed; if they were really deleted there, run again with --force-delete"
      return SyncPlan(model: ours, modelChanged: false, report: report, state: state)
    }
    let deleting = plan.report.deletedHere
    if deleting >= massDeletion && deleting * 2 > state.itemCount && !options.forceDelete {
      report.refused =
        "this pass would delete \(deleting) of the \(state.itemCount) synced items from the "
        + "vdir (was the data file replaced by another one?): nothing was changed; if they were "
        + "really deleted here, run again with --force-delete"
      return SyncPlan(model: ours, modelChanged: false, report: report, state: state)
    }
    return plan
  }

  /// The fewest deletions from the vdir that, as more than half of the synced items, a pass
  /// makes only with `--force-delete`: a data file replaced by an older or another one (a
  /// fresh copy of the phone's, a file of another computer) would delete what it lacks.
  static let massDeletion = 10

  /// Carries out a plan's vdir operations; returns the state to record (with the written
  /// files' fingerprints). A file changed by another program during the pass is left alone and
  /// recorded as it was, so the next pass merges it.
  public static func apply(_ plan: SyncPlan, root: String) throws(SyncError) -> SyncState {
    try applyCounting(plan, root: root).state
  }

  /// `apply`, also saying how many writes it left out because the file changed meanwhile.
  static func applyCounting(_ plan: SyncPlan, root: String) throws(SyncError) -> (
    state: SyncState, skipped: Int
  ) {
    var skipped = 0
    var state = plan.state
    var dropped: [(collection: Int, item: Int)] = []
    var touchedFolders = Set<String>()
    do throws(SystemCallError) {
      try Vdir.createFolder(root)
      for operation in plan.operations {
        switch operation {
        case .createFolder(let folder):
          try Vdir.createFolder(root + "/" + folder)
          touchedFolders.insert(root)
        case .writeMetadata(let folder, let file, let text):
          try Vdir.writeAtomically(Array((text + "\n").utf8), to: root + "/" + folder + "/" + file)
          touchedFolders.insert(folder)
        case .writeItem(let folder, let href, let bytes, let expected, let c, let i):
          let path = root + "/" + folder + "/" + href
          // A new file has a fresh random name: only a rewrite checks that the file is still
          // the one read (one `stat` less per new file on a first sync).
          if let expected, FileFingerprint.of(path) != expected {
            // Changed meanwhile: recorded as it was before, so the next pass merges both.
            skipped += 1
            if case .rewrite(let previous) = state.collections[c].items[i].pending {
              state.collections[c].items[i].fields = previous
              state.collections[c].items[i].fingerprint = expected
              state.collections[c].items[i].pending = nil
            } else {
              dropped.append((c, i))
            }
            continue
          }
          state.collections[c].items[i].fingerprint = try Vdir.writeAtomically(bytes, to: path)
          state.collections[c].items[i].pending = nil
          touchedFolders.insert(folder)
        case .deleteItem(let folder, let href, let expected):
          let path = root + "/" + folder + "/" + href
          guard FileFingerprint.of(path) == expected else { continue }
          if unlink(path) != 0 && errno != ENOENT { throw SystemCallError(errno, call: "unlink") }
          touchedFolders.insert(folder)
        }
      }
    } catch {
      throw SyncError(message: "writing the vdir \(root): \(error)")
    }
    for entry in dropped.sorted(by: { ($0.collection, $0.item) > ($1.collection, $1.item) }) {
      state.collections[entry.collection].items.remove(at: entry.item)
    }
    state.pendingDeletions = []
    for folder in touchedFolders { Vdir.syncFolder(folder == root ? root : root + "/" + folder) }
    return (state, skipped)
  }
}

/// A sync that could not be done: the vdir or the state could not be written or read, or the
/// vdir is not there to sync with.
public struct SyncError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Why the pass did not run.
  public enum Kind: Equatable, Sendable {
    /// A file could not be read or written, or another pass holds the lock.
    case failed
    /// The vdir's folder does not exist (or is not a folder) and the pass was not told to make
    /// it: a mistyped path, or a disk not mounted.
    case missingVdir
  }

  /// What went wrong, naming the file.
  public var message: String
  /// Why the pass did not run.
  public var kind: Kind

  /// Creates an error.
  public init(message: String, kind: Kind = .failed) {
    self.message = message
    self.kind = kind
  }

  /// The message.
  public var description: String { message }
}

/// The work of `SyncEngine.plan`.
private struct Planner {
  let ours: DataModel
  let state: SyncState
  let snapshot: VdirSnapshot
  let root: String
  let options: SyncOptions
  var report = SyncReport()

  /// Every vdir item taken into the merge, by item id.
  var located: [Int: SyncEngine.Located] = [:]
  /// Theirs: one list per folder, with its folder.
  var theirsLists: [Checklist] = []
  var theirsFolders: [String] = []
  /// Base collections (the state's active ones, plus folders recovered after an interrupted
  /// pass), with the items recovered into them.
  var baseCollections: [SyncState.Collection] = []
  /// Files an interrupted pass was to delete and did not.
  var leftoverDeletions: [SyncState.PendingDeletion] = []

  init(
    ours: DataModel, state: SyncState, snapshot: VdirSnapshot, root: String, options: SyncOptions
  ) {
    self.ours = ours
    self.state = state
    self.snapshot = snapshot
    self.root = root
    self.options = options
  }

  mutating func run() -> SyncPlan {
    readVdir()
    // Base: the state's lists, with run-time ids matched to ours' lists.
    let baseLists = baseCollections.map {
      Checklist(name: $0.name, iconName: $0.icon, items: $0.items.map(\.item))
    }
    let match = ListMatching.match(base: baseLists, other: ours.lists)
    var baseIDs = [Checklist.ID?](repeating: nil, count: baseLists.count)
    var folderOfOursID: [Checklist.ID: String] = [:]
    for (index, baseIndex) in match.enumerated() {
      guard let baseIndex else { continue }
      baseIDs[baseIndex] = ours.lists[index].id
      folderOfOursID[ours.lists[index].id] = baseCollections[baseIndex].folder
    }
    var nextListID = ours.nextListIDValue
    var base: [Checklist] = []
    for (index, var list) in baseLists.enumerated() {
      if let id = baseIDs[index] {
        list.id = id
      } else {
        list.id = nextListID
        nextListID += 1
      }
      base.append(list)
    }
    // A list whose folder went from the vdir was deleted elsewhere. When ours holds what the
    // last pass recorded, in all the vdir carries, it is deleted here as it stands (what a
    // sync does not carry, a photo say, is no change made here); a list changed here since
    // stays, as an item would (the merge keeps it and the vdir gets it back).
    var goneLists: [Checklist.ID] = []
    if snapshot.exists {
      let present = Set(snapshot.folders.map(\.name))
      for index in base.indices where !present.contains(baseCollections[index].folder) {
        guard let id = baseIDs[index], let mine = ours.list(withID: id) else { continue }
        if sameSyncedContent(mine, base[index]) { base[index] = mine }
        goneLists.append(id)
      }
    }
    let baseModel = DataModel(
      listsKeepingIDs: base, nextItemID: ours.nextItemID, nextListID: nextListID)
    let merged = ModelMerge.merge(base: baseModel, ours: ours, theirs: theirsLists)
    report.merge = merged.report
    countChangesHere(merged.model)
    for id in goneLists where merged.model.list(withID: id) == nil {
      guard let list = ours.list(withID: id) else { continue }
      report.deletedListsFromVdir.append(list.name)
      report.itemsOfDeletedListsFromVdir += list.items.count
      report.deletedFromVdir -= list.items.count
    }
    var state = SyncState(dataFile: nil, collections: [])
    let operations = planVdir(
      merged: merged, folderOfOursID: folderOfOursID, state: &state)
    return SyncPlan(
      model: merged.model, modelChanged: merged.model != ours, report: report,
      operations: operations, state: state)
  }

  /// Whether two lists hold the same in all the vdir carries: name, icon, and items (by id, in
  /// order) with the same synced fields.
  func sameSyncedContent(_ a: Checklist, _ b: Checklist) -> Bool {
    guard a.name == b.name, a.iconName == b.iconName, a.items.count == b.items.count else {
      return false
    }
    let zone = options.timeZone
    return zip(a.items, b.items).allSatisfy {
      $0.itemID == $1.itemID && $0.parentItemID == $1.parentItemID
        && TaskFields($0, timeZone: zone).sameContent(as: TaskFields($1, timeZone: zone))
    }
  }

  // MARK: - Reading the vdir

  mutating func readVdir() {
    var present = Set<String>()
    for folder in snapshot.folders {
      for file in folder.items { present.insert(folder.name + "/" + file.href) }
    }
    var stateByHref: [String: (Int, Int)] = [:]
    var stateByUID: [String: (Int, Int)] = [:]
    for (c, collection) in state.collections.enumerated() {
      var kept = collection
      kept.items = []
      for (i, item) in collection.items.enumerated() {
        let key = collection.folder + "/" + item.href
        // A new file an interrupted pass did not get to write: the item is new here again.
        if item.pending == .newFile && !present.contains(key) { continue }
        stateByHref[key] = (c, i)
        stateByUID[item.uid] = (c, i)
        kept.items.append(item)
      }
      if !collection.deleted { baseCollections.append(kept) }
    }
    var pendingDeletions: [String: FileFingerprint] = [:]
    for deletion in state.pendingDeletions {
      pendingDeletions[deletion.folder + "/" + deletion.href] = deletion.fingerprint
    }
    var uidOwner: [String: String] = [:]
    var byFolder: [String: [(Int, Int?)]] = [:]  // item id, base position
    var newcomers:
      [(
        folder: String, file: VdirSnapshot.ItemFile, calendar: ICSComponent,
        fields: TaskFields, uid: String
      )] = []
    var claimedRecords = Set<String>()

    // Files the state knows, unchanged first (no reading), then changed ones.
    for folder in snapshot.folders {
      for file in folder.items {
        let key = folder.name + "/" + file.href
        guard let (c, i) = stateByHref[key] else { continue }
        let record = state.collections[c].items[i]
        if record.fingerprint == file.fingerprint {
          uidOwner[record.uid] = key
          claimedRecords.insert(key)
          located[record.item.itemID] = SyncEngine.Located(
            folder: folder.name, href: file.href, uid: record.uid, fingerprint: file.fingerprint,
            fields: record.fields, calendar: nil, stateRecord: record)
          byFolder[folder.name, default: []].append((record.item.itemID, i))
        }
      }
    }
    for folder in snapshot.folders {
      // In name order, so that the first of two files with one UID is always the same one.
      for file in folder.items.sorted(by: { $0.href < $1.href }) {
        let key = folder.name + "/" + file.href
        if claimedRecords.contains(key) { continue }
        if pendingDeletions[key] == file.fingerprint && stateByHref[key] == nil {
          // Deleted here by an interrupted pass that did not get to delete the file.
          leftoverDeletions.append(
            SyncState.PendingDeletion(
              folder: folder.name, href: file.href, fingerprint: file.fingerprint))
          report.deletedHere += 1
          continue
        }
        let known = stateByHref[key]
        let parsed = parse(folder: folder.name, file: file)
        guard let (calendar, fields, uid) = parsed else {
          if let (c, i) = known {
            // Unreadable now: the item stays as last synced and its file is left alone.
            let record = state.collections[c].items[i]
            claimedRecords.insert(key)
            uidOwner[record.uid] = key
            var entry = SyncEngine.Located(
              folder: folder.name, href: file.href, uid: record.uid, fingerprint: file.fingerprint,
              fields: record.fields, calendar: nil, stateRecord: record)
            entry.unreadable = true
            located[record.item.itemID] = entry
            byFolder[folder.name, default: []].append((record.item.itemID, i))
          }
          continue
        }
        if let owner = uidOwner[uid] {
          report.problems.append(
            "\(root)/\(key): the UID \(uid) is also in \(root)/\(owner); this file was left out")
          continue
        }
        if let (c, i) = known, state.collections[c].items[i].uid == uid {
          let record = state.collections[c].items[i]
          uidOwner[uid] = key
          claimedRecords.insert(key)
          located[record.item.itemID] = SyncEngine.Located(
            folder: folder.name, href: file.href, uid: uid, fingerprint: file.fingerprint,
            fields: fields, calendar: calendar, stateRecord: record)
          byFolder[folder.name, default: []].append((record.item.itemID, i))
          continue
        }
        uidOwner[uid] = key
        newcomers.append((folder.name, file, calendar, fields, uid))
      }
    }

    // Files the state does not know by name: a known UID whose file is gone (renamed), an item
    // of ours written by an interrupted pass, or a new item.
    var usedIDs = Set<Int>(located.keys)
    var oursItems: [Int: (list: Int, item: ChecklistItem)] = [:]
    for (index, list) in ours.lists.enumerated() {
      for item in list.items { oursItems[item.itemID] = (index, item) }
    }
    var baseItemIDs = Set<Int>()
    for collection in state.collections {
      for item in collection.items { baseItemIDs.insert(item.item.itemID) }
    }
    usedIDs.formUnion(oursItems.keys)
    usedIDs.formUnion(baseItemIDs)
    // An item ID of Int.max (a damaged file) must not overflow the count: it stops there.
    let largestID = usedIDs.max() ?? -1
    var nextID = max(ours.nextItemID, largestID == Int.max ? largestID : largestID + 1)
    var spareIDs: UnusedItemIDs?
    // Items new here (in no record), by list name and text: a file the vdir got elsewhere with
    // the same text in the same list is that item (a pass killed after it saved the data file
    // and before it recorded the state, or the same item added on both sides).
    var newHere: [String: [Int]] = [:]
    if !newcomers.isEmpty {
      for list in ours.lists {
        for item in list.items where !baseItemIDs.contains(item.itemID) {
          newHere[list.name + "\u{0}" + item.text, default: []].append(item.itemID)
        }
      }
    }
    var folderNames: [String: String] = [:]
    for folder in snapshot.folders {
      folderNames[folder.name] =
        folder.displayName ?? state.collections.first { $0.folder == folder.name }?.name
        ?? folder.name
    }
    for newcomer in newcomers {
      let textKey = (folderNames[newcomer.folder] ?? "") + "\u{0}" + newcomer.fields.text
      var record: SyncState.Item?
      var itemID: Int
      if let (c, i) = stateByUID[newcomer.uid],
        !present.contains(state.collections[c].folder + "/" + state.collections[c].items[i].href),
        located[state.collections[c].items[i].item.itemID] == nil
      {
        record = state.collections[c].items[i]
        itemID = state.collections[c].items[i].item.itemID
      } else if let claimed = newcomer.fields.itemID, let mine = oursItems[claimed],
        !baseItemIDs.contains(claimed), located[claimed] == nil,
        mine.item.text == newcomer.fields.text
      {
        // Written by a pass that was interrupted before it recorded the state: the same item.
        itemID = claimed
        recover(mine.item, folder: newcomer.folder)
      } else if let same = newHere[textKey]?.first(where: { located[$0] == nil }),
        let mine = oursItems[same]
      {
        itemID = same
        recover(mine.item, folder: newcomer.folder)
      } else if let claimed = newcomer.fields.itemID, !usedIDs.contains(claimed) {
        itemID = claimed
      } else {
        // An id claimed by an earlier newcomer can lie ahead of `nextID`.
        while usedIDs.contains(nextID) && nextID < Int.max { nextID += 1 }
        if !usedIDs.contains(nextID) {
          itemID = nextID
          if nextID < Int.max { nextID += 1 }
        } else {
          // Counted up to Int.max: the smallest IDs no item has.
          var ids = spareIDs ?? UnusedItemIDs(inUse: usedIDs)
          itemID = ids.take()
          spareIDs = ids
        }
      }
      usedIDs.insert(itemID)
      spareIDs?.note(itemID)
      located[itemID] = SyncEngine.Located(
        folder: newcomer.folder, href: newcomer.file.href, uid: newcomer.uid,
        fingerprint: newcomer.file.fingerprint, fields: newcomer.fields,
        calendar: newcomer.calendar, stateRecord: record)
      byFolder[newcomer.folder, default: []].append((itemID, nil))
    }

    // Which item each UID of a folder is: a parent line names one of its list's items.
    var itemOfUID: [String: [String: Int]] = [:]
    for (itemID, entry) in located { itemOfUID[entry.folder, default: [:]][entry.uid] = itemID }
    // Theirs: one list per folder, its items in the vdir's order.
    var baseItemByID: [Int: ChecklistItem] = [:]
    for collection in baseCollections {
      for item in collection.items { baseItemByID[item.item.itemID] = item.item }
    }
    for folder in snapshot.folders {
      let recorded = state.collections.first { $0.folder == folder.name }
      let entries = byFolder[folder.name] ?? []
      if recorded?.deleted == true && entries.isEmpty { continue }
      var items: [(item: ChecklistItem, order: Int, position: Int, href: String)] = []
      for (itemID, position) in entries {
        guard let entry = located[itemID] else { continue }
        var item: ChecklistItem
        // The parent line's UID as an item of this list; a parent in another list, or
        // missing, leaves the item top-level here (its line stays in the file).
        let parentHere = entry.fields.parent.flatMap { itemOfUID[folder.name]?[$0] }
        if let record = entry.stateRecord {
          // Unchanged files are the record's item; changed ones change what the file changed
          // (a file an interrupted pass did not rewrite still says what it said before; one
          // rewritten elsewhere since, by vdirsyncer bringing the phone's version, changed
          // what it said before, not what the pass meant to write: else the pass's own change,
          // not in the file, would read as undone there).
          let base = baseItemByID[itemID] ?? record.item
          var since = record.fields
          if case .rewrite(let previous) = record.pending, entry.fields != record.fields {
            since = previous
          }
          item = entry.calendar == nil ? base : entry.fields.applied(to: base, since: since)
          // The parent line changed, or it names a parent whose file came later, or the
          // recorded parent is not in this folder (the task moved to another list).
          let recordedParentHere = base.parentItemID.map { located[$0]?.folder == folder.name }
          if entry.calendar != nil
            && (entry.fields.parent != since.parent || recordedParentHere == false
              || (recordedParentHere == nil && parentHere != nil))
          {
            item.parentItemID = parentHere
          }
        } else if let base = baseItemByID[itemID] {
          item = entry.fields.applied(
            to: base, since: TaskFields(base, timeZone: options.timeZone))
          if entry.fields.parent != nil { item.parentItemID = parentHere }
        } else {
          // To the second, as the data file keeps dates: the state records the item as saved,
          // or the next pass would take the fraction for a change made here.
          item = entry.fields.makeItem(
            itemID: itemID,
            defaultDate: Date(
              timeIntervalSince1970: options.now.timeIntervalSince1970.rounded(.down)))
          item.parentItemID = parentHere
        }
        items.append((item, entry.fields.sortOrder ?? Int.max, position ?? Int.max, entry.href))
      }
      items.sort { ($0.order, $0.position, $0.href) < ($1.order, $1.position, $1.href) }
      let name = folder.displayName ?? recorded?.name ?? folder.name
      let icon = vdirIcon(of: folder, entries: entries, recorded: recorded)
      theirsLists.append(Checklist(name: name, iconName: icon, items: items.map(\.item)))
      theirsFolders.append(folder.name)
      if recorded == nil || recorded?.deleted == true { report.newListsFromVdir += 1 }
    }
  }

  /// A folder's icon as the vdir says it: one that a task read in this pass carries and the
  /// last pass did not record (another computer's, through the server), else the folder's icon
  /// file when it changed (written by this computer's files), else as recorded, else what the
  /// tasks carry; a list made on the phone has "No Icon".
  func vdirIcon(
    of folder: VdirSnapshot.Folder, entries: [(Int, Int?)], recorded: SyncState.Collection?
  ) -> String {
    let recordedIcon = recorded?.deleted == false ? recorded?.icon : nil
    var carried: String?
    for (itemID, _) in entries {
      guard let calendar = located[itemID]?.calendar,
        let icon = ListIconProperty.icon(in: calendar)
      else { continue }
      if icon != recordedIcon { return icon }
      carried = icon
    }
    if let file = folder.icon, file != recordedIcon { return file }
    return recordedIcon ?? carried ?? IconName.noIcon.rawValue
  }

  /// Adds an item of ours found in the vdir without a state record to the base, as synced.
  mutating func recover(_ item: ChecklistItem, folder: String) {
    let record = SyncState.Item(
      item: item, href: "", uid: "", fingerprint: FileFingerprint(inode: 0, size: 0, modified: 0),
      fields: TaskFields(item, timeZone: options.timeZone))
    if let index = baseCollections.firstIndex(where: { $0.folder == folder }) {
      baseCollections[index].items.append(record)
      return
    }
    let metadata = snapshot.folders.first { $0.name == folder }
    baseCollections.append(
      SyncState.Collection(
        folder: folder, deleted: false, name: metadata?.displayName ?? folder,
        icon: metadata?.icon ?? IconName.noIcon.rawValue, items: [record]))
  }

  /// Reads and parses an item file; nil (with a problem reported) when it is not a task file.
  mutating func parse(folder: String, file: VdirSnapshot.ItemFile)
    -> (ICSComponent, TaskFields, String)?
  {
    let path = root + "/" + folder + "/" + file.href
    let bytes: [UInt8]
    do {
      bytes = try Vdir.read(path)
    } catch {
      report.problems.append("\(path): \(error); skipped")
      return nil
    }
    let components: [ICSComponent]
    do {
      components = try ICalendar.parse(Data(bytes))
    } catch {
      report.problems.append("\(path): not a valid iCalendar file (\(error)); skipped")
      return nil
    }
    guard let calendar = components.first(where: { $0.name == "VCALENDAR" }) else {
      report.problems.append("\(path): no VCALENDAR; skipped")
      return nil
    }
    guard let todo = TaskMapping.task(in: calendar) else {
      report.problems.append("\(path): holds no VTODO; skipped")
      return nil
    }
    guard let uid = todo.property("UID")?.value.trimmingSpaces(),
      !uid.isEmpty
    else {
      report.problems.append("\(path): its VTODO has no UID; skipped")
      return nil
    }
    return (calendar, TaskMapping.fields(ofTaskIn: calendar, timeZone: options.timeZone), uid)
  }

  // MARK: - What the data file gets

  mutating func countChangesHere(_ merged: DataModel) {
    var before: [Int: ChecklistItem] = [:]
    for list in ours.lists {
      for item in list.items { before[item.itemID] = item }
    }
    var after = Set<Int>()
    for list in merged.lists {
      for item in list.items {
        after.insert(item.itemID)
        if let old = before[item.itemID] {
          let zone = options.timeZone
          if !TaskFields(old, timeZone: zone).sameContent(as: TaskFields(item, timeZone: zone))
            || old.parentItemID != item.parentItemID
          {
            report.changedFromVdir += 1
          }
        } else {
          report.newFromVdir += 1
        }
      }
    }
    for id in before.keys where !after.contains(id) { report.deletedFromVdir += 1 }
  }

  // MARK: - What the vdir gets

  mutating func planVdir(
    merged: MergeResult, folderOfOursID: [Checklist.ID: String], state newState: inout SyncState
  ) -> [SyncPlan.Operation] {
    var operations: [SyncPlan.Operation] = []
    let resultIDs = Set(merged.model.lists.map(\.id))
    // Which folder each result list goes to: the folder whose list was merged into it, else
    // the folder its base list had, else a new one.
    var folderOf: [Checklist.ID: String] = [:]
    var taken = Set<String>()
    var used = [Bool](repeating: false, count: theirsLists.count)
    for list in merged.theirs.lists where resultIDs.contains(list.id) {
      guard
        let index = theirsLists.indices.first(where: { !used[$0] && theirsLists[$0] == list })
      else { continue }
      used[index] = true
      folderOf[list.id] = theirsFolders[index]
      taken.insert(theirsFolders[index])
    }
    for list in merged.model.lists where folderOf[list.id] == nil {
      if let folder = folderOfOursID[list.id], !taken.contains(folder) {
        folderOf[list.id] = folder
        taken.insert(folder)
      }
    }
    var snapshotFolders: [String: VdirSnapshot.Folder] = [:]
    for folder in snapshot.folders { snapshotFolders[folder.name] = folder }
    var resultItemIDs = Set<Int>()
    // Each result item's UID: its file's, or the one its new file gets (a child names its
    // parent's).
    var uidOf: [Int: String] = [:]
    for list in merged.model.lists {
      for item in list.items {
        resultItemIDs.insert(item.itemID)
        uidOf[item.itemID] = located[item.itemID]?.uid ?? Vdir.newUID()
      }
    }

    for list in merged.model.lists {
      let folder: String
      if let known = folderOf[list.id] {
        folder = known
      } else {
        folder = Vdir.newFolderName()
        report.newListsHere += 1
      }
      let existing = snapshotFolders[folder]
      if existing == nil { operations.append(.createFolder(folder)) }
      if existing?.displayName != list.name {
        operations.append(.writeMetadata(folder: folder, file: "displayname", text: list.name))
      }
      if (existing?.icon ?? IconName.noIcon.rawValue) != list.iconName {
        operations.append(.writeMetadata(folder: folder, file: Vdir.iconFile, text: list.iconName))
      }
      // A list whose icon changed (or was never recorded) has it written on every task that
      // carries another, so that it reaches other computers through the server.
      let iconChanged =
        state.collections.first { $0.folder == folder && !$0.deleted }?.icon != list.iconName
      let collectionIndex = newState.collections.count
      newState.collections.append(
        SyncState.Collection(
          folder: folder, deleted: false, name: list.name, icon: list.iconName, items: []))
      let orders = sortOrders(for: list.items, folder: folder)
      var hrefsInFolder = Set(existing?.items.map(\.href) ?? [])
      let parents = list.outline()
      let uidsInList = Set(list.items.compactMap { uidOf[$0.itemID] })
      for (position, item) in list.items.enumerated() {
        var desired = TaskFields(item, timeZone: options.timeZone)
        desired.sortOrder = orders[position]
        desired.parent = parents[position].flatMap { uidOf[list.items[$0].itemID] }
        if desired.parent == nil, let foreign = located[item.itemID]?.fields.parent,
          !uidsInList.contains(foreign)
        {
          // A parent in another list or missing: the phone's line stays as it is.
          desired.parent = foreign
        }
        desired.acknowledged = options.acknowledgements[item.itemID]
        let itemIndex = newState.collections[collectionIndex].items.count
        guard var entry = located[item.itemID] else {
          // Born here: a new file named after its new UID.
          let uid = uidOf[item.itemID] ?? Vdir.newUID()
          let href = uid + Vdir.itemExtension
          var calendar = TaskMapping.newCalendar(
            uid: uid, fields: desired, now: options.now, timeZone: options.timeZone)
          ListIconProperty.set(list.iconName, in: &calendar)
          let written = TaskMapping.fields(ofTaskIn: calendar, timeZone: options.timeZone)
          newState.collections[collectionIndex].items.append(
            SyncState.Item(
              item: item, href: href, uid: uid, fingerprint: SyncState.unwritten,
              fields: written, pending: .newFile))
          operations.append(
            .writeItem(
              folder: folder, href: href, bytes: Array(ICalendar.serialize([calendar]).utf8),
              expected: nil, collection: collectionIndex, item: itemIndex))
          hrefsInFolder.insert(href)
          report.newHere += 1
          continue
        }
        if entry.unreadable {
          if let record = entry.stateRecord {
            newState.collections[collectionIndex].items.append(
              SyncState.Item(
                item: item, href: record.href, uid: record.uid, fingerprint: record.fingerprint,
                fields: record.fields, earlier: record.earlier))
          }
          continue
        }
        // The file's versions since it last came from elsewhere, for `sync-merge`
        // (`SyncState.Item.earlier`): a file vdirsyncer wrote holds what the server held, so
        // the versions before it are no base any more.
        let record = entry.stateRecord
        let fromElsewhere =
          record.map { $0.pending == nil && $0.fingerprint != entry.fingerprint } ?? true
        func history(now: TaskFields, writing: Bool) -> [TaskFields] {
          let pending = writing && entry.fields != now ? [entry.fields] : []
          guard let record, !fromElsewhere else { return pending }
          return record.earlier(adding: pending, now: now)
        }
        let movesHere = entry.folder != folder
        let contentChanged = !entry.fields.sameContent(as: desired)
        // A file is never rewritten only to carry our item id, nor given one it lacks: our
        // numbering of another producer's task lives in the sync state (another data file syncing
        // the same vdir has ids of its own, and each would rewrite the other's at every pass).
        var needsWrite =
          movesHere || contentChanged
          || (desired.sortOrder != nil && desired.sortOrder != entry.fields.sortOrder)
          || TaskMapping.marksAcknowledged(desired, over: entry.fields)
        if entry.fields.itemID == nil { desired.itemID = nil }
        if !needsWrite && iconChanged {
          if entry.calendar == nil {
            entry.calendar = readCalendar(folder: entry.folder, href: entry.href)
          }
          needsWrite =
            entry.calendar.map { ListIconProperty.differs(list.iconName, in: $0) } ?? false
        }
        if !needsWrite {
          newState.collections[collectionIndex].items.append(
            SyncState.Item(
              item: item, href: entry.href, uid: entry.uid, fingerprint: entry.fingerprint,
              fields: entry.fields, earlier: history(now: entry.fields, writing: false)))
          newState.collections[collectionIndex].items[itemIndex].unsure =
            record?.unsure == true && !fromElsewhere
          continue
        }
        if desired.sortOrder == nil { desired.sortOrder = entry.fields.sortOrder }
        if entry.calendar == nil {
          entry.calendar = readCalendar(folder: entry.folder, href: entry.href)
        }
        guard var calendar = entry.calendar else {
          if let record = entry.stateRecord {
            newState.collections[collectionIndex].items.append(
              SyncState.Item(
                item: item, href: record.href, uid: record.uid, fingerprint: record.fingerprint,
                fields: record.fields, earlier: record.earlier))
          }
          continue
        }
        _ = TaskMapping.patch(
          calendar: &calendar, to: desired, now: options.now, timeZone: options.timeZone)
        ListIconProperty.set(list.iconName, in: &calendar)
        var written = TaskMapping.fields(ofTaskIn: calendar, timeZone: options.timeZone)
        if desired.repeatRule == nil && written.repeatRule != nil {
          // A phone's RRULE we could not express that the new due date made expressible: still
          // the phone's until it changes there (recorded as what we sent, so the next pass does
          // not take it for a rule of ours to remove).
          written.repeatRule = nil
          written.repeatDay = nil
        }
        var href = entry.href
        if movesHere && hrefsInFolder.contains(href) { href = Vdir.newUID() + Vdir.itemExtension }
        hrefsInFolder.insert(href)
        newState.collections[collectionIndex].items.append(
          SyncState.Item(
            item: item, href: href, uid: entry.uid, fingerprint: SyncState.unwritten,
            fields: written, pending: movesHere ? .newFile : .rewrite(previous: entry.fields),
            earlier: movesHere ? [] : history(now: written, writing: true)))
        newState.collections[collectionIndex].items[itemIndex].unsure =
          record?.unsure == true && !fromElsewhere && !movesHere
        operations.append(
          .writeItem(
            folder: folder, href: href, bytes: Array(ICalendar.serialize([calendar]).utf8),
            expected: movesHere ? nil : entry.fingerprint, collection: collectionIndex,
            item: itemIndex))
        if movesHere {
          newState.pendingDeletions.append(
            SyncState.PendingDeletion(
              folder: entry.folder, href: entry.href, fingerprint: entry.fingerprint))
        }
        if contentChanged { report.changedHere += 1 }
      }
    }

    // Items deleted here; folders whose list is gone here keep an empty, recorded folder.
    for (itemID, entry) in located where !resultItemIDs.contains(itemID) && !entry.unreadable {
      newState.pendingDeletions.append(
        SyncState.PendingDeletion(
          folder: entry.folder, href: entry.href, fingerprint: entry.fingerprint))
      report.deletedHere += 1
    }
    newState.pendingDeletions += leftoverDeletions
    let deletions = newState.pendingDeletions.map {
      SyncPlan.Operation.deleteItem(folder: $0.folder, href: $0.href, expected: $0.fingerprint)
    }
    let usedFolders = Set(newState.collections.map(\.folder))
    for folder in snapshot.folders where !usedFolders.contains(folder.name) {
      let name = folder.displayName ?? folder.name
      newState.collections.append(
        SyncState.Collection(
          folder: folder.name, deleted: true, name: name,
          icon: folder.icon ?? IconName.noIcon.rawValue, items: []))
    }
    return operations + deletions
  }

  /// `X-APPLE-SORT-ORDER` values for a list's items in the result's order: the vdir's values
  /// where they already ascend, new ones only where needed (nil: leave the file's as it is).
  func sortOrders(for items: [ChecklistItem], folder: String) -> [Int?] {
    var existing: [Int?] = []
    existing.reserveCapacity(items.count)
    var inFolder: [Int] = []
    for (position, item) in items.enumerated() {
      if let entry = located[item.itemID], entry.folder == folder {
        existing.append(entry.fields.sortOrder)
        inFolder.append(position)
      } else {
        existing.append(nil)
      }
    }
    // The vdir's own order of these items: if it is the result's, with any others at the end,
    // only the others need values.
    var vdirOrder = inFolder
    vdirOrder.sort {
      let a = existing[$0] ?? Int.max
      let b = existing[$1] ?? Int.max
      return a != b ? a < b : $0 < $1
    }
    let othersAtEnd = inFolder.isEmpty || inFolder.last == inFolder.count - 1
    let allValued = inFolder.allSatisfy { existing[$0] != nil }
    if vdirOrder == inFolder && othersAtEnd && (allValued || inFolder.count == items.count) {
      // Items in the folder without a value keep none (they already sort last there); items
      // new to the folder go after the largest value.
      var result = existing
      var next = (existing.compactMap { $0 }.max() ?? 0) + 1
      for position in items.indices where position >= inFolder.count {
        result[position] = next
        next += 1
      }
      return result
    }
    var result: [Int?] = []
    var previous = Int.min
    for value in existing {
      if let value, value > previous {
        result.append(value)
        previous = value
      } else {
        let next = previous == Int.min ? 1 : previous + 1
        result.append(next)
        previous = next
      }
    }
    return result
  }

  func readCalendar(folder: String, href: String) -> ICSComponent? {
    guard let bytes = try? Vdir.read(root + "/" + folder + "/" + href),
      let components = try? ICalendar.parse(Data(bytes))
    else { return nil }
    return components.first { $0.name == "VCALENDAR" }
  }
}
