import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Selection, scrolling and filter of one list-like screen.
struct Browser: Equatable {
  /// The selected row (an index into the visible rows).
  var selected = 0
  /// The first row shown.
  var top = 0
  /// The filter in force, nil when none.
  var filter: String?
  /// The filter being typed (`/`), nil when not typing.
  var filterField: TextField?
  /// The visible rows as indices into the underlying array, nil when all rows show in order.
  var rows: [Int]?

  /// How many rows show, given how many there are in all.
  func rowCount(total: Int) -> Int { rows?.count ?? total }

  /// The underlying index of a visible row.
  func index(ofRow row: Int) -> Int? {
    guard row >= 0 else { return nil }
    if let rows { return row < rows.count ? rows[row] : nil }
    return row
  }

  /// The visible row of an underlying index, if it shows.
  func row(ofIndex index: Int, total: Int) -> Int? {
    if let rows { return rows.firstIndex(of: index) }
    return index >= 0 && index < total ? index : nil
  }

  /// Keeps the selection in range and on screen for `visibleRows` rows.
  mutating func clamp(total: Int, visibleRows: Int) {
    let count = rowCount(total: total)
    selected = min(max(selected, 0), max(count - 1, 0))
    let page = max(visibleRows, 1)
    if selected < top { top = selected }
    if selected >= top + page { top = selected - page + 1 }
    top = min(max(top, 0), max(count - page, 0))
  }
}

/// The checklist screen: which list is open and how it is shown.
struct OpenList: Equatable {
  /// The list on screen.
  var listID: Checklist.ID
  /// Selection, scrolling, filter.
  var browser = Browser()
  /// The item indices in due-date order, while the list is sorted by due date.
  var dueOrder: [Int]?
}

/// The item detail screen (add or edit).
struct ItemForm: Equatable {
  /// The fields, in Tab order.
  enum Field: Int, CaseIterable { case text, note, remind, due, `repeat`, photo }

  /// The list the item belongs to.
  var listID: Checklist.ID
  /// The index of the item being edited, nil when adding.
  var itemIndex: Int?
  /// The item being edited, as it was.
  var original: ChecklistItem?
  /// The Text field.
  var text: TextField
  /// Remind Me.
  var remind: Bool
  /// How long before the due date Remind Me reminds.
  var reminderLead = ReminderLead.none
  /// The lead times `+` and `-` step through on the Remind Me row: `ReminderLead.choices`, and
  /// the item's own when it is another one (set with the CLI).
  var leadChoices = ReminderLead.choices
  /// The Due Date field.
  var dueText: TextField
  /// Whether the user typed in the Due Date field.
  var dueEdited = false
  /// Whether the Due Date field holds the date Remind Me filled in, untouched: it shows as
  /// selected, and the first character typed (or pasted) replaces it.
  var dueSelected = false
  /// The due date as understood; nil when the typed text cannot be read.
  var dueDate: Date?
  /// Why the typed due date cannot be read.
  var dueError: String?
  /// The field with the focus.
  var focus: Field = .text
  /// The Notes field (several lines).
  var note = TextField(multiline: true)
  /// The Repeat field: nil is Never.
  var repeatRule: RepeatRule?
  /// What the Repeat picker offers: Never, the common rules, and the item's own rule when it
  /// is another one (set with the CLI).
  var repeatChoices: [RepeatRule?] = ItemForm.repeatChoices(keeping: nil)
  /// The Repeat picker's selection (an index into `repeatChoices`) while it is open.
  var repeatPicker: Int?
  /// What Done does with the item's photo.
  var photo = PhotoChoice.keep
  /// What it was before the last file was chosen: what that file, found damaged, gives way to.
  var photoBeforeAttach = PhotoChoice.keep
  /// The caption of the item's photo, read when the form opened.
  var photoCaption: String?
  /// The photo file picker, while it is open.
  var photoPicker: PhotoPicker?
  /// The item's list as it was when a merge took it away (deleted elsewhere while the form was
  /// open): Done puts it back, as a merge keeps a list changed on one side.
  var keptList: Checklist?
  /// The list the item was in when it was moved to another one elsewhere while the form was
  /// open (the form followed it): Done's edit goes there, and the conflicts log says so.
  var movedFromList: String?

  /// `ReminderLead.choices`, and `lead` among them in order when it is another one.
  static func leadChoices(keeping lead: ReminderLead) -> [ReminderLead] {
    var choices = ReminderLead.choices
    if !choices.contains(lead) {
      choices.append(lead)
      choices.sort()
    }
    return choices
  }

  /// Never, `RepeatRule.common`, and `rule` after them when it is not among them.
  static func repeatChoices(keeping rule: RepeatRule?) -> [RepeatRule?] {
    var choices: [RepeatRule?] = [nil] + RepeatRule.common.map { $0 }
    if let rule, !RepeatRule.common.contains(rule) { choices.append(rule) }
    return choices
  }
}

/// The list detail screen (add or edit), with its icon picker.
struct ListForm: Equatable {
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
  /// The icon picker's selection while it is open.
  var picker: Int?
  /// The list as it was when a merge took it away (deleted elsewhere while the form was open):
  /// Done puts it back with the form's name and icon.
  var keptList: Checklist?
  /// The list's name and icon when the form opened on it: Done changes only what the form
  /// changed, so a rename or another icon made elsewhere meanwhile stays (nil when adding).
  var openedName: String?
  var openedIconName: String?
}

/// Which form is open.
enum Form: Equatable {
  case item(ItemForm)
  case list(ListForm)
}

/// The screens help is written for.
enum HelpContext: Equatable, Sendable {
  case allLists, checklist, planner, itemForm, listForm, iconPicker, listPicker, repeatPicker
  case photoPicker
  /// Not keys: the status line's messages so far (`M`), in the help screen's frame.
  case messages
}

/// A message on the status line.
struct StatusMessage: Equatable {
  /// The text.
  var text: String
  /// Whether it reports a problem.
  var isError: Bool
}

/// The merges from elsewhere told on the status line and not yet read.
struct UntoldMerge: Equatable {
  /// Their reports, added up.
  var report: MergeReport
  /// The status line that tells them: once it is gone (a key, another message), they were read.
  var shown: StatusMessage?
}

/// The status line's messages so far, oldest first, for the messages view (as vim's
/// `:messages`): the status line shows one at a time and cuts a long one.
struct MessageLog: Equatable {
  /// How many are kept; older ones go.
  static let limit = 200

  /// The messages, oldest first.
  private(set) var messages: [StatusMessage] = []

  /// Keeps a message shown on the status line.
  mutating func record(_ message: StatusMessage) {
    messages.append(message)
    if messages.count > Self.limit { messages.removeFirst(messages.count - Self.limit) }
  }
}
