import ChecklistsCore
import ChecklistsImages
import Foundation

/// `checklists-bench photos FILE [RUNS]`: decoding one photo for the boxes the screens use,
/// from its bytes in memory (the first run loads the libraries), with the peak RSS after.
enum PhotoBenchmarks {
  static func run(_ arguments: [String]) -> Int32 {
    guard let path = arguments.first else {
      FileHandle.standardError.write(Data("usage: checklists-bench photos FILE [RUNS]\n".utf8))
      return 2
    }
    let runs = arguments.count > 1 ? Int(arguments[1]) ?? 10 : 10
    let bytes: [UInt8]
    do {
      bytes = try PhotoLibrary.readSource(path).bytes
    } catch {
      FileHandle.standardError.write(Data("\(error.message)\n".utf8))
      return 1
    }
    print(
      "file: \(path), \(bytes.count) bytes; peak RSS before: "
        + String(format: "%.1f MB", Measure.peakRSSMegabytes()))
    let box = CellBox(columns: 40, rows: 20)
    let cases: [(String, GraphicsMode)] = [
      ("half blocks, 40×20 cells", .blocks(.trueColor)),
      ("kitty, 40×20 cells of 10×20 px", .kitty),
      ("sixel, 40×20 cells of 10×20 px", .sixel),
    ]
    let first = Measure.now()
    _ = try? ImageDecoder.probe(bytes)
    print(
      String(format: "first probe (loads the library): %.2f ms", (Measure.now() - first) * 1000))
    for (name, mode) in cases {
      guard let size = PhotoView.pixelSize(mode: mode, box: box, cell: .typical) else { continue }
      var failure: ImageError?
      let decode = Measure.milliseconds(runs: runs) {
        do throws(ImageError) {
          _ = try ImageDecoder.decode(bytes, maxWidth: size.width, maxHeight: size.height)
        } catch {
          failure = error
        }
      }
      if let failure {
        print("\(name): \(failure.message)")
        return 1
      }
      guard
        let decoded = try? ImageDecoder.decode(bytes, maxWidth: size.width, maxHeight: size.height)
      else { return 1 }
      let render = Measure.milliseconds(runs: runs) {
        _ = try? PhotoView.render(decoded, mode: mode, box: box, imageID: 1)
      }
      print(
        "\(name): decode to \(decoded.image.width)×\(decoded.image.height) \(decode.text) ms, "
          + "render \(render.text) ms (median, min–max of \(runs))")
    }
    print(String(format: "peak RSS after: %.1f MB", Measure.peakRSSMegabytes()))
    scanNames(runs: runs)
    return 0
  }

  /// What the app does with 100,000 items at start and after each merge: the set of photo
  /// names it holds (one item in 100 with a photo), and whether any item has one.
  static func scanNames(runs: Int) {
    let generated = DataGenerator.model(lists: 100, itemsPerList: 1000)
    let lists = generated.lists.map { list in
      var list = list
      for index in stride(from: 0, to: list.items.count, by: 100) {
        var item = list.items[index]
        item.photo = PhotoName.random(format: .jpeg)
        list.replaceItem(at: index, with: item)
      }
      return list
    }
    let model = DataModel(lists: lists, nextItemID: generated.nextItemID)
    var count = 0
    let names = Measure.milliseconds(runs: runs) { count = model.photoNames.count }
    var any = false
    let first = Measure.milliseconds(runs: runs) { any = model.hasPhotos }
    print(
      "100,000 items, \(count) photos: photoNames \(names.text) ms, hasPhotos \(first.text) ms "
        + "(\(any ? "found" : "none"); median, min–max of \(runs))")
  }
}
