import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// How long before its due time an item reminds: an early reminder (`remindBefore`), whole
/// minutes, 0 for at the due time.
///
/// Typed and written as `15m`, `1h`, `1d` (`0` for none); the common ones are 5, 15 and 30
/// minutes, 1 hour and 1 day, any `Nm`, `Nh` or `Nd` is taken.
public struct ReminderLead: Hashable, Comparable, Sendable {
  /// The lead time in minutes (0 at the due time).
  public var minutes: Int

  /// The longest lead time taken: 365 days.
  public static let maximumMinutes = 365 * 1440

  /// The choices the item form steps through, in order.
  public static let choices: [ReminderLead] = [0, 5, 15, 30, 60, 1440].map {
    ReminderLead(minutes: $0)
  }

  /// At the due time.
  public static let none = ReminderLead(minutes: 0)

  /// A lead time of `minutes` (clamped to 0...`maximumMinutes`).
  public init(minutes: Int) {
    self.minutes = min(max(minutes, 0), Self.maximumMinutes)
  }

  /// Reads `15m`, `15 min`, `2h`, `1 hour`, `1d`, `0` (case and spaces do not matter); nil
  /// when `text` is none of these or longer than 365 days.
  public init?(parsing text: String) {
    let lowered = text.lowercased().filter { !$0.isWhitespace }
    let digits = lowered.prefix { $0.isASCII && $0.isNumber }
    guard !digits.isEmpty, digits.count <= 6, let amount = Int(digits) else { return nil }
    let unit = lowered.dropFirst(digits.count)
    let perUnit: Int
    switch unit {
    case "" where amount == 0: perUnit = 1
    case "m", "min", "mins", "minute", "minutes": perUnit = 1
    case "h", "hr", "hrs", "hour", "hours": perUnit = 60
    case "d", "day", "days": perUnit = 1440
    default: return nil
    }
    guard amount * perUnit <= Self.maximumMinutes else { return nil }
    self.init(minutes: amount * perUnit)
  }

  /// Whether the item reminds at its due time.
  public var isNone: Bool { minutes == 0 }

  /// The lead time in seconds.
  public var seconds: TimeInterval { TimeInterval(minutes) * 60 }

  /// As typed and stored in exports: `0`, `15m`, `2h`, `1d` (the largest whole unit).
  public var text: String {
    if minutes == 0 { return "0" }
    if minutes % 1440 == 0 { return "\(minutes / 1440)d" }
    if minutes % 60 == 0 { return "\(minutes / 60)h" }
    return "\(minutes)m"
  }

  /// As `show` and the form say it: "at the due time", "15 min before", "1 h before",
  /// "2 days before".
  public var phrase: String {
    if minutes == 0 { return "at the due time" }
    if minutes % 1440 == 0 {
      let days = minutes / 1440
      return days == 1 ? "1 day before" : "\(days) days before"
    }
    if minutes % 60 == 0 { return "\(minutes / 60) h before" }
    return "\(minutes) min before"
  }

  /// The reminder time of an item due at `dueDate`.
  public func reminderDate(dueDate: Date) -> Date {
    dueDate.addingTimeInterval(-seconds)
  }

  public static func < (left: ReminderLead, right: ReminderLead) -> Bool {
    left.minutes < right.minutes
  }
}

extension PlistKey {
  /// How many minutes before its due date an item reminds (an integer, written only when not
  /// 0); the iPhone app ignores it and reminds at the due date.
  public static let remindBefore: PlistKey = "remindBefore"
}

extension ChecklistItem {
  /// How long before its due date the item reminds; setting `.none` removes the key.
  public var reminderLead: ReminderLead {
    get {
      guard case .integer(let number)? = unknownFields[.remindBefore],
        let minutes = Int(exactly: number), minutes > 0
      else { return .none }
      return ReminderLead(minutes: minutes)
    }
    set {
      unknownFields[.remindBefore] = newValue.isNone ? nil : .integer(Int64(newValue.minutes))
    }
  }

  /// When the item's reminder comes: its due date less the lead time.
  public var reminderDate: Date { reminderLead.reminderDate(dueDate: dueDate) }
}
