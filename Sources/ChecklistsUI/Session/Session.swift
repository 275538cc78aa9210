import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// One change to the model, wherever it comes from.
enum ModelUpdate {
  /// An edit made here, or the undo or redo of one.
  case change(ModelChange)
  /// Several changes made as one (a move to another list, clearing checked items).
  case compound(CompoundChange)
  /// Lists merged with changes made elsewhere (a save's merge, the file watch, a sync pass).
  case merge(MergedLists)
}

/// What an applied `ModelUpdate` changed, for the screens to follow.
enum AppliedUpdate {
  /// These changes, in order (one for an edit, several for a compound change).
  case changes([ModelChange])
  /// The whole model was replaced by a merge; `before` is the model as it was.
  case replaced(before: DataModel, merged: MergedLists)
}

/// The counts on All Lists' Today and Scheduled rows, kept until the model or the day changes.
struct SmartCounts: Equatable {
  /// Items due today or overdue.
  var today = 0
  /// Items with a due date.
  var scheduled = 0
  /// The model version they were counted from (-1: never counted).
  var version = -1
  /// When Today's count next changes without an edit: the next midnight.
  var validUntil = Date.distantPast
}

/// What the screens work on, beneath them: the model, undo and redo, the status line, the
/// reminders, the session's photos, the saved-version bookkeeping, and the caches derived from
/// the model.
///
/// Every model change goes through `apply(_:now:)`, which keeps the version, the sorting by due
/// date (remembered by list name), the reminder times and the changes the planner view has not
/// followed yet, once for every path: an edit, an undo, a redo, a merge from elsewhere.
struct Session {
  /// The data to save.
  private(set) var model: DataModel
  /// Names of the lists shown by due date rather than in manual order (persisted by the driver).
  private(set) var sortByDue: Set<String>
  /// Counts applied updates; the model is saved when `savedVersion` equals it.
  private(set) var version = 0
  /// The version the file holds.
  private(set) var savedVersion = 0
  /// The versions of the saves asked for and not yet finished, oldest first.
  private var pendingSaves: [Int] = []

  /// The undo history, newest last.
  var undoStack: [UndoEntry] = []
  /// The redo history, newest last.
  var redoStack: [UndoEntry] = []

  /// The status line's message, if one is showing.
  var status: StatusMessage? {
    didSet {
      if let status, status != oldValue { messageLog.record(status) }
    }
  }
  /// Every message the status line showed, for the messages view.
  private(set) var messageLog = MessageLog()
  /// The counts of merges from elsewhere on the status line now, not yet read (no key since):
  /// the next merge adds its own to them.
  private var untoldMerge: UntoldMerge?

  /// The reminders to fire and when the next one is due.
  private(set) var reminders: ReminderTracker
  /// The item of the latest reminder fired (`r` shows it).
  private(set) var lastReminder: (listID: Checklist.ID, itemID: Int, key: ReminderKey)?

  /// The counts on the Today and Scheduled rows of All Lists.
  private(set) var smartCounts = SmartCounts()
  /// The changes applied since the planner view last followed them; nil when its lines must be
  /// made again from the model (after a merge).
  private(set) var unfollowedChanges: [ModelChange]? = []

  /// Photos drawn for their boxes (a few, by photo and box size).
  var photoPictures = PhotoPictureCache()
  /// Photos being decoded.
  var photosRequested: Set<PhotoRequest> = []
  /// Whether any item has had a photo this session (a Checklist then gets its preview pane on
  /// wide terminals).
  var hasPhotos = false
  /// Whether photos can be shown at all (a photo access and a colour mode).
  private let showsPhotos: Bool

  /// Creates the session on a loaded model; reminders already due at `now` do not fire.
  init(model: DataModel, sortByDue: Set<String>, showsPhotos: Bool, now: Date) {
    self.model = model
    self.sortByDue = sortByDue
    self.showsPhotos = showsPhotos
    self.reminders = ReminderTracker(model: model, now: now)
    self.hasPhotos = showsPhotos && model.hasPhotos
  }

  /// Whether the model changed since it was loaded or last saved.
  var isDirty: Bool { version != savedVersion }

  // MARK: - The one way the model changes

  /// Applies an update and keeps everything derived from the model; returns what changed, or
  /// nil when the update did not apply (the model is then as it was).
  mutating func apply(_ update: ModelUpdate, now: Date) -> AppliedUpdate? {
    let applied: AppliedUpdate
    switch update {
    case .change(let change):
      guard model.apply(change) else { return nil }
      applied = .changes([change])
    case .compound(let compound):
      guard model.apply(compound) else { return nil }
      applied = .changes(compound.changes)
    case .merge(let merged):
      applied = .replaced(before: model, merged: merged)
      model = merged.model
    }
    version += 1
    switch applied {
    case .changes(let changes):
      unfollowedChanges?.append(contentsOf: changes)
      var renames: [(old: String, new: String)] = []
      for change in changes {
        if case .editList(_, let old, let new) = change { renames.append((old.name, new.name)) }
        reminders.note(change, now: now)
      }
      followRenames(renames)
    case .replaced(let before, let merged):
      unfollowedChanges = nil
      if merged.matchesFile { savedVersion = version }
      if !merged.renumbered.isEmpty {
        undoStack = undoStack.map { $0.renumberingItems(merged.renumbered) }
        redoStack = redoStack.map { $0.renumberingItems(merged.renumbered) }
      }
      followRenames(
        model.lists.compactMap { list in
          before.list(withID: list.id).map { (old: $0.name, new: list.name) }
        })
      // A list deleted elsewhere (on the phone, its folder gone from the vdir; by another
      // program) comes back with undo, as if deleted here.
      for list in before.lists where model.list(withID: list.id) == nil {
        undoStack.append(.single(.deleteList(list)))
      }
      reminders = reminders.remade(model: model, now: now)
      if !hasPhotos, showsPhotos { hasPhotos = model.hasPhotos }
    }
    return applied
  }

  /// A list renamed (here, by an undo, or elsewhere) keeps its sorting by due date, which is
  /// remembered by name.
  private mutating func followRenames(_ renames: [(old: String, new: String)]) {
    for (old, new) in renames where old != new && sortByDue.remove(old) != nil {
      sortByDue.insert(new)
    }
  }

  /// A new list with the model's next list id (not in the model until a change inserts it).
  mutating func makeList(name: String, iconName: String) -> Checklist {
    model.makeList(name: name, iconName: iconName)
  }

  /// A new item with the model's next item id (not in the model until a change inserts it).
  mutating func makeItem(
    text: String, dueDate: Date, shouldRemind: Bool, hasDueDate: Bool
  ) -> ChecklistItem {
    model.makeItem(
      text: text, checked: false, dueDate: dueDate, shouldRemind: shouldRemind,
      hasDueDate: hasDueDate)
  }

  /// Applies a new change (or several as one) and records it for undo; returns what changed,
  /// or nil when it did not apply.
  @discardableResult
  mutating func commit(_ entry: UndoEntry, now: Date) -> AppliedUpdate? {
    guard let applied = apply(entry.update, now: now) else { return nil }
    undoStack.append(entry)
    redoStack.removeAll()
    return applied
  }

  /// Shows the list named `name` by due date, or in manual order.
  mutating func setSortByDue(_ byDue: Bool, name: String) {
    if byDue { sortByDue.insert(name) } else { sortByDue.remove(name) }
  }

  /// The planner view's changes to follow since it last looked, cleared.
  mutating func takeUnfollowedChanges() -> [ModelChange]? {
    defer { unfollowedChanges = [] }
    return unfollowedChanges
  }

  /// Counts Today and Scheduled again when the model or the day changed since the last count
  /// (one pass over the items).
  mutating func countSmartLists(_ smart: SmartLists, nextMidnight: Date, now: Date) {
    guard smartCounts.version != version || now >= smartCounts.validUntil else { return }
    let counts = smart.counts(model, now: now)
    smartCounts = SmartCounts(
      today: counts.today, scheduled: counts.scheduled, version: version,
      validUntil: nextMidnight)
  }

  // MARK: - Saving

  /// Notes that a save of the model as it is now was asked for.
  mutating func saveRequested() {
    pendingSaves.append(version)
  }

  /// Notes that the oldest save asked for finished (and whether it wrote the file).
  mutating func saveFinished(succeeded: Bool) {
    let saved = pendingSaves.isEmpty ? version : pendingSaves.removeFirst()
    if succeeded { savedVersion = saved }
  }

  // MARK: - Reminders and merges on the status line

  /// The reminders due by `now` (the newest last), remembered as fired; the last one is
  /// `lastReminder`.
  mutating func fireReminders(now: Date) -> [ReminderTracker.Fired] {
    let fired = reminders.advance(model: model, now: now)
    if let last = fired.last { lastReminder = (last.listID, last.itemID, last.key) }
    return fired
  }

  /// Puts off the latest reminder until `until` (it rings again then).
  mutating func snoozeLastReminder(until: Date) {
    guard let last = lastReminder else { return }
    reminders.snooze(last.key, until: until)
  }

  /// Puts a merge from elsewhere on the status line: its report added to those of the merges
  /// still on it unread (several sync passes in a row say "3 changes made elsewhere merged (1 of
  /// them a deletion)", not only the last pass's count), then `message` and `note`.
  mutating func tellMerge(_ merged: MergedLists, message: String, note: String?) {
    var total = merged.report
    if let earlier = untoldMerge, earlier.shown == status {
      total = earlier.report
      total.add(merged.report)
    }
    let parts = [total.summary(logName: merged.logName), message.isEmpty ? nil : message, note]
    let text = parts.compactMap { $0 }.joined(separator: "; ")
    status = StatusMessage(text: text, isError: false)
    untoldMerge = total.isEmpty ? nil : UntoldMerge(report: total, shown: status)
  }
}

extension UndoEntry {
  /// The model update that applies this entry.
  var update: ModelUpdate {
    switch self {
    case .single(let change): return .change(change)
    case .group(let compound): return .compound(compound)
    }
  }
}
