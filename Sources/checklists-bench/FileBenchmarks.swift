import ChecklistsCore
import Foundation

/// `files [SIZES…]`: load and save of generated files through the real store, next to the raw
/// floor (read the bytes; write + fsync + rename) and Foundation's codec.
///
/// `files --open FILE [RUNS] [--save]` instead times opening an existing file through the store
/// (and, with `--save`, saving a one-item edit after each open) and prints this process's peak
/// RSS: one load+save of a big file in a fresh process, for profiling and memory.
enum FileBenchmarks {
  static func run(_ arguments: [String]) -> Int32 {
    if arguments.first == "--open" { return openExisting(Array(arguments.dropFirst())) }
    let sizes = arguments.compactMap { Int($0) }
    let runs = 5
    print("Files: median of \(runs) runs in ms (min–max); items = lists × 100")
    print(
      "| items | format | bytes | load | save (fsync) | floor: read | floor: write+fsync+rename"
        + " | Foundation decode |")
    print("|---|---|---|---|---|---|---|---|")
    for size in sizes.isEmpty ? [1_000, 10_000, 100_000] : sizes {
      let model = DataGenerator.model(lists: max(size / 100, 1), itemsPerList: min(size, 100))
      for format in [PlistFormat.binary, .xml] {
        guard let row = measure(model: model, items: size, format: format, runs: runs) else {
          return 1
        }
        print(row)
      }
    }
    print(String(format: "peak RSS of this process: %.1f MB", Measure.peakRSSMegabytes()))
    return 0
  }

  private static func measure(model: DataModel, items: Int, format: PlistFormat, runs: Int)
    -> String?
  {
    let folder = NSTemporaryDirectory() + "checklists-bench-\(getpid())"
    let path = folder + "/Checklists.plist"
    defer { try? FileManager.default.removeItem(atPath: folder) }
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      let data = try ChecklistsFileCoding.encode(model.lists, format: format).data
      try data.write(to: URL(fileURLWithPath: path))
      let location = DataFileLocation(dataFile: path, stateFile: folder + "/state.json")
      let load = try Measure.milliseconds(runs: runs) {
        let (store, _) = try ChecklistsStore.open(location: location)
        store.close()
      }
      var edited = model
      var saveSamples: [Double] = []
      for _ in 0..<runs {
        let (store, _) = try ChecklistsStore.open(location: location)
        // A one-item change, so that the save really writes.
        if let list = edited.lists.first, let change = edited.toggleItem(listID: list.id, at: 0) {
          edited.apply(change)
        }
        let start = Measure.now()
        _ = try store.save(edited)
        saveSamples.append((Measure.now() - start) * 1000)
        store.close()
      }
      let save = Summary(saveSamples)
      let read = try Measure.milliseconds(runs: runs) {
        _ = try Data(contentsOf: URL(fileURLWithPath: path))
      }
      let write = Measure.milliseconds(runs: runs) { rawWrite(data, folder: folder) }
      let foundation = try Measure.milliseconds(runs: runs) {
        _ = try PropertyListDecoder().decode([Checklist].self, from: data)
      }
      return "| \(items) | \(format.rawValue) | \(data.count) | \(load.text) | \(save.text)"
        + " | \(read.text) | \(write.text) | \(foundation.text) |"
    } catch {
      FileHandle.standardError.write(Data("bench: \(error)\n".utf8))
      return nil
    }
  }

  /// `--open FILE [RUNS] [--save] [--load-only]`: opens (and saves) an existing file `RUNS`
  /// times (1); `--load-only` leaves out the codec's own timing.
  private static func openExisting(_ arguments: [String]) -> Int32 {
    let save = arguments.contains("--save")
    let positional = arguments.filter { $0 != "--save" && $0 != "--load-only" }
    guard let file = positional.first else {
      FileHandle.standardError.write(
        Data("usage: checklists-bench files --open FILE [RUNS] [--save] [--load-only]\n".utf8))
      return 2
    }
    let runs = positional.count > 1 ? max(Int(positional[1]) ?? 1, 1) : 1
    let path = URL(fileURLWithPath: file).standardizedFileURL.path
    let folder = PathText.folder(of: path)
    let location = DataFileLocation(
      dataFile: path, stateFile: folder + "/.checklists-bench-state-\(getpid()).json")
    var loads: [Double] = []
    var saves: [Double] = []
    var items = 0
    do {
      for _ in 0..<runs {
        let start = Measure.now()
        let (store, load) = try ChecklistsStore.open(location: location)
        loads.append((Measure.now() - start) * 1000)
        items = load.model.itemCount
        if save {
          var edited = load.model
          if let list = edited.lists.first, let change = edited.toggleItem(listID: list.id, at: 0) {
            edited.apply(change)
          }
          let saveStart = Measure.now()
          _ = try store.save(edited)
          saves.append((Measure.now() - saveStart) * 1000)
        }
        store.close()
      }
    } catch {
      FileHandle.standardError.write(Data("bench: \(error)\n".utf8))
      return 1
    }
    var line = "\(items) items: load \(Summary(loads).text) ms"
    if save { line += ", save \(Summary(saves).text) ms" }
    // The peak of the store's own work, before the codec is timed alone below.
    line += save ? ", peak RSS of load+save " : ", peak RSS of load "
    line += String(format: "%.1f MB", Measure.peakRSSMegabytes())
    // The codec alone, without the file system (`--load-only` leaves it out, for profiles of
    // cold loads).
    if !arguments.contains("--load-only"),
      let data = try? Data(contentsOf: URL(fileURLWithPath: path)),
      let document = try? ChecklistsFileCoding.decode(data)
    {
      let decode = Measure.milliseconds(runs: runs) { _ = try? ChecklistsFileCoding.decode(data) }
      let encode = Measure.milliseconds(runs: runs) {
        _ = try? ChecklistsFileCoding.encode(document.lists, format: document.format)
      }
      line += "; codec: decode \(decode.text) ms, encode \(encode.text) ms"
    }
    print(line + String(format: ", peak RSS overall %.1f MB", Measure.peakRSSMegabytes()))
    return 0
  }

  /// The floor of a save: write the bytes to a temp file, fsync, rename, fsync the folder.
  private static func rawWrite(_ data: Data, folder: String) {
    let temp = folder + "/raw.tmp"
    let target = folder + "/raw.plist"
    let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard fd >= 0 else { return }
    data.withUnsafeBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      var offset = 0
      while offset < buffer.count {
        let written = write(fd, base + offset, buffer.count - offset)
        if written <= 0 { break }
        offset += written
      }
    }
    fsync(fd)
    close(fd)
    rename(temp, target)
    let directory = open(folder, O_RDONLY | O_DIRECTORY)
    if directory >= 0 {
      fsync(directory)
      close(directory)
    }
  }
}
