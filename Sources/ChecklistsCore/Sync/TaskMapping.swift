import Foundation

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

  /// Creates fields.
  public init(
    text: String, checked: Bool = false, due: Int64? = nil, dueIsDay: Bool = false,
    remind: Bool = false, sortOrder: Int? = nil, itemID: Int? = nil
  ) {
    self.text = text
    self.checked = checked
    self.due = due
    self.dueIsDay = dueIsDay
    self.remind = remind
    self.sortOrder = sortOrder
    self.itemID = itemID
  }

  /// The fields of one of our items (no sort order: that comes from the list).
  public init(_ item: ChecklistItem) {
    self.init(
      text: item.text, checked: item.checked,
      due: item.showsDueDate ? TaskFields.seconds(item.dueDate) : nil, remind: item.shouldRemind,
      itemID: item.itemID)
  }

  /// Whether the parts our items hold (text, done, due, reminder) are equal.
  public func sameContent(as other: TaskFields) -> Bool {
    text == other.text && checked == other.checked && due == other.due && remind == other.remind
  }

  /// `base` with what these fields say differently from `base`'s own fields: the item as the
  /// vdir has it, keeping what the vdir cannot express (an undated item's stored date).
  ///
  /// `old` is what the vdir said before (by default, `base`'s own fields): only what differs
  /// from it counts as changed there.
  public func applied(to base: ChecklistItem, since old: TaskFields? = nil) -> ChecklistItem {
    var item = base
    let old = old ?? TaskFields(base)
    if text != old.text { item.text = text }
    if checked != old.checked { item.checked = checked }
    if due != old.due {
      if let due {
        item.dueDate = Date(timeIntervalSince1970: TimeInterval(due))
        item.hasDueDate = true
      } else {
        item.hasDueDate = false
        item.shouldRemind = false
      }
    }
    if remind != old.remind {
      item.shouldRemind = remind && due != nil
    }
    return item
  }

  /// A new item made from these fields, with `itemID`.
  public func makeItem(itemID: Int, defaultDate: Date) -> ChecklistItem {
    ChecklistItem(
      text: text, checked: checked,
      dueDate: due.map { Date(timeIntervalSince1970: TimeInterval($0)) } ?? defaultDate,
      shouldRemind: remind && due != nil, hasDueDate: due != nil, itemID: itemID)
  }

  /// A date to the whole second.
  public static func seconds(_ date: Date) -> Int64 {
    Int64(date.timeIntervalSince1970.rounded(.down))
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

  /// The fields a VTODO holds; `timeZone` reads floating times and days.
  public static func fields(of todo: ICSComponent, timeZone: TimeZone) -> TaskFields {
    let text = todo.property("SUMMARY").map { ICalendar.unescapeText($0.value) } ?? ""
    let status = todo.property("STATUS")?.value.trimmingCharacters(in: .whitespaces).uppercased()
    let percent = todo.property("PERCENT-COMPLETE").flatMap {
      Int($0.value.trimmingCharacters(in: .whitespaces))
    }
    let checked = status == "COMPLETED" || todo.property("COMPLETED") != nil || percent == 100
    var due: Int64?
    var dueIsDay = false
    if let property = todo.property("DUE"),
      let value = ICalendarDate.parse(property, timeZone: timeZone)
    {
      due = TaskFields.seconds(value.date)
      dueIsDay = value.form == .dateOnly
    }
    var remind = false
    for alarm in todo.components where alarm.name == "VALARM" && isOwnedAlarm(alarm) {
      remind = true
      if due == nil, let trigger = alarm.property("TRIGGER"),
        let value = ICalendarDate.parse(trigger, timeZone: timeZone)
      {
        due = TaskFields.seconds(value.date)
      }
      break
    }
    let sortOrder = todo.property("X-APPLE-SORT-ORDER").flatMap {
      Int($0.value.trimmingCharacters(in: .whitespaces))
    }
    let itemID = todo.property(itemIDProperty).flatMap {
      Int($0.value.trimmingCharacters(in: .whitespaces))
    }
    return TaskFields(
      text: text, checked: checked, due: due, dueIsDay: dueIsDay, remind: remind,
      sortOrder: sortOrder, itemID: itemID)
  }

  /// Whether an alarm is the kind Remind Me stands for: at an absolute time, or at the due
  /// time itself (a zero offset). Other alarms are foreign and kept as they are.
  static func isOwnedAlarm(_ alarm: ICSComponent) -> Bool {
    guard let trigger = alarm.property("TRIGGER") else { return false }
    if trigger.parameter("VALUE")?.uppercased() == "DATE-TIME" { return true }
    let value = trigger.value.trimmingCharacters(in: .whitespaces).uppercased()
    let digits = value.filter(\.isNumber)
    return value.hasPrefix("P") || value.hasPrefix("-P") || value.hasPrefix("+P")
      ? digits.allSatisfy { $0 == "0" } && !digits.isEmpty : false
  }

  /// A new calendar file holding one VTODO with `fields` and `uid`, stamped `now`.
  public static func newCalendar(uid: String, fields: TaskFields, now: Date, timeZone: TimeZone)
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
    _ = patch(&todo, to: fields, now: now, timeZone: timeZone, stamp: false)
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
  /// Only the properties we own change: SUMMARY, STATUS, COMPLETED, PERCENT-COMPLETE, DUE, our
  /// alarm, X-APPLE-SORT-ORDER (when `fields.sortOrder` is set) and X-CHECKLISTS-ITEMID; then
  /// DTSTAMP, LAST-MODIFIED and SEQUENCE + 1. Everything else stays byte for byte.
  public static func patch(
    calendar: inout ICSComponent, to fields: TaskFields, now: Date, timeZone: TimeZone
  ) -> Bool {
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
    let changed = patch(&todo, to: fields, now: now, timeZone: timeZone, stamp: true)
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
    _ todo: inout ICSComponent, to fields: TaskFields, now: Date, timeZone: TimeZone, stamp: Bool
  ) -> Bool {
    let current = self.fields(of: todo, timeZone: timeZone)
    var changed = false
    if current.text != fields.text || todo.property("SUMMARY") == nil {
      var summary = todo.property("SUMMARY") ?? ICSProperty(name: "SUMMARY", value: "")
      summary.value = ICalendar.escapeText(fields.text)
      summary.source = nil
      todo.set(summary)
      changed = true
    }
    if fields.checked != current.checked || todo.property("STATUS") == nil {
      if fields.checked {
        todo.set(ICSProperty(name: "STATUS", value: "COMPLETED"))
        todo.set(ICSProperty(name: "COMPLETED", value: ICalendarDate.utcString(now)))
        todo.set(ICSProperty(name: "PERCENT-COMPLETE", value: "100"))
      } else {
        todo.set(ICSProperty(name: "STATUS", value: "NEEDS-ACTION"))
        todo.remove("COMPLETED")
        todo.remove("PERCENT-COMPLETE")
      }
      changed = true
    }
    let dueChanged = fields.due != current.due
    if dueChanged {
      changed = true
      if let due = fields.due {
        let date = Date(timeIntervalSince1970: TimeInterval(due))
        let old = todo.property("DUE")
        let kept = (old?.parameters ?? []).filter {
          let name = $0.name.uppercased()
          return name != "VALUE" && name != "TZID"
        }
        var property: ICSProperty
        if current.dueIsDay, ICalendarDate.isStartOfDay(date, timeZone: timeZone) {
          property = ICSProperty(
            name: "DUE", parameters: kept + [("VALUE", "DATE")],
            value: ICalendarDate.dayString(date, timeZone: timeZone))
        } else if let zoneName = old?.parameter("TZID"), let zone = TimeZone(identifier: zoneName) {
          property = ICSProperty(
            name: "DUE", parameters: kept + [("TZID", zoneName)],
            value: ICalendarDate.localString(date, timeZone: zone))
        } else {
          property = ICSProperty(
            name: "DUE", parameters: kept, value: ICalendarDate.utcString(date))
        }
        property.source = nil
        todo.set(property)
      } else {
        todo.remove("DUE")
      }
    }
    let wantsAlarm = fields.remind && fields.due != nil
    let hasAlarm = todo.components.contains { $0.name == "VALARM" && isOwnedAlarm($0) }
    if wantsAlarm && (!hasAlarm || dueChanged), let due = fields.due {
      let trigger = ICalendarDate.utcString(Date(timeIntervalSince1970: TimeInterval(due)))
      if hasAlarm {
        // Move our alarm's absolute trigger; one relative to DUE follows DUE by itself.
        for (index, entry) in todo.entries.enumerated() {
          guard case .component(var alarm) = entry, alarm.name == "VALARM", isOwnedAlarm(alarm)
          else { continue }
          if alarm.property("TRIGGER")?.parameter("VALUE")?.uppercased() == "DATE-TIME" {
            alarm.set(
              ICSProperty(name: "TRIGGER", parameters: [("VALUE", "DATE-TIME")], value: trigger))
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
            .property(
              ICSProperty(name: "TRIGGER", parameters: [("VALUE", "DATE-TIME")], value: trigger)),
          ])
        todo.entries.append(.component(alarm))
      }
      changed = true
    } else if !wantsAlarm && hasAlarm {
      todo.entries.removeAll {
        if case .component(let alarm) = $0 { return alarm.name == "VALARM" && isOwnedAlarm(alarm) }
        return false
      }
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
    guard changed, stamp else { return changed }
    let now = ICalendarDate.utcString(now)
    todo.set(ICSProperty(name: "DTSTAMP", value: now))
    todo.set(ICSProperty(name: "LAST-MODIFIED", value: now))
    let sequence =
      todo.property("SEQUENCE").flatMap { Int($0.value.trimmingCharacters(in: .whitespaces)) }
      ?? 0
    todo.set(ICSProperty(name: "SEQUENCE", value: String(sequence + 1)))
    return true
  }
}
