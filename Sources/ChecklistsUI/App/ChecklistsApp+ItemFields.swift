import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The item form's Notes and Repeat fields: the note's line keys, the Repeat picker, and what
/// they save.
extension ChecklistsApp {
  /// Does a Notes or Repeat action on the item form.
  func performOnItemFields(_ action: KeyAction, form: inout ItemFormScreen) {
    switch action {
    case .newLine:
      guard form.focus == .note else { return }
      form.note.insert("\n")
    case .previousLine, .nextLine:
      guard form.focus == .note else { return }
      let step = action == .nextLine ? 1 : -1
      // At the first or last line the arrow leaves the note, as it leaves any other field.
      if !form.note.moveLines(by: step, width: itemFieldWidth(form, width: width)) {
        form.focus = form.focus.cycled(by: step)
      }
    case .nextRepeat, .previousRepeat:
      guard form.focus == .repeat else { return }
      let count = form.repeatChoices.count
      let position = form.repeatChoices.firstIndex(of: form.repeatRule) ?? 0
      let step = action == .nextRepeat ? 1 : -1
      form.repeatRule = form.repeatChoices[((position + step) % count + count) % count]
    default: break
    }
  }

  /// A note as saved: without the empty lines (and trailing blanks) it ends with; "" when it
  /// is only white space.
  static func savedNote(_ text: String) -> String {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    while let last = lines.last, last.allSatisfy(\.isWhitespace) { lines.removeLast() }
    return lines.joined(separator: "\n")
  }

  /// The parts of an edit message for the note, the repeat rule, the lead time, the priority
  /// and the tags: "note added", "note changed", "note removed", "repeats weekly", "no longer
  /// repeats", "reminds 15 min before", "high priority", "no priority", "tags #work #home",
  /// "no tags".
  static func itemFieldChanges(from old: ChecklistItem, to new: ChecklistItem) -> [String] {
    var parts: [String] = []
    if old.note != new.note {
      if old.note.isEmpty {
        parts.append("note added")
      } else {
        parts.append(new.note.isEmpty ? "note removed" : "note changed")
      }
    }
    if old.repeatRule != new.repeatRule {
      parts.append(new.repeatRule.map(repeatPhrase) ?? "no longer repeats")
    }
    if old.reminderLead != new.reminderLead && new.shouldRemind {
      parts.append("reminds \(new.reminderLead.phrase)")
    }
    if old.priorityLevel != new.priorityLevel {
      parts.append(
        new.priorityLevel == .none ? "no priority" : "\(new.priorityLevel.rawValue) priority")
    }
    if old.tags != new.tags {
      parts.append(new.tags.isEmpty ? "no tags" : "tags " + ItemFormScreen.tagsText(new.tags))
    }
    return parts
  }

  /// "repeats weekly", "repeats on weekdays", "repeats every 2 weeks".
  static func repeatPhrase(_ rule: RepeatRule) -> String {
    rule == .weekdays ? "repeats on weekdays" : "repeats \(rule.text)"
  }

  /// What the Repeat field shows: "Never", "Weekly", "Every 2 weeks".
  static func repeatName(_ rule: RepeatRule?) -> String {
    guard let text = rule?.text, let first = text.first else { return "Never" }
    return first.uppercased() + text.dropFirst()
  }

  /// The first due date after the form's, when the form repeats and has a due date.
  func nextOccurrence(_ form: ItemFormScreen) -> Date? {
    guard let rule = form.repeatRule, let due = form.dueDate else { return nil }
    let schedule = RepeatSchedule(timeZone: options.timeZone)
    // An unchanged series goes on with the day and time it keeps (31st, after February).
    if let original = form.original, original.dueDate == due, original.repeatRule == rule,
      let next = schedule.advanced(original)
    {
      return next.dueDate
    }
    return schedule.next(after: due, rule: rule).date
  }
}

extension ChecklistsApp {
  /// What the help says about the Notes field and the Repeat row besides their keys.
  static func fieldNotes(_ screen: KeyScreen) -> [(keys: String, what: String)] {
    switch screen {
    case .note:
      return [
        (
          "Notes",
          "several lines of free text; a paste keeps its line breaks; Home/End and Ctrl-U/K "
            + "work on the cursor's line; the first line shows dimmed after the item in the list"
        )
      ]
    case .repeat:
      return [
        (
          "Repeat",
          "Never, daily, weekdays, weekly, every 2 weeks, monthly, yearly (checklists edit "
            + "--repeat sets others); needs a due date; checking a repeating item moves its "
            + "due date on and leaves it unchecked"
        )
      ]
    default: return []
    }
  }

  /// What the help says about the Priority row and the Tags field (their keys are typed).
  static let priorityAndTagsNotes: [(keys: String, what: String)] = [
    (
      "Priority",
      "Right/Left or +/- step None, ! Low, !! Medium, !!! High; h m l n pick one by name"
    ),
    ("Tags", "names separated by spaces or commas, # optional: #work #home"),
  ]

  /// The status-line hints on the Notes field and the Repeat row.
  func itemFieldHints(_ form: ItemFormScreen) -> [Hint] {
    func hint(_ action: KeyAction, _ label: String, _ rank: Int) -> Hint {
      Hint(actions: [action], label: label, dropRank: rank)
    }
    if form.focus == .note {
      return [
        hint(.newLine, "new line", 1), hint(.nextField, "next field", 0),
        hint(.cancel, "cancel", 0), hint(.previousField, "previous field", 3),
        hint(.help, "help", 2),
      ]
    }
    return [
      hint(.chooseRepeat, "choose", 0),
      Hint(actions: [.previousRepeat, .nextRepeat], label: "change", dropRank: 3),
      hint(.cancel, "cancel", 0), hint(.nextField, "next field", 2), hint(.help, "help", 1),
    ]
  }
}
