import ChecklistsCore
import ChecklistsTestSupport
import Foundation
import Testing

@testable import ChecklistsUI

/// The key table drives the app: in states reached by random sessions, every key bound in that
/// exact state does what its action says, an unbound key is typing or "not a key here", and
/// every key a hint shows is handled.
@Suite struct KeyDispatchPropertyTests {
  /// Every key that is bound anywhere, plus a few that are bound nowhere.
  static let universe: [Key] = {
    var keys: [Key] = []
    for row in KeyTable.defaults.rows {
      for key in row.keys where !keys.contains(key) { keys.append(key) }
    }
    return keys + [.character("Z"), .character("c"), .function(5), .control("n")]
  }()

  /// A table with keys moved around, to check dispatch follows any table, not the defaults.
  static let rebound: KeyTable = {
    let text = """
      bind checklist c toggle
      bind checklist x none
      bind browse j none
      bind browse <C-n> next
      bind form <F2> done
      bind remind y toggle-remind
      bind picker <Space> none
      bind help <Tab> close-help
      bind lists d none
      bind generic <F3> save
      """
    let (table, problems) = KeyTable.configured(by: ConfigFile.parse(text))
    precondition(problems.isEmpty, "\(problems)")
    return table
  }()

  /// States reached by a random session: one every `stride` events.
  func states(seed: UInt64, table: KeyTable, count: Int, stride: Int) -> [ChecklistsApp] {
    var rng = SeededGenerator(seed: seed)
    let generator = PropertyTests()
    let loaded = generator.randomModel(&rng)
    var app = ChecklistsApp(
      model: loaded, checklistIndex: loaded.lists.isEmpty ? -1 : 0,
      options: AppOptions(timeZone: .utc, keys: table), size: (60, 15), now: testNow)
    var states: [ChecklistsApp] = []
    var step = 0
    while states.count < count {
      _ = app.handle(generator.randomEvent(&rng), now: testNow)
      step += 1
      if step % stride == 0 { states.append(app) }
    }
    return states
  }

  @Test(arguments: [UInt64(11), 12, 13])
  func everyBoundKeyDoesWhatTheTableSays(seed: UInt64) {
    for table in [KeyTable.defaults, Self.rebound] {
      for app in states(seed: seed, table: table, count: 70, stride: 37) {
        let screen = app.keyScreen
        for key in Self.universe {
          let action = table.action(for: key, on: screen)
          #expect(app.action(for: key) == action)
          var after = app
          let effects = after.handle(.key(key), now: testNow)
          if app.isTooSmall, !(action.map(ChecklistsApp.actsUnseen.contains) ?? false) {
            // Nothing on screen: the key changes nothing.
            #expect(effects.isEmpty && !differ(after, app), "\(key) while too small")
          } else if let action {
            check(action, key: key, before: app, after: after, effects: effects)
          } else {
            checkUnbound(key, on: screen, before: app, after: after, effects: effects)
          }
        }
      }
    }
  }

  @Test(arguments: [UInt64(21), 22])
  func everyHintedKeyIsHandled(seed: UInt64) {
    for table in [KeyTable.defaults, Self.rebound] {
      for app in states(seed: seed, table: table, count: 100, stride: 29) {
        // A terminal too small shows no hints.
        guard app.quitPrompt == nil, app.status == nil, app.confirmation == nil,
          !app.isTypingFilter, !app.isTooSmall
        else { continue }
        for hint in app.shownHints {
          for (key, action) in zip(hint.keys, hint.actions) {
            #expect(app.action(for: key) == action, "\(hint.text)")
            #expect(app.canPerform(action), "\(hint.text)")
            var after = app
            let effects = after.handle(.key(key), now: testNow)
            let changed = !effects.isEmpty || differ(after, app)
            #expect(changed, "\(hint.text) did nothing on \(app.keyScreen)")
          }
        }
      }
    }
  }

  /// What `action` must have done.
  func check(
    _ action: KeyAction, key: Key, before: ChecklistsApp, after: ChecklistsApp, effects: [Effect]
  ) {
    let label = "\(action) by \(KeyNotation.notation(key)) on \(before.keyScreen)"
    if let motion = action.motion {
      checkMotion(motion, before: before, after: after, label: label)
      return
    }
    if before.planner != nil, !before.hasForm, before.listPicker == nil, before.help == nil,
      before.confirmation == nil, before.quitPrompt == nil,
      checkPlanner(action, key: key, before: before, after: after, label: label)
    {
      return
    }
    switch action {
    case .save: #expect(effects == [.save], "\(label)")
    case .suspend: #expect(effects == [.suspend], "\(label)")
    case .interrupt:
      let keeps = before.hasForm && before.help == nil && !before.interruptPending
      #expect(effects == (keeps ? [] : [.quit]), "\(label)")
      if keeps {
        #expect(
          after.itemForm == before.itemForm && after.listForm == before.listForm, "\(label)")
      }
    case .help:
      if before.help != nil {
        #expect(after.help == nil, "\(label)")
      } else if before.confirmation == nil {
        #expect(after.help?.context == before.helpContext, "\(label)")
      }
    case .closeHelp: #expect(after.help == nil, "\(label)")
    case .messages:
      if before.confirmation == nil { #expect(after.help?.context == .messages, "\(label)") }
    case .quit:
      let stays = before.hasForm || before.listPicker != nil
      #expect(effects == (stays ? [] : [.quit]), "\(label)")
      #expect(
        after.itemForm == before.itemForm && after.listForm == before.listForm, "\(label)")
    case .undo:
      if !before.session.undoStack.isEmpty {
        #expect(after.session.undoStack.count == before.session.undoStack.count - 1, "\(label)")
      }
    case .redo:
      if !before.session.redoStack.isEmpty {
        #expect(after.session.redoStack.count == before.session.redoStack.count - 1, "\(label)")
      }
    case .filter: #expect(after.isTypingFilter, "\(label)")
    case .keepFilter:
      #expect(!after.isTypingFilter, "\(label)")
      #expect(
        (after.open?.browser ?? after.allLists).filter
          == (before.open?.browser ?? before.allLists).filter)
    case .clearFilter:
      #expect(
        !after.isTypingFilter && (after.open?.browser ?? after.allLists).filter == nil, "\(label)")
    case .search:
      #expect(after.planner?.kind == .search && after.planner?.isTyping == true, "\(label)")
    case .open:
      if let kind = before.smartSelected {
        #expect(after.planner?.kind == kind && after.open == nil, "\(label)")
      } else if before.allLists.rowCount(total: before.dataModel.lists.count) > 0 {
        #expect(after.open != nil, "\(label)")
      }
    case .addList, .addItem:
      #expect(after.hasForm, "\(label)")
    case .editList:
      if before.smartSelected != nil {
        #expect(!after.hasForm && after.statusMessage != nil, "\(label)")
      } else if before.allLists.rowCount(total: before.dataModel.lists.count) > 0 {
        if let form = after.listForm {
          #expect(form.listID != nil)
        } else {
          Issue.record("\(label): no list form")
        }
      }
    case .editItem:
      if before.selectedItemIndex != nil, before.openList?.items.isEmpty == false,
        let open = before.open, open.browser.rowCount(total: before.openList?.items.count ?? 0) > 0
      {
        if let form = after.itemForm {
          #expect(form.itemIndex == before.selectedItemIndex, "\(label)")
        } else {
          Issue.record("\(label): no item form")
        }
      }
    case .deleteList:
      if before.smartSelected != nil {
        #expect(after.confirmation == nil && after.statusMessage != nil, "\(label)")
      } else if before.allLists.rowCount(total: before.dataModel.lists.count) > 0 {
        #expect(after.confirmation != nil, "\(label)")
      }
    case .toggle:
      guard let index = visibleSelectedItem(before), let list = before.openList else { return }
      let old = list.items[index]
      let new = after.openList?.items[index]
      if old.repeats && !old.checked {
        #expect(new?.checked == false && new?.dueDate ?? old.dueDate > old.dueDate, "\(label)")
      } else {
        #expect(new?.checked == !old.checked, "\(label)")
      }
    case .deleteItem:
      guard visibleSelectedItem(before) != nil, let list = before.openList else { return }
      let count = after.openList?.items.count ?? 0
      let guarded = after.statusMessage?.hasPrefix("Deleted one item") == true
      // A parent with subtasks asks first.
      let asked = after.confirmation != nil
      #expect(count == list.items.count - (guarded || asked ? 0 : 1), "\(label)")
    case .moveDown, .moveUp:
      #expect(after.openList?.items.count == before.openList?.items.count, "\(label)")
      if !before.canPerform(action) {
        #expect(after.openList?.items == before.openList?.items, "\(label)")
      }
    case .sort:
      let name = before.openList?.name ?? ""
      #expect(after.sortByDue.contains(name) != before.sortByDue.contains(name), "\(label)")
    case .back:
      if before.open?.browser.filter != nil {
        #expect(after.open != nil && after.open?.browser.filter == nil, "\(label)")
      } else {
        #expect(after.open == nil, "\(label)")
        #expect((after.planner != nil) == before.stack.contains(PlannerScreen.self), "\(label)")
      }
    case .closeList:
      #expect(after.open == nil, "\(label)")
      #expect((after.planner != nil) == before.stack.contains(PlannerScreen.self), "\(label)")
    case .cancel:
      if before.quitPrompt != nil {
        #expect(after.quitPrompt?.path == nil && after.quitPrompt != nil, "\(label)")
      } else {
        #expect(!after.hasForm, "\(label)")
      }
    case .done:
      // Saved and closed, or refused with a message and kept open.
      #expect(!after.hasForm || after.statusMessage != nil, "\(label)")
    case .nextField, .previousField:
      let step = action == .nextField ? 1 : -1
      if let old = before.itemForm, let new = after.itemForm {
        #expect(new.focus == old.focus.cycled(by: step))
      } else if let old = before.listForm, let new = after.listForm {
        #expect(new.focus == old.focus.cycled(by: step))
      } else {
        Issue.record("\(label): the form went away")
      }
    case .toggleRemind:
      if let old = before.itemForm, let new = after.itemForm {
        #expect(new.remind == !old.remind, "\(label)")
      } else {
        Issue.record("\(label): no item form")
      }
    case .dayLater, .dayEarlier:
      guard let old = before.itemForm, let new = after.itemForm else {
        Issue.record("\(label): no item form")
        return
      }
      // The date moved a day, or the key was typed.
      let days = action == .dayLater ? 1.0 : -1.0
      let moved =
        old.dueDate.map { utc.date(byAdding: .day, value: Int(days), to: $0) } == new.dueDate
      #expect(moved || new.dueText.text.count == old.dueText.text.count + 1, "\(label)")
    case .chooseIcon:
      if after.listForm != nil { #expect(after.iconPicker != nil, "\(label)") }
    case .newLine, .previousLine, .nextLine, .chooseRepeat, .nextRepeat, .previousRepeat,
      .nextLead, .previousLead:
      checkItemField(action, before: before, after: after, label: label)
    case .choosePhoto:
      // The picker opens, or the status line says why not (no photos in this session).
      if after.itemForm != nil, after.photoPicker == nil {
        #expect(after.statusMessage != nil, "\(label)")
      }
    case .removePhoto:
      if let old = before.itemForm, let new = after.itemForm {
        #expect(new.photo != old.photo || after.statusMessage != nil, "\(label)")
      }
    case .parentFolder, .completePath:
      #expect(after.hasForm, "\(label)")
    case .pick, .closePicker:
      if after.listForm != nil { #expect(after.iconPicker == nil, "\(label)") }
      if after.itemForm != nil { #expect(after.repeatPicker == nil, "\(label)") }
      if action == .pick, let old = before.itemForm, let selection = before.repeatPicker?.selected,
        let new = after.itemForm
      {
        #expect(new.repeatRule == old.repeatChoices[selection], "\(label)")
      }
      if !before.hasForm && before.help == nil { #expect(after.listPicker == nil, "\(label)") }
    case .yes:
      #expect(after.confirmation == nil, "\(label)")
      switch before.confirmation {
      case .deleteList:
        #expect(after.dataModel.lists.count == before.dataModel.lists.count - 1, "\(label)")
      case .clearChecked(let id):
        #expect(after.dataModel.list(withID: id)?.items.contains(where: \.checked) == false)
      case .duplicateListName:
        #expect(!after.hasForm, "\(label)")
      case .deleteWithSubtasks(let id, _):
        #expect(
          (after.dataModel.list(withID: id)?.items.count ?? 0)
            < (before.dataModel.list(withID: id)?.items.count ?? 0), "\(label)")
      case nil: break
      }
    case .moveToList:
      guard before.canPerform(.moveToList), let index = visibleSelectedItem(before) else { return }
      #expect(after.listPicker?.itemIndex == index, "\(label)")
    case .clearChecked:
      guard let list = before.openList else { return }
      let count = list.items.count(where: \.checked)
      #expect(
        count == 0 ? after.confirmation == nil : after.confirmation == .clearChecked(list.id),
        "\(label)")
    case .retrySave: #expect(effects == [.quit], "\(label)")
    case .rescueQuit: #expect(effects == [.quitWithRescueCopy], "\(label)")
    case .saveElsewhere: #expect(after.quitPrompt?.path != nil, "\(label)")
    case .stay: #expect(after.quitPrompt == nil && effects.isEmpty, "\(label)")
    case .saveCopy:
      let path = before.quitPrompt?.path?.text.trimmingCharacters(in: .whitespaces) ?? ""
      #expect(effects == (path.isEmpty ? [] : [.saveCopyAndQuit(path: path)]), "\(label)")
    case .lastReminder:
      #expect(after.statusMessage == "No reminder has fired yet" || after.open != nil, "\(label)")
    case .snoozeReminder:
      let snoozed = effects.contains { if case .snoozeReminder = $0 { true } else { false } }
      #expect(
        after.statusMessage == "No reminder to snooze"
          || (snoozed && after.statusMessage?.hasPrefix("Snoozed ") == true), "\(label)")
    case .indent, .outdent, .cyclePriority:
      // Every item stays (only its place, parent or priority changes).
      #expect(after.openList?.items.count == before.openList?.items.count, "\(label)")
    case .toggleFold, .foldAll, .unfoldAll:
      #expect(after.openList?.items == before.openList?.items, "\(label)")
    case .previous, .next, .pageUp, .pageDown, .halfPageUp, .halfPageDown, .first, .last:
      break
    }
  }

  /// What an action must have done on Today, Scheduled or a search; false when the general
  /// checks apply.
  func checkPlanner(
    _ action: KeyAction, key: Key, before: ChecklistsApp, after: ChecklistsApp, label: String
  ) -> Bool {
    guard let view = before.planner else { return false }
    let place = view.selectedLine.flatMap(before.place(of:))
    switch action {
    case .toggle:
      guard let place else { return true }
      let old = before.dataModel.lists[place.listIndex].items[place.itemIndex]
      let new = after.dataModel.list(withID: place.listID)?.items[place.itemIndex]
      if old.repeats && !old.checked {
        #expect(new?.checked == false && new?.dueDate ?? old.dueDate > old.dueDate, "\(label)")
      } else {
        #expect(new?.checked == !old.checked, "\(label)")
      }
    case .editItem:
      guard let place else { return true }
      if let form = after.itemForm {
        #expect(form.itemIndex == place.itemIndex && form.listID == place.listID, "\(label)")
      } else {
        Issue.record("\(label): no item form")
      }
    case .deleteItem:
      guard let place else { return true }
      let count = after.dataModel.list(withID: place.listID)?.items.count ?? 0
      let guarded = after.statusMessage?.hasPrefix("Deleted one item") == true
      #expect(
        count == before.dataModel.lists[place.listIndex].items.count - (guarded ? 0 : 1),
        "\(label)")
    case .moveToList:
      guard before.canPerform(.moveToList), let place else { return true }
      #expect(after.listPicker?.itemIndex == place.itemIndex, "\(label)")
    case .open:
      if view.selectedLine != nil, !view.isTyping {
        #expect(after.open != nil && after.planner == nil, "\(label)")
      }
    case .back, .closeList:
      // Back to All Lists, or from a search to the view it was started from.
      #expect(after.planner?.kind == view.origin && after.open == nil, "\(label)")
    case .search, .filter:
      #expect(after.planner?.kind == .search && after.planner?.isTyping == true, "\(label)")
    case .keepFilter:
      #expect(after.planner?.isTyping != true, "\(label)")
    case .clearFilter:
      #expect(after.planner?.kind == view.origin, "\(label)")
    default:
      return false
    }
    return true
  }

  /// What the Notes and Repeat actions must have done to the item form.
  func checkItemField(
    _ action: KeyAction, before: ChecklistsApp, after: ChecklistsApp, label: String
  ) {
    guard let old = before.itemForm, let new = after.itemForm else {
      Issue.record("\(label): no item form")
      return
    }
    switch action {
    case .newLine:
      #expect(
        new.note.text.count(where: { $0 == "\n" }) == old.note.text.count(where: { $0 == "\n" })
          + 1, "\(label)")
    case .previousLine, .nextLine:
      // A line up or down in the note, or out of it at its first or last line.
      let step = action == .nextLine ? 1 : -1
      let width = ChecklistsApp.formFieldWidth(width: before.width)
      let line = { (form: ItemFormScreen) in form.note.wrapped(width: width).cursorLine }
      #expect(
        new.focus == old.focus.cycled(by: step) || line(new) == line(old) + step, "\(label)")
      #expect(new.note.text == old.note.text, "\(label)")
    case .chooseRepeat:
      #expect(
        after.repeatPicker.map { old.repeatChoices[$0.selected] } == old.repeatRule, "\(label)")
    case .nextRepeat, .previousRepeat:
      #expect(new.repeatRule != old.repeatRule, "\(label)")
      #expect(new.repeatChoices.contains(new.repeatRule), "\(label)")
    case .nextLead, .previousLead:
      #expect(new.reminderLead != old.reminderLead, "\(label)")
      #expect(new.remind, "\(label)")
    default: break
    }
  }

  func checkMotion(_ motion: Motion, before: ChecklistsApp, after: ChecklistsApp, label: String) {
    if let help = before.help {
      let lines = before.helpLines(help.context, width: before.width - 2).count
      var expected = motion.target(from: help.top, count: lines, page: before.contentRows)
      expected = min(max(expected, 0), max(lines - before.contentRows, 0))
      #expect(after.help?.top == expected, "\(label)")
    } else if !before.hasForm, let picker = before.listPicker {
      let expected = motion.target(
        from: picker.selected, count: picker.targets.count, page: before.contentRows - 1)
      #expect(after.listPicker?.selected == expected, "\(label)")
    } else if let form = before.itemForm, let selection = before.repeatPicker?.selected {
      let layout = before.itemFormLayout(form, width: before.width, height: before.height)
      let expected = motion.target(
        from: selection, count: form.repeatChoices.count, page: layout.pickerRows)
      if after.itemForm != nil { #expect(after.repeatPicker?.selected == expected, "\(label)") }
    } else if before.listForm != nil, let selection = before.iconPicker?.selected {
      let expected = motion.target(
        from: selection, count: IconName.allCases.count, page: before.pickerRows)
      if after.listForm != nil { #expect(after.iconPicker?.selected == expected, "\(label)") }
    } else if let view = before.planner {
      let expected = motion.target(
        from: view.selected, count: view.selectable.count, page: before.contentRows)
      #expect(after.planner?.selected == expected, "\(label)")
    } else if let open = before.open, let list = before.openList {
      let count = open.browser.rowCount(total: list.items.count)
      let expected = motion.target(
        from: open.browser.selected, count: count, page: before.contentRows)
      #expect(after.open?.browser.selected == expected, "\(label)")
    } else {
      // Today and Scheduled come first, then the lists.
      let smart: [PlannerKind] = [.today, .scheduled]
      let count = smart.count + before.allLists.rowCount(total: before.dataModel.lists.count)
      let from =
        before.smartSelected.flatMap { smart.firstIndex(of: $0) }
        ?? smart.count + before.allLists.selected
      let expected = motion.target(from: from, count: count, page: before.listRows)
      if expected < smart.count {
        #expect(after.smartSelected == smart[expected], "\(label)")
      } else {
        #expect(
          after.smartSelected == nil && after.allLists.selected == expected - smart.count,
          "\(label)")
      }
    }
  }

  /// A key with no action in this state: typing where a field has the focus, else a word on
  /// the status line for every key but Esc, and never a change to the lists.
  func checkUnbound(
    _ key: Key, on screen: KeyScreen, before: ChecklistsApp, after: ChecklistsApp,
    effects: [Effect]
  ) {
    let label = "unbound \(KeyNotation.notation(key)) on \(screen)"
    #expect(effects.isEmpty, "\(label)")
    #expect(after.dataModel == before.dataModel || screen == .confirm, "\(label)")
    switch screen {
    case .lists, .checklist, .planner, .remind, .repeat, .photo, .icon, .picker:
      if key != .escape {
        #expect(after.statusMessage?.contains("not a key here") == true, "\(label)")
      }
    case .form, .due, .note, .filter, .photoPicker:
      if before.itemForm?.focus == .priority, after.itemForm?.focus == .priority {
        // The Priority row answers the form's keys but takes no text: a key sets a level or
        // says it is not one.
        #expect(
          after.itemForm?.priority != before.itemForm?.priority
            || after.statusMessage?.contains("not a key here") == true
            || after.statusMessage?.hasPrefix("Priority: ") == true, "\(label)")
      } else if case .character = key {
        #expect(differ(after, before), "\(label): not typed")
      }
    case .confirm:
      #expect(after.confirmation == nil, "\(label)")
      #expect(after.statusMessage?.hasPrefix("Kept the") == true, "\(label)")
    case .help, .quitPrompt, .savePath, .generic, .browse: break
    }
  }

  /// Everything a key can change but the lists and the screen, as text (a tiny terminal shows
  /// nothing of a change).
  func fingerprint(_ app: ChecklistsApp) -> String {
    var parts: [String] = []
    parts.append(String(describing: app.itemForm))
    parts.append(String(describing: app.listForm))
    parts.append(String(describing: app.help))
    parts.append(String(describing: app.open))
    parts.append(String(describing: app.allLists))
    parts.append(String(describing: app.status))
    parts.append(String(describing: app.confirmation))
    parts.append(String(describing: app.listPicker))
    parts.append(String(describing: app.planner))
    parts.append(String(describing: app.smartSelected))
    parts.append(String(describing: app.quitPrompt))
    parts.append(app.sortByDue.sorted().joined(separator: ","))
    return parts.joined(separator: "|")
  }

  /// Whether a key changed anything at all: state, lists or screen.
  func differ(_ one: ChecklistsApp, _ other: ChecklistsApp) -> Bool {
    fingerprint(one) != fingerprint(other) || one.dataModel != other.dataModel
      || one.grid() != other.grid()
  }

  /// The selected item's index when the open list shows at least one row.
  func visibleSelectedItem(_ app: ChecklistsApp) -> Int? {
    guard let open = app.open, let list = app.openList,
      open.browser.rowCount(total: list.items.count) > 0, let index = app.selectedItemIndex,
      index < list.items.count
    else { return nil }
    return index
  }
}
