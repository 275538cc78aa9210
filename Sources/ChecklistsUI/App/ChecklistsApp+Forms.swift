import ChecklistsCore
import Foundation

extension ChecklistsApp {
  // MARK: - Item detail

  /// The form for a new item: unchecked, remind off, due at the next whole hour.
  func newItemForm(listID: Checklist.ID, now: Date) -> ItemForm {
    let due = nextWholeHour(after: now)
    return ItemForm(
      listID: listID, itemIndex: nil, original: nil, text: TextField(), remind: false,
      dueText: TextField(editableText(for: due)), dueDate: due)
  }

  /// The form for editing an item.
  func editItemForm(listID: Checklist.ID, index: Int, item: ChecklistItem) -> ItemForm {
    ItemForm(
      listID: listID, itemIndex: index, original: item, text: TextField(item.text),
      remind: item.shouldRemind, dueText: TextField(editableText(for: item.dueDate)),
      dueDate: item.dueDate)
  }

  /// `now` rounded up to the next whole hour in the app's calendar.
  func nextWholeHour(after now: Date) -> Date {
    let calendar = options.calendar
    guard let hourStart = calendar.dateInterval(of: .hour, for: now)?.start else { return now }
    if hourStart == now { return now }
    return calendar.date(byAdding: .hour, value: 1, to: hourStart) ?? now
  }

  /// A date as the user would type it: `2026-12-24 18:00`.
  func editableText(for date: Date) -> String {
    let parts = options.calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
    func two(_ value: Int?) -> String {
      let number = value ?? 0
      return number < 10 ? "0\(number)" : "\(number)"
    }
    return
      "\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day)) \(two(parts.hour)):\(two(parts.minute))"
  }

  /// Reads the Due Date field again after the user typed in it.
  func updateDue(_ form: inout ItemForm, now: Date) {
    form.dueEdited = true
    do {
      form.dueDate = try parser.parse(form.dueText.text, now: now)
      form.dueError = nil
    } catch {
      form.dueDate = nil
      form.dueError = error.message
    }
  }

  mutating func handleItemFormKey(_ key: Key, form: inout ItemForm, now: Date) -> [Effect] {
    switch key {
    case .escape:
      self.form = nil
      status = StatusMessage(text: "Cancelled", isError: false)
      return []
    case .enter:
      finishItemForm(form, now: now)
      return []
    case .tab, .down:
      form.focus = ItemForm.Field(rawValue: (form.focus.rawValue + 1) % 3) ?? .text
      return []
    case .backTab, .up:
      form.focus = ItemForm.Field(rawValue: (form.focus.rawValue + 2) % 3) ?? .text
      return []
    default: break
    }
    switch form.focus {
    case .text:
      _ = form.text.handle(key)
    case .remind:
      switch key {
      case .character(" "), .character("x"): form.remind.toggle()
      case .character("q"): refuseQuitInForm()
      case .character("?"): help = HelpState(context: .itemForm)
      default: break
      }
    case .due:
      if !form.dueEdited, key == .character("+") || key == .character("-"),
        let date = form.dueDate
      {
        let days = key == .character("+") ? 1 : -1
        let moved = options.calendar.date(byAdding: .day, value: days, to: date) ?? date
        form.dueDate = moved
        form.dueText.setText(editableText(for: moved))
        return []
      }
      let before = form.dueText
      _ = form.dueText.handle(key)
      if form.dueText != before && form.dueText.text != before.text {
        updateDue(&form, now: now)
      }
    }
    return []
  }

  /// Done: saves the item unless its text is blank or the due date cannot be read.
  mutating func finishItemForm(_ form: ItemForm, now: Date) {
    if form.text.isBlank {
      status = StatusMessage(text: "The item needs some text", isError: true)
      return
    }
    guard let dueDate = form.dueDate else {
      status = StatusMessage(
        text: "Can't read the due date: \(form.dueError ?? "unknown")", isError: true)
      return
    }
    guard let listIndex = dataModel.index(ofList: form.listID) else {
      self.form = nil
      return
    }
    let listID = form.listID
    let count = dataModel.lists[listIndex].items.count
    self.form = nil
    if let hint = form.itemIndex, let original = form.original {
      var item =
        dataModel.lists[listIndex].index(ofItemID: original.itemID, near: hint).map {
          dataModel.lists[listIndex].items[$0]
        } ?? original
      item.text = form.text.text
      item.shouldRemind = form.remind
      item.dueDate = dueDate
      // Deleted elsewhere while being edited: the edited item stays (a merge keeps it too).
      guard let index = dataModel.lists[listIndex].index(ofItemID: original.itemID, near: hint)
      else {
        if let change = dataModel.insertItem(item, listID: listID) {
          commit(change, now: now)
          selectItem(count)
        }
        status = StatusMessage(
          text: "Kept \(quoted(item.text)): it was deleted elsewhere while you edited it",
          isError: false)
        return
      }
      guard let change = dataModel.replaceItem(listID: listID, at: index, with: item) else {
        status = StatusMessage(text: "No changes", isError: false)
        return
      }
      commit(change, now: now)
      selectItem(index)
    } else {
      let item = dataModel.makeItem(
        text: form.text.text, checked: false, dueDate: dueDate, shouldRemind: form.remind)
      guard let change = dataModel.insertItem(item, listID: listID) else { return }
      commit(change, now: now)
      selectItem(count)
      status = StatusMessage(text: "Added \(quoted(item.text))", isError: false)
    }
  }

  // MARK: - List detail

  mutating func handleListFormKey(_ key: Key, form: inout ListForm, now: Date) -> [Effect] {
    if let selection = form.picker {
      let icons = IconName.allCases
      switch key {
      case .escape: form.picker = nil
      case .up, .character("k"): form.picker = max(selection - 1, 0)
      case .down, .character("j"): form.picker = min(selection + 1, icons.count - 1)
      case .home, .character("g"): form.picker = 0
      case .end, .character("G"): form.picker = icons.count - 1
      case .enter, .character(" "):
        form.iconName = icons[min(max(selection, 0), icons.count - 1)].rawValue
        form.picker = nil
      case .character("?"): help = HelpState(context: .iconPicker)
      case .character("q"): refuseQuitInForm()
      default: break
      }
      return []
    }
    switch key {
    case .escape:
      self.form = nil
      status = StatusMessage(text: "Cancelled", isError: false)
      return []
    case .tab, .down, .backTab, .up:
      form.focus = form.focus == .name ? .icon : .name
      return []
    default: break
    }
    switch form.focus {
    case .name:
      if key == .enter {
        finishListForm(form, now: now)
      } else {
        _ = form.name.handle(key)
      }
    case .icon:
      switch key {
      case .enter, .character(" "):
        let icons = IconName.allCases
        form.picker = icons.firstIndex { $0.rawValue == form.iconName } ?? 0
      case .character("q"): refuseQuitInForm()
      case .character("?"): help = HelpState(context: .listForm)
      default: break
      }
    }
    return []
  }

  /// Done: saves the list unless its name is blank.
  mutating func finishListForm(_ form: ListForm, now: Date) {
    if form.name.isBlank {
      status = StatusMessage(text: "The list needs a name", isError: true)
      return
    }
    self.form = nil
    let name = form.name.text
    if let id = form.listID {
      guard let change = dataModel.editList(id: id, name: name, iconName: form.iconName) else {
        status = StatusMessage(text: "No changes", isError: false)
        return
      }
      commit(change, now: now)
      showAllLists(selecting: id)
    } else {
      let list = dataModel.makeList(name: name, iconName: form.iconName)
      commit(dataModel.insertList(list), now: now)
      showAllLists(selecting: list.id)
      status = StatusMessage(text: "Added list \(quoted(name))", isError: false)
    }
  }
}

extension ChecklistsApp {
  /// `q` in a form would throw away what was typed: say how to leave instead (Ctrl-C still quits).
  mutating func refuseQuitInForm() {
    status = StatusMessage(
      text: "Enter saves, Esc cancels; q quits from the lists", isError: false)
  }
}
