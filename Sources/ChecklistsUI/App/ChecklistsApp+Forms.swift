import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

extension ChecklistsApp {
  // MARK: - Item detail

  /// The form for a new item: unchecked, remind off, no due date (an empty Due Date field).
  func newItemForm(listID: Checklist.ID, now: Date) -> ItemFormScreen {
    ItemFormScreen(
      listID: listID, itemIndex: nil, original: nil, text: TextField(), remind: false,
      dueText: TextField(), dueDate: nil)
  }

  /// The form for editing an item: the Due Date field is empty when the item has none.
  func editItemForm(listID: Checklist.ID, index: Int, item: ChecklistItem) -> ItemFormScreen {
    let fields = ItemFields(item)
    var form = ItemFormScreen(
      listID: listID, itemIndex: index, original: item, text: TextField(fields.text),
      remind: fields.remind, dueText: TextField(fields.shownDueDate.map(editableText(for:)) ?? ""),
      dueDate: fields.shownDueDate)
    form.note = TextField(fields.note, multiline: true)
    form.repeatRule = fields.repeatRule
    form.repeatChoices = ItemFormScreen.repeatChoices(keeping: fields.repeatRule)
    form.reminderLead = fields.reminderLead
    form.leadChoices = ItemFormScreen.leadChoices(keeping: fields.reminderLead)
    form.priority = fields.priority
    form.tags = TextField(ItemFormScreen.tagsText(fields.tags))
    if let photo = fields.photo { form.photoCaption = options.photos?.caption(photo) }
    return form
  }

  /// `now` rounded up to the next whole hour in the app's time zone (as `checklists add` does).
  func nextWholeHour(after now: Date) -> Date {
    DefaultDueDate.nextWholeHour(after: now, timeZone: options.timeZone)
  }

  /// A date as the user would type it: `2026-12-24 18:00`.
  func editableText(for date: Date) -> String {
    DateStamp.string(date, timeZone: options.timeZone, format: DateStamp.minutes)
  }

  /// Reads the Due Date field again after the user typed in it; an empty field is no due date.
  func updateDue(_ form: inout ItemFormScreen, now: Date) {
    form.dueEdited = true
    if form.dueText.isBlank {
      form.dueDate = nil
      form.dueError = nil
      return
    }
    do {
      form.dueDate = try parser.parse(form.dueText.text, now: now)
      form.dueError = nil
    } catch {
      form.dueDate = nil
      form.dueError = error.message
    }
  }

  /// Turns Remind Me on or off; on, an empty Due Date field gets the next whole hour.
  func setRemind(_ on: Bool, form: inout ItemFormScreen, now: Date) {
    form.remind = on
    guard on, form.dueText.isBlank else { return }
    let due = nextWholeHour(after: now)
    form.dueText.setText(editableText(for: due))
    form.dueDate = due
    form.dueError = nil
    form.dueSelected = true
  }

  /// Steps Remind Me's lead time through `leadChoices` (wrapping); a lead time turns Remind Me
  /// on (filling in a due date as Space does).
  func stepLead(by step: Int, form: inout ItemFormScreen, now: Date) {
    let count = form.leadChoices.count
    guard count > 0 else { return }
    let position = form.leadChoices.firstIndex(of: form.reminderLead) ?? 0
    form.reminderLead = form.leadChoices[((position + step) % count + count) % count]
    if !form.remind { setRemind(true, form: &form, now: now) }
  }

  /// A key typed into the Due Date field. While the field holds Remind Me's untouched date, a
  /// character replaces it and Backspace or Delete clears it (as in a selected field); any other
  /// key (arrows, Home, End, readline keys) keeps it for editing.
  func typeInDueField(_ key: Key, form: inout ItemFormScreen, now: Date) {
    if form.dueSelected {
      form.dueSelected = false
      switch key {
      case .character: form.dueText.setText("")
      case .backspace, .delete, .control("h"), .control("d"):
        form.dueText.setText("")
        updateDue(&form, now: now)
        return
      default: break
      }
    }
    let before = form.dueText
    _ = form.dueText.handle(key)
    if form.dueText != before && form.dueText.text != before.text {
      updateDue(&form, now: now)
    }
  }

  /// `day-later`/`day-earlier` (`+`/`-`) in the Due Date field: when the field holds a date that
  /// parses and the key would not make it read as something else ("+2h" is typed, "tomorrow
  /// 9am" is moved), the date moves `days` days and the field shows it in full; returns false
  /// when the key is text.
  func moveDueDate(days: Int, key: Key, form: inout ItemFormScreen, now: Date) -> Bool {
    guard let date = form.dueDate else { return false }
    var typed = form.dueText
    if typed.handle(key), (try? parser.parse(typed.text, now: now)) != nil { return false }
    let moved = options.timeZone.date(byAddingDays: days, to: date)
    let text = editableText(for: moved)
    // Not past what the field takes typed (the years 1 to 9999): the date stays.
    guard (try? parser.parse(text, now: now)) != nil else { return true }
    form.dueDate = moved
    form.dueError = nil
    form.dueText.setText(text)
    return true
  }

  // MARK: - Keys in forms

  /// What an action does to the item form.
  mutating func itemFormOutcome(
    _ action: KeyAction, key: Key, form: inout ItemFormScreen, now: Date
  )
    -> FormOutcome
  {
    switch action {
    case .cancel: return .cancel
    case .done: return .done
    case .nextField: form.focus = form.focus.cycled(by: 1)
    case .previousField: form.focus = form.focus.cycled(by: -1)
    case .toggleRemind: setRemind(!form.remind, form: &form, now: now)
    case .nextLead, .previousLead:
      guard form.focus == .remind else { return .stay }
      stepLead(by: action == .nextLead ? 1 : -1, form: &form, now: now)
    case .dayLater, .dayEarlier:
      guard form.focus == .due,
        moveDueDate(days: action == .dayLater ? 1 : -1, key: key, form: &form, now: now)
      else { return .typing }
    case .newLine, .previousLine, .nextLine, .nextRepeat, .previousRepeat:
      performOnItemFields(action, form: &form)
    case .choosePhoto, .removePhoto:
      performOnPhotoRow(action, form: &form)
    default: break
    }
    return .stay
  }

  /// What an action does to the list form.
  func listFormOutcome(_ action: KeyAction, form: inout ListFormScreen) -> FormOutcome {
    switch action {
    case .cancel: return .cancel
    case .done: return .done
    case .nextField: form.focus = form.focus.cycled(by: 1)
    case .previousField: form.focus = form.focus.cycled(by: -1)
    default: break
    }
    return .stay
  }

  /// Done: saves the item unless its text is blank or the due date cannot be read. An item
  /// that came without text (a task another app synced with no title) may keep it so.
  mutating func finishItemForm(_ form: ItemFormScreen, now: Date) -> Bool {
    // A due date typed but unreadable counts as given: its own message follows.
    let validity = ItemValidity(
      text: form.text.text != form.original?.text ? form.text.text : nil,
      hasDueDate: form.dueDate != nil || form.dueError != nil, remind: form.remind,
      repeats: form.repeatRule != nil)
    if let problem = validity.problem {
      status = StatusMessage(text: problem.message(for: .itemForm), isError: true)
      return false
    }
    if let dueError = form.dueError {
      status = StatusMessage(text: "Can't read the due date: \(dueError)", isError: true)
      return false
    }
    // The chosen file is copied into the Photos folder only now: Cancel leaves nothing behind.
    let photo: PhotoName?
    switch storedPhoto(form) {
    case .success(let name):
      photo = name
      if name != nil { session.hasPhotos = true }
    case .failure(let error):
      status = StatusMessage(text: "Can't attach the photo: \(error.message)", isError: true)
      return false
    }
    // Without a due date the item keeps the date it had (the file needs one), else the form's
    // default.
    let hasDueDate = form.dueDate != nil
    let dueDate = form.dueDate ?? form.original?.dueDate ?? nextWholeHour(after: now)
    // The list was deleted elsewhere while the form was open: it comes back with Done's change,
    // as one undo step (as a merge keeps a list changed on one side), and the status line says
    // so first; when Done changes nothing, it stays deleted.
    var putBack: (change: ModelChange, name: String)?
    if dataModel.index(ofList: form.listID) == nil, let kept = form.keptList,
      let change = putBackList(kept, now: now)
    {
      putBack = (change, kept.name)
      if open == nil && planner == nil { openList(id: kept.id) }
    }
    let undoDepth = session.undoStack.count
    defer {
      if let putBack { settlePutBack(putBack, undoDepth: undoDepth, now: now) }
    }
    guard let listIndex = dataModel.index(ofList: form.listID) else { return true }
    let listID = form.listID
    let count = dataModel.lists[listIndex].items.count
    // The item may have been moved to another list elsewhere: the open list's rows stay put.
    let showsList = open?.listID == listID
    if let hint = form.itemIndex, let original = form.original {
      var item =
        dataModel.lists[listIndex].index(ofItemID: original.itemID, near: hint).map {
          dataModel.lists[listIndex].items[$0]
        } ?? original
      // Only what the form changed is written: the item may have been changed elsewhere while
      // the form was open (and merged in), and those changes stay unless the form changed the
      // same field.
      let current = item
      let opened = ItemFields(original)
      item = form.editedFields(from: opened, photo: photo, keptDueDate: dueDate).applied(
        to: item, since: opened)
      let overridden = Self.fieldsChangedOnBothSides(
        original: original, elsewhere: current, form: item)
      // Deleted elsewhere while being edited: the edited item stays (a merge keeps it too).
      guard let index = dataModel.lists[listIndex].index(ofItemID: original.itemID, near: hint)
      else {
        // Back where it was (the place it had when the form opened, or the end).
        let place = min(hint, dataModel.lists[listIndex].items.count)
        if let change = dataModel.insertItem(item, listID: listID, at: place) {
          commit(change, now: now)
          if showsList { selectItem(place) }
        }
        status = StatusMessage(
          text: "Kept \(quoted(item.text)): it was deleted elsewhere while you edited it",
          isError: false)
        return true
      }
      guard let change = dataModel.replaceItem(listID: listID, at: index, with: item) else {
        status = StatusMessage(text: "No changes", isError: false)
        return true
      }
      commit(change, now: now)
      if showsList { selectItem(index) }
      if let from = form.movedFromList {
        // One item, in the list it was moved to, with the form's edit: the log keeps the story.
        let list = dataModel.lists[listIndex].name
        queuedEffects.append(
          .logConflict(
            "list \(MergeReport.quote(list)), item \(MergeReport.quote(item.text)): moved "
              + "there from \(MergeReport.quote(from)) elsewhere while its form was open here; "
              + "the form's edit went with it"))
      }
      var message = editMessage(from: current, to: item, now: now)
      if !overridden.isEmpty {
        message += " (kept yours: \(overridden.joined(separator: ", ")) also changed elsewhere)"
      }
      status = StatusMessage(text: message, isError: false)
    } else {
      var item = session.makeItem(
        text: form.text.text, dueDate: dueDate, shouldRemind: form.remind,
        hasDueDate: hasDueDate)
      let made = ItemFields(item)
      item = form.editedFields(from: made, photo: photo, keptDueDate: dueDate).applied(
        to: item, since: made)
      guard let change = dataModel.insertItem(item, listID: listID) else { return true }
      commit(change, now: now)
      if showsList { selectItem(count) }
      var text = "Added \(quoted(item.text))"
      // Every field set is named, as the CLI's `add` does ("reminds").
      if item.showsDueDate { text += ", due \(formatter.relative(item.dueDate, now: now))" }
      if item.shouldRemind { text += ", reminds" }
      if let rule = item.repeatRule { text += ", \(Self.repeatPhrase(rule))" }
      if !item.note.isEmpty { text += ", with a note" }
      if item.photo != nil { text += ", with a photo" }
      if item.priorityLevel != .none { text += ", \(item.priorityLevel.rawValue) priority" }
      if !item.tags.isEmpty { text += ", " + ItemFormScreen.tagsText(item.tags) }
      status = StatusMessage(text: text, isError: false)
    }
    return true
  }

  /// Puts back `kept`, a form's list deleted elsewhere, without an undo step of its own; items
  /// that are elsewhere now (moved out of it before it was deleted) stay there. Returns the
  /// change, nil when it could not be made.
  mutating func putBackList(_ kept: Checklist, now: Date) -> ModelChange? {
    var list = kept
    var elsewhere = Set<Int>()
    for other in dataModel.lists { elsewhere.formUnion(other.items.map(\.itemID)) }
    list.setItems(list.items.filter { !elsewhere.contains($0.itemID) })
    let change = dataModel.insertList(list)
    return apply(.change(change), now: now) != nil ? change : nil
  }

  /// After Done on a form whose list was put back: the list and Done's change become one undo
  /// step, and the status line says the list was kept; when Done changed nothing, the list is
  /// taken away again.
  mutating func settlePutBack(
    _ putBack: (change: ModelChange, name: String), undoDepth: Int, now: Date
  ) {
    guard session.undoStack.count == undoDepth + 1, case .single(let done)? = session.undoStack.last
    else {
      apply(.change(putBack.change.inverse), now: now)
      if case .insertList(let list) = putBack.change, open?.listID == list.id { open = nil }
      clampSelections()
      status = StatusMessage(
        text: "List \(quoted(putBack.name)) was deleted elsewhere; nothing changed in it",
        isError: false)
      return
    }
    session.undoStack[session.undoStack.count - 1] = .group(
      CompoundChange(kind: .keepList, changes: [putBack.change, done]))
    let said = status?.text ?? ""
    status = StatusMessage(
      text: "Kept list \(quoted(putBack.name)) (deleted elsewhere); " + said, isError: false)
  }

  /// The fields (as the form names them) that were changed elsewhere while the form was open
  /// (`elsewhere` against `original`) and that the form then set otherwise (`form`).
  static func fieldsChangedOnBothSides(
    original: ChecklistItem, elsewhere: ChecklistItem, form: ChecklistItem
  ) -> [String] {
    func both<Value: Equatable>(_ field: KeyPath<ChecklistItem, Value>) -> Bool {
      elsewhere[keyPath: field] != original[keyPath: field]
        && form[keyPath: field] != elsewhere[keyPath: field]
    }
    var fields: [String] = []
    if both(\.text) { fields.append("text") }
    if both(\.dueDate) || both(\.hasDueDate) { fields.append("due date") }
    if both(\.shouldRemind) { fields.append("Remind Me") }
    if both(\.note) { fields.append("notes") }
    if both(\.repeatRule) { fields.append("repeat") }
    if both(\.reminderLead) { fields.append("early reminder") }
    if both(\.photo) { fields.append("photo") }
    if both(\.priorityLevel) { fields.append("priority") }
    if both(\.tags) { fields.append("tags") }
    return fields
  }

  /// What an edit changed, e.g. `Renamed "Milk" to "Oat milk"; due tomorrow 09:00`.
  func editMessage(from old: ChecklistItem, to new: ChecklistItem, now: Date) -> String {
    var parts: [String] = []
    if old.text != new.text {
      parts.append("Renamed \(quoted(old.text)) to \(quoted(new.text))")
    }
    if new.showsDueDate && (!old.showsDueDate || old.dueDate != new.dueDate) {
      parts.append("due \(formatter.relative(new.dueDate, now: now))")
    } else if old.showsDueDate && !new.showsDueDate {
      parts.append("no due date")
    }
    if old.shouldRemind != new.shouldRemind {
      parts.append(new.shouldRemind ? "reminder on" : "reminder off")
    }
    parts += Self.itemFieldChanges(from: old, to: new)
    if let photo = Self.photoChange(from: old, to: new) { parts.append(photo) }
    guard !parts.isEmpty else { return "Updated \(quoted(new.text))" }
    if old.text == new.text { parts[0] = "\(quoted(new.text)): " + parts[0] }
    return parts.joined(separator: "; ")
  }

  // MARK: - List detail

  /// Done: saves the list unless its name is blank.
  mutating func finishListForm(_ form: ListFormScreen, now: Date) -> Bool {
    if form.name.isBlank {
      status = StatusMessage(text: "The list needs a name", isError: true)
      return false
    }
    // Two lists of one name (in any case) make the CLI's LIST ambiguous: asked first.
    let typed = form.name.text.lowercased()
    if !form.duplicateNameConfirmed, form.name.text != form.openedName,
      let other = dataModel.lists.first(where: {
        $0.id != form.listID && $0.name.lowercased() == typed
      })
    {
      stack.push(ConfirmationScreen(question: .duplicateListName(other.name)))
      return false
    }
    let name = form.name.text
    if let id = form.listID {
      // Deleted elsewhere while the form was open: the list comes back with the form's name and
      // icon when the form changed them, as a merge keeps a list changed on one side.
      if dataModel.list(withID: id) == nil, var kept = form.keptList {
        guard kept.name != name || kept.iconName != form.iconName else {
          status = StatusMessage(
            text: "List \(quoted(kept.name)) was deleted elsewhere; nothing changed in it",
            isError: false)
          return true
        }
        kept.name = name
        kept.iconName = form.iconName
        var elsewhere = Set<Int>()
        for other in dataModel.lists { elsewhere.formUnion(other.items.map(\.itemID)) }
        kept.setItems(kept.items.filter { !elsewhere.contains($0.itemID) })
        commit(dataModel.insertList(kept), now: now)
        showAllLists(selecting: kept.id)
        status = StatusMessage(
          text: "Kept list \(quoted(name)): it was deleted elsewhere while you edited it",
          isError: false)
        return true
      }
      // A field the form left as it was takes the list's value now: a rename or an icon
      // chosen elsewhere while the form was open stays (Done put the old one back).
      let current = dataModel.list(withID: id)
      let newName = name == form.openedName ? current?.name ?? name : name
      let newIcon =
        form.iconName == form.openedIconName ? current?.iconName ?? form.iconName : form.iconName
      guard let change = dataModel.editList(id: id, name: newName, iconName: newIcon) else {
        status = StatusMessage(text: "No changes", isError: false)
        return true
      }
      commit(change, now: now)
      showAllLists(selecting: id)
      status = StatusMessage(text: listEditMessage(change), isError: false)
    } else {
      let list = session.makeList(name: name, iconName: form.iconName)
      commit(dataModel.insertList(list), now: now)
      showAllLists(selecting: list.id)
      status = StatusMessage(text: "Added list \(quoted(name))", isError: false)
    }
    return true
  }
}

extension ChecklistsApp {
  /// What a list edit changed: `Renamed list "A" to "B"`, `"Trips": icon Travel`.
  func listEditMessage(_ change: ModelChange) -> String {
    guard case .editList(_, let old, let new) = change else { return "Updated the list" }
    var parts: [String] = []
    if old.name != new.name {
      parts.append("Renamed list \(quoted(old.name)) to \(quoted(new.name))")
    }
    if old.iconName != new.iconName {
      let icon = "icon \(new.iconName)"
      parts.append(parts.isEmpty ? "\(quoted(new.name)): \(icon)" : icon)
    }
    return parts.isEmpty ? "Updated list \(quoted(new.name))" : parts.joined(separator: "; ")
  }

  /// What a form answers before its own actions: Ctrl-C, saving, suspending and help are the
  /// app's; `q` says how to leave. Nil for the form's own actions.
  mutating func formAnswersFirst(_ action: KeyAction) -> ScreenReply? {
    switch action {
    case .interrupt, .save, .suspend, .help: return .passed
    case .quit:
      refuseQuitInForm()
      return .handled()
    default: return nil
    }
  }

  /// A form's reply once an action changed it: Cancel closes it, Done closes it when `finish`
  /// saved what it holds.
  mutating func formReply(_ outcome: FormOutcome, finish: (inout ChecklistsApp) -> Bool)
    -> ScreenReply
  {
    switch outcome {
    case .stay: return .handled()
    case .typing: return .typing
    case .cancel:
      status = StatusMessage(text: "Cancelled", isError: false)
      return .close
    case .done:
      return finish(&self) ? .close : .handled()
    }
  }

  /// `q` in a form would throw away what was typed: say how to leave instead (Ctrl-C still quits).
  mutating func refuseQuitInForm() {
    let done = keyName(.done, on: .form, or: "Done")
    let cancel = keyName(.cancel, on: .form, or: "cancelling")
    let quit = keys.keyName(.quit, on: .lists).map { "; \($0) quits from the lists" } ?? ""
    status = StatusMessage(text: "\(done) saves, \(cancel) cancels\(quit)", isError: false)
  }
}

/// What a key did to a form, for the app to act on after storing the form once.
enum FormOutcome: Equatable {
  /// The form stays open (a field, the focus or the picker may have changed).
  case stay
  /// The action does not apply here: the key is typing in the focused field.
  case typing
  /// Close the form, changing nothing.
  case cancel
  /// Save what the form holds (refused, with a message, when it is incomplete).
  case done
}
