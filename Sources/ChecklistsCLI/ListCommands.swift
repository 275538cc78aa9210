import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// `lists`, `show`, `new-list`, `rm-list`.
enum ListCommands {
  static let lists = CommandSpec(
    name: "lists", positionals: [], flags: [.json],
    summary: "Show the lists with their numbers and what remains to do."
  ) { arguments, context throws(CLIError) in
    let (_, load) = try context.openToShow()
    if arguments.has(.json) {
      struct Row: Codable {
        var index: Int
        var name: String
        var iconName: String
        var items: Int
        var remaining: Int
        var subtitle: String
      }
      let rows = load.model.lists.enumerated().map { offset, list in
        Row(
          index: offset + 1, name: list.name, iconName: list.iconName, items: list.items.count,
          remaining: list.uncheckedCount, subtitle: list.subtitle)
      }
      context.output.write(try JSONOutput.encode(rows))
      return 0
    }
    for (offset, list) in load.model.lists.enumerated() {
      context.output.line("\(offset + 1). \(context.output.shown(list.name)) — \(list.subtitle)")
    }
    return 0
  }

  static let show = CommandSpec(
    name: "show", positionals: ["LIST"], flags: [.json],
    summary: "Show a list's items with their numbers.",
    details: "Each line: number, [x] when checked, the priority (!!! high, !! medium, ! low), "
      + "the text, its tags (#work), and the due date when it has one "
      + "(\"overdue\" once it has passed, \"reminds\" when Remind Me is on, with \"15 min before\" "
      + "for an early reminder, \"repeats RULE\"), "
      + "then [photo] when it has a photo; an item's note follows on indented lines. A "
      + "subtask is indented under its item, two spaces a level. With "
      + "--json, an item's photo is the absolute path of its copy."
  ) { arguments, context throws(CLIError) in
    let (store, load) = try context.openToShow()
    let list = try ListSelector.find(arguments.positionals[0], in: load.model)
    if arguments.has(.json) {
      let photos = PhotoLibrary(dataFile: store.resolvedPath)
      context.output.write(try JSONOutput.encode(JSONOutput.List(list, photos: photos)))
      return 0
    }
    let output = context.output
    output.line("\(output.shown(list.name)) — \(list.subtitle)")
    let depths = list.depths()
    for (offset, item) in list.items.enumerated() {
      let box = item.checked ? "[x]" : "[ ]"
      var due = ""
      if item.showsDueDate {
        var notes = ["due \(PlainDate.string(item.dueDate, timeZone: context.timeZone))"]
        if !item.checked && item.dueDate <= context.now { notes.append("overdue") }
        if item.shouldRemind {
          notes.append(
            item.reminderLead.isNone ? "reminds" : "reminds \(item.reminderLead.phrase)")
        }
        if let rule = item.repeatRule { notes.append("repeats \(rule.text)") }
        due = "  (\(notes.joined(separator: ", ")))"
      }
      let photo = item.photo == nil ? "" : "  [photo]"
      // A subtask is indented two spaces a level, after its number.
      let level = String(repeating: "  ", count: depths[offset])
      output.line(
        "\(offset + 1). \(level)\(box) \(ItemMarks.decorated(item, output: output))\(due)\(photo)")
      // The note under its item, indented past the number and the box.
      let indent = String(repeating: " ", count: String(offset + 1).count + 6 + level.count)
      for line in item.note.split(separator: "\n", omittingEmptySubsequences: false)
      where !item.note.isEmpty {
        output.line(indent + output.shown(String(line)))
      }
    }
    return 0
  }

  static let newList = CommandSpec(
    name: "new-list", positionals: ["NAME"], valueOptions: [(.icon, "ICON")],
    flags: [.duplicate],
    summary: "Add a list.",
    details: "ICON is one of: " + IconName.allCases.map(\.rawValue).joined(separator: ", ")
      + "; without it, Folder, as for a list made in the app. A name a list has already "
      + "(compared as lists are found: case and accents ignored) is refused, since commands "
      + "could no longer tell the two apart by name; --duplicate adds it anyway."
  ) { arguments, context throws(CLIError) in
    let name = arguments.positionals[0]
    guard !name.showsNothing else {
      throw .usage("the list name is empty")
    }
    let icon =
      try arguments.value(.icon).map { text throws(CLIError) in try iconName(text) }
      ?? IconName.folder
    let (store, load) = try context.open()
    // Without a file yet the list is the first one: the app's starting "List" is not made too.
    var model = load.isFirstRun ? DataModel(nextItemID: load.model.nextItemID) : load.model
    let sameName = try refuseTakenName(
      name, in: model, except: nil, allowed: arguments.has(.duplicate))
    model.apply(model.insertList(model.makeList(name: name, iconName: icon.rawValue)))
    let status = try context.save(model, store: store, state: load.state)
    if status == 0 {
      context.output.line("Created list \"\(context.output.shown(name))\".")
      if sameName > 0 {
        context.output.error(
          "there are now \(sameName + 1) lists named \"\(name)\": name them by number (see lists)")
      }
    }
    return status
  }

  static let editList = CommandSpec(
    name: "edit-list", positionals: ["LIST"], valueOptions: [(.name, "NAME"), (.icon, "ICON")],
    flags: [.duplicate],
    summary: "Rename a list or change its icon.",
    details: "ICON is one of the icons new-list takes; the list keeps its items. A NAME "
      + "another list has is refused as in new-list; --duplicate renames it anyway."
  ) { arguments, context throws(CLIError) in
    let newName = arguments.value(.name)
    guard newName != nil || arguments.value(.icon) != nil else {
      throw .usage("edit-list needs --name or --icon")
    }
    if let newName, newName.showsNothing {
      throw .usage("the list name is empty")
    }
    let icon = try arguments.value(.icon).map { text throws(CLIError) in try iconName(text) }
    let (store, load) = try context.open()
    var model = load.model
    let list = try ListSelector.find(arguments.positionals[0], in: model)
    var sameName = 0
    if let newName, newName != list.name {
      sameName = try refuseTakenName(
        newName, in: model, except: list.id, allowed: arguments.has(.duplicate))
    }
    guard
      let change = model.editList(
        id: list.id, name: newName ?? list.name, iconName: icon?.rawValue ?? list.iconName)
    else {
      context.output.line("List \"\(context.output.shown(list.name))\" is already so.")
      return 0
    }
    model.apply(change)
    // What the app remembers of the list by name follows the new name: the list it opens, and
    // sorting by due date.
    let status = try context.save(model, store: store, state: load.state) { state in
      guard let newName, newName != list.name else { return }
      if state.checklistName == list.name { state.checklistName = newName }
      state.sortByDue = state.sortByDue.map { $0 == list.name ? newName : $0 }
    }
    if status == 0 {
      var parts: [String] = []
      if let newName, newName != list.name {
        parts.append("renamed to \"\(context.output.shown(newName))\"")
      }
      if let icon, icon.rawValue != list.iconName { parts.append("icon \(icon.rawValue)") }
      context.output.line(
        "List \"\(context.output.shown(list.name))\": \(parts.joined(separator: ", ")).")
      if let newName, sameName > 0 {
        context.output.error(
          "there are now \(sameName + 1) lists named \"\(newName)\": name them by number (see lists)"
        )
      }
    }
    return status
  }

  /// How many lists other than `except` are named `name` (folded, as `ListSelector` compares);
  /// an error naming the first when there is one and a duplicate is not `allowed`.
  private static func refuseTakenName(
    _ name: String, in model: DataModel, except: Checklist.ID?, allowed: Bool
  ) throws(CLIError) -> Int {
    let taken = model.lists.indices.filter {
      model.lists[$0].id != except && TextSelection.sameName(model.lists[$0].name, name)
    }
    guard let first = taken.first, !allowed else { return taken.count }
    throw .failure(
      "list \(first + 1) is named \"\(model.lists[first].name)\" already, and commands could not "
        + "tell two such lists apart by name; --duplicate makes another anyway")
  }

  /// The icon named `text` (any case), or a usage error that lists them.
  private static func iconName(_ text: String) throws(CLIError) -> IconName {
    guard let found = IconName(caseInsensitive: text) else {
      let known = IconName.allCases.map(\.rawValue).joined(separator: ", ")
      throw .usage("unknown icon \"\(text)\" (one of: \(known))")
    }
    return found
  }

  static let removeList = CommandSpec(
    name: "rm-list", positionals: ["LIST"],
    summary: "Delete a list and its items."
  ) { arguments, context throws(CLIError) in
    let (store, load) = try context.open()
    var model = load.model
    let list = try ListSelector.find(arguments.positionals[0], in: model)
    if let change = model.deleteList(id: list.id) { model.apply(change) }
    let status = try context.save(model, store: store, state: load.state)
    if status == 0 {
      let count = list.items.count
      context.output.line(
        "Deleted list \"\(context.output.shown(list.name))\" (\(count) item\(count == 1 ? "" : "s"))."
      )
    }
    return status
  }
}

/// An item's text as the commands show it: the priority's marks before it (`!!! `), its tags
/// after it (` #work #home`).
enum ItemMarks {
  static func decorated(_ item: ChecklistItem, output: CLIOutput) -> String {
    let marks = item.priorityLevel.marks
    var text = (marks.isEmpty ? "" : marks + " ") + output.shown(item.text)
    for tag in item.tags { text += " #" + output.shown(tag) }
    return text
  }
}
