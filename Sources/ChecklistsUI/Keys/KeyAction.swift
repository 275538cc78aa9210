/// Everything a key can do, by the name a `bind` line uses.
///
/// Each action has a short label for the status line and a sentence for the help screen; what
/// it does is `ChecklistsApp.perform(_:key:now:)`. Its default keys are in `KeyTable.defaults`.
enum KeyAction: String, CaseIterable, Sendable, Codable {
  // Every screen.
  case interrupt, save, suspend, help
  // All Lists and a Checklist.
  case quit, undo, redo, filter
  case lastReminder = "last-reminder"
  case snoozeReminder = "snooze-reminder"
  case messages
  case previous, next
  case pageUp = "page-up"
  case pageDown = "page-down"
  case halfPageUp = "half-page-up"
  case halfPageDown = "half-page-down"
  case first, last
  // All Lists.
  case open
  case addList = "add-list"
  case editList = "edit-list"
  case deleteList = "delete-list"
  case clearFilter = "clear-filter"
  case search
  // A Checklist.
  case toggle
  case addItem = "add-item"
  case editItem = "edit-item"
  case deleteItem = "delete-item"
  case moveDown = "move-down"
  case moveUp = "move-up"
  case sort, back
  case closeList = "close-list"
  case clearChecked = "clear-checked"
  case moveToList = "move-to-list"
  case indent, outdent
  case toggleFold = "toggle-fold"
  case foldAll = "fold-all"
  case unfoldAll = "unfold-all"
  case cyclePriority = "cycle-priority"
  // Typing a filter.
  case keepFilter = "keep-filter"
  // Forms.
  case done, cancel
  case nextField = "next-field"
  case previousField = "previous-field"
  case toggleRemind = "toggle-remind"
  case dayLater = "day-later"
  case dayEarlier = "day-earlier"
  case newLine = "new-line"
  case previousLine = "previous-line"
  case nextLine = "next-line"
  case chooseRepeat = "choose-repeat"
  case nextRepeat = "next-repeat"
  case previousRepeat = "previous-repeat"
  case nextLead = "next-lead"
  case previousLead = "previous-lead"
  case choosePhoto = "choose-photo"
  case removePhoto = "remove-photo"
  case parentFolder = "parent-folder"
  case completePath = "complete-path"
  case chooseIcon = "choose-icon"
  case pick
  case closePicker = "close-picker"
  // Help.
  case closeHelp = "close-help"
  // Questions.
  case yes
  case retrySave = "retry-save"
  case saveElsewhere = "save-elsewhere"
  case rescueQuit = "rescue-quit"
  case stay
  case saveCopy = "save-copy"

  /// The selection move this action is, if it is one.
  var motion: Motion? {
    switch self {
    case .previous: return .previous
    case .next: return .next
    case .pageUp: return .pageUp
    case .pageDown: return .pageDown
    case .halfPageUp: return .halfPageUp
    case .halfPageDown: return .halfPageDown
    case .first: return .first
    case .last: return .last
    default: return nil
    }
  }

  /// Whether the action leaves the key to the text field when it does not apply: `+` and `-`
  /// move the due date a day only while the field holds a date and would not read as another
  /// one with the key typed. Such actions may take typing keys in a form.
  var givesWayToTyping: Bool {
    self == .dayLater || self == .dayEarlier || self == .parentFolder
  }

  /// A few words for the status line, after the key: `a add`.
  var label: String {
    switch self {
    case .interrupt: return "quit"
    case .save: return "save"
    case .suspend: return "suspend"
    case .help: return "help"
    case .quit: return "quit"
    case .undo: return "undo"
    case .redo: return "redo"
    case .filter: return "filter"
    case .lastReminder: return "reminder"
    case .snoozeReminder: return "snooze"
    case .messages: return "messages"
    case .previous: return "up"
    case .next: return "down"
    case .pageUp: return "page up"
    case .pageDown: return "page down"
    case .halfPageUp: return "half page up"
    case .halfPageDown: return "half page down"
    case .first: return "first"
    case .last: return "last"
    case .open: return "open"
    case .addList, .addItem: return "add"
    case .editList, .editItem: return "edit"
    case .deleteList, .deleteItem: return "delete"
    case .clearFilter: return "clear filter"
    case .search: return "search"
    case .toggle: return "check"
    case .moveDown: return "move down"
    case .moveUp: return "move up"
    case .sort: return "by due date"
    case .back, .closeList: return "back"
    case .clearChecked: return "clear checked"
    case .moveToList: return "move to list"
    case .indent: return "indent"
    case .outdent: return "outdent"
    case .toggleFold: return "fold"
    case .foldAll: return "fold all"
    case .unfoldAll: return "unfold all"
    case .cyclePriority: return "priority"
    case .keepFilter: return "keep filter"
    case .done: return "done"
    case .cancel: return "cancel"
    case .nextField: return "next field"
    case .previousField: return "previous field"
    case .toggleRemind: return "switch"
    case .dayLater: return "a day later"
    case .dayEarlier: return "a day earlier"
    case .newLine: return "new line"
    case .previousLine: return "line up"
    case .nextLine: return "line down"
    case .chooseRepeat: return "choose"
    case .nextRepeat: return "next repeat"
    case .previousRepeat: return "previous repeat"
    case .nextLead: return "earlier"
    case .previousLead: return "later"
    case .choosePhoto: return "choose photo"
    case .removePhoto: return "remove photo"
    case .parentFolder: return "parent folder"
    case .completePath: return "complete"
    case .chooseIcon: return "choose icon"
    case .pick: return "pick"
    case .closePicker: return "back"
    case .closeHelp: return "close"
    case .yes: return "delete"
    case .retrySave: return "retry"
    case .saveElsewhere: return "save elsewhere"
    case .rescueQuit: return "quit with a rescue copy"
    case .stay: return "stay"
    case .saveCopy: return "save there"
    }
  }

  /// What the action does, for the help screen, `checklists keys` and the docs.
  var summary: String {
    switch self {
    case .interrupt:
      return "quit (in a form the first keeps the draft and says how to leave; a second quits)"
    case .save: return "save now"
    case .suspend: return "suspend (saves first; fg resumes)"
    case .help: return "the keys of this screen (again: closes them)"
    case .quit: return "quit (saves first; in a form it says how to leave instead)"
    case .undo: return "undo the last change (shows where it happened)"
    case .redo: return "redo"
    case .filter: return "filter as you type"
    case .lastReminder: return "show the item of the latest reminder"
    case .snoozeReminder: return "snooze the latest reminder: it comes again in 10 minutes"
    case .messages:
      return "show the messages so far in full, newest last (the status line cuts long ones)"
    case .previous: return "previous row"
    case .next: return "next row"
    case .pageUp: return "a page up"
    case .pageDown: return "a page down"
    case .halfPageUp: return "half a page up"
    case .halfPageDown: return "half a page down"
    case .first: return "first row"
    case .last: return "last row"
    case .open: return "open the list, Today or Scheduled; on an item: show it in its list"
    case .addList: return "add a list"
    case .editList: return "edit the list's name and icon"
    case .deleteList: return "delete the list (asks first; undo brings it back)"
    case .clearFilter: return "clear the filter; while typing a search: close it"
    case .search: return "search the items (and notes) of every list as you type"
    case .toggle: return "check / uncheck the item (or click its check mark)"
    case .addItem: return "add an item"
    case .editItem: return "edit the item"
    case .deleteItem:
      return "delete the item (undo brings it back; the same letter again within 0.5 s is ignored)"
    case .moveDown: return "move the item down (manual order only)"
    case .moveUp: return "move the item up (manual order only)"
    case .sort: return "sort by due date (items with a due date first) / manual order"
    case .back:
      return
        "back to All Lists (clears a filter first; from a list opened from Today, Scheduled or a search: back there)"
    case .closeList:
      return "back to All Lists (or to Today, Scheduled or the search it was opened from)"
    case .clearChecked: return "delete the checked items (asks first; undo brings them back)"
    case .moveToList: return "move the item to the end of another list (picks the list)"
    case .indent:
      return "make the item a subtask of the item above it at its level (again: one level deeper)"
    case .outdent:
      return "lift the subtask out one level (it goes after its parent's subtasks)"
    case .toggleFold: return "fold / unfold the item's subtasks (manual order, no filter)"
    case .foldAll: return "fold every item with subtasks (only top-level items show)"
    case .unfoldAll: return "unfold every item"
    case .cyclePriority:
      return "next priority: none, ! low, !! medium, !!! high, then none again"
    case .keepFilter: return "keep the filter and go back to the rows"
    case .done:
      return
        "done (refused while the text is empty, the date unreadable, or Remind Me or Repeat "
        + "has no due date)"
    case .cancel: return "cancel, changing nothing"
    case .nextField: return "next field"
    case .previousField: return "previous field"
    case .toggleRemind: return "switch Remind Me on / off"
    case .dayLater: return "due date a day later (when the field holds a date)"
    case .dayEarlier: return "due date a day earlier (when the field holds a date)"
    case .newLine: return "start a new line in the note"
    case .previousLine: return "line up in the note (from its first line: the field above)"
    case .nextLine: return "line down in the note (from its last line: the field below)"
    case .chooseRepeat: return "choose how the item repeats (Never, daily, weekly…)"
    case .nextRepeat: return "the next choice of Repeat, without the picker"
    case .previousRepeat: return "the previous choice of Repeat, without the picker"
    case .nextLead:
      return
        "remind earlier: the next lead time (at the due time, 5, 15, 30 min, 1 h, 1 day before)"
    case .previousLead: return "remind later: the previous lead time"
    case .choosePhoto: return "choose a photo in the file picker (again: replace it)"
    case .removePhoto: return "remove the photo (when you save the item; undo brings it back)"
    case .parentFolder: return "the parent folder (while nothing is typed)"
    case .completePath: return "complete the typed name or path, like a shell"
    case .chooseIcon: return "choose an icon"
    case .pick:
      return "pick the icon, the repeat, or the list to move the item to; in the photo picker: "
        + "open the folder or pick the image"
    case .closePicker: return "back without picking"
    case .closeHelp: return "close the help"
    case .yes: return "yes: delete the list, or clear the checked items (any other key keeps them)"
    case .retrySave: return "try the save again"
    case .saveElsewhere: return "save the lists to another file (type its path)"
    case .rescueQuit: return "quit, the lists going to a rescue copy"
    case .stay: return "stay in the app"
    case .saveCopy: return "save the lists there and quit"
    }
  }
}
