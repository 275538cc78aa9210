import ChecklistsCore
import ChecklistsUI
import Foundation

/// `keys`: CPU time of one key in-process (update + drawing the whole 100×30 screen), on a
/// 10-item list and on a 100,000-item list, so that the cost per key can be compared.
enum KeyBenchmarks {
  static func run(_ arguments: [String]) -> Int32 {
    let sizes = arguments.compactMap { Int($0) }
    let repetitions = 2_000
    print("Keys in-process: µs per key (update + render 100×30), median of 5 × \(repetitions)")
    print("| items in the list | Down | Space | PgDn | Up |")
    print("|---|---|---|---|---|")
    var baseline: [Double] = []
    for size in sizes.isEmpty ? [10, 100_000] : sizes {
      let model = DataGenerator.model(lists: 1, itemsPerList: size)
      var row: [Double] = []
      for key in [Key.down, .character(" "), .pageDown, .up] {
        row.append(microseconds(model: model, key: key, repetitions: repetitions))
      }
      if baseline.isEmpty { baseline = row }
      let cells = zip(row, baseline).map { value, base in
        String(format: "%.2f (×%.2f)", value, base > 0 ? value / base : 0)
      }
      print("| \(size) | " + cells.joined(separator: " | ") + " |")
    }
    print()
    listFilter(size: sizes.last ?? 100_000)
    print()
    plannerKeys(total: sizes.last ?? 100_000)
    return 0
  }

  /// Typing a filter in one list (`/` then `m`), then `i` and Backspace: every key filters the
  /// whole list again (ASCII items byte by byte, the others folded).
  static func listFilter(size: Int) {
    let model = DataGenerator.model(lists: 1, itemsPerList: size)
    let now = Date(timeIntervalSince1970: 1_795_000_000)
    var app = ChecklistsApp(model: model, size: (width: 100, height: 30), now: now)
    _ = app.handle(.key(.enter), now: now)
    for key in [Key.character("/"), .character("m")] { _ = app.handle(.key(key), now: now) }
    var grid = CellGrid(width: 100, height: 30)
    let result = Measure.milliseconds(runs: 9) {
      for key in [Key.character("i"), .backspace] {
        _ = app.handle(.key(key), now: now)
        grid.clear()
        app.render(into: &grid, now: now)
      }
    }
    print(
      "a list's filter at \(size) items: i + Backspace \(result.text) ms (median, min–max of 9)")
  }

  /// The keys of Today, Scheduled and search, and moving an item, at `total` items in 100
  /// lists, half of them with a due date.
  static func plannerKeys(total: Int) {
    let generated = DataGenerator.model(lists: 100, itemsPerList: max(total / 100, 1))
    var lists: [Checklist] = []
    for list in generated.lists {
      var items = list.items
      for index in items.indices where index % 2 == 0 { items[index].hasDueDate = true }
      lists.append(Checklist(name: list.name, iconName: list.iconName, items: items))
    }
    let model = DataModel(lists: lists, nextItemID: generated.nextItemID)
    let now = Date(timeIntervalSince1970: 1_795_000_000)
    let repetitions = 200
    let search: [Key] = [.character("/")] + "milk".map { Key.character($0) } + [.enter]
    print(
      "Today, Scheduled and search in-process at \(model.itemCount) items in 100 lists: µs per "
        + "key (update + render 100×30), median of 5 × \(repetitions)")
    print("| view | key | µs |")
    print("|---|---|---|")
    let keys: [(String, [Key], [Key], String)] = [
      ("All Lists", [.home], [.down, .up], "Down Up"),
      ("Today", [.home, .enter], [.down], "Down"),
      ("Today", [.home, .enter], [.character(" ")], "Space (check)"),
      ("Scheduled", [.home, .down, .enter], [.down], "Down"),
      ("Scheduled", [.home, .down, .enter], [.character(" ")], "Space (check)"),
      ("Scheduled", [.home, .down, .enter], [.character("m"), .enter], "m Enter (move)"),
      ("search", search, [.down], "Down"),
      ("search", search, [.character(" ")], "Space (check)"),
      (
        "typing a search", [.character("/"), .character("m")], [.character("i"), .backspace],
        "i Backspace"
      ),
    ]
    for (view, setup, pressed, names) in keys {
      var app = ChecklistsApp(model: model, size: (width: 100, height: 30), now: now)
      for key in setup { _ = app.handle(.key(key), now: now) }
      var grid = CellGrid(width: 100, height: 30)
      var samples: [Double] = []
      for _ in 0..<5 {
        let start = Measure.now()
        for _ in 0..<repetitions {
          for key in pressed {
            _ = app.handle(.key(key), now: now)
            grid.clear()
            app.render(into: &grid, now: now)
          }
        }
        samples.append((Measure.now() - start) * 1e6 / Double(repetitions * pressed.count))
      }
      print(String(format: "| %@ | %@ | %.1f |", view, names, Summary(samples).median))
    }
  }

  private static func microseconds(model: DataModel, key: Key, repetitions: Int) -> Double {
    let now = Date(timeIntervalSince1970: 1_790_000_000)
    var app = ChecklistsApp(
      model: model, checklistIndex: 0, size: (width: 100, height: 30), now: now)
    var grid = CellGrid(width: 100, height: 30)
    app.render(into: &grid, now: now)
    var samples: [Double] = []
    for _ in 0..<5 {
      let start = Measure.now()
      for _ in 0..<repetitions {
        _ = app.handle(.key(key), now: now)
        grid.clear()
        app.render(into: &grid, now: now)
      }
      samples.append((Measure.now() - start) * 1e6 / Double(repetitions))
      // Keep the selection away from the ends so that every key does its work.
      _ = app.handle(.key(.home), now: now)
    }
    return Summary(samples).median
  }
}
