import ChecklistsCLI
import ChecklistsCore
import ChecklistsImages
import ChecklistsUI
import Foundation

/// `checklists-bench photo-form FILE [RUNS]`: the item form of an item with this photo, through
/// the app's state machine and the app's own decoding (`AppPhotos.picture`, no thumbnail
/// cache): the time from the key that opens the form to the frame that shows the photo, and
/// the latency of keys (handle + draw a frame) pressed while the worker decodes.
enum PhotoFormBenchmarks {
  static func run(_ arguments: [String]) -> Int32 {
    guard let path = arguments.first else {
      FileHandle.standardError.write(Data("usage: checklists-bench photo-form FILE [RUNS]\n".utf8))
      return 2
    }
    let runs = arguments.count > 1 ? Int(arguments[1]) ?? 5 : 5
    let folder = NSTemporaryDirectory() + "photo-form-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let library = PhotoLibrary(dataFile: folder + "/Checklists.plist")
    let session = PhotoSession(library: library)
    defer { session.end(sweep: false, knownReferences: []) }
    let name: PhotoName
    do {
      name = try session.store(path)
    } catch {
      FileHandle.standardError.write(Data("\(error.message)\n".utf8))
      return 1
    }
    var item = ChecklistItem(
      text: "Parking spot", checked: false, dueDate: Date(), shouldRemind: false, itemID: 1)
    item.photo = name
    let model = DataModel(lists: [Checklist(name: "List", iconName: "No Icon", items: [item])])
    let access = AppPhotos.access(session: session, environment: [:])
    let size = (width: 120, height: 40)
    var opened: [Double] = []
    var keys: [Double] = []
    var openKeys: [Double] = []
    for run in 0..<runs {
      // A new cache folder each run: every run decodes the file.
      let cache = ThumbnailCache(folder: folder + "/cache-\(run)")
      var app = ChecklistsApp(
        model: model, checklistIndex: 0,
        options: AppOptions(photos: access, photoColors: .trueColor), size: size, now: Date())
      var grid = CellGrid(width: size.width, height: size.height)
      let start = Measure.now()
      let effects = app.handle(.key(.enter), now: Date())
      app.render(into: &grid, now: Date())
      openKeys.append((Measure.now() - start) * 1000)
      guard case .loadPhoto(let request)? = effects.first else {
        FileHandle.standardError.write(Data("the form asked for no photo\n".utf8))
        return 1
      }
      let done = DispatchSemaphore(value: 0)
      let result = ResultBox()
      DispatchQueue.global(qos: .userInitiated).async {
        result.picture = AppPhotos.picture(
          request, mode: .blocks(.trueColor), cell: .typical, imageID: 1, library: library,
          cache: cache)
        done.signal()
      }
      // Keys while the worker decodes: Tab and Shift-Tab, each handled and drawn.
      var forward = true
      while done.wait(timeout: .now()) == .timedOut {
        let keyStart = Measure.now()
        _ = app.handle(.key(forward ? .tab : .backTab), now: Date())
        app.render(into: &grid, now: Date())
        keys.append((Measure.now() - keyStart) * 1000)
        forward.toggle()
        usleep(2000)
      }
      guard let picture = result.picture else { return 1 }
      _ = app.handle(.photoLoaded(request, picture), now: Date())
      app.render(into: &grid, now: Date())
      opened.append((Measure.now() - start) * 1000)
      if picture.isError {
        print("cannot show the photo: \(picture.caption)")
        return 1
      }
    }
    print("photo: \(path); form of 120×40 cells, half blocks in 24-bit colour")
    print(
      "the key that opens the form (its caption read from the file's start): "
        + "\(Summary(openKeys).text) ms")
    print("open the form → photo shown: \(Summary(opened).text) ms (median, min–max of \(runs))")
    let sorted = keys.sorted()
    let p99 = sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
    print(
      "keys during the decode: \(keys.count), \(Summary(keys).text) ms, 99th percentile "
        + String(format: "%.2f ms", p99))
    return 0
  }
}

/// The worker's result, read after the semaphore.
private final class ResultBox: @unchecked Sendable {
  var picture: PhotoPicture?
}
