import ChecklistsCore
import ChecklistsImages
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The app's photos as the image libraries give them: the access the item form and the photo
/// picker use (captions, folders, storing a chosen file in the session's Photos folder), how
/// photos are drawn on this terminal, and a photo decoded and drawn into a `PhotoPicture`.
///
/// This implements the program's photo contract (`PhotoAccess`, `PhotoRequest`, `PhotoPicture`)
/// beside it; the launch (`FullScreenLaunch`) wires it in, and the benchmarks run it as the app
/// does.
public enum AppPhotos {
  /// How much of a file is read for its caption first: the header and EXIF of any photo a
  /// camera writes; the whole file only when that is not enough.
  public static let captionPrefix = 256 * 1024

  /// The access for the UI on `session`'s Photos folder.
  public static func access(session: PhotoSession, environment: [String: String]) -> PhotoAccess {
    let library = session.library
    let checked = CheckedPhotoFiles()
    return PhotoAccess(
      caption: { name in
        do throws(PhotoError) {
          let status = try library.status(of: name)
          return caption(path: library.path(of: name), size: status.size) ?? name.fileName
        } catch {
          return error.kind == .missing ? "\(name.fileName) is missing" : error.message
        }
      },
      fileCaption: { path in fileCaption(path) },
      store: { path in
        do throws(PhotoError) {
          // Decoded whole (small) first: a file whose image data is damaged is not attached.
          // One the form's check read whole, unchanged since, is not decoded again.
          if !checked.passed(path), let problem = damage(path) { return .failure(problem) }
          return .success(try session.store(path))
        } catch {
          return .failure(PhotoAccessError(message: error.message))
        }
      },
      check: { path in
        // The file as it was before it was read: changed while being read, it is not vouched for.
        let before = try? SystemFileSystem().stat(path)
        let problem = damage(path)
        if problem == nil, let before { checked.record(path, as: before) }
        return problem
      },
      startFolder: {
        PictureFolder.start(
          environment: environment, current: FileManager.default.currentDirectoryPath)
      },
      home: environment["HOME"])
  }

  /// Why the image at `path` cannot be attached after decoding all of it; nil when it can (or
  /// when the image libraries are missing, which only the drawing needs).
  static func damage(_ path: String) -> PhotoAccessError? {
    do throws(PhotoError) {
      let source = try PhotoLibrary.readSource(path)
      do throws(ImageError) {
        _ = try ImageDecoder.checkedCaption(source.bytes)
        return nil
      } catch {
        if case .libraryMissing = error.kind { return nil }
        return PhotoAccessError(message: "\(path): \(error.message)")
      }
    } catch {
      return PhotoAccessError(message: error.message)
    }
  }

  /// "[photo 4032×3024 JPEG]" from the start of the file (or all of it), nil when unreadable.
  public static func caption(path: String, size: Int64) -> String? {
    guard let handle = ReadOnlyFile(path: path) else { return nil }
    defer { handle.close() }
    guard let head = handle.read(upToCount: captionPrefix) else { return nil }
    switch probe(Array(head), rest: handle, size: size) {
    case .success(let info): return info.caption
    case .failure(let error): return error.message
    }
  }

  /// The caption of a file the user may attach, read from its start (the picker asks at each
  /// highlight, so a folder of 12-megapixel photos is not read whole): refused as attaching
  /// refuses it (not a regular file, over 100 MB, not an image's first bytes, unreadable).
  public static func fileCaption(_ path: String) -> Result<String, PhotoAccessError> {
    func failure(_ error: PhotoError) -> Result<String, PhotoAccessError> {
      .failure(PhotoAccessError(message: error.message))
    }
    var status = stat()
    guard stat(path, &status) == 0 else {
      return failure(
        PhotoError(.systemCall, path: path, cause: SystemCallError(errno, call: "stat")))
    }
    guard (status.st_mode & S_IFMT) == S_IFREG else {
      return failure(PhotoError(.notRegularFile, path: path))
    }
    let size = Int64(status.st_size)
    guard size <= PhotoLibrary.maximumFileSize else {
      return failure(PhotoError(.tooLarge(bytes: size), path: path))
    }
    guard let handle = ReadOnlyFile(path: path), let head = handle.read(upToCount: captionPrefix)
    else {
      return failure(
        PhotoError(.systemCall, path: path, cause: SystemCallError(EACCES, call: "open")))
    }
    defer { handle.close() }
    guard PhotoFormat.sniff(Array(head)) != nil else {
      return failure(PhotoError(.notAnImage, path: path))
    }
    switch probe(Array(head), rest: handle, size: size) {
    case .success(let info): return .success(info.caption)
    case .failure(let error):
      return .failure(PhotoAccessError(message: "\(path): \(error.message)"))
    }
  }

  /// Probes `head`, then the whole file when the header needs more than its start.
  static func probe(_ head: [UInt8], rest handle: ReadOnlyFile, size: Int64) -> Result<
    ImageInfo, ImageError
  > {
    do throws(ImageError) {
      return .success(try ImageDecoder.probe(head))
    } catch {
      guard size > Int64(head.count), let rest = handle.readToEnd() else {
        return .failure(error)
      }
      do throws(ImageError) {
        return .success(try ImageDecoder.probe(head + Array(rest)))
      } catch {
        return .failure(error)
      }
    }
  }
}

extension AppPhotos {
  /// How photos are drawn on this terminal before it is asked: the setting, whether to ask the
  /// terminal (`TerminalGraphicsQuery.bytes`, answered before the first photo is drawn), the
  /// colours for the UI's boxes (nil: captions only), and what is wrong with the setting
  /// (`CHECKLISTS_IMAGES` that is not one), for the status line.
  public static func display(environment: [String: String], config: ConfigFile) -> (
    setting: GraphicsSetting, query: [UInt8]?, colors: PhotoColors?, problem: String?
  ) {
    let (setting, problem) = GraphicsSetting.chosen(environment: environment, config: config)
    let query = GraphicsDetection.query(setting: setting, environment: environment)
    let mode = GraphicsDetection.mode(setting: setting, environment: environment, replies: nil)
    if mode == .text { return (setting, query, nil, problem) }
    var depth = GraphicsDetection.colorDepth(environment: environment) ?? .palette256
    if case .blocks(let chosen) = mode { depth = chosen }
    return (setting, query, depth == .trueColor ? .trueColor : .palette256, problem)
  }

  /// The mode for the setting, the environment and the terminal's answers to the query.
  public static func mode(
    setting: GraphicsSetting, environment: [String: String], answers: [UInt8]
  ) -> GraphicsMode {
    let replies = answers.isEmpty ? nil : TerminalGraphicsQuery.parse(answers)
    return GraphicsDetection.mode(setting: setting, environment: environment, replies: replies)
  }

  /// Decodes a photo for its box and draws it as half blocks (called on a worker thread).
  public static func picture(
    _ request: PhotoRequest, mode: GraphicsMode, cell: CellPixelSize, imageID: UInt32,
    library: PhotoLibrary, cache: ThumbnailCache
  ) -> PhotoPicture {
    // The last row of the box holds the caption.
    let box = CellBox(columns: max(request.columns, 1), rows: max(request.rows - 1, 1))
    let size = PhotoView.pixelSize(mode: mode, box: box, cell: cell) ?? (box.columns, box.rows * 2)
    do throws(ImageError) {
      let decoded: DecodedImage
      switch request.photo {
      case .stored(let name):
        decoded = try PhotoView.load(
          name, library: library, cache: cache, mode: mode, box: box, cell: cell)
      case .file(let path):
        let source: PhotoSource
        do throws(PhotoError) {
          source = try PhotoLibrary.readSource(path)
        } catch {
          throw ImageError(.file(error))
        }
        decoded = try ImageDecoder.decode(source.bytes, maxWidth: size.0, maxHeight: size.1)
      }
      let caption = decoded.info.caption
      switch try PhotoView.render(decoded, mode: mode, box: box, cell: cell, imageID: imageID) {
      case .cells(let picture):
        let cells = picture.cells.map { cell in
          Cell(
            text: String(cell.glyph),
            style: CellStyle(
              foreground: .rgb(cell.foreground.red, cell.foreground.green, cell.foreground.blue),
              background: .rgb(cell.background.red, cell.background.green, cell.background.blue)
            ))
        }
        return PhotoPicture(
          columns: picture.columns, rows: picture.rows, cells: cells, caption: caption)
      case .paletteCells(let picture):
        let cells = picture.cells.map { cell in
          Cell(
            text: String(cell.glyph),
            style: CellStyle(
              foreground: .palette(cell.foreground), background: .palette(cell.background)))
        }
        return PhotoPicture(
          columns: picture.columns, rows: picture.rows, cells: cells, caption: caption)
      case .escape(let bytes, let columns, let rows):
        let removal: TerminalImage.Removal =
          mode == .kitty ? .delete(KittyGraphics.delete(id: imageID)) : .overdraw
        return .image(
          TerminalImage(bytes: bytes, removal: removal), columns: columns, rows: rows,
          caption: caption)
      case .text:
        return .text(caption, isError: false)
      }
    } catch {
      return .text(error.message, isError: true)
    }
  }
}

/// The files the item form's check read whole and found sound, each as it was then (size,
/// modification time, inode): Done stores such a file without decoding it again.
final class CheckedPhotoFiles: @unchecked Sendable {
  private let lock = ThreadLock()
  private var files: [String: FileStatus] = [:]

  /// Notes that `path`, as `status` describes it (taken before it was read), passed the check.
  func record(_ path: String, as status: FileStatus) {
    lock.lock()
    files[path] = status
    lock.unlock()
  }

  /// Whether `path` passed the check and has not changed since.
  func passed(_ path: String) -> Bool {
    lock.lock()
    let known = files[path]
    lock.unlock()
    guard let known else { return false }
    return (try? SystemFileSystem().stat(path)) == known
  }
}
