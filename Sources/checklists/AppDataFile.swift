import ChecklistsCore
import ChecklistsUI
import FoundationEssentials

/// The app's saves of the data file and its looks at it, through the store: a sync pass after
/// each save and before each look when a vdir is configured (`AppSync`); the photos the merged
/// lists name are held for the session; the last save's line worth repeating after the screen
/// is gone.
final class AppDataFile {
  let store: ChecklistsStore
  let photos: PhotoSession
  let sync: AppSync?
  /// The store's sentence about a conflict copy or a recreated file, for standard error at the
  /// exit; nil after a plain save.
  private(set) var exitNotice: String?
  /// Whether the last save went to a conflict copy: the data file does not hold the lists.
  private(set) var inConflictCopy = false

  init(store: ChecklistsStore, photos: PhotoSession, sync: AppSync?) {
    self.store = store
    self.photos = photos
    self.sync = sync
  }

  /// Saves `model` and says how it went (the wording is the store's and the UI's).
  func save(_ model: DataModel) -> SaveOutcome {
    var outcome: SaveOutcome
    do {
      let result = try store.save(model)
      if result.outcome != .unchanged {
        exitNotice = result.exitNotice
        if case .conflictCopy = result.outcome {
          inConflictCopy = true
        } else {
          inConflictCopy = false
        }
      }
      outcome = SaveOutcome(result)
    } catch {
      outcome = SaveOutcome(failure: error)
    }
    if let merged = outcome.merged { photos.hold(merged.model.photoNames) }
    sync?.afterSave(&outcome)
    return outcome
  }

  /// Changes made elsewhere merged into `model`, with the status line's words; nil when there
  /// is neither a change nor anything to say.
  func refresh(_ model: DataModel) -> (lists: MergedLists?, message: String)? {
    let message = sync?.beforeLook()
    guard let refreshed = store.refresh(model) else {
      return message.map { (lists: nil, message: $0) }
    }
    photos.hold(refreshed.merged.model.photoNames)
    return (MergedLists(refreshed), MergedLists.message(for: refreshed, extra: message))
  }

  /// The watch of the data file's folder, which also watches the vdir's folders.
  func makeWatcher() -> FileWatcher? {
    let watcher = FileWatcher.open(path: store.resolvedPath)
    sync?.watcher = watcher
    sync?.watchFolders()
    return watcher
  }
}
