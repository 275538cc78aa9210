/// The state file as a long-running writer (the full-screen app) last read or wrote it, and that
/// writer's writes: each merges what this writer changed since into the file as it is now
/// (`ChecklistsStore.saveState(_:base:durable:)`, under the data file's lock), so what other
/// writers recorded meanwhile (reminders `due --notify` or the reminder service sent, a list
/// renamed from the shell, a higher next item ID) stays.
public final class StateFileWriter {
  private let store: ChecklistsStore
  /// The state as this writer last read or wrote it: the base of its next merge.
  public private(set) var last: ChecklistsState

  /// A writer of `store`'s state file, which it read as `loaded`.
  public init(store: ChecklistsStore, loaded: ChecklistsState) {
    self.store = store
    last = loaded
  }

  /// Records the app's choices: the list open (by name) in `model`, the lists sorted by due
  /// date, the view open on All Lists' behalf, a next item ID at least the model's, and that
  /// the first run is over.
  ///
  /// Unchanged state is not written again. A state that holds nothing the data file cannot
  /// give back (no reminders sent, a next item ID that follows the items) is written without
  /// fsyncs: two fsyncs saved on most quits. A failed write leaves `last` as it was, so the
  /// next one merges from there.
  public func rememberApp(
    openList index: Int, in model: DataModel, sortByDue: [String], openView: String?
  ) {
    var next = last
    next.remember(openList: index, in: model)
    next.sortByDue = sortByDue
    next.openView = openView
    next.nextItemID = max(next.nextItemID, model.nextItemID)
    next.firstTime = false
    let durable = !model.listsGiveNextItemID
    if let written = try? store.saveState(next, base: last, durable: durable) {
      last = written
    }
  }
}
