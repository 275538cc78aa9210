import ChecklistsCore
import FoundationEssentials

/// The photo file picker over the item form (`choose-photo` on the Photo row): a folder's
/// folders and images, filtered by typing; picking an image attaches it to the form below.
struct PhotoPickerScreen: Screen {
  /// The folder shown, its entries, the filter and the highlighted entry.
  var picker: PhotoPicker

  func keyScreen(in app: ChecklistsApp) -> KeyScreen { .photoPicker }

  var helpContext: HelpContext? { .photoPicker }

  func hints(in app: ChecklistsApp) -> [Hint]? {
    [
      Hint(actions: [.pick], label: "open/pick", dropRank: 0),
      Hint(actions: [.closePicker], label: "back", dropRank: 0),
      Hint(actions: [.parentFolder], label: "parent", dropRank: 1),
      Hint(actions: [.completePath], label: "complete", dropRank: 2),
    ]
  }

  mutating func perform(_ action: KeyAction, key: Key, now: Date, app: inout ChecklistsApp)
    -> ScreenReply
  {
    switch action {
    case .interrupt, .save, .suspend, .help, .quit: return .passed
    default: return answer(app.performInPhotoPicker(action, picker: &picker), app: &app)
    }
  }

  mutating func type(_ key: Key, now: Date, app: inout ChecklistsApp) -> ScreenReply {
    app.typeInPhotoPicker(key, picker: &picker)
    return .handled()
  }

  mutating func paste(_ text: String, now: Date, app: inout ChecklistsApp) -> ScreenReply {
    app.pasteInPhotoPicker(text, picker: &picker)
    return .handled()
  }

  mutating func click(_ mouse: MouseEvent, now: Date, app: inout ChecklistsApp) -> ScreenReply {
    answer(app.handlePhotoPickerMouse(mouse, picker: &picker), app: &app)
  }

  /// What the picker's outcome means for the stack: a picked file goes to the form below.
  private func answer(_ outcome: PhotoPickerOutcome, app: inout ChecklistsApp) -> ScreenReply {
    switch outcome {
    case .stay: return .handled()
    case .typing: return .typing
    case .close: return .close
    case .attach(let path):
      if var form = app.itemForm {
        _ = app.attachPhoto(path, form: &form)
        app.stack.update(ItemFormScreen.self) { $0 = form }
      }
      return .close
    }
  }

  var drawsContent: Bool { true }

  /// The highlighted image's preview, on a wide terminal.
  func photoBoxes(in app: ChecklistsApp) -> [PhotoBox]? {
    app.pickerPhotoBox(picker).map { [$0] } ?? []
  }

  func draw(into grid: inout CellGrid, now: Date, app: ChecklistsApp) {
    app.renderPhotoPicker(picker, into: &grid)
  }
}

/// What a key or a click did in the photo picker.
enum PhotoPickerOutcome: Equatable {
  /// The picker stays open (the folder, the filter or the selection may have changed).
  case stay
  /// The action does not apply here: the key is typing in the filter.
  case typing
  /// Back to the form, choosing nothing.
  case close
  /// The file at this path was picked: the form attaches it.
  case attach(String)
}

extension ChecklistsApp {
  /// The photo picker, when it shows.
  var photoPicker: PhotoPickerScreen? { stack.first(PhotoPickerScreen.self) }
}
