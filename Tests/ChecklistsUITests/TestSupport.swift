import ChecklistsCore
import Foundation

@testable import ChecklistsUI

/// UTC Gregorian calendar so dates render the same everywhere.
let utc: Calendar = {
  var calendar = Calendar(identifier: .gregorian)
  calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
  return calendar
}()

/// 2027-01-15 08:10 UTC.
let testNow = Date(timeIntervalSince1970: 1_800_000_600)

/// An item due `minutes` after `testNow`.
func item(
  _ text: String, checked: Bool = false, dueInMinutes minutes: Double = 0, remind: Bool = false,
  id: Int
) -> ChecklistItem {
  ChecklistItem(
    text: text, checked: checked, dueDate: testNow.addingTimeInterval(minutes * 60),
    shouldRemind: remind, itemID: id)
}

/// The model most tests use: Groceries (3 items, 2 unchecked), Chores (empty), Trips (all done).
func sampleModel() -> DataModel {
  DataModel(lists: [
    Checklist(
      name: "Groceries", iconName: "Groceries",
      items: [
        item("Milk", id: 1), item("Bread", checked: true, id: 2),
        item("Pay rent", dueInMinutes: 30, remind: true, id: 3),
      ]),
    Checklist(name: "Chores", iconName: "Chores"),
    Checklist(name: "Trips", iconName: "Trips", items: [item("Passport", checked: true, id: 4)]),
  ])
}

func makeApp(
  _ model: DataModel = sampleModel(), checklistIndex: Int = -1, openView: String? = nil,
  width: Int = 60, height: Int = 15, ascii: Bool = false, bell: Bool = true,
  sortByDue: Set<String> = [], now: Date = testNow
) -> ChecklistsApp {
  ChecklistsApp(
    model: model, checklistIndex: checklistIndex, openView: openView, sortByDue: sortByDue,
    options: AppOptions(asciiGlyphs: ascii, bellEnabled: bell, timeZone: .utc),
    size: (width, height), now: now)
}

extension ChecklistsApp {
  /// Sends keys; returns the effects of all of them.
  @discardableResult
  mutating func press(_ keys: Key..., now: Date = testNow) -> [Effect] {
    var effects: [Effect] = []
    for key in keys { effects += handle(.key(key), now: now) }
    return effects
  }

  /// Types text one character at a time.
  mutating func type(_ text: String, now: Date = testNow) {
    for character in text { _ = handle(.key(.character(character)), now: now) }
  }

  /// The screen as text.
  func screen(now: Date = testNow) -> String {
    var grid = CellGrid(width: width, height: height)
    render(into: &grid, now: now)
    return grid.snapshot
  }

  /// The rendered grid.
  func grid(now: Date = testNow) -> CellGrid {
    var grid = CellGrid(width: width, height: height)
    render(into: &grid, now: now)
    return grid
  }

  /// The open list, if any.
  var openList: Checklist? { open.flatMap { dataModel.list(withID: $0.listID) } }

  /// The item index of the selected row on the checklist screen.
  var selectedItemIndex: Int? { open.flatMap { $0.browser.index(ofRow: $0.browser.selected) } }
}
