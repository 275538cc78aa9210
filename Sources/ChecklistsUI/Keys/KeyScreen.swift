/// Where a binding applies: a screen, or a part of one (a form's row, the icon picker).
///
/// A key is looked up in the most specific screen first, then in its `fallbacks`: on a
/// Checklist in `checklist`, then `browse`, then `generic`. The first binding found wins, so
/// `bind checklist j none` unbinds `j` on a Checklist only.
enum KeyScreen: String, CaseIterable, Sendable, Codable {
  /// Every screen but the quit prompt, forms and help included.
  case generic
  /// All Lists and a Checklist.
  case browse
  /// All Lists.
  case lists
  /// A Checklist.
  case checklist
  /// Today, Scheduled and search results: items from every list.
  case planner
  /// Typing a filter (after `/`).
  case filter
  /// Any field of the item and list forms.
  case form
  /// The item form's Remind Me row.
  case remind
  /// The item form's Due Date field.
  case due
  /// The item form's Notes field (several lines).
  case note
  /// The item form's Repeat row.
  case `repeat`
  /// The item form's Photo row.
  case photo
  /// The photo file picker (typing filters it).
  case photoPicker = "photo-picker"
  /// The list form's Icon row.
  case icon
  /// The icon picker, the Repeat picker and the list picker.
  case picker
  /// The help screen.
  case help
  /// The question before a list is deleted.
  case confirm
  /// The question after quitting could not save.
  case quitPrompt = "quit-prompt"
  /// Typing the path to save to after quitting could not save.
  case savePath = "save-path"

  /// The screens looked in after this one, most specific first.
  var fallbacks: [KeyScreen] {
    switch self {
    case .generic, .quitPrompt, .savePath: return []
    case .browse, .filter, .form, .picker, .photoPicker, .help, .confirm: return [.generic]
    case .lists, .checklist, .planner: return [.browse, .generic]
    case .remind, .due, .note, .repeat, .photo, .icon: return [.form, .generic]
    }
  }

  /// This screen and its fallbacks: where a key is looked up, in order.
  var lookupOrder: [KeyScreen] { [self] + fallbacks }

  /// Whether a text field can have the focus while this screen's keys apply: its bindings must
  /// not take keys that are typing (`x`, `<Left>`, `<C-u>`…), or they would shadow text entry.
  var hasTextEntry: Bool {
    switch self {
    case .generic, .filter, .form, .due, .note, .photoPicker, .savePath: return true
    case .browse, .lists, .checklist, .planner, .remind, .repeat, .photo, .icon, .picker, .help,
      .confirm, .quitPrompt:
      return false
    }
  }

  /// What the screen is, for `checklists keys` and the docs.
  var summary: String {
    switch self {
    case .generic: return "every screen (forms and help too)"
    case .browse: return "All Lists, a Checklist, Today, Scheduled and search results"
    case .lists: return "All Lists"
    case .checklist: return "a Checklist"
    case .planner: return "Today, Scheduled and search results (items from every list)"
    case .filter: return "typing a filter or a search"
    case .form: return "the item and list forms"
    case .remind: return "the item form's Remind Me row"
    case .due: return "the item form's Due Date field"
    case .note: return "the item form's Notes field (several lines)"
    case .repeat: return "the item form's Repeat row"
    case .photo: return "the item form's Photo row"
    case .photoPicker: return "the photo file picker (typing filters the names)"
    case .icon: return "the list form's Icon row"
    case .picker: return "the icon picker, the Repeat picker, and the list picker of move to list"
    case .help: return "the help screen"
    case .confirm: return "the y/n question before a list or the checked items are deleted"
    case .quitPrompt: return "the question when quitting could not save"
    case .savePath: return "typing where to save after quitting could not save"
    }
  }
}
