import ChecklistsCore
import FoundationEssentials

/// A picker drawn by its form as a list under one of the form's rows (the icon and Repeat
/// pickers): the motions move the highlight, `pick` sets the form's field and closes it,
/// `close-picker` closes it, and other keys do nothing but say so.
protocol RowPickerScreen: Screen {
  /// The highlighted choice.
  var selected: Int { get set }
  /// How many choices it offers.
  var choiceCount: Int { get }
  /// How many choices show at once (a page for PgUp/PgDn).
  func pageRows(in app: ChecklistsApp) -> Int
  /// Sets the form's field to the choice at `index`.
  func pick(_ index: Int, in app: inout ChecklistsApp)
}

extension RowPickerScreen {
  func keyScreen(in app: ChecklistsApp) -> KeyScreen { .picker }

  func hints(in app: ChecklistsApp) -> [Hint]? {
    [
      Hint(actions: [.pick], label: "pick", dropRank: 0),
      Hint(actions: [.closePicker], label: "back", dropRank: 0),
      Hint(actions: [.help], label: "help", dropRank: 1),
    ]
  }

  mutating func perform(_ action: KeyAction, key: Key, now: Date, app: inout ChecklistsApp)
    -> ScreenReply
  {
    if let motion = action.motion {
      selected = motion.target(from: selected, count: choiceCount, page: pageRows(in: app))
      return .handled()
    }
    switch action {
    case .pick:
      pick(min(max(selected, 0), choiceCount - 1), in: &app)
      return .close
    case .closePicker: return .close
    case .quit:
      // As in its form, `q` does not quit here: say how to leave the picker instead.
      let pick = app.keyName(.pick, on: .picker, or: "Enter")
      let back = app.keyName(.closePicker, on: .picker, or: "Esc")
      let quit = app.keys.keyName(.quit, on: .lists).map { "; \($0) quits from the lists" } ?? ""
      app.status = StatusMessage(text: "\(pick) picks, \(back) goes back\(quit)", isError: false)
      return .handled()
    case .interrupt, .save, .suspend, .help: return .passed
    default: return .handled()
    }
  }

  mutating func type(_ key: Key, now: Date, app: inout ChecklistsApp) -> ScreenReply {
    app.unknownKey(key, on: .picker)
    return .handled()
  }
}
