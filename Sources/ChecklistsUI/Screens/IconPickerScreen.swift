import ChecklistsCore
import FoundationEssentials

/// The icon picker under the list form's Icon row (`choose-icon`): every icon; picking one
/// sets the form's icon. The form below draws it as a list under the row.
struct IconPickerScreen: RowPickerScreen {
  /// The highlighted icon (an index into `IconName.allCases`).
  var selected: Int

  var helpContext: HelpContext? { .iconPicker }

  var choiceCount: Int { IconName.allCases.count }

  func pageRows(in app: ChecklistsApp) -> Int { app.pickerRows }

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
        pick(index, in: &app)
        return .close
      }
    }
    return .handled()
  }

  /// Sets the form's icon; the focus goes on to the name, where Enter is Done (on the Icon row
  /// it would open the picker again).
  func pick(_ index: Int, in app: inout ChecklistsApp) {
    let icons = IconName.allCases
    guard icons.indices.contains(index) else { return }
    app.stack.update(ListFormScreen.self) {
      $0.iconName = icons[index].rawValue
      $0.focus = .name
    }
  }
}

extension ChecklistsApp {
  /// The icon picker, when it is open.
  var iconPicker: IconPickerScreen? { stack.first(IconPickerScreen.self) }
}
