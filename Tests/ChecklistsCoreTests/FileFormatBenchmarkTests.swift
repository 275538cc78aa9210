import ChecklistsTestSupport
import Foundation
import Testing

@testable import ChecklistsCore

/// Prints decode and encode times per item next to Foundation's (no timing assertions).
///
/// Release builds use the real size, 1,000 lists of 100 items; debug builds a tenth of it.
@Suite struct FileFormatBenchmarkTests {
  #if DEBUG
    private static let listCount = 100
  #else
    private static let listCount = 1_000
  #endif

  private func model() -> [Checklist] {
    var generator = SeededGenerator(seed: 100)
    let base = Date(timeIntervalSinceReferenceDate: 800_000_000)
    var itemID = 0
    return (0..<Self.listCount).map { listIndex in
      let items = (0..<100).map { index -> ChecklistItem in
        itemID += 1
        return ChecklistItem(
          text:
            "Item \(index) of list \(listIndex) \(UInt32.random(in: 0...99_999, using: &generator))",
          checked: Bool.random(using: &generator),
          dueDate: base.addingTimeInterval(
            Double(Int.random(in: 0...10_000_000, using: &generator))),
          shouldRemind: Bool.random(using: &generator), itemID: itemID)
      }
      return Checklist(name: "List \(listIndex)", iconName: "Folder", items: items)
    }
  }

  /// The best of three runs, in microseconds per item.
  private func measure(_ items: Int, _ body: () throws -> Void) rethrows -> Double {
    var best = Duration.seconds(1_000)
    for _ in 0..<3 {
      let start = ContinuousClock.now
      try body()
      best = min(best, ContinuousClock.now - start)
    }
    let seconds = Double(best.components.seconds) + Double(best.components.attoseconds) * 1e-18
    return seconds * 1e6 / Double(items)
  }

  @Test func decodeAndEncodeTimes() throws {
    let lists = model()
    let items = lists.reduce(0) { $0 + $1.items.count }
    var lines = ["codec timing for \(items) items (µs per item, best of 3):"]
    for format in [PlistFormat.binary, .xml] {
      let data = try ChecklistsFileCoding.encode(lists, format: format).data
      var decoded: [Checklist] = []
      let ourDecode = try measure(items) { decoded = try ChecklistsFileCoding.decode(data).lists }
      #expect(decoded == lists)
      let ourEncode = try measure(items) {
        _ = try ChecklistsFileCoding.encode(lists, format: format)
      }
      let decoder = PropertyListDecoder()
      var theirs: [Checklist] = []
      let foundationDecode = try measure(items) {
        theirs = try decoder.decode([Checklist].self, from: data)
      }
      #expect(theirs == lists)
      let encoder = PropertyListEncoder()
      encoder.outputFormat = format == .binary ? .binary : .xml
      let foundationEncode = try measure(items) { _ = try encoder.encode(lists) }
      lines.append(
        "  \(format): \(data.count) bytes; decode ours \(format2(ourDecode)) vs Foundation"
          + " \(format2(foundationDecode)); encode ours \(format2(ourEncode)) vs Foundation"
          + " \(format2(foundationEncode))")
    }
    print(lines.joined(separator: "\n"))
  }

  private func format2(_ value: Double) -> String { String(format: "%.2f", value) }
}
