import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Why two versions of a task could not be merged safely (vdirsyncer then leaves both sides as
/// they are).
public enum ConflictMergeError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A file could not be read.
  case unreadable(file: String, reason: String)
  /// A file is not iCalendar holding a VTODO with a UID.
  case notATask(file: String, reason: String)
  /// The two files hold different tasks.
  case differentUIDs(String, String)
  /// The task is not one the last sync pass recorded: there is no base to merge against.
  case notSynced(uid: String, state: String)

  /// The message, naming the file or the UID.
  public var description: String {
    switch self {
    case .unreadable(let file, let reason): return "\(file): cannot be read (\(reason))"
    case .notATask(let file, let reason): return "\(file): \(reason)"
    case .differentUIDs(let a, let b):
      return "the two files hold different tasks (UID \(a) and UID \(b)): not merged"
    case .notSynced(let uid, let state):
      return
        "the task \(uid) is not in the sync state \(state) (not synced by `checklists sync` "
        + "yet): there is no earlier version to merge against, so it is left to vdirsyncer"
    }
  }
}

/// A field-by-field merge of two versions of one task: vdirsyncer's conflict (the task changed
/// on both sides since it last ran), against the versions the sync state recorded for it.
///
/// vdirsyncer keeps no copy of the version both sides last shared, so the base is one of the
/// versions the vdir's file held since it last settled (`SyncState.Item.history`). Field by
/// field: the two sides agree, taken; the server's value is one the file held, so the server
/// did not change it, ours taken; the server changed it and ours is what the file always held,
/// the server's taken; else both changed it: ours (the vdir's) kept and the server's reported,
/// as in the sync's merge. A task vdirsyncer met in a conflict before any pass recorded it
/// (`unsure`) may have been edited here by another program before it was recorded: a field
/// that differs is then a conflict too, never a silent choice.
///
/// The result is the server's file (every property we do not map byte for byte) with our
/// mapped fields patched in.
public enum ConflictMerge {
  /// One side of the conflict, parsed.
  public struct Version: Sendable {
    /// The raw text.
    public var text: String
    /// The whole calendar.
    public var calendar: ICSComponent
    /// The VTODO's `UID`.
    public var uid: String
    /// The VTODO's fields.
    public var fields: TaskFields
  }

  /// What a merge produced.
  public struct Outcome: Sendable {
    /// The merged file's text (for both sides).
    public var text: String
    /// The fields the merged text holds.
    public var fields: TaskFields
    /// Fields both sides changed to different values: ours kept.
    public var conflicts: [MergeConflict]
  }

  /// Parses one side; `file` names it in errors.
  public static func read(_ bytes: [UInt8], file: String, timeZone: ZoneRules)
    throws(ConflictMergeError) -> Version
  {
    let text = String(decoding: bytes, as: UTF8.self)
    let components: [ICSComponent]
    do {
      components = try ICalendar.parse(text)
    } catch {
      throw .notATask(file: file, reason: "not a valid iCalendar file (\(error))")
    }
    guard let calendar = components.first(where: { $0.name == "VCALENDAR" }) else {
      throw .notATask(file: file, reason: "no VCALENDAR")
    }
    guard let todo = TaskMapping.task(in: calendar) else {
      throw .notATask(file: file, reason: "holds no VTODO")
    }
    guard let uid = todo.property("UID")?.value.trimmingSpaces(), !uid.isEmpty else {
      throw .notATask(file: file, reason: "its VTODO has no UID")
    }
    return Version(
      text: text, calendar: calendar, uid: uid,
      fields: TaskMapping.fields(of: todo, timeZone: timeZone))
  }

  /// The choice of one field.
  struct Chooser {
    let history: [TaskFields]
    /// Whether the history is enough to tell who changed a field.
    let knowsChanges: Bool
    let place: String
    var conflicts: [MergeConflict] = []

    mutating func pick<T: Equatable>(
      _ ours: T, _ theirs: T, of value: (TaskFields) -> T, field: String,
      describe: (T) -> String
    ) -> T {
      if ours == theirs { return ours }
      let held = history.map(value)
      if knowsChanges {
        if held.contains(theirs) { return ours }
        if held.allSatisfy({ $0 == ours }) { return theirs }
      }
      conflicts.append(
        MergeConflict(place: place, field: field, kept: describe(ours), other: describe(theirs)))
      return ours
    }

    /// Tags merge as a set against the version the server last had (the oldest the file
    /// held): a tag added or removed on either side stays added or removed, so a tag added on
    /// one side and removed on the other follows the side that changed it. When the history
    /// cannot tell who changed what (`unsure`), a difference is a conflict: ours kept.
    mutating func pickTags(_ ours: [String], _ theirs: [String]) -> [String] {
      if ours == theirs { return ours }
      guard knowsChanges, let base = history.last?.tags else {
        conflicts.append(
          MergeConflict(
            place: place, field: "tags", kept: Self.describeTags(ours),
            other: Self.describeTags(theirs)))
        return ours
      }
      if history.contains(where: { $0.tags == theirs }) { return ours }
      if history.allSatisfy({ $0.tags == ours }) { return theirs }
      return TaskOutlineProperties.mergeTags(base: base, ours: ours, theirs: theirs)
    }

    static func describeTags(_ tags: [String]) -> String {
      tags.isEmpty ? "no tags" : tags.map { "#" + $0 }.joined(separator: " ")
    }
  }

  /// Merges `ours` (the vdir's version) and `theirs` (the server's) against the versions the
  /// file held (`history`, newest first, never empty); `place` names the item in conflicts
  /// (`list "Groceries", item "Milk"`).
  public static func merge(
    ours: Version, theirs: Version, history: [TaskFields], unsure: Bool = false, place: String,
    now: Date, timeZone: ZoneRules
  ) -> Outcome {
    let o = ours.fields
    let t = theirs.fields
    var pick = Chooser(history: history, knowsChanges: !unsure, place: place)
    var merged = t
    merged.text = pick.pick(o.text, t.text, of: \.text, field: "text") { MergeReport.quote($0) }
    merged.checked = pick.pick(o.checked, t.checked, of: \.checked, field: "checked") {
      $0 ? "checked" : "unchecked"
    }
    // The due date and whether it is a day are one field; so are the rule and its kept day.
    let due = pick.pick(
      DueValue(o), DueValue(t), of: DueValue.init, field: "due date", describe: \.words)
    merged.due = due.seconds
    merged.dueIsDay = due.isDay
    merged.remind = pick.pick(o.remind, t.remind, of: \.remind, field: "remind me") {
      $0 ? "on" : "off"
    }
    merged.lead = pick.pick(o.lead, t.lead, of: \.lead, field: "remind before") {
      ReminderLead(minutes: $0).phrase
    }
    merged.note = pick.pick(o.note, t.note, of: \.note, field: "note") { MergeReport.quote($0) }
    let rule = pick.pick(
      RuleValue(o), RuleValue(t), of: RuleValue.init, field: "repeat", describe: \.words)
    merged.repeatRule = rule.rule
    merged.repeatDay = rule.day
    merged.parent = pick.pick(o.parent, t.parent, of: \.parent, field: "subtask of") {
      $0.map { "the task \($0)" } ?? "none (top-level)"
    }
    merged.priority = pick.pick(o.priority, t.priority, of: \.priority, field: "priority") {
      PriorityLevel(priority: $0).rawValue
    }
    merged.tags = pick.pickTags(o.tags, t.tags)
    // The order is not the user's words: the vdir's wins a tie without a word of it.
    merged.sortOrder =
      history.contains { $0.sortOrder == t.sortOrder } ? o.sortOrder : t.sortOrder
    merged.itemID = o.itemID ?? t.itemID
    if merged == t {
      return Outcome(text: theirs.text, fields: t, conflicts: pick.conflicts)
    }
    var calendar = theirs.calendar
    var desired = merged
    // The server's order stays unless it changed here.
    if desired.sortOrder == t.sortOrder { desired.sortOrder = nil }
    _ = TaskMapping.patch(calendar: &calendar, to: desired, now: now, timeZone: timeZone)
    let result = TaskMapping.task(in: calendar).map {
      TaskMapping.fields(of: $0, timeZone: timeZone)
    }
    return Outcome(
      text: ICalendar.serialize([calendar]), fields: result ?? merged,
      conflicts: pick.conflicts)
  }

  /// A due date as one field: the time and whether it is a whole day.
  struct DueValue: Equatable {
    var seconds: Int64?
    var isDay: Bool

    init(_ fields: TaskFields) {
      seconds = fields.due
      isDay = fields.due != nil && fields.dueIsDay
    }

    var words: String {
      guard let seconds else { return "no due date" }
      let date = Date(timeIntervalSince1970: TimeInterval(seconds))
      return PlistDateFormat.format(date.timeIntervalSinceReferenceDate) ?? "\(date)"
    }
  }

  /// A repeat as one field: the rule and the day it keeps.
  struct RuleValue: Equatable {
    var rule: RepeatRule?
    var day: Int?

    init(_ fields: TaskFields) {
      rule = fields.repeatRule
      day = fields.repeatRule == nil ? nil : fields.repeatDay
    }

    var words: String { rule?.text ?? "no repeat" }
  }
}
