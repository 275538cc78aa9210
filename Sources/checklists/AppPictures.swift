import ChecklistsCore
import ChecklistsImages
import ChecklistsUI
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The app's photos on this terminal: the graphics setting, what to ask the terminal before the
/// first photo, the colours of the UI's boxes, and each requested photo decoded and drawn
/// (`AppPhotos.picture`) on a worker thread, with a new kitty image id each time.
struct AppPictures: Sendable {
  let setting: GraphicsSetting
  /// What to ask the terminal once (which images it shows); nil: nothing to ask.
  let query: [UInt8]?
  /// The colours for the UI's photo boxes; nil: captions only.
  let colors: PhotoColors?
  /// What is wrong with the setting (`CHECKLISTS_IMAGES` that is not one), for the status line.
  let problem: String?
  let environment: [String: String]
  let library: PhotoLibrary
  let thumbnails: ThumbnailCache
  let imageIDs = ImageIDs()

  /// The setting as the environment and the config choose it, for `library`'s photos.
  init(environment: [String: String], config: ConfigFile, library: PhotoLibrary) {
    (setting, query, colors, problem) = AppPhotos.display(
      environment: environment, config: config)
    self.environment = environment
    self.library = library
    thumbnails = ThumbnailCache(environment: environment)
  }

  /// Decodes and draws `request` for the terminal that gave `answers` to the query.
  func load(_ request: PhotoRequest, answers: [UInt8]) -> PhotoPicture {
    let mode = AppPhotos.mode(setting: setting, environment: environment, answers: answers)
    return AppPhotos.picture(
      request, mode: mode, cell: Self.cellPixelSize(), imageID: imageIDs.next(),
      library: library, cache: thumbnails)
  }

  /// The terminal's cell size in pixels (`TIOCGWINSZ`), `typical` when it reports none.
  static func cellPixelSize() -> CellPixelSize {
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 else { return .typical }
    return CellPixelSize.from(
      columns: Int(size.ws_col), rows: Int(size.ws_row), pixelWidth: Int(size.ws_xpixel),
      pixelHeight: Int(size.ws_ypixel))
  }
}

/// Numbers kitty images, one new id per picture (so that deleting one never takes another).
final class ImageIDs: @unchecked Sendable {
  private let lock = ThreadLock()
  private var last: UInt32 = 100

  /// The next id (the first is 101).
  func next() -> UInt32 {
    lock.lock()
    defer { lock.unlock() }
    last = last == UInt32.max ? 101 : last + 1
    return last
  }
}
