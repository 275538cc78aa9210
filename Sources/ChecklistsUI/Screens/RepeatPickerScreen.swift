import ChecklistsCore
import FoundationEssentials

/// The Repeat picker under the item form's Repeat row (`choose-repeat`): Never, the common
/// rules and the item's own; picking one sets the form's Repeat field. The form below draws it
/// as a list under the row.
struct RepeatPickerScreen: RowPickerScreen {
  /// What it offers: the form's `repeatChoices`.
  var choices: [RepeatRule?]
  /// The highlighted choice.
  var selected: Int

  var helpContext: HelpContext? { .repeatPicker }

  var choiceCount: Int { choices.count }

  /// The wheel moves the selection; a click on a choice picks it; a click on another field
  /// closes the picker and goes to that field (on the Repeat row it opens the picker again).
  mutating func click(_ mouse: MouseEvent, now: Date, app: inout ChecklistsApp) -> ScreenReply {
    guard mouse.kind == .press else {
      let step = mouse.kind == .wheelDown ? 1 : -1
      selected = min(max(selected + step, 0), choices.count - 1)
      return .handled()
    }
    guard let form = app.itemForm else { return .close }
    let layout = app.itemFormLayout(form, width: app.width, height: app.height, repeatPicker: self)
    guard let field = layout.field(at: mouse.position.row), let place = layout.places[field]
    else { return .handled() }
    if field == .repeat, mouse.position.row > place.row {
      let first = ChecklistsApp.repeatPickerTop(
        selection: selected, count: choices.count, rows: layout.pickerRows)
      pick(first + mouse.position.row - place.row - 1, in: &app)
      return .close
    }
    if field == .repeat {
      selected = choices.firstIndex(of: form.repeatRule) ?? 0
      return .handled()
    }
    let helper = app
    app.stack.update(ItemFormScreen.self) { form in
      form.focus = field
      if field == .remind { helper.setRemind(!form.remind, form: &form, now: now) }
    }
    return .close
  }

  /// Sets the form's Repeat field to the choice at `index`, if there is one.
  func pick(_ index: Int, in app: inout ChecklistsApp) {
    guard choices.indices.contains(index) else { return }
    let rule = choices[index]
    app.stack.update(ItemFormScreen.self) { $0.repeatRule = rule }
  }

  /// How many choices show at once under the Repeat row.
  func pageRows(in app: ChecklistsApp) -> Int {
    guard let form = app.itemForm else { return 1 }
    return app.itemFormLayout(form, width: app.width, height: app.height, repeatPicker: self)
      .pickerRows
  }
}

extension ChecklistsApp {
  /// The Repeat picker, when it is open.
  var repeatPicker: RepeatPickerScreen? { stack.first(RepeatPickerScreen.self) }
}
