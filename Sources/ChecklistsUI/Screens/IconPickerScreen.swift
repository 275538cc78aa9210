import ChecklistsCore
import FoundationEssentials

/// The icon picker under the list form's Icon row (`choose-icon`): every icon; picking one
/// sets the form's icon. The form below draws it as a list under the row.
struct IconPickerScreen: Screen {
  /// The highlighted icon (an index into `IconName.allCases`).
  var selected: Int

  func keyScreen(in app: ChecklistsApp) -> KeyScreen { .picker }

  var helpContext: HelpContext? { .iconPicker }

  func hints(in app: ChecklistsApp) -> [Hint]? { Hint.picking }

  mutating func perform(_ action: KeyAction, key: Key, now: Date, app: inout ChecklistsApp)
    -> ScreenReply
  {
    if let motion = action.motion {
      selected = motion.target(
        from: selected, count: IconName.allCases.count, page: app.pickerRows)
      return .handled()
    }
    switch action {
    case .pick:
      let icons = IconName.allCases
      pick(icons[min(max(selected, 0), icons.count - 1)], in: &app)
      return .close
    case .closePicker: return .close
    case .interrupt, .save, .suspend, .help, .quit: return .passed
    default: return .handled()
    }
  }

  mutating func type(_ key: Key, now: Date, app: inout ChecklistsApp) -> ScreenReply {
    app.unknownKey(key, on: .picker)
    return .handled()
  }

  mutating func paste(_ text: String, now: Date, app: inout ChecklistsApp) -> ScreenReply {
    .handled()
  }

  /// The wheel moves the selection; a click on an icon picks it.
  mutating func click(_ mouse: MouseEvent, now: Date, app: inout ChecklistsApp) -> ScreenReply {
    let icons = IconName.allCases
    let iconRow = ChecklistsApp.listFormIconRow(height: app.height)
    switch mouse.kind {
    case .wheelUp: selected = max(selected - 1, 0)
    case .wheelDown: selected = min(selected + 1, icons.count - 1)
    case .press:
      let index =
        ChecklistsApp.pickerTop(selection: selected, height: app.height) + mouse.position.row
        - iconRow - 1
      if mouse.position.row > iconRow, mouse.position.row < app.height - 1,
        icons.indices.contains(index)
      {
        pick(icons[index], in: &app)
        return .close
      }
    }
    return .handled()
  }

  /// Sets the form's icon; the focus goes on to the name, where Enter is Done (on the Icon row
  /// it would open the picker again).
  private func pick(_ icon: IconName, in app: inout ChecklistsApp) {
    app.stack.update(ListFormScreen.self) {
      $0.iconName = icon.rawValue
      $0.focus = .name
    }
  }
}

extension Hint {
  /// The hints of a picker under a form's row (the icon and Repeat pickers).
  static let picking = [
    Hint(actions: [.pick], label: "pick", dropRank: 0),
    Hint(actions: [.closePicker], label: "back", dropRank: 0),
    Hint(actions: [.help], label: "help", dropRank: 1),
  ]
}

extension ChecklistsApp {
  /// The icon picker, when it is open.
  var iconPicker: IconPickerScreen? { stack.first(IconPickerScreen.self) }
}
