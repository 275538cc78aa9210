import ChecklistsCore
import FoundationEssentials

/// A y/n question about a list: any key but yes keeps things as they are.
enum Confirmation: Equatable, Sendable {
  /// Delete the list?
  case deleteList(Checklist.ID)
  /// Delete the list's checked items?
  case clearChecked(Checklist.ID)
  /// Give the list form's list the name another list has (named as that list spells it)?
  case duplicateListName(String)
  /// Delete the item (by `itemID`) with its subtasks?
  case deleteWithSubtasks(Checklist.ID, itemID: Int)
}

/// The y/n question on the status line, over the screen it was asked on.
struct ConfirmationScreen: Screen {
  /// What is asked.
  var question: Confirmation

  func keyScreen(in app: ChecklistsApp) -> KeyScreen { .confirm }

  mutating func perform(_ action: KeyAction, key: Key, now: Date, app: inout ChecklistsApp)
    -> ScreenReply
  {
    switch action {
    case .yes:
      switch question {
      case .clearChecked(let id):
        app.clearChecked(listID: id, now: now)
      case .duplicateListName:
        app.confirmDuplicateListName(now: now)
      case .deleteList(let id):
        app.deleteList(id: id, now: now)
      case .deleteWithSubtasks(let id, let itemID):
        app.deleteWithSubtasks(listID: id, itemID: itemID, now: now)
      }
      return .close
    case .help, .messages: return .handled()
    default: return .passed
    }
  }

  mutating func type(_ key: Key, now: Date, app: inout ChecklistsApp) -> ScreenReply {
    let kept: String
    switch question {
    case .clearChecked: kept = "Kept the checked items"
    case .duplicateListName: kept = "Not saved: give the list another name"
    case .deleteList: kept = "Kept the list"
    case .deleteWithSubtasks: kept = "Kept the item and its subtasks"
    }
    app.status = StatusMessage(text: kept, isError: false)
    return .close
  }

  mutating func paste(_ text: String, now: Date, app: inout ChecklistsApp) -> ScreenReply {
    .handled()
  }

  mutating func click(_ mouse: MouseEvent, now: Date, app: inout ChecklistsApp) -> ScreenReply {
    .handled()
  }

  func drawStatus(into grid: inout CellGrid, app: ChecklistsApp) -> Bool {
    guard let prompt = app.prompt(for: question, width: grid.width) else { return false }
    let row = grid.height - 1
    let style = CellStyle(color: .accent, attributes: [.bold])
    grid.fill(row: row, column: 0, width: grid.width, style: style)
    grid.draw(prompt, row: row, column: 0, width: grid.width, style: style)
    return true
  }
}
