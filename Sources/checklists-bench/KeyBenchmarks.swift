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
    return 0
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
