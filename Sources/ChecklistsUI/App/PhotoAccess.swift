import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// What the app needs from outside to attach photos: the Photos folder beside the data file,
/// the images' captions and the folders the user browses. The wiring supplies it (the core's
/// `PhotoSession`, the image decoder's probe); tests give temporary folders.
public struct PhotoAccess: Sendable {
  /// The caption of a stored photo: "[photo 4032×3024 JPEG]", or why it cannot be shown.
  public var caption: @Sendable (PhotoName) -> String
  /// The caption of a file the user may attach, or why it cannot be attached.
  public var fileCaption: @Sendable (String) -> Result<String, PhotoAccessError>
  /// Copies a file into the Photos folder (held for the session); its new name.
  public var store: @Sendable (String) -> Result<PhotoName, PhotoAccessError>
  /// Why a file the user chose cannot be attached after reading all of it (its image data is
  /// damaged); nil when it can. Asked once when the file is chosen, on a worker thread.
  public var check: @Sendable (String) -> PhotoAccessError?
  /// The folders and images of a folder, folders first.
  public var list: @Sendable (String) -> Result<[FolderEntry], PhotoAccessError>
  /// Where the picker opens first (`PictureFolder.start`), asked when it opens (nothing is
  /// read at start-up).
  public var startFolder: @Sendable () -> String
  /// The home folder, for `~` in typed and pasted paths.
  public var home: String?

  /// Creates the access.
  public init(
    caption: @escaping @Sendable (PhotoName) -> String,
    fileCaption: @escaping @Sendable (String) -> Result<String, PhotoAccessError>,
    store: @escaping @Sendable (String) -> Result<PhotoName, PhotoAccessError>,
    check: @escaping @Sendable (String) -> PhotoAccessError? = { _ in nil },
    list: @escaping @Sendable (String) -> Result<[FolderEntry], PhotoAccessError> = {
      path in
      do throws(SystemCallError) {
        return .success(try PictureFolder.list(path))
      } catch {
        return .failure(PhotoAccessError(message: "\(path): \(error.reason)"))
      }
    },
    startFolder: @escaping @Sendable () -> String, home: String?
  ) {
    self.caption = caption
    self.fileCaption = fileCaption
    self.store = store
    self.check = check
    self.list = list
    self.startFolder = startFolder
    self.home = home
  }
}

/// Why a photo could not be read, listed or stored, as the status line says it.
public struct PhotoAccessError: Error, Equatable, Sendable {
  /// The sentence for the status line.
  public var message: String

  /// Creates an error.
  public init(message: String) { self.message = message }
}

/// What Done does with the item's photo.
enum PhotoChoice: Equatable {
  /// Leaves the photo the item has (or its having none).
  case keep
  /// Takes the photo off the item.
  case remove
  /// Attaches the file at `path` (copied into the Photos folder on Done).
  case attach(path: String, caption: String)
}

/// The file picker of the item form's Photo row: a folder's folders and images, filtered as
/// the user types.
struct PhotoPicker: Equatable {
  /// The folder shown (absolute, without a trailing slash but for `/`).
  var folder: String
  /// Its folders and images, listed once when the folder opened.
  var entries: [FolderEntry] = []
  /// The entries' names folded for filtering, made once per folder.
  var folded: [String] = []
  /// Why the folder could not be listed.
  var error: String?
  /// What the user typed: a filter, or a path for Tab to complete.
  var filter = TextField()
  /// The entries that match the filter (indices into `entries`).
  var rows: [Int] = []
  /// The highlighted row.
  var selected = 0
  /// The caption of the highlighted image (read when the highlight moves), and its path.
  var previewPath: String?
  var previewCaption: String?
}
