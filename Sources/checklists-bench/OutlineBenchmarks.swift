import ChecklistsCore
import ChecklistsUI
import Foundation

/// `outline [ITEMS]`: subtasks at 100,000 items with 20,000 subtasks — loading such a file
/// through the store next to one without subtasks, the outline (depths) and the shown rows of
/// the biggest list, folding and unfolding one item and all, and the outline edits with their
/// undo; in 1,000 lists of 100 and in one list of them all.
enum OutlineBenchmarks {
  static func run(_ arguments: [String]) -> Int32 {
    let total = arguments.compactMap { Int($0) }.first ?? 100_000
    let lists = max(total / 100, 1)
    let outline = DataGenerator.outlineModel(lists: lists, itemsPerList: total / lists)
    let children = outline.lists.reduce(0) { sum, list in
      sum + list.items.reduce(0) { $0 + ($1.parentItemID == nil ? 0 : 1) }
    }
    print("Outline: \(outline.itemCount) items, \(children) subtasks, in \(lists) lists")
    print()
    print("| operation | median | min | max |")
    print("|---|---|---|---|")
    guard load(outline, plainLists: lists, total: total) else { return 1 }
    let biggest = outline.lists.max { $0.items.count < $1.items.count } ?? Checklist(name: "")
    rows(of: biggest, model: outline, label: "biggest list (\(biggest.items.count) items)")
    let single = DataGenerator.outlineModel(lists: 1, itemsPerList: total)
    rows(of: single.lists[0], model: single, label: "one list of \(total) items")
    return 0
  }

  /// Opening a file of the model through the store, next to the same items without subtasks,
  /// priorities or tags.
  private static func load(_ outline: DataModel, plainLists: Int, total: Int) -> Bool {
    let plain = DataGenerator.model(lists: plainLists, itemsPerList: total / plainLists, seed: 34)
    let folder = NSTemporaryDirectory() + "checklists-bench-outline-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: folder) }
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      for (name, model) in [
        ("without subtasks", plain), ("with subtasks, priorities, tags", outline),
      ] {
        let path = folder + "/Checklists.plist"
        let data = try ChecklistsFileCoding.encode(model.lists, format: .binary).data
        try data.write(to: URL(fileURLWithPath: path))
        let location = DataFileLocation(dataFile: path, stateFile: folder + "/state.json")
        let load = try Measure.milliseconds(runs: 5) {
          let (store, _) = try ChecklistsStore.open(location: location)
          store.close()
        }
        row("load, binary, \(name), \(data.count) bytes (ms)", load)
      }
      return true
    } catch {
      FileHandle.standardError.write(Data("bench: \(error)\n".utf8))
      return false
    }
  }

  /// The outline and folds of one list, and the outline edits in it.
  private static func rows(of list: Checklist, model: DataModel, label: String) {
    let runs = 21
    row("\(label): depths (ms)", Measure.milliseconds(runs: runs) { _ = list.depths() })
    row(
      "\(label): outline rows, nothing folded (ms)",
      Measure.milliseconds(runs: runs) { _ = OutlineRows(list: list) })
    var all = OutlineRows(list: list)
    all.foldAll()
    let folded = all.folded
    row(
      "\(label): outline rows, all folded (ms)",
      Measure.milliseconds(runs: runs) { _ = OutlineRows(list: list, folded: folded) })
    // A parent in the middle of the list.
    let open = OutlineRows(list: list)
    let middle = list.items.count / 2
    let parent =
      (middle..<list.items.count).first { open.info($0).hasChildren }
      ?? (0..<list.items.count).first { open.info($0).hasChildren } ?? 0
    var rows = open
    row(
      "\(label): fold and unfold one parent (ms)",
      Measure.milliseconds(runs: runs) {
        rows.fold(parent)
        rows.unfold(parent)
      })
    row(
      "\(label): fold all, then unfold all (ms)",
      Measure.milliseconds(runs: runs) {
        rows.foldAll()
        rows.unfoldAll()
      })
    rows.foldAll()
    row(
      "\(label): unfold one parent with all folded (ms)",
      Measure.milliseconds(runs: runs) {
        rows.unfold(parent)
        rows.fold(parent)
      })
    // The edits, each applied and undone.
    var edited = model
    guard let listID = edited.lists.first(where: { $0.name == list.name })?.id else { return }
    let leaf = (1..<list.items.count).first { index in
      !open.info(index).hasChildren && open.depths[index] == open.depths[index - 1]
        && list.items[index].parentItemID != nil && index > middle
    }
    if let leaf {
      // As the screen does it: with the depths its outline rows have.
      let depths = open.depths
      row(
        "\(label): indent + undo (ms)",
        Measure.milliseconds(runs: runs) {
          guard let change = try? edited.indent(listID: listID, at: leaf, depths: depths)
          else { return }
          edited.apply(change)
          edited.apply(change.inverse)
        })
      row(
        "\(label): outdent + undo (ms)",
        Measure.milliseconds(runs: runs) {
          guard let changes = try? edited.outdent(listID: listID, at: leaf, depths: depths)
          else { return }
          edited.apply(changes)
          edited.apply(changes.reversed().map(\.inverse))
        })
      row(
        "\(label): indent + undo, reading the outline (ms)",
        Measure.milliseconds(runs: runs) {
          guard let change = try? edited.indent(listID: listID, at: leaf) else { return }
          edited.apply(change)
          edited.apply(change.inverse)
        })
    }
    let schedule = RepeatSchedule(timeZone: .utc)
    // An unchecked parent with an unchecked subtask, from the middle on.
    let checkable =
      (middle..<list.items.count).first {
        edited.checkWithSubtasks(listID: listID, at: $0, schedule: schedule) != nil
      } ?? parent
    row(
      "\(label): check a parent with \(open.subtreeEnd(of: checkable) - checkable - 1) "
        + "subtasks + undo (ms)",
      Measure.milliseconds(runs: runs) {
        guard
          let check = edited.checkWithSubtasks(listID: listID, at: checkable, schedule: schedule)
        else { return }
        edited.apply(check.changes)
        edited.apply(check.changes.reversed().map(\.inverse))
      })
    row(
      "\(label): rows follow a check (ms)",
      Measure.milliseconds(runs: runs) {
        guard let change = edited.toggleItem(listID: listID, at: parent) else { return }
        rows.follow(change, in: list)
      })
  }

  private static func row(_ name: String, _ summary: Summary) {
    print(
      "| \(name) | "
        + String(format: "%.3f | %.3f | %.3f", summary.median, summary.min, summary.max)
        + " |")
  }
}
