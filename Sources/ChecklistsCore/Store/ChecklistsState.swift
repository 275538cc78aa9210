import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// What the iPhone app kept in UserDefaults, plus the terminal app's own remembered choices.
///
/// Stored as JSON in the state file; unknown or missing keys fall back to the defaults.
public struct ChecklistsState: Codable, Equatable, Sendable {
  /// The open list's index, or -1 for All Lists (the app's `ChecklistIndex`); with
  /// `checklistName` it only tells lists of the same name apart.
  public var checklistIndex: Int
  /// The open list's name, nil for All Lists: which list to reopen, whatever lists were added
  /// or removed since (`openListIndex(in:)`).
  public var checklistName: String?
  /// Whether the app has not run yet (the app's `FirstTime`).
  public var firstTime: Bool
  /// The next item identifier (the app's `ChecklistItemID`).
  public var nextItemID: Int
  /// Names of the lists shown sorted by due date instead of the user's order.
  public var sortByDue: [String]
  /// Reminders already delivered to the desktop (by the reminder service or `due --notify`), as
  /// "itemID@dueDateEpoch" (see `DeliveredReminders`).
  public var notified: [String]
  /// Delivered reminders snoozed, by the same key, and when each comes again (seconds since
  /// 1970).
  public var snoozed: [String: Int64]
  /// Reminders done or dismissed here, by the same key, and when (seconds since 1970): the
  /// next sync pass marks their alarms `ACKNOWLEDGED` (RFC 9074) and takes them out.
  public var acknowledged: [String: Int64] = [:]
  /// The view open on All Lists' behalf, "today" or "scheduled", or nil (a list or All Lists).
  public var openView: String?
  /// The data file this state belongs to (absolute path).
  public var dataFile: String?

  /// Creates a state; the defaults are the app's first launch.
  public init(
    checklistIndex: Int = -1, checklistName: String? = nil, firstTime: Bool = true,
    nextItemID: Int = 0, sortByDue: [String] = [], notified: [String] = [],
    openView: String? = nil, dataFile: String? = nil, snoozed: [String: Int64] = [:]
  ) {
    self.checklistIndex = checklistIndex
    self.checklistName = checklistName
    self.firstTime = firstTime
    self.nextItemID = nextItemID
    self.sortByDue = sortByDue
    self.notified = notified
    self.snoozed = snoozed
    self.openView = openView
    self.dataFile = dataFile
  }

  enum CodingKeys: String, CodingKey {
    case checklistIndex, checklistName, firstTime, nextItemID, sortByDue, notified, openView
    case dataFile, snoozed, acknowledged
  }

  /// Decodes a state, using the default for each key that is missing.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let defaults = ChecklistsState()
    checklistIndex =
      try container.decodeIfPresent(Int.self, forKey: .checklistIndex) ?? defaults.checklistIndex
    checklistName = try container.decodeIfPresent(String.self, forKey: .checklistName)
    firstTime = try container.decodeIfPresent(Bool.self, forKey: .firstTime) ?? defaults.firstTime
    nextItemID =
      try container.decodeIfPresent(Int.self, forKey: .nextItemID) ?? defaults.nextItemID
    sortByDue = try container.decodeIfPresent([String].self, forKey: .sortByDue) ?? []
    notified = try container.decodeIfPresent([String].self, forKey: .notified) ?? []
    snoozed = try container.decodeIfPresent([String: Int64].self, forKey: .snoozed) ?? [:]
    acknowledged =
      try container.decodeIfPresent([String: Int64].self, forKey: .acknowledged) ?? [:]
    openView = try container.decodeIfPresent(String.self, forKey: .openView)
    dataFile = try container.decodeIfPresent(String.self, forKey: .dataFile)
  }

  /// `ours` (this process's state, read as `base` and changed since) merged with `theirs` (the
  /// state file as another writer left it meanwhile), as the data file's merge takes each side's
  /// changes: a field we changed has our value, any other keeps theirs; the open list is one
  /// field (index and name together); the lists sorted by due date and the reminders sent are
  /// merged as sets (what either side added or took out since `base`), the snoozed reminders by
  /// key (a snooze set, changed or ended on our side wins; the acknowledged ones alike); the
  /// next item ID is the
  /// larger; the first run is over when either side says so.
  public static func merged(
    base: ChecklistsState, ours: ChecklistsState, theirs: ChecklistsState
  ) -> ChecklistsState {
    var result = theirs
    if ours.checklistIndex != base.checklistIndex || ours.checklistName != base.checklistName {
      result.checklistIndex = ours.checklistIndex
      result.checklistName = ours.checklistName
    }
    if ours.openView != base.openView { result.openView = ours.openView }
    result.firstTime = ours.firstTime && theirs.firstTime
    result.nextItemID = max(ours.nextItemID, theirs.nextItemID)
    result.sortByDue = mergedSet(
      base: base.sortByDue, ours: ours.sortByDue, theirs: theirs.sortByDue)
    result.notified = mergedSet(base: base.notified, ours: ours.notified, theirs: theirs.notified)
    result.snoozed = mergedTimes(base: base.snoozed, ours: ours.snoozed, theirs: theirs.snoozed)
    result.acknowledged = mergedTimes(
      base: base.acknowledged, ours: ours.acknowledged, theirs: theirs.acknowledged)
    result.dataFile = ours.dataFile ?? theirs.dataFile
    return result
  }

  /// `theirs` without the keys we took out since `base`, with the times we set or changed.
  private static func mergedTimes(
    base: [String: Int64], ours: [String: Int64], theirs: [String: Int64]
  ) -> [String: Int64] {
    var result = theirs
    for key in base.keys where ours[key] == nil { result[key] = nil }
    for (key, time) in ours where base[key] != time { result[key] = time }
    return result
  }

  /// `theirs` without what we took out since `base`, then what we added, each once, in order.
  private static func mergedSet(base: [String], ours: [String], theirs: [String]) -> [String] {
    let baseSet = Set(base)
    let ourSet = Set(ours)
    var seen = Set<String>()
    var result: [String] = []
    for key in theirs where !(baseSet.contains(key) && !ourSet.contains(key)) {
      if seen.insert(key).inserted { result.append(key) }
    }
    for key in ours where !baseSet.contains(key) {
      if seen.insert(key).inserted { result.append(key) }
    }
    return result
  }

  /// Remembers the list on screen by its name (and index, to tell same-named lists apart).
  public mutating func remember(openList index: Int, in model: DataModel) {
    guard index >= 0, index < model.lists.count else {
      checklistIndex = -1
      checklistName = nil
      return
    }
    checklistIndex = index
    checklistName = model.lists[index].name
  }

  /// The index of the list to reopen in `model`, -1 for All Lists.
  ///
  /// The list is found by name, so lists added or deleted since (by the scripting commands, or
  /// on the phone) do not open another one; of several lists with that name, the one nearest
  /// the saved index. When the list is gone, All Lists. A state without a name (older
  /// versions) uses the index.
  public func openListIndex(in model: DataModel) -> Int {
    guard let name = checklistName else {
      return checklistIndex >= 0 && checklistIndex < model.lists.count ? checklistIndex : -1
    }
    var best = -1
    for (index, list) in model.lists.enumerated() where list.name == name {
      if best < 0 || abs(index - checklistIndex) < abs(best - checklistIndex) { best = index }
    }
    return best
  }
}

/// Reads and writes the state file; a missing or broken state never stops the app.
struct StateFile {
  var location: DataFileLocation
  var fileSystem: any FileSystem

  /// The limit on a state file's size; anything larger is treated as corrupt.
  static let sizeLimit = 16 << 20

  /// The saved state, or the defaults and a warning when it cannot be used; `stored` says
  /// whether the state is the one in the file (false for the defaults).
  ///
  /// A missing state file is normal (first run, or a file from the phone) and gives no warning.
  func load() -> (state: ChecklistsState, warning: String?, stored: Bool) {
    let path = location.stateFile
    let shown = location.display(path)
    let defaults = ChecklistsState(dataFile: location.dataFile)
    let data: Data
    do {
      let status = try fileSystem.stat(path)
      guard status.kind == .regular, status.size <= Self.sizeLimit else {
        return (defaults, "Ignored the state file \(shown): not a regular file of sane size", false)
      }
      let fd = try fileSystem.open(path, flags: O_RDONLY | O_NONBLOCK, mode: 0)
      defer { try? fileSystem.close(fd) }
      data = try fileSystem.readAll(fd, limit: Self.sizeLimit)
    } catch {
      if error.code == ENOENT { return (defaults, nil, false) }
      return (
        defaults, "Could not read the state file \(shown): \(error.reason); using defaults",
        false
      )
    }
    guard var state = try? JSONDecoder().decode(ChecklistsState.self, from: data) else {
      return (defaults, "The state file \(shown) is damaged; using defaults", false)
    }
    if let owner = state.dataFile, owner != location.dataFile {
      return (defaults, "The state file \(shown) belongs to \(owner); using defaults", false)
    }
    state.dataFile = location.dataFile
    return (state, nil, true)
  }

  /// Writes the state atomically (temporary file, fsync, rename, fsync of the folder). A new
  /// state file is a new entry in the folder: then the state files of data files that no
  /// longer exist are removed, so the folder does not grow without bound (one look per new
  /// file, not one per save).
  ///
  /// `durable: false` leaves out both fsyncs (the rename still replaces the file whole): for a
  /// state that holds nothing but where the app was (the open list, sorting, the first run), so
  /// that its loss in a power cut costs nothing else. A state with reminders already sent, or a
  /// next item ID its data file cannot give back, must be durable: losing it could send a
  /// reminder twice or reuse a deleted item's ID.
  func save(_ state: ChecklistsState, durable: Bool = true) throws(StoreError) {
    let isNew = (try? fileSystem.lstat(location.stateFile)) == nil
    try write(state, durable: durable)
    if isNew { pruneOrphans() }
  }

  /// Removes the other state files (ours by name: `stem-<16 hex digits>.json`) whose data file
  /// is gone, with their undo logs; a state file that cannot be read or names no data file is left alone.
  func pruneOrphans() {
    let folder = PathText.folder(of: location.stateFile)
    let own = PathText.name(of: location.stateFile)
    guard let names = try? fileSystem.listDirectory(folder) else { return }
    for name in names where name != own && Self.isStateFileName(name) {
      let path = folder + "/" + name
      guard let status = try? fileSystem.stat(path), status.kind == .regular,
        status.size <= Self.sizeLimit,
        let fd = try? fileSystem.open(path, flags: O_RDONLY | O_NONBLOCK, mode: 0)
      else { continue }
      let data = try? fileSystem.readAll(fd, limit: Self.sizeLimit)
      try? fileSystem.close(fd)
      guard let data, let other = try? JSONDecoder().decode(ChecklistsState.self, from: data),
        let dataFile = other.dataFile
      else { continue }
      do {
        _ = try fileSystem.lstat(dataFile)
      } catch {
        if error.code == ENOENT || error.code == ENOTDIR {
          try? fileSystem.unlink(path)
          try? fileSystem.unlink(CommandUndoLog.path(forStateFile: path))
        }
      }
    }
  }

  /// Whether `name` is a state file's name: `stem-<16 lowercase hex digits>.json`.
  static func isStateFileName(_ name: String) -> Bool {
    guard name.hasSuffix(".json") else { return false }
    let stem = name.dropLast(5)
    guard let dash = stem.lastIndex(of: "-") else { return false }
    let hash = stem[stem.index(after: dash)...]
    return hash.count == 16 && hash.allSatisfy { $0.isHexDigit && !$0.isUppercase }
  }

  private func write(_ state: ChecklistsState, durable: Bool) throws(StoreError) {
    var state = state
    state.dataFile = location.dataFile
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    guard let data = try? encoder.encode(state) else {
      throw StoreError(
        .encodingFailed, path: location.stateFile, shownPath: location.display(location.stateFile))
    }
    do {
      try AtomicFileWriter(fileSystem: fileSystem).write(
        data, to: location.stateFile, keepBackup: false, durable: durable)
    } catch {
      throw StoreError(
        .saveFailed(step: error.step), path: location.stateFile,
        shownPath: location.display(location.stateFile), cause: error.cause)
    }
  }
}
