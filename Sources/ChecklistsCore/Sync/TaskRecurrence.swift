import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// A repeat rule as a VTODO's `RRULE` value (RFC 5545 §3.3.10), and back.
///
/// Our rules count from the due date, on the wall clock of the local time zone. Each one is
/// written as the RRULE whose occurrences are exactly the ones `RepeatSchedule` gives:
///
/// | rule | RRULE |
/// | --- | --- |
/// | daily, every N days | `FREQ=DAILY`, `FREQ=DAILY;INTERVAL=N` |
/// | weekdays | `FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR` |
/// | weekly, every N weeks | `FREQ=WEEKLY`, `FREQ=WEEKLY;INTERVAL=N` |
/// | monthly on day 1–28 | `FREQ=MONTHLY` |
/// | monthly on day 29 or 30 | `FREQ=MONTHLY;BYMONTHDAY=28,29[,30];BYSETPOS=-1` |
/// | monthly on day 31 | `FREQ=MONTHLY;BYMONTHDAY=-1` |
/// | yearly | `FREQ=YEARLY` |
/// | yearly on 29 February | `FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1` |
///
/// A plain `FREQ=MONTHLY` from the 31st skips the months without a 31st (RFC 5545), where ours
/// falls on the month's last day: hence the day lists for days 29 to 31.
///
/// An RRULE is read into a rule only when its occurrences are exactly a rule's; anything else
/// (`COUNT`, `UNTIL`, `BYDAY=2TU`, several weekdays, a monthly rule from the 31st that skips
/// months…) reads as no rule, and the VTODO's RRULE is left as it is.
enum TaskRecurrence {
  /// A rule as read from an RRULE: the rule, and the day of the month (29–31) the series keeps
  /// beyond the due date's own day (`ChecklistItem.repeatAnchorDay`), when it does.
  struct Reading: Equatable {
    var rule: RepeatRule
    var keptDay: Int?
  }

  /// The day of the month an item's series keeps beyond its due date's day, as the RRULE can
  /// say it: for a monthly rule the kept day (29–31) while the due date is that day clamped to
  /// a shorter month; for a yearly rule 29 while the due date is 28 February of a common year;
  /// nil otherwise (a kept day that no longer explains the due date counts for nothing, as in
  /// `RepeatSchedule`).
  static func keptDay(rule: RepeatRule, due: Date, keptDay: Int?, timeZone: ZoneRules) -> Int? {
    guard let keptDay, rule.frequency == .monthly || rule.frequency == .yearly else { return nil }
    let (year, month, day) = civilDate(due, timeZone: timeZone)
    let length = GregorianDays.daysInMonth(year: year, month: month)
    guard keptDay > day, min(keptDay, length) == day, keptDay <= 31 else { return nil }
    if rule.frequency == .monthly { return keptDay }
    return month == 2 && day == 28 ? 29 : nil
  }

  /// The RRULE value for `rule` on an item due at `due` whose series keeps `keptDay` (as
  /// `keptDay(rule:due:keptDay:timeZone:)` gives it).
  static func value(rule: RepeatRule, due: Date, keptDay: Int?, timeZone: ZoneRules) -> String {
    let interval = rule.interval > 1 ? ";INTERVAL=\(rule.interval)" : ""
    let (_, month, day) = civilDate(due, timeZone: timeZone)
    let anchor = keptDay ?? day
    switch rule.frequency {
    case .daily:
      return "FREQ=DAILY" + interval
    case .weekdays:
      return "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"
    case .weekly:
      return "FREQ=WEEKLY" + interval
    case .monthly:
      if anchor <= 28 { return "FREQ=MONTHLY" + interval }
      if anchor >= 31 { return "FREQ=MONTHLY" + interval + ";BYMONTHDAY=-1" }
      let days = (28...anchor).map(String.init).joined(separator: ",")
      return "FREQ=MONTHLY" + interval + ";BYMONTHDAY=\(days);BYSETPOS=-1"
    case .yearly:
      if month == 2 && anchor >= 29 {
        return "FREQ=YEARLY" + interval + ";BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1"
      }
      return "FREQ=YEARLY" + interval
    }
  }

  /// The rule an RRULE value stands for on a task due at `due`; nil when no rule of ours has
  /// exactly its occurrences.
  static func reading(_ value: String, due: Date, timeZone: ZoneRules) -> Reading? {
    guard let parts = parts(of: value), let frequency = parts["FREQ"] else { return nil }
    var interval = 1
    if let text = parts["INTERVAL"] {
      guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), text.utf8.count <= 4,
        let number = Int(text)
      else { return nil }
      interval = number
    }
    let byDay = parts["BYDAY"].map { $0.split(separator: ",", omittingEmptySubsequences: false) }
    let byMonthDay = parts["BYMONTHDAY"].map {
      $0.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
    }
    let byMonth = parts["BYMONTH"]
    let bySetPos = parts["BYSETPOS"]
    let (year, month, day) = civilDate(due, timeZone: timeZone)
    let length = GregorianDays.daysInMonth(year: year, month: month)
    let workdays: Set<Substring> = ["MO", "TU", "WE", "TH", "FR"]
    func isWorkdays(_ days: [Substring]?) -> Bool {
      guard let days else { return false }
      return days.count == 5 && Set(days) == workdays
    }
    func rule(_ frequency: RepeatRule.Frequency, keptDay: Int? = nil) -> Reading? {
      RepeatRule(frequency, interval: interval).map { Reading(rule: $0, keptDay: keptDay) }
    }
    switch frequency {
    case "DAILY":
      guard byMonthDay == nil, byMonth == nil, bySetPos == nil else { return nil }
      if byDay == nil { return rule(.daily) }
      return interval == 1 && isWorkdays(byDay) ? rule(.weekdays) : nil
    case "WEEKLY":
      guard byMonthDay == nil, byMonth == nil, bySetPos == nil else { return nil }
      guard let byDay else { return rule(.weekly) }
      if interval == 1 && isWorkdays(byDay) { return rule(.weekdays) }
      let codes = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]
      let weekday = GregorianDays.weekday(
        days: GregorianDays.days(year: year, month: month, day: day))
      return byDay.count == 1 && byDay[0] == codes[weekday] ? rule(.weekly) : nil
    case "MONTHLY":
      guard byDay == nil, byMonth == nil else { return nil }
      return monthEnd(
        byMonthDay: byMonthDay, bySetPos: bySetPos, day: day, length: length,
        varyingLength: true, frequency: .monthly, rule: rule)
    case "YEARLY":
      guard byDay == nil else { return nil }
      if let byMonth {
        guard Int(byMonth) == month else { return nil }
      } else if byMonthDay != nil {
        return nil  // BYMONTHDAY alone repeats every month of the year
      }
      // Only February's length changes from year to year.
      return monthEnd(
        byMonthDay: byMonthDay, bySetPos: bySetPos, day: day, length: length,
        varyingLength: month == 2, frequency: .yearly, rule: rule)
    default:
      return nil
    }
  }

  /// A monthly or yearly rule's day: no day list (the due date's day, when every period has
  /// it), the due date's day alone, the last day (`-1`), or the last of 28…D (`BYSETPOS=-1`).
  private static func monthEnd(
    byMonthDay: [Int?]?, bySetPos: String?, day: Int, length: Int, varyingLength: Bool,
    frequency: RepeatRule.Frequency, rule: (RepeatRule.Frequency, Int?) -> Reading?
  ) -> Reading? {
    // The kept day when the due date is its month's last day and earlier than `anchor`.
    func clamped(to anchor: Int) -> Reading? {
      if day == anchor { return rule(frequency, nil) }
      guard day == length, day < anchor else { return nil }
      return rule(frequency, frequency == .yearly ? 29 : anchor)
    }
    let plainUpTo = varyingLength ? 28 : length
    guard let byMonthDay else {
      return bySetPos == nil && day <= plainUpTo ? rule(frequency, nil) : nil
    }
    let days = byMonthDay.compactMap { $0 }
    guard days.count == byMonthDay.count, !days.isEmpty else { return nil }
    switch bySetPos {
    case nil:
      guard days.count == 1 else { return nil }
      if days[0] == -1 {
        // A yearly rule outside February: that month's last day is always the same day.
        if !varyingLength {
          return day == length ? rule(frequency, nil) : nil
        }
        return clamped(to: frequency == .yearly ? 29 : 31)
      }
      return days[0] == day && day <= plainUpTo ? rule(frequency, nil) : nil
    case "-1":
      let sorted = days.sorted()
      guard let last = sorted.last, (29...31).contains(last), sorted == Array(28...last)
      else { return nil }
      if frequency == .yearly && last != 29 { return nil }
      return clamped(to: last)
    default:
      return nil
    }
  }

  /// The rule parts of an RRULE value, names and values in upper case; nil when a part is not
  /// `NAME=VALUE`, a name repeats, or a part is one no rule of ours can have.
  private static func parts(of value: String) -> [String: String]? {
    let allowed: Set<String> = [
      "FREQ", "INTERVAL", "BYDAY", "BYMONTHDAY", "BYMONTH", "BYSETPOS", "WKST",
    ]
    var result: [String: String] = [:]
    for part in value.trimmingSpaces().split(
      separator: ";", omittingEmptySubsequences: false)
    {
      let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard pair.count == 2 else { return nil }
      let name = pair[0].trimmingSpaces().uppercased()
      guard allowed.contains(name), result[name] == nil else { return nil }
      result[name] = pair[1].trimmingSpaces().uppercased()
    }
    return result
  }

  /// The year, month and day of `date` on the wall clock of `timeZone`.
  static func civilDate(_ date: Date, timeZone: ZoneRules) -> (Int, Int, Int) {
    let clock = ZonedWallClock(timeZone: timeZone)
    let date = GregorianDays.date(days: clock.day(of: date))
    return (date.year, date.month, date.day)
  }
}
