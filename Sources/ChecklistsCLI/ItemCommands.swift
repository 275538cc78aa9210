import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// `add`, `edit`, `check`, `uncheck`, `rm`.
enum ItemCommands {
  static let add = CommandSpec(
    name: "add", positionals: ["LIST", "TEXT"],
    valueOptions: [(.due, "DATE")] + PlannerCommands.itemOptions + [(.photo, "FILE")],
    flags: [.remind],
    summary: "Add an item at the end of a list.",
    details: "--due takes what the app's date field takes (e.g. \"tomorrow 9am\") and gives the "
      + "item a due date; --remind (needs --due) turns the reminder on. Without --due the item "
      + "has no due date (it stores the next whole hour, as the app's form starts with). A text "
      + "that starts with - goes after --: checklists add Groceries -- \"-5 eggs\"."
      + PlannerCommands.itemOptionsHelp
      + " --photo FILE attaches a copy of an image, as the photo command does."
  ) { arguments, context throws(CLIError) in
    let text = arguments.positionals[1]
    let repeatRule = try PlannerCommands.repeatOption(arguments)
    try PlannerCommands.check(
      ItemValidity(
        text: text, hasDueDate: arguments.value(.due) != nil, remind: arguments.has(.remind),
        repeats: repeatRule.flatMap { $0 } != nil, lead: arguments.value(.remindBefore) != nil),
      source: .addCommand)
    var dueDate = DefaultDueDate.nextWholeHour(after: context.now)
    if let dueText = arguments.value(.due) {
      dueDate = try parseDue(dueText, context: context)
    }
    let photo = try arguments.value(.photo).map { path throws(CLIError) in
      try PhotoCommands.readPhoto(path, context: context)
    }
    let (store, load) = try context.open()
    var model = load.model
    let list = try ListSelector.find(arguments.positionals[0], in: model)
    let parentIndex = try arguments.value(.under).map { selector throws(CLIError) in
      try ItemSelector.find(selector, in: list)
    }
    var item = model.makeItem(
      text: text, dueDate: dueDate, shouldRemind: arguments.has(.remind),
      hasDueDate: arguments.value(.due) != nil)
    try PlannerCommands.applyItemOptions(arguments, to: &item, source: .addCommand)
    var place = list.items.count
    if let parentIndex {
      item.parentItemID = list.items[parentIndex].itemID
      place = list.subtreeRange(at: parentIndex).upperBound
    }
    if let photo { item.photo = try context.photos.attach(photo.source) }
    if let change = model.insertItem(item, listID: list.id, at: place) { model.apply(change) }
    let status = try context.save(model, store: store, state: load.state)
    if status == 0 {
      let output = context.output
      let under = parentIndex.map { " under \"\(output.shown(list.items[$0].text))\"" } ?? ""
      output.line(
        "Added \"\(output.shown(text))\" to \(output.shown(list.name)) as item "
          + "\(place + 1)\(under)\(dueNote(item, formatter: context.dueDateFormatter))"
          + "\(item.repeatRule.map { ", repeats \($0.text)" } ?? "")"
          + "\(photo.map { ", with a photo \($0.caption)" } ?? "")."
      )
    }
    return status
  }

  static let edit = CommandSpec(
    name: "edit", positionals: ["LIST", "ITEM"],
    valueOptions: [(.text, "TEXT"), (.due, "DATE")] + PlannerCommands.itemOptions + [
      (.untag, "NAME")
    ],
    flags: [.remind, .noRemind, .noDue, .top],
    summary: "Change an item's text, due date, reminder, note, repeat, priority, tags or place.",
    details: "--due takes what the app's date field takes (e.g. \"fri 17:00\"); a new due date "
      + "arms the reminder again. --no-due takes the due date (and the reminder) away. "
      + "--remind / --no-remind turn the reminder on or off (--remind gives an item without a "
      + "due date the next whole hour). The message says what changed."
      + PlannerCommands.itemOptionsHelp + " --no-due also stops the repeat. --untag NAME "
      + "removes a tag (repeatable). --under moves the item with its own subtasks; --top "
      + "makes a subtask a top-level item again, after the item it was under."
  ) { arguments, context throws(CLIError) in
    let remind = arguments.has(.remind)
    let noRemind = arguments.has(.noRemind)
    let noDue = arguments.has(.noDue)
    guard !(remind && noRemind) else { throw .usage("give --remind or --no-remind, not both") }
    guard !(noDue && (remind || arguments.value(.due) != nil)) else {
      throw .usage("--no-due cannot go with --due or --remind")
    }
    let newText = arguments.value(.text)
    let top = arguments.has(.top)
    guard !(top && arguments.value(.under) != nil) else {
      throw .usage("give --under ITEM or --top, not both")
    }
    guard
      newText != nil || arguments.value(.due) != nil || remind || noRemind || noDue
        || PlannerCommands.hasItemOptions(arguments) || top || !arguments.values(.untag).isEmpty
    else {
      throw .usage(
        "edit needs --text, --due, --no-due, --remind, --no-remind, --note, --repeat, "
          + "--remind-before, --priority, --tag, --untag, --under or --top")
    }
    try PlannerCommands.check(ItemValidity(text: newText), source: .editCommand)
    let newDue = try arguments.value(.due).map { text throws(CLIError) in
      try parseDue(text, context: context)
    }
    let (store, load) = try context.open()
    var model = load.model
    let list = try ListSelector.find(arguments.positionals[0], in: model)
    let index = try ItemSelector.find(arguments.positionals[1], in: list)
    let old = list.items[index]
    var item = old
    if let newText { item.text = newText }
    if let newDue {
      item.setDueDateByHand(newDue)
      item.hasDueDate = true
    }
    if remind && !old.showsDueDate && newDue == nil {
      item.dueDate = DefaultDueDate.nextWholeHour(after: context.now)
    }
    if remind || noRemind { item.shouldRemind = remind }
    if remind { item.hasDueDate = true }
    if noDue {
      guard arguments.value(.remindBefore) == nil else {
        throw .usage("--no-due cannot go with --remind-before")
      }
      item.removeDueDate()
    }
    try PlannerCommands.applyItemOptions(arguments, to: &item, source: .editCommand)
    for name in try PlannerCommands.tagNames(arguments, .untag) { item.removeTag(name) }
    let output = context.output
    let change = model.replaceItem(listID: list.id, at: index, with: item)
    if let change { model.apply(change) }
    // The item's new place, once edited: under another item, or top-level.
    var placeWords: String?
    if arguments.value(.under) != nil || top {
      let parentIndex = try arguments.value(.under).map { selector throws(CLIError) in
        try ItemSelector.find(selector, in: list)
      }
      let placeChanges: [ModelChange]
      do throws(OutlineError) {
        placeChanges = try model.reparent(listID: list.id, at: index, under: parentIndex) ?? []
      } catch {
        throw .failure(error.message)
      }
      if !placeChanges.isEmpty {
        model.apply(placeChanges)
        placeWords =
          parentIndex.map { "under \"\(output.shown(list.items[$0].text))\"" } ?? "top-level"
      }
    }
    guard change != nil || placeWords != nil else {
      output.line("\"\(output.shown(item.text))\" in \(output.shown(list.name)) already reads so.")
      return 0
    }
    let status = try context.save(model, store: store, state: load.state)
    if status == 0 {
      var changes = ItemChangeDescription.changes(
        from: old, to: item, output: output, formatter: context.dueDateFormatter)
      if let placeWords {
        if changes == ["due date kept"] { changes = [] }
        changes.append(placeWords)
      }
      output.line(
        "Updated \"\(output.shown(old.text))\" in \(output.shown(list.name)): "
          + changes.joined(separator: ", ") + ".")
    }
    return status
  }

  /// ", due Thu 24 Dec 2026, 18:00, reminds" for an item with a due date, else "".
  static func dueNote(_ item: ChecklistItem, formatter: DueDateFormatter) -> String {
    guard item.showsDueDate else { return "" }
    return ", due \(formatter.full(item.dueDate))" + (item.shouldRemind ? ", reminds" : "")
      + (item.shouldRemind && !item.reminderLead.isNone ? " \(item.reminderLead.phrase)" : "")
  }

  /// Reads a `--due` value with the app's date parser; a bad date is a usage error.
  static func parseDue(_ text: String, context: CommandContext) throws(CLIError) -> Date {
    do throws(DueDateParseError) {
      return try DueDateParser(timeZone: context.timeZone).parse(text, now: context.now)
    } catch {
      throw .usage("--due: \(error.message)")
    }
  }

  static let check = setChecked(true)
  static let uncheck = setChecked(false)

  private static func setChecked(_ checked: Bool) -> CommandSpec {
    let name = checked ? "check" : "uncheck"
    return CommandSpec(
      name: name, positionals: ["LIST", "ITEM"],
      summary: checked ? "Mark an item done." : "Mark an item not done."
    ) { arguments, context throws(CLIError) in
      let (store, load) = try context.open()
      var model = load.model
      let list = try ListSelector.find(arguments.positionals[0], in: model)
      let index = try ItemSelector.find(arguments.positionals[1], in: list)
      let item = list.items[index]
      let output = context.output
      guard item.checked != checked else {
        output.line(
          "\"\(output.shown(item.text))\" in \(output.shown(list.name)) was already \(name)ed.")
        return 0
      }
      // Checking a repeating item moves its due date on and leaves it unchecked.
      let check = model.checkItem(
        listID: list.id, at: index, schedule: RepeatSchedule(timeZone: context.timeZone))
      if let check { model.apply(check.change) }
      let status = try context.save(model, store: store, state: load.state)
      if status == 0 {
        if let next = check?.nextDueDate {
          output.line(
            PlannerCommands.doneText(
              item: output.shown(item.text), list: output.shown(list.name), next: next,
              formatter: context.dueDateFormatter))
        } else {
          output.line(
            "\(checked ? "Checked" : "Unchecked") \"\(output.shown(item.text))\" in \(output.shown(list.name))."
          )
        }
      }
      return status
    }
  }

  static let remove = CommandSpec(
    name: "rm", positionals: ["LIST", "ITEM"], flags: [.withChildren],
    summary: "Delete an item.",
    details: "An item with subtasks is deleted only with --with-children, which deletes them "
      + "too (undo brings all back)."
  ) { arguments, context throws(CLIError) in
    let (store, load) = try context.open()
    var model = load.model
    let list = try ListSelector.find(arguments.positionals[0], in: model)
    let index = try ItemSelector.find(arguments.positionals[1], in: list)
    let item = list.items[index]
    let output = context.output
    let subtasks = list.descendantCount(at: index)
    if subtasks > 0 && !arguments.has(.withChildren) {
      throw .failure(
        "\"\(output.shown(item.text))\" has \(subtaskCount(subtasks)); give --with-children to "
          + "delete \(subtasks == 1 ? "it" : "them") too")
    }
    if let changes = model.deleteSubtree(listID: list.id, at: index) { model.apply(changes) }
    let status = try context.save(model, store: store, state: load.state)
    if status == 0 {
      let with = subtasks == 0 ? "" : " and its \(subtaskCount(subtasks))"
      output.line("Deleted \"\(output.shown(item.text))\"\(with) from \(output.shown(list.name)).")
    }
    return status
  }

  /// "1 subtask", "3 subtasks".
  static func subtaskCount(_ count: Int) -> String {
    "\(count) subtask\(count == 1 ? "" : "s")"
  }
}

/// What an edit changed, in words: `text "Milk" → "Oat milk"`, `due Fri 25 Dec 2026, 09:00`.
enum ItemChangeDescription {
  static func changes(
    from old: ChecklistItem, to new: ChecklistItem, output: CLIOutput, formatter: DueDateFormatter
  ) -> [String] {
    var changes: [String] = []
    if old.text != new.text {
      changes.append("text \"\(output.shown(old.text))\" → \"\(output.shown(new.text))\"")
    }
    if new.showsDueDate && (!old.showsDueDate || old.dueDate != new.dueDate) {
      changes.append("due \(formatter.full(new.dueDate))")
    } else if old.showsDueDate && !new.showsDueDate {
      changes.append("no due date")
    }
    if old.shouldRemind != new.shouldRemind {
      changes.append(new.shouldRemind ? "reminder on" : "reminder off")
    }
    changes += PlannerCommands.changes(from: old, to: new)
    if changes.isEmpty { changes.append("due date kept") }
    return changes
  }
}
