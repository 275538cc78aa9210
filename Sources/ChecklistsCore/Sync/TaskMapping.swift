import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// What a VTODO says about an item, in the terms both sides can express.
///
/// Two versions of an item are compared in these terms, so that what the vdir cannot hold (an
/// undated item's stored date, fractions of seconds) never counts as a change.
public struct TaskFields: Equatable, Sendable {
  /// `SUMMARY`.
  public var text: String
  /// Done: `STATUS:COMPLETED`, a `COMPLETED` time or `PERCENT-COMPLETE:100`.
  public var checked: Bool
  /// `DUE`, to the whole second; nil when the item has no due date.
  public var due: Int64?
  /// `DUE;VALUE=DATE`: a day without a time (from other apps).
  public var dueIsDay: Bool
  /// A reminder: a `VALARM` at an absolute time, or at the due time.
  public var remind: Bool
  /// `X-APPLE-SORT-ORDER`.
  public var sortOrder: Int?
  /// `X-CHECKLISTS-ITEMID`.
  public var itemID: Int?
  /// The VTODO's own `DESCRIPTION` (not an alarm's); "" when it has none.
  public var note: String
  /// `RRULE`, when a rule of ours says exactly what it says (see `TaskRecurrence`); nil for
  /// none, for one we cannot express, and for an item without a due date.
  public var repeatRule: RepeatRule?
  /// The day of the month (29–31) a monthly or yearly series keeps beyond the due date's own
  /// day (`BYMONTHDAY=-1` on 30 April: 31); nil when it keeps the due date's day.
  public var repeatDay: Int?
  /// The early reminder's lead time in minutes: how long before `DUE` our `VALARM` triggers
  /// (see `TaskAlarmLead`); 0 at the due time, and without a reminder.
  public var lead: Int = 0
  /// When one of our alarms was last acknowledged on another device (`ACKNOWLEDGED`, RFC
  /// 9074), to the second; nil when none was. Not content: never compared, not kept in the
  /// sync state (see `AcknowledgedAlarms`).
  public var acknowledged: Int64?
  /// The UID our `RELATED-TO;RELTYPE=PARENT` line names (the first parent line; one without a
  /// `RELTYPE` is a parent line too); nil for none. An item's own fields leave it nil: the sync
  /// fills in its parent's UID (see `TaskOutlineProperties`).
  public var parent: String?
  /// `PRIORITY`, 0–9 as written (0 for none or a value out of range).
  public var priority: Int = 0
  /// The tags of every `CATEGORIES` line, in order, without repeats.
  public var tags: [String] = []

  /// Creates fields.
  public init(
    text: String, checked: Bool = false, due: Int64? = nil, dueIsDay: Bool = false,
    remind: Bool = false, sortOrder: Int? = nil, itemID: Int? = nil, note: String = "",
    repeatRule: RepeatRule? = nil, repeatDay: Int? = nil, lead: Int = 0,
    acknowledged: Int64? = nil, parent: String? = nil, priority: Int = 0, tags: [String] = []
  ) {
    self.parent = parent
    self.priority = priority
    self.tags = tags
    self.lead = lead
    self.acknowledged = acknowledged
    self.text = text
    self.checked = checked
    self.due = due
    self.dueIsDay = dueIsDay
    self.remind = remind
    self.sortOrder = sortOrder
    self.itemID = itemID
    self.note = note
    self.repeatRule = repeatRule
    self.repeatDay = repeatDay
  }

  /// The fields of one of our items (no sort order: that comes from the list); `timeZone` is
  /// the wall clock its repeat rule follows.
  ///
  /// A repeat rule counts only with a due date; a due date outside the years 1–9999, which
  /// iCalendar cannot write (only a damaged or hand-made file holds one), counts as none; the
  /// note loses carriage returns (a VTODO's TEXT has line feeds only).
  public init(_ item: ChecklistItem, timeZone: ZoneRules) {
    let dated = item.showsDueDate && DateLimits.isInWritableYears(item.dueDate)
    let rule = dated ? item.repeatRule : nil
    let note = item.note
    self.init(
      text: item.text, checked: item.checked,
      due: dated ? TaskFields.seconds(item.dueDate) : nil, remind: item.shouldRemind,
      itemID: item.itemID,
      note: note.utf8.contains(13)
        ? String(String.UnicodeScalarView(note.unicodeScalars.filter { $0 != "\r" })) : note,
      repeatRule: rule,
      repeatDay: rule.flatMap {
        TaskRecurrence.keptDay(
          rule: $0, due: item.dueDate, keptDay: item.repeatAnchorDay, timeZone: timeZone)
      },
      lead: dated && item.shouldRemind ? item.reminderLead.minutes : 0,
      priority: item.priority, tags: TaskOutlineProperties.writableTags(item.tags))
  }

  /// Equal in everything but `acknowledged`, which is no content of the task.
  public static func == (left: TaskFields, right: TaskFields) -> Bool {
    left.sameContent(as: right) && left.dueIsDay == right.dueIsDay
      && left.sortOrder == right.sortOrder && left.itemID == right.itemID
  }

  /// Whether the parts our items hold (text, done, due, reminder, note, repeat, parent,
  /// priority, tags) are equal.
  public func sameContent(as other: TaskFields) -> Bool {
    text == other.text && checked == other.checked && due == other.due && remind == other.remind
      && note == other.note && repeatRule == other.repeatRule && repeatDay == other.repeatDay
      && lead == other.lead && parent == other.parent && priority == other.priority
      && tags == other.tags
  }

  /// `base` with what these fields say differently from `old` (what the vdir said before): the
  /// item as the vdir has it, keeping what the vdir cannot express (an undated item's stored
  /// date, the rest of its extra keys). The parent is a UID here: the sync sets the item's
  /// `parentItemID` itself (see `SyncEngine`).
  public func applied(to base: ChecklistItem, since old: TaskFields) -> ChecklistItem {
    var item = base
    if text != old.text { item.text = text }
    if checked != old.checked { item.checked = checked }
    if due != old.due {
      if let due {
        item.dueDate = Date(timeIntervalSince1970: TimeInterval(due))
        item.hasDueDate = true
      } else {
        item.removeDueDate()
      }
    }
    if remind != old.remind {
      item.shouldRemind = remind && due != nil
    }
    if note != old.note { item.note = note }
    if priority != old.priority { item.priority = priority }
    if tags != old.tags { item.tags = tags }
    if lead != old.lead { item.reminderLead = ReminderLead(minutes: lead) }
    if repeatRule != old.repeatRule {
      item.repeatRule = repeatRule
      item.repeatAnchorDay = repeatDay
    } else if repeatDay != old.repeatDay {
      item.repeatAnchorDay = repeatDay
    }
    return item
  }

  /// A new item made from these fields, with `itemID`.
  public func makeItem(itemID: Int, defaultDate: Date) -> ChecklistItem {
    var item = ChecklistItem(
      text: text, checked: checked,
      dueDate: due.map { Date(timeIntervalSince1970: TimeInterval($0)) } ?? defaultDate,
      shouldRemind: remind, hasDueDate: due != nil, itemID: itemID)
    item.note = note
    item.priority = priority
    item.tags = tags
    if remind { item.reminderLead = ReminderLead(minutes: lead) }
    if let repeatRule {
      item.repeatRule = repeatRule
      item.repeatAnchorDay = repeatDay
    }
    // What needs a due date goes with a task that has none (ItemValidity's rule).
    if due == nil { item.removeDueDate() }
    return item
  }

  /// A date to the whole second.
  public static func seconds(_ date: Date) -> Int64 {
    DateLimits.wholeSecondsSince1970(date)
  }
}

/// Reading a VTODO into `TaskFields` and patching a VTODO to new fields, touching only the
/// properties we own.
public enum TaskMapping {
  /// Our product identifier, written in `PRODID` of calendars we create.
  public static let productID = "-//checklists//checklists terminal app//EN"
  /// Our item id property.
  public static let itemIDProperty = "X-CHECKLISTS-ITEMID"

  /// The calendar's VTODO: the one without `RECURRENCE-ID` (the series), else the first.
  public static func task(in calendar: ICSComponent) -> ICSComponent? {
    let todos = calendar.components.filter { $0.name == "VTODO" }
    return todos.first { $0.property("RECURRENCE-ID") == nil } ?? todos.first
  }

  /// The fields of the VTODO in `calendar` (see `task(in:)`), its `TZID`s resolved through the
  /// calendar's own `VTIMEZONE`s first.
  public static func fields(ofTaskIn calendar: ICSComponent, timeZone: ZoneRules) -> TaskFields {
    fields(
      of: task(in: calendar) ?? calendar, timeZone: timeZone,
      zones: ICalendarZones(calendar: calendar))
  }

  /// The fields a VTODO holds; `timeZone` reads floating times and days, `zones` resolves
  /// `TZID`s (see `TaskDueReading` for where the due time comes from).
  public static func fields(
    of todo: ICSComponent, timeZone: ZoneRules, zones: ICalendarZones = .none
  ) -> TaskFields {
    let text = todo.property("SUMMARY").map { ICalendar.unescapeText($0.value) } ?? ""
    let status = todo.property("STATUS")?.value.trimmingSpaces().uppercased()
    let percent = todo.property("PERCENT-COMPLETE").flatMap {
      Int($0.value.trimmingSpaces())
    }
    let checked = status == "COMPLETED" || todo.property("COMPLETED") != nil || percent == 100
    let reading = TaskDueReading(todo, timeZone: timeZone, zones: zones)
    let due = reading.due
    let dueIsDay = reading.dueIsDay
    let remind = !reading.ownedAlarms.isEmpty
    let sortOrder = todo.property("X-APPLE-SORT-ORDER").flatMap {
      Int($0.value.trimmingSpaces())
    }
    let itemID = todo.property(itemIDProperty).flatMap {
      Int($0.value.trimmingSpaces())
    }
    let note = todo.property("DESCRIPTION").map { ICalendar.unescapeText($0.value) } ?? ""
    let repeats = due.flatMap {
      recurrence(
        of: todo, due: Date(timeIntervalSince1970: TimeInterval($0)), timeZone: timeZone,
        zones: zones)
    }
    return TaskFields(
      text: text, checked: checked, due: due, dueIsDay: dueIsDay, remind: remind,
      sortOrder: sortOrder, itemID: itemID, note: note, repeatRule: repeats?.rule,
      repeatDay: repeats?.keptDay,
      lead: TaskAlarmLead.lead(of: todo, reading: reading, timeZone: timeZone, zones: zones),
      acknowledged: AcknowledgedAlarms.latest(
        in: todo, alarms: TaskDueReading.entries(of: reading.ownedAlarms, in: todo),
        timeZone: timeZone),
      parent: TaskOutlineProperties.parent(of: todo),
      priority: TaskOutlineProperties.priority(of: todo),
      tags: TaskOutlineProperties.tags(of: todo))
  }

  /// The rule of a VTODO's one RRULE, when a rule of ours says exactly the same: no `RDATE` or
  /// `EXDATE` beside it, and a `DTSTART` (where the series starts) on the due date's day.
  static func recurrence(
    of todo: ICSComponent, due: Date, timeZone: ZoneRules, zones: ICalendarZones = .none
  ) -> TaskRecurrence.Reading? {
    let rules = todo.properties.filter { $0.name == "RRULE" }
    guard rules.count == 1, todo.property("RDATE") == nil, todo.property("EXDATE") == nil
    else { return nil }
    if let start = todo.property("DTSTART") {
      guard let value = ICalendarDate.parse(start, timeZone: timeZone, zones: zones),
        sameDay(value.date, due, timeZone: timeZone)
      else { return nil }
    }
    return TaskRecurrence.reading(rules[0].value, due: due, timeZone: timeZone)
  }

  private static func sameDay(_ a: Date, _ b: Date, timeZone: ZoneRules) -> Bool {
    let clock = ZonedWallClock(timeZone: timeZone)
    return clock.day(of: a) == clock.day(of: b)
  }

  /// The zone a repeating item's due date is written in: the local zone, when it has a name
  /// other programs know (a zone of the database, not a POSIX rule) and is not UTC itself; nil
  /// to write UTC.
  static func zoneForRepeats(_ timeZone: ZoneRules) -> ZoneRules? {
    guard let name = timeZone.databaseName, !name.isEmpty else { return nil }
    // UTC under any of its database names (`/etc/localtime` is often Etc/UTC), and fixed GMT
    // offsets.
    let bare = name.hasPrefix("Etc/") ? String(name.dropFirst(4)) : name
    let utc: Set<String> = ["UTC", "UCT", "GMT", "GMT0", "Universal", "Zulu", "Greenwich"]
    guard !utc.contains(bare), !bare.hasPrefix("GMT+"), !bare.hasPrefix("GMT-") else { return nil }
    return timeZone
  }

  /// Sets `DTSTART` to what `DUE` says, in the same form (a day, a zone, UTC); removes it when
  /// there is no `DUE`.
  private static func setStartToDue(_ todo: inout ICSComponent) {
    guard let due = todo.property("DUE") else {
      todo.remove("DTSTART")
      return
    }
    todo.set(ICSProperty(name: "DTSTART", parameters: due.parameters, value: due.value))
  }

  /// A new calendar file holding one VTODO with `fields` and `uid`, stamped `now`.
  public static func newCalendar(uid: String, fields: TaskFields, now: Date, timeZone: ZoneRules)
    -> ICSComponent
  {
    var todo = ICSComponent(name: "VTODO")
    let stamp = ICalendarDate.utcString(now)
    todo.entries = [
      .property(ICSProperty(name: "UID", value: uid)),
      .property(ICSProperty(name: "DTSTAMP", value: stamp)),
      .property(ICSProperty(name: "CREATED", value: stamp)),
      .property(ICSProperty(name: "LAST-MODIFIED", value: stamp)),
      .property(ICSProperty(name: "SEQUENCE", value: "0")),
    ]
    _ = patch(&todo, to: fields, now: now, timeZone: timeZone, zones: .none, stamp: false)
    var calendar = ICSComponent(name: "VCALENDAR")
    calendar.entries = [
      .property(ICSProperty(name: "VERSION", value: "2.0")),
      .property(ICSProperty(name: "PRODID", value: productID)),
      .component(todo),
    ]
    return calendar
  }

  /// Changes a calendar's VTODO to `fields`; returns whether anything changed.
  ///
  /// Whether writing `fields` over a task that reads as `current` marks its alarm
  /// `ACKNOWLEDGED`: an acknowledgement here newer than the file's, on a task with our alarm.
  static func marksAcknowledged(_ fields: TaskFields, over current: TaskFields) -> Bool {
    guard let at = fields.acknowledged, fields.remind, current.remind else { return false }
    return current.acknowledged.map { $0 < at } ?? true
  }

  /// Only the properties we own change, and each only when its value changed: SUMMARY; STATUS,
  /// COMPLETED and PERCENT-COMPLETE when done or not changed; DUE (with a DTSTART that was the
  /// due date, and without a DURATION, which DUE replaces; a `TZID` kept as written, resolved
  /// through the calendar's `VTIMEZONE`s); our alarm (see `TaskDueReading`); DESCRIPTION (and
  /// an X-ALT-DESC of the old note); RRULE (an RRULE we cannot express only when `fields` sets a
  /// rule); X-APPLE-SORT-ORDER (when `fields.sortOrder` is set) and X-CHECKLISTS-ITEMID (when
  /// `fields.itemID` is set); the first parent RELATED-TO, PRIORITY, and CATEGORIES (one line
  /// for all tags) each when its value changed (see `TaskOutlineProperties`); then DTSTAMP,
  /// LAST-MODIFIED and SEQUENCE + 1. Everything else stays byte for byte.
  public static func patch(
    calendar: inout ICSComponent, to fields: TaskFields, now: Date, timeZone: ZoneRules
  ) -> Bool {
    // (An acknowledgement in `fields` newer than the file's marks our alarms ACKNOWLEDGED.)
    guard
      let index = calendar.entries.firstIndex(where: {
        if case .component(let todo) = $0, todo.name == "VTODO",
          todo.property("RECURRENCE-ID") == nil
        {
          return true
        }
        return false
      })
        ?? calendar.entries.firstIndex(where: {
          if case .component(let todo) = $0 { return todo.name == "VTODO" }
          return false
        }),
      case .component(var todo) = calendar.entries[index]
    else { return false }
    let changed = patch(
      &todo, to: fields, now: now, timeZone: timeZone, zones: ICalendarZones(calendar: calendar),
      stamp: true)
    guard changed else { return false }
    calendar.entries[index] = .component(todo)
    if calendar.property("VERSION") == nil {
      calendar.insertProperty(ICSProperty(name: "VERSION", value: "2.0"))
    }
    if calendar.property("PRODID") == nil {
      calendar.insertProperty(ICSProperty(name: "PRODID", value: productID))
    }
    return true
  }

  private static func patch(
    _ todo: inout ICSComponent, to fields: TaskFields, now: Date, timeZone: ZoneRules,
    zones: ICalendarZones, stamp: Bool
  ) -> Bool {
    let current = self.fields(of: todo, timeZone: timeZone, zones: zones)
    let reading = TaskDueReading(todo, timeZone: timeZone, zones: zones)
    var changed = false
    if current.text != fields.text || todo.property("SUMMARY") == nil {
      var summary = todo.property("SUMMARY") ?? ICSProperty(name: "SUMMARY", value: "")
      summary.value = ICalendar.escapeText(fields.text)
      summary.source = nil
      todo.set(summary)
      changed = true
    }
    // Done or not is written only when it changes here: another producer's way of saying it
    // (a COMPLETED time alone, PERCENT-COMPLETE:100 without STATUS) stays as it is.
    if fields.checked != current.checked || (!stamp && todo.property("STATUS") == nil) {
      if fields.checked {
        todo.set(ICSProperty(name: "STATUS", value: "COMPLETED"))
        todo.set(ICSProperty(name: "COMPLETED", value: ICalendarDate.utcString(now)))
        todo.set(ICSProperty(name: "PERCENT-COMPLETE", value: "100"))
      } else {
        todo.set(ICSProperty(name: "STATUS", value: "NEEDS-ACTION"))
        todo.remove("COMPLETED")
        if todo.property("PERCENT-COMPLETE") != nil {
          todo.set(ICSProperty(name: "PERCENT-COMPLETE", value: "0"))
        }
      }
      changed = true
    }
    let dueChanged = fields.due != current.due
    let oldDue = todo.property("DUE")
    let localZone = zoneForRepeats(timeZone)
    let repeats = fields.repeatRule != nil && fields.due != nil
    // A repeating time in UTC would repeat on UTC's clock on the phone: written in our zone.
    let rezone =
      repeats && localZone != nil
      && oldDue.flatMap { ICalendarDate.parse($0, timeZone: timeZone, zones: zones) }?
        .form == .utc
    let wantsAlarm = fields.remind && fields.due != nil
    // A due time that was the time of an alarm of ours going away is written as DUE.
    let alarmDueGoes = reading.source == .alarm && !wantsAlarm && fields.due != nil
    if dueChanged || rezone || alarmDueGoes {
      changed = true
      if let due = fields.due {
        let date = Date(timeIntervalSince1970: TimeInterval(due))
        let kept = (oldDue?.parameters ?? []).filter {
          let name = $0.name.uppercased()
          return name != "VALUE" && name != "TZID"
        }
        var property: ICSProperty
        if current.dueIsDay, ICalendarDate.isStartOfDay(date, timeZone: timeZone) {
          property = ICSProperty(
            name: "DUE", parameters: kept + [("VALUE", "DATE")],
            value: ICalendarDate.dayString(date, timeZone: timeZone))
        } else if let zoneName = oldDue?.parameter("TZID"),
          let zone = zones.rules(forTZID: zoneName),
          let written = oldDue?.parameters.first(where: { $0.name.uppercased() == "TZID" })
        {
          // The TZID as it was written (quoted, as Outlook writes it, or not).
          property = ICSProperty(
            name: "DUE", parameters: kept + [(written.name, written.value)],
            value: ICalendarDate.localString(date, timeZone: zone))
        } else if repeats, let localZone {
          property = ICSProperty(
            name: "DUE",
            parameters: kept + [("TZID", localZone.databaseName ?? localZone.identifier)],
            value: ICalendarDate.localString(date, timeZone: localZone))
        } else {
          property = ICSProperty(
            name: "DUE", parameters: kept, value: ICalendarDate.utcString(date))
        }
        // A wall time shown twice (the hour clocks go back) reads as the first of the two: the
        // second one is written in UTC, or every sync would find it changed.
        if property.parameter("TZID") != nil,
          ICalendarDate.parse(property, timeZone: timeZone, zones: zones).map({
            TaskFields.seconds($0.date)
          })
            != due
        {
          property = ICSProperty(
            name: "DUE", parameters: kept, value: ICalendarDate.utcString(date))
        }
        property.source = nil
        todo.set(property)
      } else {
        todo.remove("DUE")
      }
      // DUE and DURATION never go together (RFC 5545): the due time is now DUE's alone.
      todo.remove("DURATION")
      // A start that was the due date (as iOS writes it) moves with it; so does a start that
      // would now come after it.
      if let start = todo.property("DTSTART"),
        let startDate = ICalendarDate.parse(start, timeZone: timeZone, zones: zones)?.date
      {
        let startSeconds = TaskFields.seconds(startDate)
        if startSeconds == current.due || fields.due.map({ startSeconds > $0 }) == true {
          setStartToDue(&todo)
        }
      }
    }
    let ownedAlarms = TaskDueReading.entries(of: reading.ownedAlarms, in: todo)
    let hasAlarm = !ownedAlarms.isEmpty
    let leadChanged = fields.lead != current.lead
    if wantsAlarm && (!hasAlarm || dueChanged || leadChanged), let due = fields.due {
      let trigger = TaskAlarmLead.trigger(for: nil, due: due, lead: fields.lead)
      if hasAlarm {
        // Move our alarm's absolute trigger to due − lead; one relative to DUE follows DUE by
        // itself and is rewritten only for a new lead time.
        for index in ownedAlarms {
          guard case .component(var alarm) = todo.entries[index] else { continue }
          if TaskDueReading.isAbsolute(alarm) || leadChanged {
            alarm.set(TaskAlarmLead.trigger(for: alarm, due: due, lead: fields.lead))
            todo.entries[index] = .component(alarm)
          }
          break
        }
      } else {
        let alarm = ICSComponent(
          name: "VALARM",
          entries: [
            .property(ICSProperty(name: "ACTION", value: "DISPLAY")),
            .property(ICSProperty(name: "DESCRIPTION", value: ICalendar.escapeText(fields.text))),
            .property(trigger),
          ])
        todo.entries.append(.component(alarm))
      }
      changed = true
    } else if !wantsAlarm && hasAlarm {
      for index in ownedAlarms.reversed() { todo.entries.remove(at: index) }
      changed = true
    }
    if marksAcknowledged(fields, over: current) {
      // Done or dismissed here (RFC 9074, as Apple writes it): not again on the phone.
      let stamp = ICalendarDate.utcString(
        Date(timeIntervalSince1970: Double(fields.acknowledged ?? 0)))
      for index in TaskDueReading.entries(of: reading.ownedAlarms, in: todo) {
        guard case .component(var alarm) = todo.entries[index] else { continue }
        alarm.set(ICSProperty(name: "ACKNOWLEDGED", value: stamp))
        todo.entries[index] = .component(alarm)
        changed = true
      }
    }
    if fields.text != current.text {
      // An alarm of ours says the item's text: it says the new one (one the phone worded
      // itself stays).
      let oldText = ICalendar.escapeText(current.text)
      for index in TaskDueReading.entries(of: reading.ownedAlarms, in: todo) {
        guard case .component(var alarm) = todo.entries[index],
          var description = alarm.property("DESCRIPTION"), description.value == oldText
        else { continue }
        description.value = ICalendar.escapeText(fields.text)
        description.source = nil
        alarm.set(description)
        todo.entries[index] = .component(alarm)
        changed = true
      }
    }
    if fields.note != current.note {
      if fields.note.isEmpty {
        todo.remove("DESCRIPTION")
      } else {
        var description =
          todo.property("DESCRIPTION") ?? ICSProperty(name: "DESCRIPTION", value: "")
        description.value = ICalendar.escapeText(fields.note)
        // An alternate representation would still say the old note.
        description.parameters.removeAll { $0.name.uppercased() == "ALTREP" }
        description.source = nil
        todo.set(description)
      }
      todo.remove("X-ALT-DESC")
      changed = true
    }
    if let rule = fields.repeatRule, let due = fields.due {
      let date = Date(timeIntervalSince1970: TimeInterval(due))
      let wanted = TaskRecurrence.Reading(rule: rule, keptDay: fields.repeatDay)
      if recurrence(of: todo, due: date, timeZone: timeZone, zones: zones) != wanted {
        // Ours replaces an RRULE we cannot express, with the dates that belonged to it.
        todo.set(
          ICSProperty(
            name: "RRULE",
            value: TaskRecurrence.value(
              rule: rule, due: date, keptDay: fields.repeatDay, timeZone: timeZone)))
        todo.remove("RDATE")
        todo.remove("EXDATE")
        if let start = todo.property("DTSTART"),
          let startDate = ICalendarDate.parse(start, timeZone: timeZone, zones: zones)?.date,
          sameDay(startDate, date, timeZone: timeZone)
        {
          // The series already starts on the due date's day.
        } else {
          setStartToDue(&todo)
        }
        changed = true
      }
    } else if current.repeatRule != nil {
      todo.remove("RRULE")
      changed = true
    }
    if let order = fields.sortOrder, order != current.sortOrder {
      todo.set(ICSProperty(name: "X-APPLE-SORT-ORDER", value: String(order)))
      changed = true
    }
    if let itemID = fields.itemID, itemID != current.itemID {
      todo.set(ICSProperty(name: itemIDProperty, value: String(itemID)))
      changed = true
    }
    if fields.parent != current.parent {
      TaskOutlineProperties.setParent(fields.parent, in: &todo)
      changed = true
    }
    if fields.priority != current.priority {
      TaskOutlineProperties.setPriority(fields.priority, in: &todo)
      changed = true
    }
    if fields.tags != current.tags {
      TaskOutlineProperties.setTags(fields.tags, in: &todo)
      changed = true
    }
    guard changed, stamp else { return changed }
    let now = ICalendarDate.utcString(now)
    todo.set(ICSProperty(name: "DTSTAMP", value: now))
    todo.set(ICSProperty(name: "LAST-MODIFIED", value: now))
    let sequence =
      todo.property("SEQUENCE").flatMap { Int($0.value.trimmingSpaces()) }
      ?? 0
    todo.set(ICSProperty(name: "SEQUENCE", value: String(sequence + 1)))
    return true
  }
}
