import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The items a pass is about to save into the data file from the vdir, written just before
/// the save and removed once the state records the pass (`sync-<id>.incoming`, in the state's
/// text form).
///
/// A pass killed between the save and the state would otherwise leave the values it brought in
/// looking like this computer's own edits to the next pass (the state's base still has the old
/// ones): a value the phone changed again meanwhile would then be a conflict, the older value
/// kept. With the note, the next pass takes each field the data file still holds as brought in
/// for the base.
enum IncomingNote {
  static func path(statePath: String) -> String {
    (statePath.hasSuffix(".state") ? String(statePath.dropLast(6)) : statePath) + ".incoming"
  }

  /// Records the items of `merged` that differ from `ours` (the data file before the save),
  /// each with its value before.
  static func write(merged: DataModel, ours: DataModel, statePath: String) {
    var before: [Int: ChecklistItem] = [:]
    for list in ours.lists {
      for item in list.items { before[item.itemID] = item }
    }
    var brought: [SyncState.Item] = []
    var previous: [SyncState.Item] = []
    func record(_ item: ChecklistItem) -> SyncState.Item {
      SyncState.Item(
        item: item, href: "-", uid: "-", fingerprint: SyncState.unwritten,
        fields: TaskFields(text: item.text))
    }
    for list in merged.lists {
      for item in list.items {
        guard let old = before[item.itemID], old != item else { continue }
        brought.append(record(item))
        previous.append(record(old))
      }
    }
    guard !brought.isEmpty else { return }
    let note = SyncState(
      collections: [
        SyncState.Collection(
          folder: "brought", deleted: false, name: "-", icon: "-", items: brought),
        SyncState.Collection(
          folder: "before", deleted: false, name: "-", icon: "-", items: previous),
      ])
    _ = try? Vdir.writeAtomically(
      Array(note.encoded(dataFilePath: "-", vdir: "-").utf8), to: path(statePath: statePath))
  }

  /// The state with each recorded item's base taking the fields a killed pass brought into the
  /// data file and that it (`ours`) still holds; `state` itself when there is no note.
  static func applied(to state: SyncState, ours: DataModel, statePath: String) -> SyncState {
    guard let bytes = try? Vdir.read(path(statePath: statePath)),
      let note = SyncState.decode(bytes), note.collections.count == 2,
      note.collections[0].items.count == note.collections[1].items.count
    else { return state }
    var incoming: [Int: (brought: ChecklistItem, before: ChecklistItem)] = [:]
    for (brought, before) in zip(note.collections[0].items, note.collections[1].items) {
      incoming[brought.item.itemID] = (brought.item, before.item)
    }
    var current: [Int: ChecklistItem] = [:]
    for list in ours.lists {
      for item in list.items where incoming[item.itemID] != nil { current[item.itemID] = item }
    }
    var result = state
    for c in result.collections.indices {
      for i in result.collections[c].items.indices {
        let base = result.collections[c].items[i].item
        guard let change = incoming[base.itemID], let now = current[base.itemID] else {
          continue
        }
        result.collections[c].items[i].item = patched(
          base, brought: change.brought, before: change.before, now: now)
      }
    }
    return result
  }

  /// `base` with each field the pass changed from `before` to `brought`, and that `now` still
  /// holds as brought, set to it.
  static func patched(
    _ base: ChecklistItem, brought: ChecklistItem, before: ChecklistItem, now: ChecklistItem
  ) -> ChecklistItem {
    var item = base
    func take<T: Equatable>(_ field: WritableKeyPath<ChecklistItem, T>) {
      if before[keyPath: field] != brought[keyPath: field]
        && now[keyPath: field] == brought[keyPath: field]
      {
        item[keyPath: field] = brought[keyPath: field]
      }
    }
    take(\.text)
    take(\.checked)
    take(\.dueDate)
    take(\.hasDueDate)
    take(\.shouldRemind)
    take(\.note)
    take(\.repeatAnchorDay)
    take(\.repeatRule)
    return item
  }

  static func remove(statePath: String) { unlink(path(statePath: statePath)) }
}
