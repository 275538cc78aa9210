import ChecklistsCore
import FoundationEssentials

/// The list detail screen (add or edit), with its icon picker.
struct ListFormScreen: Screen {
  /// The fields, in Tab order.
  enum Field: Int, CaseIterable { case name, icon }

  /// Whether the user said yes to a name another list has (asked at Done).
  var duplicateNameConfirmed = false

  /// The list being edited, nil when adding.
  var listID: Checklist.ID?
  /// The Name field.
  var name: TextField
  /// The chosen icon name.
  var iconName: String
  /// The field with the focus.
  var focus: Field = .name
  /// The list as it was when a merge took it away (deleted elsewhere while the form was open):
  /// Done puts it back with the form's name and icon.
  var keptList: Checklist?
  /// The list's name and icon when the form opened on it: Done changes only what the form
  /// changed, so a rename or another icon made elsewhere meanwhile stays (nil when adding).
  var openedName: String?
  var openedIconName: String?
}

extension ListFormScreen {
  func keyScreen(in app: ChecklistsApp) -> KeyScreen {
    focus == .icon ? .icon : .form
  }

  var helpContext: HelpContext? { .listForm }

  var interruptKeeps: String? { "the list" }

  func hints(in app: ChecklistsApp) -> [Hint]? {
    func hint(_ action: KeyAction, _ label: String, _ rank: Int) -> Hint {
      Hint(actions: [action], label: label, dropRank: rank)
    }
    if focus == .icon {
      return [
        hint(.chooseIcon, "choose icon", 0), hint(.cancel, "cancel", 0),
        hint(.nextField, "name", 2), hint(.help, "help", 1),
      ]
    }
    return [
      hint(.done, "done", 0), hint(.cancel, "cancel", 0), hint(.nextField, "icon", 2),
      hint(.help, "help", 1),
    ]
  }

  mutating func perform(_ action: KeyAction, key: Key, now: Date, app: inout ChecklistsApp)
    -> ScreenReply
  {
    if action.motion != nil { return .handled() }
    if action == .chooseIcon {
      openIconPicker(in: &app)
      return .handled()
    }
    if let reply = app.formAnswersFirst(action) { return reply }
    let outcome = app.listFormOutcome(action, form: &self)
    return app.formReply(outcome) { [self] in $0.finishListForm(self, now: now) }
  }

  mutating func type(_ key: Key, now: Date, app: inout ChecklistsApp) -> ScreenReply {
    if focus == .name {
      _ = name.handle(key)
    } else {
      app.unknownKey(key, on: keyScreen(in: app))
    }
    return .handled()
  }

  mutating func paste(_ text: String, now: Date, app: inout ChecklistsApp) -> ScreenReply {
    if focus == .name { name.insert(text) }
    return .handled()
  }

  mutating func click(_ mouse: MouseEvent, now: Date, app: inout ChecklistsApp) -> ScreenReply {
    guard mouse.kind == .press else { return .handled() }
    if mouse.position.row == 2 {
      focus = .name
    } else if mouse.position.row == ChecklistsApp.listFormIconRow(height: app.height) {
      focus = .icon
      openIconPicker(in: &app)
    }
    return .handled()
  }

  /// Opens the icon picker on the form's icon.
  private func openIconPicker(in app: inout ChecklistsApp) {
    app.stack.push(
      IconPickerScreen(selected: IconName.allCases.firstIndex { $0.rawValue == iconName } ?? 0))
  }

  var drawsContent: Bool { true }

  func draw(into grid: inout CellGrid, now: Date, app: ChecklistsApp) {
    app.renderListForm(self, into: &grid)
  }
}

extension ChecklistsApp {
  /// The list form, when one is open.
  var listForm: ListFormScreen? { stack.first(ListFormScreen.self) }
}

extension ListFormScreen {
  /// Keeps the form on its list after a merge replaced `before`: a list deleted elsewhere is
  /// remembered as it was, for Done to put back, until it comes back under a new identity
  /// (deleted and put back elsewhere), when the form follows it. Returns a note for the status
  /// line when the user should know.
  mutating func followMerge(before: DataModel, in app: ChecklistsApp) -> String? {
    guard let id = listID, app.dataModel.list(withID: id) == nil,
      let gone = keptList ?? before.list(withID: id)
    else { return nil }
    if let back = ChecklistsApp.sameList(as: gone, in: app.dataModel, before: before) {
      listID = back.id
      keptList = nil
      return nil
    }
    guard keptList == nil else { return nil }
    keptList = gone
    return "List \(app.quoted(gone.name)) was deleted elsewhere: Done keeps it"
  }
}
