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
      try conflictMerge(location: location, vdir: vdir, runs: runs, folder: folder)
    } catch {
      FileHandle.standardError.write(Data("sync: \(error)\n".utf8))
      return 1
    }
    print(String(format: "peak RSS of this process: %.1f MB", Measure.peakRSSMegabytes()))
    return 0
  }

  /// `sync-merge`'s work for vdirsyncer at 10,000 synced items: one task changed on both sides
  /// (the text here, a note on the server), merged against the state's record; in-process, and
  /// as the `checklists sync-merge` process vdirsyncer starts (when the binary is beside this
  /// one).
  static func conflictMerge(location: DataFileLocation, vdir: String, runs: Int, folder: String)
    throws
  {
    let statePath = VdirSync.statePath(location: location, vdir: vdir)
    guard let state = SyncState.decode(Array(try Data(contentsOf: URL(fileURLWithPath: statePath))))
    else { throw BenchError(description: "no sync state") }
    let collection = state.collections[3]
    let record = collection.items[8]
    let original = try String(
      contentsOfFile: vdir + "/" + collection.folder + "/" + record.href, encoding: .utf8)
    guard let summary = original.range(of: "SUMMARY:"), let end = original.range(of: "END:VTODO")
    else { throw BenchError(description: "no SUMMARY in \(record.href)") }
    let ours = original.replacingCharacters(in: summary, with: "SUMMARY:Changed here ")
    let theirs = original.replacingCharacters(
      in: end, with: "DESCRIPTION:Written on the phone\r\nEND:VTODO")
    let first = folder + "/lists_local"
    let second = folder + "/lists_remote"
    func prepare() throws {
      try ours.write(toFile: first, atomically: false, encoding: .utf8)
      try theirs.write(toFile: second, atomically: false, encoding: .utf8)
    }
    var inProcess: [Double] = []
    for _ in 0..<max(runs * 4, 11) {
      try prepare()
      let start = Measure.now()
      let outcome = try ConflictResolution.resolve(
        first: first, second: second, location: location, vdir: vdir, now: Date(),
        timeZone: .current)
      inProcess.append((Measure.now() - start) * 1000)
      guard outcome.merge.conflicts.isEmpty, outcome.merge.fields.note == "Written on the phone"
      else { throw BenchError(description: "sync-merge did not merge both changes") }
    }
    print("| vdirsyncer's conflict, merged (in-process) | \(Summary(inProcess).text) |")
    let binary =
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
      + "/checklists"
    guard FileManager.default.isExecutableFile(atPath: binary) else { return }
    var environment = ProcessInfo.processInfo.environment
    environment["CHECKLISTS_VDIR"] = vdir
    environment["XDG_STATE_HOME"] = folder + "/xdg-state"
    // The command finds the state beside its own state file: the same state, copied there.
    let shown = try DataFileLocation.resolve(environment: environment, filePath: location.dataFile)
    let copy = VdirSync.statePath(location: shown, vdir: vdir)
    try FileManager.default.createDirectory(
      atPath: (copy as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try? FileManager.default.removeItem(atPath: copy)
    try FileManager.default.copyItem(atPath: statePath, toPath: copy)
    var process: [Double] = []
    for _ in 0..<max(runs * 4, 11) {
      try prepare()
      let task = Process()
      task.executableURL = URL(fileURLWithPath: binary)
      task.arguments = ["--file", location.dataFile, "sync-merge", first, second]
      task.environment = environment
      let start = Measure.now()
      try task.run()
      task.waitUntilExit()
      process.append((Measure.now() - start) * 1000)
      guard task.terminationStatus == 0 else {
        throw BenchError(description: "checklists sync-merge exited \(task.terminationStatus)")
      }
    }
    print("| `checklists sync-merge A B`, the process | \(Summary(process).text) |")
  }
}

/// A benchmark that could not run as planned.
struct BenchError: Error, CustomStringConvertible {
  /// What went wrong.
  var description: String
}
