import ChecklistsCore
import FoundationEssentials

/// The item detail screen (add or edit): Text, Notes, Remind Me, Due Date, Repeat, Priority,
/// Tags and Photo.
struct ItemFormScreen: Screen {
  /// The fields, in Tab order.
  enum Field: Int, CaseIterable { case text, note, remind, due, `repeat`, priority, tags, photo }

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
  var repeatChoices: [RepeatRule?] = ItemFormScreen.repeatChoices(keeping: nil)
  /// The Priority row: None, Low, Medium or High (stepped with the lead keys, `+` and `-`).
  var priority = PriorityLevel.none
  /// The Tags field: names separated by spaces or commas, each with an optional `#`.
  var tags = TextField()
  /// What Done does with the item's photo.
  var photo = PhotoChoice.keep
  /// What it was before the last file was chosen: what that file, found damaged, gives way to.
  var photoBeforeAttach = PhotoChoice.keep
  /// The caption of the item's photo, read when the form opened.
  var photoCaption: String?
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

  /// The Tags field's text for `tags`: `#work #home`.
  static func tagsText(_ tags: [String]) -> String {
    tags.map { "#" + $0 }.joined(separator: " ")
  }

  /// The tags typed in the Tags field: names separated by spaces or commas, a leading `#` (or
  /// several) dropped, repeats (ignoring case) dropped, the first spelling kept.
  static func parsedTags(_ text: String) -> [String] {
    let names = text.split(whereSeparator: { $0 == "," || $0.isWhitespace }).map {
      String($0.drop(while: { $0 == "#" }))
    }
    return ChecklistItem.uniqueTags(names.filter { !$0.isEmpty })
  }

  /// The level a key on the Priority row sets: Right or `+` the next one up, Left or `-` the
  /// next one down (wrapping round), `h`, `m`, `l`, `n` (or `3`, `2`, `1`, `0`) a level by
  /// name; nil for any other key.
  static func priorityKey(_ key: Key, from level: PriorityLevel) -> PriorityLevel? {
    switch key {
    case .right, .character("+"): return steppedPriority(level, by: 1)
    case .left, .character("-"): return steppedPriority(level, by: -1)
    case .character("h"), .character("H"), .character("3"): return .high
    case .character("m"), .character("M"), .character("2"): return .medium
    case .character("l"), .character("L"), .character("1"): return .low
    case .character("n"), .character("N"), .character("0"): return PriorityLevel.none
    default: return nil
    }
  }

  /// The next priority level `step` steps up (down when negative), wrapping round.
  static func steppedPriority(_ level: PriorityLevel, by step: Int) -> PriorityLevel {
    let all = PriorityLevel.allCases
    let position = all.firstIndex(of: level) ?? 0
    let count = all.count
    return all[((position + step) % count + count) % count]
  }

  /// Never, `RepeatRule.common`, and `rule` after them when it is not among them.
  static func repeatChoices(keeping rule: RepeatRule?) -> [RepeatRule?] {
    var choices: [RepeatRule?] = [nil] + RepeatRule.common.map { $0 }
    if let rule, !RepeatRule.common.contains(rule) { choices.append(rule) }
    return choices
  }
}

extension ItemFormScreen {
  func keyScreen(in app: ChecklistsApp) -> KeyScreen {
    switch focus {
    case .text: return .form
    case .note: return .note
    case .remind: return .remind
    case .due: return .due
    case .repeat: return .repeat
    // The Priority row answers the form's keys; its own (Right/Left, +/-, h m l n) are typed.
    case .priority, .tags: return .form
    case .photo: return .photo
    }
  }

  var helpContext: HelpContext? { .itemForm }

  var interruptKeeps: String? { "the item" }

  func canPerform(_ action: KeyAction, in app: ChecklistsApp) -> Bool? {
    switch action {
    case .dayLater, .dayEarlier: return dueDate != nil
    default: return nil
    }
  }

  func hints(in app: ChecklistsApp) -> [Hint]? {
    func hint(_ action: KeyAction, _ label: String, _ rank: Int) -> Hint {
      Hint(actions: [action], label: label, dropRank: rank)
    }
    switch focus {
    case .remind:
      return [
        hint(.toggleRemind, "switch", 0), hint(.done, "done", 0), hint(.cancel, "cancel", 0),
        Hint(actions: [.nextLead, .previousLead], label: "earlier/later", dropRank: 1),
        hint(.nextField, "next field", 3), hint(.help, "help", 2),
      ]
    case .due:
      return [
        hint(.done, "done", 0), hint(.cancel, "cancel", 0),
        Hint(actions: [.dayLater, .dayEarlier], label: "a day", dropRank: 1),
        hint(.nextField, "next field", 3), hint(.help, "help", 2),
      ]
    case .text, .priority, .tags:
      return [
        hint(.done, "done", 0), hint(.cancel, "cancel", 0), hint(.nextField, "next field", 2),
        hint(.help, "help", 1),
      ]
    case .note, .repeat:
      return app.itemFieldHints(self)
    case .photo:
      return app.photoHints(self)
    }
  }

  mutating func perform(_ action: KeyAction, key: Key, now: Date, app: inout ChecklistsApp)
    -> ScreenReply
  {
    if let reply = app.formAnswersFirst(action) { return reply }
    if action.motion != nil { return .handled() }
    if action == .chooseRepeat {
      if focus == .repeat {
        app.stack.push(
          RepeatPickerScreen(
            choices: repeatChoices, selected: repeatChoices.firstIndex(of: repeatRule) ?? 0))
      }
      return .handled()
    }
    let outcome = app.itemFormOutcome(action, key: key, form: &self, now: now)
    return app.formReply(outcome) { [self] in $0.finishItemForm(self, now: now) }
  }

  mutating func type(_ key: Key, now: Date, app: inout ChecklistsApp) -> ScreenReply {
    switch focus {
    case .text: _ = text.handle(key)
    case .note: _ = note.handle(key)
    case .tags: _ = tags.handle(key)
    case .priority:
      if let level = Self.priorityKey(key, from: priority) {
        if level == priority {
          app.status = StatusMessage(
            text: "Priority: \(ChecklistsApp.priorityName(level))", isError: false)
        }
        priority = level
      } else {
        app.unknownKey(key, on: keyScreen(in: app))
      }
    case .due: app.typeInDueField(key, form: &self, now: now)
    case .remind, .repeat, .photo: app.unknownKey(key, on: keyScreen(in: app))
    }
    return .handled()
  }

  mutating func paste(_ text: String, now: Date, app: inout ChecklistsApp) -> ScreenReply {
    if app.pastePhotoPath(text, form: &self) {
      // The focus went to the Photo row: a Repeat picker open on its row closes.
      app.stack.remove(RepeatPickerScreen.self)
      return .handled()
    }
    switch focus {
    case .text: self.text.insert(text)
    case .note: note.insert(text)
    case .tags: tags.insert(text)
    case .due:
      if dueSelected { dueText.setText("") }
      dueSelected = false
      dueText.insert(text)
      app.updateDue(&self, now: now)
    case .remind, .repeat, .priority, .photo: break
    }
    return .handled()
  }

  mutating func click(_ mouse: MouseEvent, now: Date, app: inout ChecklistsApp) -> ScreenReply {
    app.handleItemFormClick(mouse, form: &self, now: now)
    return .handled()
  }

  var drawsContent: Bool { true }

  /// The item's photo (or the file chosen) beside the fields.
  func photoBoxes(in app: ChecklistsApp) -> [PhotoBox]? {
    let layout = app.itemFormLayout(self, width: app.width, height: app.height)
    return app.itemPhotoBox(self, layout: layout, width: app.width).map { [$0] } ?? []
  }

  func draw(into grid: inout CellGrid, now: Date, app: ChecklistsApp) {
    app.renderItemForm(self, into: &grid, now: now)
  }
}

extension ChecklistsApp {
  /// The item form, when one is open.
  var itemForm: ItemFormScreen? { stack.first(ItemFormScreen.self) }
}

extension ItemFormScreen {
  /// Keeps the form on its item after a merge replaced `before`: an item renumbered or moved
  /// to another list elsewhere is followed there; a list deleted elsewhere is remembered as it
  /// was, for Done to put back, until it comes back under a new identity; the fields the form
  /// left as they were show what changed elsewhere. Returns a note for the status line when the
  /// user should know.
  mutating func followMerge(before: DataModel, merged: MergedLists, in app: ChecklistsApp)
    -> String?
  {
    let model = app.dataModel
    if let original, let newID = merged.renumbered[original.itemID] {
      self.original?.itemID = newID
    }
    if let original, let hint = itemIndex,
      let index = model.list(withID: listID)?.index(ofItemID: original.itemID, near: hint)
    {
      itemIndex = index
    }
    var note: String?
    let gone = keptList ?? before.list(withID: listID)
    if let original,
      model.list(withID: listID)?.index(ofItemID: original.itemID, near: itemIndex ?? 0) == nil,
      let (listIndex, itemIndex) = ChecklistsApp.locate(itemID: original.itemID, in: model)
    {
      let list = model.lists[listIndex]
      if model.list(withID: listID) != nil || gone?.name != list.name {
        note =
          "\(app.quoted(original.text)) was moved to \(app.quoted(list.name)) elsewhere: Done "
          + "edits it there"
        if movedFromList == nil {
          movedFromList = gone?.name ?? before.list(withID: listID)?.name
        }
      }
      listID = list.id
      self.itemIndex = itemIndex
      keptList = nil
    } else if model.list(withID: listID) == nil, let gone {
      if let back = ChecklistsApp.sameList(as: gone, in: model, before: before) {
        listID = back.id
        keptList = nil
      } else if keptList == nil {
        keptList = gone
        note = "List \(app.quoted(gone.name)) was deleted elsewhere: Done keeps it with this item"
      }
    }
    refreshFields(in: app)
    return note
  }

  /// After a merge, the form shows what changed elsewhere in the fields it left as they were
  /// (the text, the due date with Remind Me, the note, the repeat, the early reminder, the
  /// priority, the tags), as Done
  /// would keep them; a field the user changed keeps the user's value (and Done says when it was
  /// changed elsewhere too).
  private mutating func refreshFields(in app: ChecklistsApp) {
    guard var original, let hint = itemIndex, let list = app.dataModel.list(withID: listID),
      let index = list.index(ofItemID: original.itemID, near: hint)
    else { return }
    let current = list.items[index]
    guard current != original else { return }
    if text.text == original.text && current.text != original.text {
      text.setText(current.text)
      original.text = current.text
    }
    let shownDue = original.showsDueDate ? original.dueDate : nil
    let currentDue = current.showsDueDate ? current.dueDate : nil
    if dueDate == shownDue && remind == original.shouldRemind && dueError == nil
      && (currentDue != shownDue || current.shouldRemind != original.shouldRemind)
    {
      remind = current.shouldRemind
      dueText.setText(currentDue.map(app.editableText(for:)) ?? "")
      dueDate = currentDue
      dueSelected = false
      original.dueDate = current.dueDate
      original.hasDueDate = current.hasDueDate
      original.shouldRemind = current.shouldRemind
    }
    if note.text == TextField(original.note, multiline: true).text
      && current.note != original.note
    {
      note.setText(current.note)
      original.note = current.note
    }
    if repeatRule == original.repeatRule && current.repeatRule != original.repeatRule
      && !app.stack.contains(RepeatPickerScreen.self)
    {
      repeatRule = current.repeatRule
      repeatChoices = ItemFormScreen.repeatChoices(keeping: current.repeatRule)
      original.repeatRule = current.repeatRule
    }
    if reminderLead == original.reminderLead && current.reminderLead != original.reminderLead {
      reminderLead = current.reminderLead
      leadChoices = ItemFormScreen.leadChoices(keeping: current.reminderLead)
      original.reminderLead = current.reminderLead
    }
    if priority == original.priorityLevel && current.priorityLevel != original.priorityLevel {
      priority = current.priorityLevel
      original.priority = current.priority
    }
    if tags.text == Self.tagsText(original.tags) && current.tags != original.tags {
      tags.setText(Self.tagsText(current.tags))
      original.tags = current.tags
    }
    self.original = original
  }
}

extension ItemFormScreen {
  /// The item's fields as the form holds them, on `base` (the item's when the form opened):
  /// `photo` is the photo Done stores, `keptDueDate` the date an item without a due date keeps.
  /// The note counts as changed only when the field's text differs from the note as the field
  /// showed it (tabs and CR LF line breaks it cannot show stay); the tags likewise (a tag with
  /// a space in it, from another app, stays whole). The priority is the level shown.
  func editedFields(from base: ItemFields, photo: PhotoName?, keptDueDate: Date) -> ItemFields {
    var fields = base
    fields.text = text.text
    if note.text != TextField(base.note, multiline: true).text {
      fields.note = ChecklistsApp.savedNote(note.text)
    }
    fields.dueDate = dueDate ?? keptDueDate
    fields.hasDueDate = dueDate != nil
    fields.remind = remind
    fields.reminderLead = reminderLead
    fields.repeatRule = repeatRule
    fields.priority = priority
    if tags.text != Self.tagsText(base.tags) { fields.tags = Self.parsedTags(tags.text) }
    if self.photo != .keep { fields.photo = photo }
    return fields
  }
}
