import ChecklistsCore
import Foundation

/// `add`, `edit`, `check`, `uncheck`, `rm`.
enum ItemCommands {
  static let add = CommandSpec(
    name: "add", positionals: ["LIST", "TEXT"], valueOptions: [("--due", "DATE")],
    flags: ["--remind"],
    summary: "Add an item at the end of a list.",
    details: "--due takes what the app's date field takes (e.g. \"tomorrow 9am\"); "
      + "--remind (needs --due) turns the reminder on."
  ) { arguments, context throws(CLIError) in
    let text = arguments.positionals[1]
    guard !text.trimmingCharacters(in: .whitespaces).isEmpty else {
      throw .usage("the item text is empty")
    }
    var dueDate = context.now
    if let dueText = arguments.options["--due"] {
      dueDate = try parseDue(dueText, now: context.now)
    } else if arguments.flags.contains("--remind") {
      throw .usage("--remind needs --due DATE")
    }
    let (store, load) = try context.open()
    var model = load.model
    let list = try ListSelector.find(arguments.positionals[0], in: model)
    let item = model.makeItem(
      text: text, dueDate: dueDate, shouldRemind: arguments.flags.contains("--remind"))
    if let change = model.insertItem(item, listID: list.id) { model.apply(change) }
    let status = try context.save(model, store: store, state: load.state)
    if status == 0 {
      let output = context.output
      output.line(
        "Added \"\(output.shown(text))\" to \(output.shown(list.name)) as item \(list.items.count + 1)."
      )
    }
    return status
  }

  static let edit = CommandSpec(
    name: "edit", positionals: ["LIST", "ITEM"],
    valueOptions: [("--text", "TEXT"), ("--due", "DATE")],
    flags: ["--remind", "--no-remind"],
    summary: "Change an item's text, due date or reminder.",
    details: "--due takes what the app's date field takes (e.g. \"fri 17:00\"); a new due date "
      + "arms the reminder again. --remind / --no-remind turn the reminder on or off."
  ) { arguments, context throws(CLIError) in
    let remind = arguments.flags.contains("--remind")
    let noRemind = arguments.flags.contains("--no-remind")
    guard !(remind && noRemind) else { throw .usage("give --remind or --no-remind, not both") }
    let newText = arguments.options["--text"]
    guard newText != nil || arguments.options["--due"] != nil || remind || noRemind else {
      throw .usage("edit needs --text, --due, --remind or --no-remind")
    }
    if let newText, newText.trimmingCharacters(in: .whitespaces).isEmpty {
      throw .usage("the item text is empty")
    }
    let newDue = try arguments.options["--due"].map { text throws(CLIError) in
      try parseDue(text, now: context.now)
    }
    let (store, load) = try context.open()
    var model = load.model
    let list = try ListSelector.find(arguments.positionals[0], in: model)
    let index = try ItemSelector.find(arguments.positionals[1], in: list)
    var item = list.items[index]
    if let newText { item.text = newText }
    if let newDue { item.dueDate = newDue }
    if remind || noRemind { item.shouldRemind = remind }
    if let change = model.replaceItem(listID: list.id, at: index, with: item) {
      model.apply(change)
    }
    let status = try context.save(model, store: store, state: load.state)
    if status == 0 {
      let output = context.output
      let due = item.shouldRemind ? ", due \(DueDateFormatter().full(item.dueDate))" : ""
      output.line("Updated \"\(output.shown(item.text))\" in \(output.shown(list.name))\(due).")
    }
    return status
  }

  /// Reads a `--due` value with the app's date parser; a bad date is a usage error.
  static func parseDue(_ text: String, now: Date) throws(CLIError) -> Date {
    do throws(DueDateParseError) {
      return try DueDateParser().parse(text, now: now)
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
      var item = list.items[index]
      let output = context.output
      guard item.checked != checked else {
        output.line(
          "\"\(output.shown(item.text))\" in \(output.shown(list.name)) was already \(name)ed.")
        return 0
      }
      item.checked = checked
      if let change = model.replaceItem(listID: list.id, at: index, with: item) {
        model.apply(change)
      }
      let status = try context.save(model, store: store, state: load.state)
      if status == 0 {
        output.line(
          "\(checked ? "Checked" : "Unchecked") \"\(output.shown(item.text))\" in \(output.shown(list.name))."
        )
      }
      return status
    }
  }

  static let remove = CommandSpec(
    name: "rm", positionals: ["LIST", "ITEM"],
    summary: "Delete an item."
  ) { arguments, context throws(CLIError) in
    let (store, load) = try context.open()
    var model = load.model
    let list = try ListSelector.find(arguments.positionals[0], in: model)
    let index = try ItemSelector.find(arguments.positionals[1], in: list)
    let item = list.items[index]
    if let change = model.deleteItem(listID: list.id, at: index) { model.apply(change) }
    let status = try context.save(model, store: store, state: load.state)
    if status == 0 {
      let output = context.output
      output.line("Deleted \"\(output.shown(item.text))\" from \(output.shown(list.name)).")
    }
    return status
  }
}
