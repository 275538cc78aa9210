import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// `mv`, `clear`, `today`, `search`, and the `--note` / `--repeat` options of `add` and `edit`.
enum PlannerCommands {
  /// The exit status of a failure of `today` and `search` (a usage error is 2): their 1 means
  /// "nothing found", as `due`'s does.
  static let failureStatus: Int32 = 3

  static let move = CommandSpec(
    name: "mv", positionals: ["LIST", "ITEM", "TO-LIST"],
    summary: "Move an item to the end of another list.",
    details: "The item keeps its check mark, due date, reminder, note, repeat, priority and "
      + "tags; its subtasks go with it (it is a top-level item there)."
  ) { arguments, context throws(CLIError) in
    let (store, load) = try context.open()
    var model = load.model
    let list = try ListSelector.find(arguments.positionals[0], in: model)
    let index = try ItemSelector.find(arguments.positionals[1], in: list)
    let target = try ListSelector.find(arguments.positionals[2], in: model)
    let item = list.items[index]
    let output = context.output
    let subtasks = list.descendantCount(at: index)
    guard let changes = model.moveSubtree(listID: list.id, at: index, toListID: target.id) else {
      throw .failure("\"\(output.shown(item.text))\" is already in \(output.shown(target.name))")
    }
    model.apply(changes)
    let status = try context.save(model, store: store, state: load.state)
    if status == 0 {
      let with = subtasks == 0 ? "" : " with \(ItemCommands.subtaskCount(subtasks))"
      output.line(
        "Moved \"\(output.shown(item.text))\"\(with) from \(output.shown(list.name)) to "
          + "\(output.shown(target.name)) (item \(target.items.count + 1)).")
    }
    return status
  }

  static let clear = CommandSpec(
    name: "clear", positionals: ["LIST"],
    summary: "Delete the checked items of a list.",
    details: "The file's .bak beside it holds the version before this save."
  ) { arguments, context throws(CLIError) in
    let (store, load) = try context.open()
    var model = load.model
    let list = try ListSelector.find(arguments.positionals[0], in: model)
    let output = context.output
    guard let change = model.clearChecked(listID: list.id) else {
      output.line("\(output.shown(list.name)) has no checked items.")
      return 0
    }
    model.apply(change)
    let status = try context.save(model, store: store, state: load.state)
    if status == 0 {
      let count = change.deletedItemCount
      output.line(
        "Cleared \(count) checked item\(count == 1 ? "" : "s") from \(output.shown(list.name)).")
    }
    return status
  }

  static let today = CommandSpec(
    name: "today", positionals: [], flags: [.json],
    summary: "Show unchecked items due today or overdue, oldest first.",
    details: """
      Each line: list, item, due date (and how long ago or ahead), "repeats RULE" for a
      repeating item. Today ends at midnight in the local time zone (TZ).
      Exits 0 when something is due today, 1 when nothing is, 2 on a usage error, 3 when
      the file cannot be read.
      """,
    failureStatus: failureStatus
  ) { arguments, context throws(CLIError) in
    let (_, load) = try context.openToShow()
    let rows = SmartLists(timeZone: context.timeZone).today(load.model, now: context.now)
    if arguments.has(.json) {
      context.output.write(try JSONOutput.encode(rows.map { PlannerRowJSON($0, now: context.now) }))
    } else {
      for row in rows {
        context.output.line(
          DueCommand.dueLine(listName: row.listName, item: row.item, context: context))
      }
    }
    return rows.isEmpty ? 1 : 0
  }

  static let search = CommandSpec(
    name: "search", positionals: ["TEXT"], flags: [.json],
    summary: "Find items whose text or note contains TEXT, in any case and accents.",
    details: """
      "cafe" finds "Café". Results are grouped by list; each line is the item's number in
      its list (for edit, check, mv …), [x] when checked, the text, and, when only the
      note matches, the note's line that does. "#work" also finds the items tagged work (or
      with a tag starting so); "!!!", "!!" or "!" alone finds the items of high, medium or
      low priority.
      Exits 0 when something is found, 1 when nothing is, 2 on a usage error, 3 when the
      file cannot be read.
      """,
    failureStatus: failureStatus
  ) { arguments, context throws(CLIError) in
    let query = arguments.positionals[0]
    guard !query.trimmingWhitespace().isEmpty else {
      throw .usage("the search text is empty")
    }
    let (_, load) = try context.openToShow()
    let index = SearchIndex(load.model)
    let groups = index.groups(index.search(query))
    let output = context.output
    if arguments.has(.json) {
      let json = groups.map { group in
        SearchGroupJSON(
          list: group.listName,
          items: group.rows.map { SearchItemJSON($0) })
      }
      output.write(try JSONOutput.encode(json))
    } else {
      let needle = SearchFolding.fold(query)
      for group in groups {
        output.line(output.shown(group.listName))
        for row in group.rows {
          let box = row.item.checked ? "[x]" : "[ ]"
          var line =
            "  \(row.itemIndex + 1). \(box) \(ItemMarks.decorated(row.item, output: output))"
          if !Self.contains(SearchFolding.fold(row.item.text), needle),
            let noteLine = row.item.note.split(separator: "\n", omittingEmptySubsequences: true)
              .first(where: { Self.contains(SearchFolding.fold(String($0)), needle) })
          {
            line += "  — \(output.shown(String(noteLine)))"
          }
          output.line(line)
        }
      }
    }
    return groups.isEmpty ? 1 : 0
  }

  private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard !needle.isEmpty, needle.count <= haystack.count else { return needle.isEmpty }
    for start in 0...(haystack.count - needle.count)
    where haystack[start..<(start + needle.count)].elementsEqual(needle) {
      return true
    }
    return false
  }

  // MARK: - --note and --repeat

  /// The options `add` and `edit` take besides their own.
  static let itemOptions: [(OptionName, String)] = [
    (.note, "TEXT"), (.repeat, "RULE"), (.remindBefore, "LEAD"), (.priority, "LEVEL"),
    (.tag, "NAME"), (.under, "ITEM"),
  ]

  /// The words `add --help` and `edit --help` add about them.
  static let itemOptionsHelp =
    " --note TEXT sets the item's note (several lines: $'line 1\\nline 2'; \"\" removes it). "
    + "--repeat RULE makes an item with a due date repeat: daily, weekdays, weekly, monthly, "
    + "yearly, \"every 3 days\", \"every 2 weeks\", \"every 6 months\", \"every 2 years\"; "
    + "none stops it. Checking a repeating item moves its due date to the next time instead. "
    + "--remind-before LEAD reminds that long before the due time (5m, 15m, 30m, 1h, 1d, any "
    + "Nm, Nh or Nd up to 365d) and turns the reminder on; --remind-before 0 reminds at the due "
    + "time. --priority high|medium|low|none sets the priority (shown as !!!, !!, !). --tag NAME "
    + "adds a tag (repeat it for several; case is ignored when comparing). --under ITEM makes "
    + "the item a subtask of ITEM (in the same list), after its other subtasks."

  /// The level in `--priority`, nil when the option is absent.
  static func priorityOption(_ arguments: ParsedArguments) throws(CLIError) -> PriorityLevel? {
    guard let text = arguments.value(.priority) else { return nil }
    guard let level = PriorityLevel(name: text.trimmingSpaces()) else {
      throw .usage("--priority takes high, medium, low or none, not \"\(text)\"")
    }
    return level
  }

  /// The names in `--tag` (or `--untag`), trimmed, a leading `#` dropped; each must show
  /// something.
  static func tagNames(_ arguments: ParsedArguments, _ option: OptionName) throws(CLIError)
    -> [String]
  {
    var names: [String] = []
    for raw in arguments.values(option) {
      let name = raw.trimmingSpaces()
      guard !name.showsNothing else { throw .usage("\(option.rawValue): the tag name is empty") }
      let shown = name.hasPrefix("#") && name.count > 1 ? String(name.dropFirst()) : name
      names.append(shown)
    }
    return names
  }

  /// The repeat rule in `--repeat`: `.some(nil)` for "none", nil when the option is absent.
  static func repeatOption(_ arguments: ParsedArguments) throws(CLIError) -> RepeatRule?? {
    guard let text = arguments.value(.repeat) else { return nil }
    if text.trimmingSpaces().lowercased() == "none" { return .some(nil) }
    guard let rule = RepeatRule(parsing: text) else {
      throw .usage(
        "--repeat takes daily, weekdays, weekly, monthly, yearly, \"every N days\", "
          + "\"every N weeks\", \"every N months\", \"every N years\" (N up to "
          + "\(RepeatRule.maximumInterval)) or none, not \"\(text)\"")
    }
    return .some(rule)
  }

  /// The lead time in `--remind-before`, nil when the option is absent.
  static func leadOption(_ arguments: ParsedArguments) throws(CLIError) -> ReminderLead? {
    guard let text = arguments.value(.remindBefore) else { return nil }
    guard let lead = ReminderLead(parsing: text) else {
      throw .usage(
        "--remind-before takes a lead time like 5m, 15m, 30m, 1h, 1d (up to 365d) or 0, "
          + "not \"\(text)\"")
    }
    return lead
  }

  /// Applies `--note`, `--repeat` and `--remind-before` to `item`, given by `source`'s
  /// arguments; a rule and a lead time need a due date (`ItemValidity`), and a lead time other
  /// than 0 turns the reminder on.
  static func applyItemOptions(
    _ arguments: ParsedArguments, to item: inout ChecklistItem, source: ItemValidityError.Source
  ) throws(CLIError) {
    if let note = arguments.value(.note) { item.note = note }
    if let rule = try repeatOption(arguments), rule != item.repeatRule {
      item.repeatRule = rule
    }
    let lead = try leadOption(arguments)
    try check(
      ItemValidity(
        hasDueDate: item.showsDueDate, repeats: item.repeatRule != nil, lead: lead != nil),
      source: source)
    if let lead {
      item.reminderLead = lead
      if !lead.isNone { item.shouldRemind = true }
    }
    if let level = try priorityOption(arguments) { item.priorityLevel = level }
    for name in try tagNames(arguments, .tag) { item.addTag(name) }
  }

  /// Throws a usage error with `ItemValidity`'s message when what was given for an item breaks
  /// one of its rules.
  static func check(_ validity: ItemValidity, source: ItemValidityError.Source) throws(CLIError) {
    if let problem = validity.problem { throw .usage(problem.message(for: source)) }
  }

  /// Whether the arguments hold `--note` or `--repeat`.
  static func hasItemOptions(_ arguments: ParsedArguments) -> Bool {
    arguments.value(.note) != nil || arguments.value(.repeat) != nil
      || arguments.value(.remindBefore) != nil || arguments.value(.priority) != nil
      || !arguments.values(.tag).isEmpty || arguments.value(.under) != nil
  }

  /// What an edit changed in the note and the repeat rule, in words.
  static func changes(from old: ChecklistItem, to new: ChecklistItem) -> [String] {
    var changes: [String] = []
    if old.note != new.note { changes.append(new.note.isEmpty ? "note removed" : "note set") }
    if old.repeatRule != new.repeatRule {
      changes.append(new.repeatRule.map { "repeats \($0.text)" } ?? "no repeat")
    }
    if old.reminderLead != new.reminderLead {
      changes.append("reminds \(new.reminderLead.phrase)")
    }
    if old.priorityLevel != new.priorityLevel {
      changes.append(
        new.priorityLevel == .none
          ? "no priority" : "priority \(new.priorityLevel.rawValue) (\(new.priorityLevel.marks))")
    }
    let oldTags = Set(old.tags.map(ChecklistItem.tagKey))
    let newTags = Set(new.tags.map(ChecklistItem.tagKey))
    let added = new.tags.filter { !oldTags.contains(ChecklistItem.tagKey($0)) }
    let removed = old.tags.filter { !newTags.contains(ChecklistItem.tagKey($0)) }
    if !added.isEmpty { changes.append("tagged " + added.map { "#" + $0 }.joined(separator: " ")) }
    if !removed.isEmpty {
      changes.append("untagged " + removed.map { "#" + $0 }.joined(separator: " "))
    }
    return changes
  }

  /// What `check` says after a repeating item moved on (it stays unchecked):
  /// `Done "Water plants" in Home; next due Tue 8 Dec 2026, 09:00.`
  static func doneText(item: String, list: String, next date: Date, formatter: DueDateFormatter)
    -> String
  {
    "Done \"\(item)\" in \(list); next due \(formatter.full(date))."
  }
}

/// A row of `today --json`.
struct PlannerRowJSON: Codable {
  var list: String
  var text: String
  var dueDate: Date
  var itemID: Int
  var overdue: Bool
  var note: String?
  var `repeat`: String?
  var remindBefore: String?
  var parentItemID: Int?
  var priority: Int?
  var tags: [String]?

  init(_ row: PlannerRow, now: Date) {
    list = row.listName
    text = row.item.text
    dueDate = row.item.dueDate
    itemID = row.item.itemID
    overdue = row.item.dueDate < now
    note = row.item.note.isEmpty ? nil : row.item.note
    `repeat` = row.item.repeatRule?.text
    remindBefore = row.item.reminderLead.isNone ? nil : row.item.reminderLead.text
    parentItemID = row.item.parentItemID
    priority = row.item.priority == 0 ? nil : row.item.priority
    let tags = row.item.tags
    self.tags = tags.isEmpty ? nil : tags
  }
}

/// A list's results in `search --json`.
struct SearchGroupJSON: Codable {
  var list: String
  var items: [SearchItemJSON]
}

/// An item of `search --json`: its number in its list and its fields.
struct SearchItemJSON: Codable {
  var index: Int
  var item: JSONOutput.Item

  init(_ row: PlannerRow) {
    index = row.itemIndex + 1
    item = JSONOutput.Item(row.item)
  }

  enum CodingKeys: String, CodingKey {
    case index
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    index = try container.decode(Int.self, forKey: .index)
    item = try JSONOutput.Item(from: decoder)
  }

  /// The item's keys with `index` beside them.
  func encode(to encoder: any Encoder) throws {
    try item.encode(to: encoder)
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(index, forKey: .index)
  }
}

extension PlannerCommands {
  /// The commands of this file, in the order `--help` lists them (after the others).
  static let all: [CommandSpec] = [move, clear, today, search]
}
