/// The one home of an item's rules: its text shows something, and what needs a due date
/// (Remind Me, a repeat rule, an early reminder's lead time) has one.
///
/// It judges what was *given* for an item (by the item form, a command's options, an imported
/// file), not a `ChecklistItem`: on an item Remind Me gives the due date itself
/// (`showsDueDate`). The item form, `add`, `edit` and `import` check it; `removeDueDate()`
/// (`edit --no-due`, a due date taken away in the vdir) and the sync's new items drop what
/// needs a due date instead.
public struct ItemValidity: Equatable, Sendable {
  /// The text given, nil when the text is not judged (not given, or unchanged: an item that
  /// came without text, a task another app synced with no title, may keep it so).
  public var text: String?
  /// Whether a due date was given (one that cannot be read counts: its own message says why).
  public var hasDueDate: Bool
  /// Whether Remind Me was asked for.
  public var remind: Bool
  /// Whether a repeat rule was given or kept.
  public var repeats: Bool
  /// Whether an early reminder's lead time was given.
  public var lead: Bool

  /// What was given for an item.
  public init(
    text: String? = nil, hasDueDate: Bool = false, remind: Bool = false, repeats: Bool = false,
    lead: Bool = false
  ) {
    self.text = text
    self.hasDueDate = hasDueDate
    self.remind = remind
    self.repeats = repeats
    self.lead = lead
  }

  /// The first rule broken, in this order: text, Remind Me, repeat, lead time; nil when none.
  public var problem: ItemValidityError? {
    if let text, text.showsNothing { return .emptyText }
    if hasDueDate { return nil }
    if remind { return .remindNeedsDueDate }
    if repeats { return .repeatNeedsDueDate }
    if lead { return .leadNeedsDueDate }
    return nil
  }

  /// Throws the first rule broken (see `problem`).
  public func check() throws(ItemValidityError) {
    if let problem { throw problem }
  }
}

/// A rule of `ItemValidity` that what was given for an item breaks.
public enum ItemValidityError: Error, Equatable, Sendable {
  /// The text is empty, or shows nothing (white space, control characters, joiners).
  case emptyText
  /// Remind Me without a due date.
  case remindNeedsDueDate
  /// A repeat rule without a due date.
  case repeatNeedsDueDate
  /// An early reminder's lead time without a due date.
  case leadNeedsDueDate

  /// Where the item was given, which decides the words of the message.
  public enum Source: Equatable, Sendable {
    /// The app's item form (Done).
    case itemForm
    /// `checklists add`'s arguments.
    case addCommand
    /// `checklists edit`'s arguments.
    case editCommand
    /// An item of an imported JSON file, at `path` ("bad.json: list 1 ("D"), item 1").
    case importedItem(path: String)
  }

  /// What the user reads: "Repeat needs a due date" on the form, "--repeat needs a due date:
  /// give --due DATE too" from a command, `…, item 1: "repeat" needs a due date: give
  /// "dueDate" too` from an import.
  public func message(for source: Source) -> String {
    switch source {
    case .itemForm: formMessage
    case .addCommand, .editCommand: commandMessage(add: source == .addCommand)
    case .importedItem(let path): "\(path): " + importMessage
    }
  }

  private var formMessage: String {
    switch self {
    case .emptyText: "The item needs some text"
    // The form's lead time is part of its Remind Me row.
    case .remindNeedsDueDate, .leadNeedsDueDate: "Remind Me needs a due date"
    case .repeatNeedsDueDate: "Repeat needs a due date"
    }
  }

  private func commandMessage(add: Bool) -> String {
    switch self {
    case .emptyText: "the item text is empty"
    case .remindNeedsDueDate: "--remind needs --due DATE"
    case .repeatNeedsDueDate: "--repeat needs a due date: give --due DATE too"
    // add has no due date of its own: only --due gives one.
    case .leadNeedsDueDate:
      add
        ? "--remind-before needs --due DATE"
        : "--remind-before needs a due date: give --due DATE too"
    }
  }

  private var importMessage: String {
    switch self {
    case .emptyText: "\"text\" is empty"
    case .remindNeedsDueDate: "\"shouldRemind\" needs a due date: give \"dueDate\" too"
    case .repeatNeedsDueDate: "\"repeat\" needs a due date: give \"dueDate\" too"
    case .leadNeedsDueDate: "\"remindBefore\" needs a due date: give \"dueDate\" too"
    }
  }
}

extension ChecklistItem {
  /// Takes the due date away, with what needs it: Remind Me, the early reminder's lead time
  /// and the repeat rule (the stored date stays, as the file needs one; a rule this version
  /// cannot read stays too, for the version that wrote it).
  public mutating func removeDueDate() {
    hasDueDate = false
    shouldRemind = false
    reminderLead = .none
    if repeatRule != nil { repeatRule = nil }
  }
}
