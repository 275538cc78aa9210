import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// What a three-way merge did that the user should know about.
public struct MergeReport: Equatable, Sendable {
  /// How many lists and items the other side's changes touched in the result.
  public var changesFromElsewhere: Int = 0
  /// Of those, the items and lists deleted elsewhere: said apart, so that a file put back from
  /// an older copy does not take work away unnoticed.
  public var deletionsFromElsewhere: Int = 0
  /// Fields both sides changed to different values: ours was kept, theirs is recorded here.
  public var conflicts: [MergeConflict] = []
  /// Items changed on one side and deleted on the other: they stayed.
  public var keptItems: [KeptItem] = []
  /// Lists deleted on one side and changed on the other: they stayed.
  public var keptLists: [String] = []
  /// Items added on both sides under the same `itemID`: ours got a new one (for the undo
  /// history; not told or logged, as nothing outside knew the old one).
  public var renumbered: [Renumbering] = []
  /// Subtasks whose parent moved to another list on one side: they moved there with it (the
  /// list they were in, their text, and where they went).
  public var movedWithParents: [KeptItem] = []
  /// Lists and items the file lacked when it was read again after being unreadable (restored
  /// from an older copy): they stayed instead of being taken as deleted elsewhere.
  public var keptMissingFromFile: Int = 0

  /// Creates an empty report.
  public init() {}

  /// Whether the merge took nothing from elsewhere and had nothing to report.
  public var isEmpty: Bool {
    changesFromElsewhere == 0 && conflicts.isEmpty && keptItems.isEmpty && keptLists.isEmpty
      && renumbered.isEmpty && keptMissingFromFile == 0
  }

  /// Adds what `other` reports to this report: counts add up, lists of conflicts, kept and
  /// renumbered things follow each other (several merges told as one).
  public mutating func add(_ other: MergeReport) {
    changesFromElsewhere += other.changesFromElsewhere
    deletionsFromElsewhere += other.deletionsFromElsewhere
    conflicts += other.conflicts
    keptItems += other.keptItems
    keptLists += other.keptLists
    movedWithParents += other.movedWithParents
    renumbered += other.renumbered
    keptMissingFromFile += other.keptMissingFromFile
  }

  /// Whether anything here belongs in the conflict log.
  public var hasLogEntries: Bool {
    !conflicts.isEmpty || !keptItems.isEmpty || !keptLists.isEmpty || !movedWithParents.isEmpty
  }

  /// One sentence for the status line or the CLI, e.g. "3 changes made elsewhere merged; 1
  /// conflict kept your version (see Checklists.plist.conflicts.log)"; nil when there is nothing
  /// to say.
  public func summary(logName: String?) -> String? {
    var parts: [String] = []
    if changesFromElsewhere > 0 {
      let count = changesFromElsewhere
      let deletions = deletionsFromElsewhere
      if deletions == count {
        parts.append("\(count) \(count == 1 ? "deletion" : "deletions") made elsewhere merged")
      } else {
        var changes = "\(count) \(count == 1 ? "change" : "changes") made elsewhere merged"
        if deletions > 0 {
          changes += " (\(deletions) of them \(deletions == 1 ? "a deletion" : "deletions"))"
        }
        parts.append(changes)
      }
    }
    if !conflicts.isEmpty {
      let count = conflicts.count
      parts.append(
        "\(count) \(count == 1 ? "conflict" : "conflicts"): kept your "
          + "\(count == 1 ? "change" : "changes")")
    }
    let kept = keptItems.count + keptLists.count
    if kept > 0 {
      parts.append(
        "kept \(kept) \(kept == 1 ? "thing" : "things") deleted on one side and changed on the "
          + "other")
    }
    if keptMissingFromFile > 0 {
      parts.append(
        "kept \(keptMissingFromFile) \(keptMissingFromFile == 1 ? "thing" : "things") the file "
          + "lacked after it could not be read")
    }
    guard !parts.isEmpty else { return nil }
    var sentence = parts.joined(separator: "; ")
    if hasLogEntries, let logName { sentence += " (details in \(logName))" }
    return sentence
  }

  /// The lines this report adds to the conflict log, each stamped with `stamp`.
  public func logLines(stamp: String, file: String) -> [String] {
    var lines: [String] = []
    for conflict in conflicts {
      lines.append(
        "\(stamp) \(file): \(conflict.place), \(conflict.field): kept \(conflict.kept); "
          + "the other change was \(conflict.other)")
    }
    for item in keptItems {
      lines.append(
        "\(stamp) \(file): list \(Self.quote(item.list)), item \(Self.quote(item.text)): "
          + "kept: \(item.reason)")
    }
    for item in movedWithParents {
      lines.append(
        "\(stamp) \(file): list \(Self.quote(item.list)), item \(Self.quote(item.text)): "
          + item.reason)
    }
    for list in keptLists {
      lines.append(
        "\(stamp) \(file): list \(Self.quote(list)): kept: deleted on one side, changed on the "
          + "other")
    }
    return lines
  }

  /// Text in double quotes with line breaks and quotes escaped, for one-line log entries.
  public static func quote(_ text: String) -> String {
    ChecklistsSchemaDecoder<PlistTreeSource>.quoted(text)
  }
}

/// One field that both sides changed to different values.
public struct MergeConflict: Equatable, Sendable {
  /// Where, e.g. `list "Groceries", item "Milk"` or `list "Groceries"`.
  public var place: String
  /// The field, e.g. `text`, `checked`, `due date`, `name`.
  public var field: String
  /// The value kept (ours), as words.
  public var kept: String
  /// The value not kept (theirs), as words.
  public var other: String
}

/// An item deleted on one side and changed on the other, which stayed.
public struct KeptItem: Equatable, Sendable {
  /// The list it is in.
  public var list: String
  /// Its text.
  public var text: String
  /// Why it stayed, e.g. "deleted elsewhere, changed here".
  public var reason: String
}

/// A new item of ours that took an `itemID` the other side also gave a new item.
public struct Renumbering: Equatable, Sendable {
  /// The list it is in.
  public var list: String
  /// Its text.
  public var text: String
  /// The id both sides used.
  public var oldID: Int
  /// Ours' new id.
  public var newID: Int
}
