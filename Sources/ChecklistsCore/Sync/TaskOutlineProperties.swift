import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Subtasks, priorities and tags in a VTODO: `RELATED-TO;RELTYPE=PARENT`, `PRIORITY` and
/// `CATEGORIES` (RFC 5545 §3.8.4.5, §3.8.1.9, §3.8.1.2), as Nextcloud Tasks, tasks.org, jtx Board,
/// Thunderbird and Apple write them.
///
/// Each is read into `TaskFields` and written back only when its value changed here; a line we
/// do not own (a `RELATED-TO` of another type, a second parent line) stays byte for byte.
enum TaskOutlineProperties {
  // MARK: - Parent

  /// Whether a `RELATED-TO` line names the task's parent: `RELTYPE=PARENT`, or no `RELTYPE`
  /// (RFC 5545's default).
  static func isParentLine(_ property: ICSProperty) -> Bool {
    guard property.name == "RELATED-TO" else { return false }
    return property.parameter("RELTYPE").map { $0.uppercased() == "PARENT" } ?? true
  }

  /// The UID the task's first parent line names; nil without one (or with an empty one).
  static func parent(of todo: ICSComponent) -> String? {
    for property in todo.properties where isParentLine(property) {
      let uid = property.value.trimmingSpaces()
      return uid.isEmpty ? nil : uid
    }
    return nil
  }

  /// Makes the task's first parent line name `uid` (its parameters kept), adds
  /// `RELATED-TO;RELTYPE=PARENT:uid` when it has none, or removes that first line for nil.
  /// Other `RELATED-TO` lines stay as they are.
  static func setParent(_ uid: String?, in todo: inout ICSComponent) {
    let index = todo.entries.firstIndex {
      if case .property(let property) = $0 { return isParentLine(property) }
      return false
    }
    guard let uid else {
      if let index { todo.entries.remove(at: index) }
      return
    }
    if let index, case .property(var line) = todo.entries[index] {
      line.value = uid
      line.source = nil
      todo.entries[index] = .property(line)
    } else {
      todo.insertProperty(
        ICSProperty(name: "RELATED-TO", parameters: [("RELTYPE", "PARENT")], value: uid))
    }
  }

  // MARK: - Priority

  /// `PRIORITY` as a number 0–9; 0 when absent, not a number, or out of range.
  static func priority(of todo: ICSComponent) -> Int {
    guard let value = todo.property("PRIORITY").flatMap({ Int($0.value.trimmingSpaces()) }),
      (0...9).contains(value)
    else { return 0 }
    return value
  }

  /// Writes `PRIORITY:n`, or removes the property for 0.
  static func setPriority(_ priority: Int, in todo: inout ICSComponent) {
    if priority == 0 {
      todo.remove("PRIORITY")
    } else {
      todo.set(ICSProperty(name: "PRIORITY", value: String(priority)))
    }
  }

  // MARK: - Tags

  /// The tags of every `CATEGORIES` line, in order: each line a comma-separated list of TEXT
  /// values (`\,` a comma inside a name), spaces around a name dropped; empty names and repeats (ignoring case) left out.
  static func tags(of todo: ICSComponent) -> [String] {
    var names: [String] = []
    for property in todo.properties where property.name == "CATEGORIES" {
      for name in splitList(property.value) {
        let unescaped = ICalendar.unescapeText(name).trimmingSpaces()
        if !unescaped.isEmpty { names.append(unescaped) }
      }
    }
    return ChecklistItem.uniqueTags(names)
  }

  /// An item's tags as `CATEGORIES` carries them: without spaces around a name, empty names
  /// or repeats, so that they read back the same.
  static func writableTags(_ tags: [String]) -> [String] {
    guard tags.contains(where: { $0.trimmingSpaces() != $0 }) else { return tags }
    return ChecklistItem.uniqueTags(tags.map { $0.trimmingSpaces() }.filter { !$0.isEmpty })
  }

  /// Writes the tags as one `CATEGORIES` line in the place of the first one (the others
  /// removed), or removes them all for no tags.
  static func setTags(_ tags: [String], in todo: inout ICSComponent) {
    guard !tags.isEmpty else {
      todo.remove("CATEGORIES")
      return
    }
    todo.set(
      ICSProperty(
        name: "CATEGORIES", value: tags.map { ICalendar.escapeText($0) }.joined(separator: ",")))
  }

  /// A list value split at its unescaped commas (the escapes kept).
  static func splitList(_ value: String) -> [String] {
    var parts: [String] = []
    var current = ""
    var escaping = false
    for scalar in value.unicodeScalars {
      if escaping {
        current.unicodeScalars.append(scalar)
        escaping = false
      } else if scalar == "\\" {
        current.unicodeScalars.append(scalar)
        escaping = true
      } else if scalar == "," {
        parts.append(current)
        current = ""
      } else {
        current.unicodeScalars.append(scalar)
      }
    }
    parts.append(current)
    return parts
  }

  /// Tags as one field of the sync state: TEXT-escaped names joined by commas (as `CATEGORIES`
  /// writes them).
  static func encodeTags(_ tags: [String]) -> String {
    tags.map { ICalendar.escapeText($0) }.joined(separator: ",")
  }

  /// The tags of `encodeTags`.
  static func decodeTags(_ text: String) -> [String] {
    guard !text.isEmpty else { return [] }
    return splitList(text).map { ICalendar.unescapeText($0) }
  }

  /// Two sides' tags merged as a set against `base`: ours' in ours' order, less those theirs
  /// removed, then those theirs added (ignoring case). A tag added on one side and removed on
  /// the other follows the side that changed it.
  static func mergeTags(base: [String], ours: [String], theirs: [String]) -> [String] {
    let baseKeys = Set(base.map(ChecklistItem.tagKey))
    let theirsKeys = Set(theirs.map(ChecklistItem.tagKey))
    let oursKeys = Set(ours.map(ChecklistItem.tagKey))
    let removedThere = baseKeys.subtracting(theirsKeys)
    var merged = ours.filter { !removedThere.contains(ChecklistItem.tagKey($0)) }
    for tag in theirs where !baseKeys.contains(ChecklistItem.tagKey(tag)) {
      if !oursKeys.contains(ChecklistItem.tagKey(tag)) { merged.append(tag) }
    }
    return ChecklistItem.uniqueTags(merged)
  }
}
