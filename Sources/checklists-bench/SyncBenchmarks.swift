import ChecklistsCore
import Foundation

/// `sync [RUNS]`: `VdirSync.run` at 10,000 items (20 lists × 500): the first sync into an empty
/// vdir, a sync with nothing to do (only fingerprints compared; then without the index), and a
/// sync after one item was checked here (the whole merge runs; one file is rewritten).
enum SyncBenchmarks {
  static func run(_ arguments: [String]) -> Int32 {
    let runs = max(arguments.compactMap { Int($0) }.first ?? 5, 1)
    let folder = NSTemporaryDirectory() + "checklists-bench-sync-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let model = DataGenerator.model(lists: 20, itemsPerList: 500)
    print(
      "Sync: \(model.itemCount) items in \(model.lists.count) lists; median of \(runs) runs in ms")
    print("| pass | median (min–max) |")
    print("|---|---|")
    do {
      var first: [Double] = []
      var location = DataFileLocation(dataFile: "", stateFile: "")
      var vdir = ""
      for run in 0..<runs {
        let runFolder = folder + "/run\(run)"
        try FileManager.default.createDirectory(
          atPath: runFolder, withIntermediateDirectories: true)
        location = DataFileLocation(
          dataFile: runFolder + "/Checklists.plist", stateFile: runFolder + "/state/state.json")
        vdir = runFolder + "/vdir"
        let data = try ChecklistsFileCoding.encode(model.lists, format: .binary).data
        try data.write(to: URL(fileURLWithPath: location.dataFile))
        let start = Measure.now()
        let outcome = try VdirSync.run(
          location: location, vdir: vdir, options: SyncOptions(createsVdir: true))
        first.append((Measure.now() - start) * 1000)
        guard outcome.report.newHere == model.itemCount else {
          FileHandle.standardError.write(Data("sync: wrote \(outcome.report.newHere) items\n".utf8))
          return 1
        }
      }
      print("| first sync into an empty vdir | \(Summary(first).text) |")
      var nothing: [Double] = []
      for _ in 0..<max(runs * 4, 11) {
        let start = Measure.now()
        let outcome = try VdirSync.run(
          location: location, vdir: vdir, options: SyncOptions(createsVdir: true))
        nothing.append((Measure.now() - start) * 1000)
        guard outcome.report.isNothing else { return 1 }
      }
      print("| nothing to do | \(Summary(nothing).text) |")
      // The same without the index (as before a pass with nothing to do recorded it): the
      // state is read and every folder listed.
      let indexPath = SyncIndex.path(
        statePath: VdirSync.statePath(location: location, vdir: vdir))
      var fullLook: [Double] = []
      for _ in 0..<max(runs * 2, 11) {
        unlink(indexPath)
        let start = Measure.now()
        let outcome = try VdirSync.run(
          location: location, vdir: vdir, options: SyncOptions(createsVdir: true))
        fullLook.append((Measure.now() - start) * 1000)
        guard outcome.report.isNothing else { return 1 }
      }
      print(
        "| nothing to do, no index (reads the state, lists every folder) | \(Summary(fullLook).text) |"
      )
      var one: [Double] = []
      for _ in 0..<runs {
        let (store, load) = try ChecklistsStore.open(location: location)
        var changed = load.model
        if let change = changed.toggleItem(listID: changed.lists[3].id, at: 7) {
          changed.apply(change)
        }
        try store.save(changed)
        let start = Measure.now()
        let outcome = try VdirSync.run(
          location: location, vdir: vdir, options: SyncOptions(createsVdir: true))
        one.append((Measure.now() - start) * 1000)
        guard outcome.report.changedHere == 1 else { return 1 }
      }
      print("| one item checked here | \(Summary(one).text) |")
    } catch {
      FileHandle.standardError.write(Data("sync: \(error)\n".utf8))
      return 1
    }
    print(String(format: "peak RSS of this process: %.1f MB", Measure.peakRSSMegabytes()))
    return 0
  }
}
