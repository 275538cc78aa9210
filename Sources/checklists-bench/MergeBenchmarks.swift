import ChecklistsCore
import Foundation

/// `merge [RUNS] [--merge-only]`: the three-way merge of 100,000 items (1,000 lists × 100 and
/// one list × 100,000) with 100 random changes on each side, alone (`ModelMerge.merge`) and as a
/// whole `ChecklistsStore.save` that finds the file changed elsewhere and merges with it
/// (`--merge-only` leaves the saves out, for profiling).
enum MergeBenchmarks {
  /// One shape of model: how many lists of how many items.
  private struct Shape {
    var lists: Int
    var itemsPerList: Int
  }

  static func run(_ arguments: [String]) -> Int32 {
    let runs = max(arguments.compactMap { Int($0) }.first ?? 11, 1)
    let withSaves = !arguments.contains("--merge-only")
    let changes = 100
    print(
      "Merge: \(changes) random changes on each side (edits, toggles, adds, deletes, one move);"
        + " median of \(runs) runs in ms (min–max)")
    print(
      "| items | lists | ModelMerge.merge | from elsewhere | conflicts | renumbered | kept"
        + " | store save, file changed elsewhere | store save, file unchanged |")
    print("|---|---|---|---|---|---|---|---|---|")
    for shape in [Shape(lists: 1_000, itemsPerList: 100), Shape(lists: 1, itemsPerList: 100_000)] {
      guard let row = measure(shape, changes: changes, runs: runs, withSaves: withSaves) else {
        return 1
      }
      print(row)
    }
    print(String(format: "peak RSS of this process: %.1f MB", Measure.peakRSSMegabytes()))
    return 0
  }

  private static func measure(_ shape: Shape, changes: Int, runs: Int, withSaves: Bool)
    -> String?
  {
    let base = DataGenerator.model(lists: shape.lists, itemsPerList: shape.itemsPerList)
    let ours = oursOf(base, changes: changes)
    var theirsSide = base
    var random = SplitMix(seed: 2)
    applyRandomChanges(changes, to: &theirsSide, random: &random, tag: "theirs")
    // Theirs as a load from disk sees it: fresh run-time list ids.
    let theirs = DataModel(lists: theirsSide.lists).lists

    var result: MergeResult?
    let merge = Measure.milliseconds(runs: runs) {
      result = ModelMerge.merge(base: base, ours: ours, theirs: theirs)
    }
    guard let report = result?.report else { return nil }

    var savesText = "not run | not run"
    if withSaves {
      guard let saves = measureSaves(base: base, changes: changes, theirs: theirs, runs: runs)
      else { return nil }
      savesText = "\(saves.merged.text) | \(saves.plain.text)"
    }
    return "| \(base.itemCount) | \(shape.lists) | \(merge.text) | \(report.changesFromElsewhere)"
      + " | \(report.conflicts.count) | \(report.renumbered.count)"
      + " | \(report.keptItems.count + report.keptLists.count)"
      + " | \(savesText) |"
  }

  /// Saves through the real store: ours (the same changes, made to the lists the store loaded
  /// from `base`, so that they share its list ids) over a file that another writer replaced with
  /// `theirs` after the store read it (so the save reads, merges and writes), and, for
  /// comparison, ours over a file nobody else touched.
  private static func measureSaves(
    base: DataModel, changes: Int, theirs: [Checklist], runs: Int
  ) -> (merged: Summary, plain: Summary)? {
    let folder = NSTemporaryDirectory() + "checklists-bench-merge-\(getpid())"
    let path = folder + "/Checklists.plist"
    defer { try? FileManager.default.removeItem(atPath: folder) }
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      let baseData = try ChecklistsFileCoding.encode(base.lists, format: .binary).data
      let theirsData = try ChecklistsFileCoding.encode(theirs, format: .binary).data
      let location = DataFileLocation(dataFile: path, stateFile: folder + "/state.json")
      var merged: [Double] = []
      var plain: [Double] = []
      for _ in 0..<runs {
        try baseData.write(to: URL(fileURLWithPath: path), options: .atomic)
        let (store, load) = try ChecklistsStore.open(location: location)
        let ours = oursOf(load.model, changes: changes)
        try theirsData.write(to: URL(fileURLWithPath: path), options: .atomic)
        var start = Measure.now()
        let result = try store.save(ours)
        merged.append((Measure.now() - start) * 1000)
        guard case .merged = result.outcome else {
          FileHandle.standardError.write(
            Data("bench: the save did not merge: \(result.statusLine)\n".utf8))
          return nil
        }
        store.close()

        try baseData.write(to: URL(fileURLWithPath: path), options: .atomic)
        let (quiet, quietLoad) = try ChecklistsStore.open(location: location)
        let quietOurs = oursOf(quietLoad.model, changes: changes)
        start = Measure.now()
        _ = try quiet.save(quietOurs)
        plain.append((Measure.now() - start) * 1000)
        quiet.close()
      }
      return (Summary(merged), Summary(plain))
    } catch {
      FileHandle.standardError.write(Data("bench: \(error)\n".utf8))
      return nil
    }
  }

  /// `model` with ours' changes (always the same ones for the same lists).
  private static func oursOf(_ model: DataModel, changes: Int) -> DataModel {
    var ours = model
    var random = SplitMix(seed: 1)
    applyRandomChanges(changes, to: &ours, random: &random, tag: "ours")
    return ours
  }

  /// `count` changes spread over the model's lists: text edits, toggles, adds and deletes in
  /// turn at random places, and one move within a list.
  private static func applyRandomChanges(
    _ count: Int, to model: inout DataModel, random: inout SplitMix, tag: String
  ) {
    var made = 0
    while made < count {
      let listIndex = Int(random.next() % UInt64(model.lists.count))
      let list = model.lists[listIndex]
      let size = list.items.count
      let position = size == 0 ? 0 : Int(random.next() % UInt64(size))
      var change: ModelChange?
      if made == count - 1 {
        let target = size == 0 ? 0 : Int(random.next() % UInt64(size))
        change = model.moveItem(listID: list.id, from: position, to: target)
      } else {
        switch made % 4 {
        case 0:
          if size > 0 {
            var item = list.items[position]
            item.text += " (\(tag) \(made))"
            change = model.replaceItem(listID: list.id, at: position, with: item)
          }
        case 1:
          change = model.toggleItem(listID: list.id, at: position)
        case 2:
          let item = model.makeItem(text: "new from \(tag) \(made)")
          change = model.insertItem(item, listID: list.id, at: position)
        default:
          change = model.deleteItem(listID: list.id, at: position)
        }
      }
      if let change, model.apply(change) { made += 1 }
    }
  }
}
