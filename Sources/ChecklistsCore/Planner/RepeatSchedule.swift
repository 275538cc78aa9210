import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The date arithmetic of repeating items, on the wall clock of one time zone.
///
/// The next occurrence keeps the due date's wall-clock time, whatever the clocks did in
/// between: a 09:00 weekly item stays at 09:00 across a daylight saving change. Rules:
///
/// - daily / every N days: N calendar days later; weekly / every N weeks: 7·N days later;
///   weekdays: the next Monday to Friday.
/// - monthly / every N months: the same day N months later, clamped to the month's end; the
///   series keeps its day, so 31 January goes to 28 (or 29) February and then 31 March.
/// - yearly / every N years: the same day N years later; 29 February falls on 28 February
///   in other years and returns to 29 in leap years.
/// - A time the clocks skip that day (02:30 when they go from 02:00 to 03:00) falls at the
///   instant they jump (03:00); the series keeps 02:30 and is back at 02:30 the next time.
///   A time the clocks show twice (when they go back) means the first of the two.
///
/// The day and time a series keeps while a date was moved are stored with the item
/// (`PlistKey.repeatDay`, `PlistKey.repeatMinute`); they are used only while the due date
/// still is the moved date, so a due date edited by hand starts the series afresh.
public struct RepeatSchedule: Sendable {
  /// The time zone whose wall clock the dates follow.
  public let timeZone: ZoneRules

  /// A schedule in `timeZone` (the local one by default).
  public init(timeZone: ZoneRules = .current) {
    self.timeZone = timeZone
  }

  /// The next occurrence and what the series keeps for the one after.
  public struct Occurrence: Equatable, Sendable {
    /// The next due date.
    public var date: Date
    /// The day of the month the series keeps when `date` was clamped to a shorter month.
    public var keptDay: Int?
    /// The wall time (minutes after midnight) the series keeps when `date` fell in a gap.
    public var keptMinute: Int?
  }

  /// The first occurrence of `rule` after `due` (Reminders' rule: counted from the due date,
  /// not from now, so an item checked late may still be overdue).
  ///
  /// `keptDay` and `keptMinute` are what the previous step kept (see `Occurrence`); they
  /// count only while `due` is the date they explain.
  public func next(
    after due: Date, rule: RepeatRule, keptDay: Int? = nil, keptMinute: Int? = nil
  ) -> Occurrence {
    let clock = ZonedWallClock(timeZone: timeZone)
    let wall = clock.wallSeconds(of: due)
    var days = Int((wall / ZonedWallClock.secondsPerDay).rounded(.down))
    var timeOfDay = wall - Double(days) * ZonedWallClock.secondsPerDay
    // The kept time counts where `due` is the instant it fell on: the jump of a gap on the due
    // date's own day, or on the day before when the gap took the rest of that day (Apia skipped
    // 30 December 2011 whole); that day is the one the series counts from.
    if let keptMinute,
      let keptDays = [days, days - 1].first(where: {
        clock.date(wallSeconds: Double($0) * ZonedWallClock.secondsPerDay + Double(keptMinute * 60))
          == due
      })
    {
      days = keptDays
      timeOfDay = Double(keptMinute * 60)
    }
    let civil = GregorianDays.date(days: days)
    var anchorDay = civil.day
    if let keptDay, keptDay > civil.day,
      min(keptDay, GregorianDays.daysInMonth(year: civil.year, month: civil.month)) == civil.day
    {
      anchorDay = keptDay
    }
    var nextDays: Int
    var clampedDay: Int?
    switch rule.frequency {
    case .daily:
      nextDays = days + rule.interval
    case .weekly:
      nextDays = days + 7 * rule.interval
    case .weekdays:
      nextDays = days + 1
      while [0, 6].contains(GregorianDays.weekday(days: nextDays)) { nextDays += 1 }
    case .monthly, .yearly:
      let months = rule.frequency == .monthly ? rule.interval : 12 * rule.interval
      let total = civil.year * 12 + (civil.month - 1) + months
      let year = total >= 0 ? total / 12 : (total - 11) / 12
      let month = total - year * 12 + 1
      let day = min(anchorDay, GregorianDays.daysInMonth(year: year, month: month))
      if day < anchorDay { clampedDay = anchorDay }
      nextDays = GregorianDays.days(year: year, month: month, day: day)
    }
    let nextWall = Double(nextDays) * ZonedWallClock.secondsPerDay + timeOfDay
    let date = clock.date(wallSeconds: nextWall)
    let moved = clock.wallSeconds(of: date) != nextWall
    return Occurrence(
      date: date, keptDay: clampedDay,
      keptMinute: moved ? Int((timeOfDay / 60).rounded(.down)) : nil)
  }

  /// The item moved to its next occurrence and left unchecked, or nil when it does not
  /// repeat (no rule, or no due date).
  public func advanced(_ item: ChecklistItem) -> ChecklistItem? {
    guard item.showsDueDate, let rule = item.repeatRule else { return nil }
    let occurrence = next(
      after: item.dueDate, rule: rule, keptDay: item.repeatAnchorDay,
      keptMinute: item.repeatAnchorMinute)
    var moved = item
    moved.dueDate = occurrence.date
    moved.checked = false
    moved.repeatAnchorDay = occurrence.keptDay
    moved.repeatAnchorMinute = occurrence.keptMinute
    return moved
  }
}

/// What checking an item does: the change, and for a repeating item its next due date.
public struct ItemCheck: Equatable, Sendable {
  /// The undoable change (one `replaceItem`).
  public var change: ModelChange
  /// The repeating item's new due date; nil when the item was simply checked or unchecked.
  public var nextDueDate: Date?

  /// "Next: Tue 8 Dec" after a repeating item moved on; nil otherwise.
  public func statusText(formatter: DueDateFormatter, now: Date) -> String? {
    nextDueDate.map { "Next: \(formatter.day($0, now: now))" }
  }
}

extension DataModel {
  /// The change that flips the item at `index` of a list, except that checking a repeating
  /// item (`ChecklistItem.repeats`) moves its due date to the next occurrence and leaves it
  /// unchecked, as Reminders does; nil when there is no such item.
  public func checkItem(listID: Checklist.ID, at index: Int, schedule: RepeatSchedule)
    -> ItemCheck?
  {
    guard let list = list(withID: listID), list.items.indices.contains(index) else { return nil }
    let old = list.items[index]
    if !old.checked, let moved = schedule.advanced(old) {
      return ItemCheck(
        change: .replaceItem(listID: listID, index: index, old: old, new: moved),
        nextDueDate: moved.dueDate)
    }
    guard let change = toggleItem(listID: listID, at: index) else { return nil }
    return ItemCheck(change: change, nextDueDate: nil)
  }
}
