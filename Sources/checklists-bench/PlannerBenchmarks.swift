import ChecklistsCore
import Foundation

/// `planner`: CPU time of search (index build, each keystroke), the Today and Scheduled
/// views, moving an item, clearing a list and a repeat step, in-process at 100,000 items.
enum PlannerBenchmarks {
  static func run(_ arguments: [String]) -> Int32 {
    let total = arguments.compactMap { Int($0) }.first ?? 100_000
    let now = Date(timeIntervalSince1970: 1_792_000_000)
    for (lists, perList) in [(100, total / 100), (1, total)] {
      var model = DataGenerator.model(lists: lists, itemsPerList: perList)
      model = withNotes(model)
      print("\(lists) list\(lists == 1 ? "" : "s") of \(perList) items (every 10th with a note):")
      print()
      print("| operation | median | min | max |")
      print("|---|---|---|---|")
      let build = Measure.milliseconds(runs: 5) { _ = SearchIndex(model) }
      row("search index build (ms)", build)
      let index = SearchIndex(model)
      // Typing "crème" one character at a time; the first is a full search.
      let query = Array("crème")
      let fresh = SearchSession(model)
      let keystrokes = Measure.milliseconds(runs: 21) {
        var session = fresh
        for length in 1...query.count { session.update(query: String(query.prefix(length))) }
      }
      row("typing \"crème\", 5 keystrokes in all (ms)", keystrokes)
      let first = Measure.milliseconds(runs: 21) { _ = index.search("c") }
      row("first keystroke \"c\", full search (ms)", first)
      let worst = Measure.milliseconds(runs: 21) { _ = index.search("zzz") }
      row("full search with no match (ms)", worst)
      let previous = index.search("cr")
      let refine = Measure.milliseconds(runs: 21) { _ = index.refine(previous, to: "crè") }
      row("one more keystroke \"cr\" → \"crè\" (ms)", refine)
      let results = index.search("milk")
      let grouping = Measure.milliseconds(runs: 21) { _ = index.groups(results) }
      row("grouping \(results.count) results by list (ms)", grouping)
      let smart = SmartLists(timeZone: (try? ZoneRules.named("Europe/Berlin")) ?? .current)
      row("Today view (ms)", Measure.milliseconds(runs: 21) { _ = smart.today(model, now: now) })
      row(
        "Today count (ms)",
        Measure.milliseconds(runs: 21) { _ = smart.counts(model, now: now) })
      row(
        "Scheduled view (ms)",
        Measure.milliseconds(runs: 11) { _ = smart.scheduled(model, now: now) })
      let listID = model.lists[0].id
      if model.lists.count > 1 {
        let target = model.lists[1].id
        let move = Measure.milliseconds(runs: 201) {
          guard let change = model.moveItemToList(listID: listID, at: 0, toListID: target)
          else { return }
          model.apply(change)
          model.apply(change.inverse)
        }
        row("move to another list and back (ms)", move)
      }
      let clear = Measure.milliseconds(runs: 5) {
        guard let change = model.clearChecked(listID: listID) else { return }
        model.apply(change)
        model.apply(change.inverse)
      }
      row("clear checked of a list of \(perList) and undo (ms)", clear)
      print()
    }
    let schedule = RepeatSchedule(timeZone: (try? ZoneRules.named("America/New_York")) ?? .current)
    let start = Date(timeIntervalSince1970: 1_790_000_000)
    let step = Measure.milliseconds(runs: 11) {
      var due = start
      for _ in 0..<1_000 { due = schedule.next(after: due, rule: .monthly).date }
    }
    print(String(format: "repeat: %.2f µs per monthly step (median of 11 × 1,000)", step.median))
    return 0
  }

  private static func row(_ name: String, _ summary: Summary) {
    print(
      "| \(name) | "
        + String(format: "%.3f | %.3f | %.3f", summary.median, summary.min, summary.max)
        + " |")
  }

  /// The model with a two-line note on every 10th item.
  private static func withNotes(_ model: DataModel) -> DataModel {
    var lists = model.lists
    for index in lists.indices {
      var items = lists[index].items
      for item in items.indices where item % 10 == 0 {
        items[item].note = "Remember the crème fraîche\nand the receipt"
      }
      lists[index].setItems(items)
    }
    return DataModel(lists: lists, nextItemID: model.nextItemID)
  }
}
