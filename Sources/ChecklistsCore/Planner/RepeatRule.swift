import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// How an item with a due date repeats: daily, on weekdays, weekly, monthly or yearly, every
/// `interval` of those.
///
/// Written in the file as its `text` under the item's extra key `repeat` (see
/// `ChecklistItem.repeatRule`); the same words are what `--repeat` takes.
public struct RepeatRule: Hashable, Sendable, CustomStringConvertible {
  /// The unit a rule counts in.
  public enum Frequency: String, CaseIterable, Sendable {
    /// Every day.
    case daily
    /// Monday to Friday.
    case weekdays
    /// Every week, on the same weekday.
    case weekly
    /// Every month, on the same day (clamped to the month's end).
    case monthly
    /// Every year, on the same day (29 February falls on 28 February in other years).
    case yearly
  }

  /// The unit.
  public let frequency: Frequency
  /// How many units between occurrences (1 for `weekdays`).
  public let interval: Int

  /// The largest interval a rule takes.
  public static let maximumInterval = 999

  /// A rule; nil when `interval` is outside 1...999, or not 1 for `weekdays`.
  public init?(_ frequency: Frequency, interval: Int = 1) {
    guard interval >= 1, interval <= Self.maximumInterval else { return nil }
    guard frequency != .weekdays || interval == 1 else { return nil }
    self.frequency = frequency
    self.interval = interval
  }

  /// Every day.
  public static let daily = RepeatRule(uncheckedFrequency: .daily)
  /// Monday to Friday.
  public static let weekdays = RepeatRule(uncheckedFrequency: .weekdays)
  /// Every week.
  public static let weekly = RepeatRule(uncheckedFrequency: .weekly)
  /// Every month.
  public static let monthly = RepeatRule(uncheckedFrequency: .monthly)
  /// Every year.
  public static let yearly = RepeatRule(uncheckedFrequency: .yearly)

  private init(uncheckedFrequency: Frequency) {
    frequency = uncheckedFrequency
    interval = 1
  }

  /// The choices a picker offers, in order: daily, weekdays, weekly, every 2 weeks, monthly,
  /// yearly.
  public static let common: [RepeatRule] = [
    .daily, .weekdays, .weekly, RepeatRule(.weekly, interval: 2) ?? .weekly, .monthly, .yearly,
  ]

  /// The rule in words, as written to the file and taken by `--repeat`: "daily", "weekdays",
  /// "weekly", "monthly", "yearly", "every 3 days", "every 2 weeks", "every 6 months",
  /// "every 2 years".
  public var text: String {
    if interval == 1 { return frequency.rawValue }
    let unit: String
    switch frequency {
    case .daily, .weekdays: unit = "days"
    case .weekly: unit = "weeks"
    case .monthly: unit = "months"
    case .yearly: unit = "years"
    }
    return "every \(interval) \(unit)"
  }

  /// The same as `text`.
  public var description: String { text }

  /// Reads a rule in any case and spacing: "daily", "weekdays", "weekly", "monthly",
  /// "yearly", "every day", "every week", "every month", "every year", "every N days",
  /// "every N weeks", "every N months", "every N years" (N from 1 to 999); nil otherwise.
  public init?(parsing input: String) {
    let words = input.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" })
    switch words.count {
    case 1:
      guard let frequency = Frequency(rawValue: String(words[0])) else { return nil }
      self.init(frequency)
    case 2, 3:
      guard words[0] == "every" else { return nil }
      var interval = 1
      if words.count == 3 {
        guard words[1].allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(words[1])
        else { return nil }
        interval = number
      }
      let unit = words.last.map(String.init) ?? ""
      let singular = unit.hasSuffix("s") ? String(unit.dropLast()) : unit
      // "every day" but not "every 3 day"; "every 1 days" reads as daily.
      guard words.count == 3 || singular == unit else { return nil }
      switch singular {
      case "day": self.init(.daily, interval: interval)
      case "week": self.init(.weekly, interval: interval)
      case "month": self.init(.monthly, interval: interval)
      case "year": self.init(.yearly, interval: interval)
      case "weekday" where words.count == 2: self.init(.weekdays)
      default: return nil
      }
    default:
      return nil
    }
  }
}
