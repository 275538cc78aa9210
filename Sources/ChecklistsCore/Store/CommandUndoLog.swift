import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The commands' changes `checklists undo` takes back, newest last: a JSON file beside the
/// state file (`<state>.undo.json`, the user's own, as the state is), read and written under the
/// data file's lock. Items and lists are kept in the data file's own binary encoding (base64),
/// so every key survives, also those this program does not know.
struct CommandUndoLog {
  var location: DataFileLocation
  var fileSystem: any FileSystem

  /// How many changes are kept; older ones are forgotten.
  static let limit = 50
  /// The limit on the log's size; a larger one is treated as damaged.
  static let sizeLimit = 64 << 20

  /// The log's path, beside the state file.
  static func path(for location: DataFileLocation) -> String {
    path(forStateFile: location.stateFile)
  }

  /// The log's path beside the state file at `state`.
  static func path(forStateFile state: String) -> String {
    let stem = state.hasSuffix(".json") ? String(state.dropLast(5)) : state
    return stem + ".undo.json"
  }

  var path: String { Self.path(for: location) }

  /// The changes kept, oldest first; none when there is no log or it cannot be read.
  func load() -> [CommandChange] {
    guard let status = try? fileSystem.stat(path), status.kind == .regular,
      status.size <= Self.sizeLimit,
      let fd = try? fileSystem.open(path, flags: O_RDONLY | O_NONBLOCK, mode: 0)
    else { return [] }
    let data = try? fileSystem.readAll(fd, limit: Self.sizeLimit)
    try? fileSystem.close(fd)
    guard let data, let entries = try? JSONDecoder().decode([Entry].self, from: data) else {
      return []
    }
    return entries.compactMap(\.change)
  }

  /// Writes `changes` (the newest `limit` of them); an empty list removes the log.
  func save(_ changes: [CommandChange]) throws(StoreError) {
    let kept = changes.suffix(Self.limit)
    guard !kept.isEmpty else {
      try? fileSystem.unlink(path)
      return
    }
    let entries = kept.compactMap(Entry.init)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    guard let data = try? encoder.encode(entries) else {
      throw StoreError(.encodingFailed, path: path, shownPath: location.display(path))
    }
    do {
      // Not synced: a power cut loses at most what undo could take back, never the lists.
      try AtomicFileWriter(fileSystem: fileSystem).write(
        data, to: path, keepBackup: false, durable: false)
    } catch {
      throw StoreError(
        .saveFailed(step: error.step), path: path, shownPath: location.display(path),
        cause: error.cause)
    }
  }

  /// One change as stored: its shape in JSON, its items and lists in one binary plist.
  struct Entry: Codable {
    struct ListEdit: Codable {
      var itemIDs: [Int]
      var beforeName: String
      var beforeIcon: String
      var afterName: String
      var afterIcon: String
    }

    struct Place: Codable {
      var listName: String
      var neighbours: [Int]
      var index: Int
    }

    struct Item: Codable {
      var itemID: Int
      var before: Place?
      var after: Place?
    }

    var summary: String
    var addedLists: Int
    var deletedLists: Int
    var editedLists: [ListEdit]
    var items: [Item]
    /// Base64 of a binary plist of the added lists, the deleted lists, then one list holding
    /// each item's version before (when it has one) and after (when it has one), in order.
    var payload: String

    init?(_ change: CommandChange) {
      summary = change.summary
      addedLists = change.addedLists.count
      deletedLists = change.deletedLists.count
      editedLists = change.editedLists.map {
        ListEdit(
          itemIDs: $0.itemIDs, beforeName: $0.before.name, beforeIcon: $0.before.iconName,
          afterName: $0.after.name, afterIcon: $0.after.iconName)
      }
      var versions: [ChecklistItem] = []
      items = change.items.map { version in
        func place(_ place: CommandChange.Place?) -> Place? {
          guard let place else { return nil }
          versions.append(place.item)
          return Place(listName: place.listName, neighbours: place.neighbours, index: place.index)
        }
        let before = place(version.before)
        let after = place(version.after)
        return Item(itemID: version.itemID, before: before, after: after)
      }
      let carrier = Checklist(name: "", iconName: "", items: versions)
      let lists = change.addedLists + change.deletedLists + [carrier]
      guard let encoded = try? ChecklistsFileCoding.encode(lists, format: .binary) else {
        return nil
      }
      payload = encoded.data.base64EncodedString()
    }

    /// The change, or nil when the entry does not hold together.
    var change: CommandChange? {
      guard let data = Data(base64Encoded: payload),
        let lists = try? ChecklistsFileCoding.decode(data).lists,
        lists.count == addedLists + deletedLists + 1, let carrier = lists.last
      else { return nil }
      var versions = carrier.items[...]
      func place(_ place: Place?) -> CommandChange.Place?? {
        guard let place else { return .some(nil) }
        guard let item = versions.popFirst() else { return nil }
        return CommandChange.Place(
          listName: place.listName, neighbours: place.neighbours, index: place.index, item: item)
      }
      var changed: [CommandChange.ItemVersions] = []
      for item in items {
        guard let before = place(item.before), let after = place(item.after) else { return nil }
        changed.append(.init(itemID: item.itemID, before: before, after: after))
      }
      return CommandChange(
        summary: summary, addedLists: Array(lists[0..<addedLists]),
        deletedLists: Array(lists[addedLists..<(addedLists + deletedLists)]),
        editedLists: editedLists.map {
          (
            itemIDs: $0.itemIDs, before: .init(name: $0.beforeName, iconName: $0.beforeIcon),
            after: .init(name: $0.afterName, iconName: $0.afterIcon)
          )
        },
        items: changed)
    }
  }
}

extension ChecklistsStore {
  /// Adds a command's change to the undo log beside the state file (under the data file's
  /// lock); an empty change is not kept.
  public func recordCommandChange(_ change: CommandChange) throws(StoreError) {
    guard !change.isEmpty else { return }
    let lock = try DataFileLock.acquire(
      dataFile: resolvedPath, shownPath: location.displayPath, fileSystem: fileSystem,
      wait: lockTimeout)
    defer { lock.release() }
    let log = CommandUndoLog(location: location, fileSystem: fileSystem)
    try log.save(log.load() + [change])
  }

  /// The newest change in the undo log, nil when there is none.
  public func lastCommandChange() -> CommandChange? {
    CommandUndoLog(location: location, fileSystem: fileSystem).load().last
  }

  /// Takes `change` off the undo log once it was undone (when it is still the newest: another
  /// command's change recorded meanwhile stays).
  public func forgetCommandChange(_ change: CommandChange) throws(StoreError) {
    let lock = try DataFileLock.acquire(
      dataFile: resolvedPath, shownPath: location.displayPath, fileSystem: fileSystem,
      wait: lockTimeout)
    defer { lock.release() }
    let log = CommandUndoLog(location: location, fileSystem: fileSystem)
    var changes = log.load()
    guard let index = changes.lastIndex(of: change) else { return }
    changes.remove(at: index)
    try log.save(changes)
  }
}
