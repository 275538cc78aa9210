import ChecklistsCore
import ChecklistsImages
import ChecklistsUI
import Foundation

/// The app's photos: the session's hold and copies (`PhotoSession`), and the access the UI
/// uses to read captions, list folders and store a chosen file.
enum AppPhotos {
  /// How much of a file is read for its caption first: the header and EXIF of any photo a
  /// camera writes; the whole file only when that is not enough.
  static let captionPrefix = 256 * 1024

  /// The access for the UI on `session`'s Photos folder.
  static func access(session: PhotoSession, environment: [String: String]) -> PhotoAccess {
    let library = session.library
    let current = FileManager.default.currentDirectoryPath
    return PhotoAccess(
      caption: { name in
        do throws(PhotoError) {
          let status = try library.status(of: name)
          return caption(path: library.path(of: name), size: status.size) ?? name.fileName
        } catch {
          return error.kind == .missing ? "\(name.fileName) is missing" : error.message
        }
      },
      fileCaption: { path in
        do throws(PhotoError) {
          // The checks of attaching (a regular file, at most 100 MB, an image's first bytes).
          let source = try PhotoLibrary.readSource(path)
          do throws(ImageError) {
            return .success(try ImageDecoder.probe(source.bytes).caption)
          } catch {
            return .failure(PhotoAccessError(message: "\(path): \(error.message)"))
          }
        } catch {
          return .failure(PhotoAccessError(message: error.message))
        }
      },
      store: { path in
        do throws(PhotoError) {
          return .success(try session.store(path))
        } catch {
          return .failure(PhotoAccessError(message: error.message))
        }
      },
      startFolder: PictureFolder.start(environment: environment, current: current),
      home: environment["HOME"])
  }

  /// "[photo 4032×3024 JPEG]" from the start of the file (or all of it), nil when unreadable.
  static func caption(path: String, size: Int64) -> String? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    guard let head = try? handle.read(upToCount: captionPrefix) else { return nil }
    if let info = try? ImageDecoder.probe(Array(head)) { return info.caption }
    guard size > Int64(head.count), let rest = try? handle.readToEnd() else {
      return try? ImageDecoder.probe(Array(head)).caption
    }
    do throws(ImageError) {
      return try ImageDecoder.probe(Array(head) + Array(rest)).caption
    } catch {
      return error.message
    }
  }
}
