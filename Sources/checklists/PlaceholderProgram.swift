// PROVISIONAL: stands in for the UI's `ChecklistsApp` until it is merged.
import ChecklistsCore
import ChecklistsUI
import Foundation

/// A minimal program: shows the list names; `a` adds a list, `q`/Ctrl-C quit, Ctrl-Z suspends.
struct PlaceholderProgram: TerminalProgram {
  var dataModel: DataModel
  var isDirty = false
  var checklistIndex: Int { -1 }
  private var typing: String?
  private var status = ""

  init(dataModel: DataModel) { self.dataModel = dataModel }

  mutating func handle(_ event: InputEvent, now: Date) -> [Effect] {
    switch event {
    case .key(let key):
      if var text = typing {
        switch key {
        case .character(let character): text.append(character)
        case .backspace: if !text.isEmpty { text.removeLast() }
        case .escape:
          typing = nil
          return []
        case .enter:
          let list = dataModel.makeList(name: text)
          _ = dataModel.apply(dataModel.insertList(list))
          isDirty = true
          typing = nil
          return []
        default: return [.bell]
        }
        typing = text
        return []
      }
      switch key {
      case .character("q"), .control("c"): return [.quit]
      case .control("z"): return [.suspend]
      case .control("s"): return [.save]
      case .character("a"): typing = ""
      default: break
      }
    case .paste(let text): typing = (typing ?? "") + text
    case .saveFinished(let outcome):
      status = outcome.message
      if outcome.succeeded { isDirty = false }
    default: break
    }
    return []
  }

  func render(into grid: inout CellGrid, now: Date) {
    func put(_ text: String, row: Int) {
      for (column, character) in text.enumerated() {
        grid[row, column] = Cell(text: String(character))
      }
    }
    put("Checklists", row: 0)
    for (index, list) in dataModel.lists.enumerated() { put(list.name, row: index + 2) }
    if let typing {
      put("Name: " + typing, row: grid.height - 1)
      grid.cursor = GridPosition(row: grid.height - 1, column: 6 + typing.count)
    } else {
      put(status, row: grid.height - 1)
    }
  }

  func nextWakeUp(after now: Date) -> Date? { nil }
}
