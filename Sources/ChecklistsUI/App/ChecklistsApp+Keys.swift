import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

extension ChecklistsApp {
  /// The key table in force (the defaults with the user's `bind` lines).
  var keys: KeyTable { options.keys }

  /// The screen whose keys apply in this exact state.
  var keyScreen: KeyScreen {
    if let top = stack.top { return top.keyScreen(in: self) }
    return .lists  // All Lists is always on the stack
  }

  /// The action `key` does in this state, if any.
  func action(for key: Key) -> KeyAction? {
    keys.action(for: key, on: keyScreen)
  }

  /// The first key of `action` in this state as shown (`Space`, `Ctrl-S`), else `fallback`.
  func keyName(_ action: KeyAction, on screen: KeyScreen? = nil, or fallback: String = "")
    -> String
  {
    keys.keyName(action, on: screen ?? keyScreen) ?? fallback
  }

  // MARK: - Dispatch

  /// Looks the key up in the table for this state and does its action; a key the table does
  /// not bind here is typing in a text field, or "not a key here".
  mutating func handleKey(_ key: Key, now: Date) -> [Effect] {
    let screen = keyScreen
    let interruptWasPending = interruptPending
    if !stack.keepsInterruptPending { interruptPending = false }
    if let action = keys.action(for: key, on: screen) {
      switch askScreens({ $0.perform(action, key: key, now: now, app: &$1) }) {
      case .handled(let effects, _): return effects
      case .typing: break
      case .passed:
        if let effects = perform(
          action, key: key, now: now, interruptWasPending: interruptWasPending)
        {
          return effects
        }
      }
    }
    if askScreens({ $0.type(key, now: now, app: &$1) }) == .passed {
      unboundKey(key, on: screen, now: now)
    }
    return []
  }

  /// The actions a key still does while the terminal is too small to show anything.
  static let actsUnseen: Set<KeyAction> = [.quit, .interrupt, .save, .suspend]

  /// Whether `key` acts now: with only "Terminal too small" on screen, a key must not change
  /// what cannot be seen, so only quitting, Ctrl-C, saving and suspending do.
  func keyActs(_ key: Key) -> Bool {
    guard isTooSmall else { return true }
    return keys.action(for: key, on: keyScreen).map(Self.actsUnseen.contains) ?? false
  }

  /// Whether the terminal is smaller than the screens are drawn in.
  var isTooSmall: Bool { width < Self.minimumSize.width || height < Self.minimumSize.height }

  /// What a key without an action here does: typing where a field has the focus, else a word
  /// on the status line (or nothing, on help and the quit prompt).
  mutating func unboundKey(_ key: Key, on screen: KeyScreen, now: Date) {
    switch screen {
    case .savePath, .quitPrompt, .help, .confirm, .filter, .form, .due, .note, .photoPicker:
      break  // their screens answer
    case .generic, .browse, .lists, .checklist, .planner, .remind, .repeat, .photo, .icon,
      .picker:
      unknownKey(key)
    }
  }

  /// Does `action` in this state; nil when it does not apply and the key should be typed
  /// instead (`+` in a Due Date field that does not hold a date).
  mutating func perform(
    _ action: KeyAction, key: Key, now: Date, interruptWasPending: Bool = false
  ) -> [Effect]? {
    if action.motion != nil { return [] }  // each screen moves its own selection
    switch action {
    case .interrupt:
      // In a form, Ctrl-C keeps the draft and says how to leave; a second one quits.
      if let what = stack.interruptKeeps, !stack.contains(HelpScreen.self), !interruptWasPending {
        interruptPending = true
        let done = keyName(.done, on: .form, or: "Done")
        let cancel = keyName(.cancel, on: .form, or: "cancelling")
        let again = KeyNotation.display(key)
        status = StatusMessage(
          text: "\(done) saves \(what), \(cancel) cancels it; \(again) again quits without it",
          isError: false)
        return []
      }
      return [.quit]
    case .save: return [requestSave()]
    case .suspend:
      // Nothing private stays on screen while the app is in the background.
      closePhotoPicker()
      return [.suspend]
    case .help:
      stack.push(HelpScreen(context: helpContext))
      return []
    case .closeHelp:
      return []
    case .quit:
      return [.quit]
    case .undo:
      undo(now: now)
      return []
    case .redo:
      redo(now: now)
      return []
    case .filter, .search, .clearFilter, .keepFilter:
      return []  // the browse screens' own
    case .lastReminder:
      jumpToLastReminder()
      return []
    case .snoozeReminder:
      return snoozeLastReminder(now: now)
    case .messages:
      stack.push(HelpScreen(context: .messages))
      return []
    case .open, .addList, .editList, .deleteList, .toggle, .addItem, .editItem, .deleteItem,
      .moveDown, .moveUp, .sort, .back, .closeList, .clearChecked, .moveToList, .indent,
      .outdent, .toggleFold, .foldAll, .unfoldAll, .cyclePriority:
      return []  // the browse screens' own
    case .done, .cancel, .nextField, .previousField, .toggleRemind, .dayLater, .dayEarlier,
      .chooseIcon, .pick, .closePicker, .newLine, .previousLine, .nextLine, .chooseRepeat,
      .nextRepeat, .previousRepeat, .nextLead, .previousLead, .choosePhoto, .removePhoto,
      .parentFolder, .completePath:
      return []  // the forms' and pickers' own, answered by their screens
    case .yes, .retrySave, .saveElsewhere, .rescueQuit, .stay, .saveCopy:
      return []  // the question's and the quit prompt's own, answered by their screens
    case .previous, .next, .pageUp, .pageDown, .halfPageUp, .halfPageDown, .first, .last:
      return []  // motions, done above
    }
  }

  /// Answers yes to giving the list form's list a name another list has: the form is done.
  mutating func confirmDuplicateListName(now: Date) {
    guard var listForm else { return }
    listForm.duplicateNameConfirmed = true
    stack.update(ListFormScreen.self) { $0 = listForm }
    if finishListForm(listForm, now: now) { stack.remove(ListFormScreen.self) }
  }

  /// Deletes a list, after its question was answered yes.
  mutating func deleteList(id: Checklist.ID, now: Date) {
    if let name = dataModel.list(withID: id)?.name, let change = dataModel.deleteList(id: id) {
      commit(change, now: now)
      status = StatusMessage(text: "Deleted list \(quoted(name))\(undoNote)", isError: false)
    }
  }

  /// " (u undoes)", naming the undo key, for messages about a deletion.
  var undoNote: String {
    guard let name = keys.keyName(.undo, on: open == nil ? .lists : .checklist) else { return "" }
    return " (\(name) undoes)"
  }

  /// Moves a browser's selection and keeps it on screen.
  func moveSelection(_ browser: inout Browser, _ motion: Motion, total: Int) {
    browser.selected = motion.target(
      from: browser.selected, count: browser.rowCount(total: total), page: contentRows)
    browser.clamp(total: total, visibleRows: contentRows)
  }

  /// How many icons the picker shows at once.
  var pickerRows: Int {
    max(height - 1 - (Self.listFormIconRow(height: height) + 1), 1)
  }

  // MARK: - All Lists and a Checklist

  mutating func performOnAllLists(_ action: KeyAction, now: Date) {
    if let kind = smartSelected {
      switch action {
      case .open: openPlanner(kind, now: now)
      case .editList, .deleteList:
        status = StatusMessage(
          text: "\(kind.title) is a view of the lists' items: it cannot be renamed or deleted",
          isError: false)
      case .addList:
        stack.push(
          ListFormScreen(listID: nil, name: TextField(), iconName: IconName.folder.rawValue))
      default: break
      }
      return
    }
    let selectedList = allLists.index(ofRow: allLists.selected).flatMap {
      $0 < dataModel.lists.count ? dataModel.lists[$0] : nil
    }
    switch action {
    case .open:
      if let list = selectedList { openList(id: list.id) }
    case .addList:
      stack.push(
        ListFormScreen(listID: nil, name: TextField(), iconName: IconName.folder.rawValue))
    case .editList:
      if let list = selectedList {
        stack.push(
          ListFormScreen(
            listID: list.id, name: TextField(list.name), iconName: list.iconName,
            openedName: list.name, openedIconName: list.iconName))
      }
    case .deleteList:
      if let list = selectedList {
        stack.push(ConfirmationScreen(question: .deleteList(list.id)))
        status = StatusMessage(text: deletePrompt(for: list), isError: false)
      }
    default: break
    }
  }

  mutating func performOnChecklist(_ action: KeyAction, key: Key, now: Date) {
    // Only small values of the list are kept here: holding a copy of the list while changing
    // the model would copy all of its items.
    guard let state = open, let listIndex = dataModel.index(ofList: state.listID)
    else { return }
    let listID = state.listID
    let total = dataModel.lists[listIndex].items.count
    let itemIndex = state.browser.index(ofRow: state.browser.selected).flatMap {
      $0 < total ? $0 : nil
    }
    switch action {
    case .toggle:
      if let itemIndex { checkSelectedItem(listID: listID, at: itemIndex, now: now) }
    case .indent, .outdent, .cyclePriority:
      if let itemIndex { performOutlineEdit(action, listID: listID, at: itemIndex, now: now) }
    case .toggleFold, .foldAll, .unfoldAll:
      performFold(action, at: itemIndex)
    case .addItem:
      stack.push(newItemForm(listID: listID, now: now))
    case .moveToList:
      guard let itemIndex else { break }
      openListPicker(listID: listID, listIndex: listIndex, itemIndex: itemIndex)
    case .clearChecked:
      let list = dataModel.lists[listIndex]
      if let prompt = clearPrompt(for: list) {
        stack.push(ConfirmationScreen(question: .clearChecked(listID)))
        status = StatusMessage(text: prompt, isError: false)
      } else {
        status = StatusMessage(text: "No checked items to clear", isError: false)
      }
    case .editItem:
      if let itemIndex {
        let item = dataModel.lists[listIndex].items[itemIndex]
        stack.push(editItemForm(listID: listID, index: itemIndex, item: item))
      }
    case .deleteItem:
      if let itemIndex, itemIndex < state.outline.itemCount,
        state.outline.info(itemIndex).hasChildren
      {
        let list = dataModel.lists[listIndex]
        stack.push(
          ConfirmationScreen(
            question: .deleteWithSubtasks(listID, itemID: list.items[itemIndex].itemID)))
        status = StatusMessage(
          text: deleteWithSubtasksPrompt(list: list, at: itemIndex), isError: false)
        return
      }
      deleteSelectedItem(key: key, itemIndex: itemIndex, listIndex: listIndex, now: now)
    case .moveDown, .moveUp:
      moveSelectedItem(down: action == .moveDown, now: now)
    case .sort:
      let name = dataModel.lists[listIndex].name
      if sortByDue.contains(name) {
        session.setSortByDue(false, name: name)
        status = StatusMessage(text: "Manual order", isError: false)
      } else {
        session.setSortByDue(true, name: name)
        status = StatusMessage(
          text: "Sorted by due date (items with a due date first)", isError: false)
      }
      refreshOpenRows(keepItem: itemIndex)
    case .back:
      if state.browser.filter != nil {
        setChecklistFilter(nil)
      } else {
        closeList()
      }
    case .closeList:
      closeList()
    default: break
    }
  }

  /// Deletes the selected item; the same letter again right after (vim's `dd`) deletes nothing.
  mutating func deleteSelectedItem(key: Key, itemIndex: Int?, listIndex: Int, now: Date) {
    if case .character = key, let last = lastItemDelete, last.key == key,
      now.timeIntervalSince(last.date) < Self.doubleDeleteWindow
    {
      lastItemDelete = nil
      let name = KeyNotation.display(key)
      status = StatusMessage(
        text:
          "Deleted one item (\(name) deletes one; \(name)\(name) is not two): \(name) again "
          + "deletes this one",
        isError: false)
      return
    }
    let listID = dataModel.lists[listIndex].id
    guard let itemIndex, let change = dataModel.deleteItem(listID: listID, at: itemIndex) else {
      return
    }
    let text = dataModel.lists[listIndex].items[itemIndex].text
    commit(change, now: now)
    if case .character = key {
      lastItemDelete = ItemDelete(date: now, key: key)
    } else {
      lastItemDelete = nil
    }
    status = StatusMessage(text: "Deleted \(quoted(text))\(undoNote)", isError: false)
  }
}

extension CaseIterable where Self: Equatable, AllCases.Index == Int {
  /// The case `offset` places after this one in declaration order, wrapping around.
  func cycled(by offset: Int) -> Self {
    let all = Self.allCases
    guard let position = all.firstIndex(of: self), !all.isEmpty else { return self }
    let count = all.count
    return all[all.startIndex + ((position - all.startIndex + offset) % count + count) % count]
  }
}
