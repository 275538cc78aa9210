import ChecklistsCore
import FoundationEssentials

/// What the app asks when quitting could not save: retry, save elsewhere, or quit with a rescue
/// copy (like vim's `:w` failing before `:q`: nothing is thrown away without a word).
struct QuitPromptScreen: Screen {
  /// Why the save failed, as the store said it.
  var reason: String
  /// The path being typed for "save elsewhere", nil until `w`.
  var path: TextField?

  func keyScreen(in app: ChecklistsApp) -> KeyScreen { path == nil ? .quitPrompt : .savePath }

  mutating func perform(_ action: KeyAction, key: Key, now: Date, app: inout ChecklistsApp)
    -> ScreenReply
  {
    switch action {
    case .retrySave:
      return .handled(effects: [.quit], closes: true)
    case .saveElsewhere:
      path = TextField()
    case .rescueQuit:
      return .handled(effects: [.quitWithRescueCopy], closes: true)
    case .stay:
      let save = app.keys.keyName(.save, on: .lists).map { " (\($0) tries again)" } ?? ""
      app.status = StatusMessage(
        text: "Not quitting: your changes are not saved yet\(save)", isError: true)
      return .close
    case .saveCopy:
      let path = path?.text.trimmingSpaces() ?? ""
      guard !path.isEmpty else { return .handled() }
      return .handled(effects: [.saveCopyAndQuit(path: path)], closes: true)
    case .cancel:
      path = nil
    default:
      return .passed
    }
    return .handled()
  }

  mutating func type(_ key: Key, now: Date, app: inout ChecklistsApp) -> ScreenReply {
    if var field = path {
      _ = field.handle(key)
      path = field
    }
    return .handled()
  }

  mutating func paste(_ text: String, now: Date, app: inout ChecklistsApp) -> ScreenReply {
    if var field = path {
      field.insert(text)
      path = field
    }
    return .handled()
  }

  /// A Ctrl-C here is the prompt's own (quit with a rescue copy), not a second one in a form.
  var keepsInterruptPending: Bool { true }

  var hidesPhotos: Bool { true }
  var allowsReminderJump: Bool { true }

  /// The prompt's status line, naming the keys in force.
  func text(keys: KeyTable) -> String {
    if path != nil { return "Save the lists to: " }
    let choices: [(KeyAction, String)] = [
      (.retrySave, "retry"), (.saveElsewhere, "save elsewhere"),
      (.rescueQuit, "quit with a rescue copy"), (.stay, "stay"),
    ]
    let words = choices.compactMap { action, label in
      keys.keyName(action, on: .quitPrompt).map { "\($0) \(label)" }
    }
    return "Not saved: " + words.joined(separator: " · ")
  }

  func drawStatus(into grid: inout CellGrid, app: ChecklistsApp) -> Bool {
    let row = grid.height - 1
    let style = CellStyle(color: .error, attributes: [.bold])
    if row >= 1 {
      grid.fill(row: row - 1, column: 0, width: grid.width, style: CellStyle(color: .error))
      grid.draw(
        reason, row: row - 1, column: 0, width: grid.width, style: CellStyle(color: .error))
    }
    let text = text(keys: app.keys)
    grid.fill(row: row, column: 0, width: grid.width, style: style)
    grid.draw(text, row: row, column: 0, width: grid.width, style: style)
    if let field = path {
      let used = DisplayWidth.of(text)
      grid.drawField(
        field, row: row, column: used, width: max(grid.width - used, 0), style: style,
        focused: true)
    }
    return true
  }
}
