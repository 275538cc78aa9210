import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The extra keys of an item that the iPhone app ignores: a note and a repeat rule.
///
/// They live in `unknownFields`, so files without them read and write as before, an unedited
/// file stays byte for byte the same, and the three-way merge takes them key by key like any
/// other extra key.
extension PlistKey {
  /// The item's note (a string, several lines).
  public static let note: PlistKey = "note"
  /// The item's repeat rule (a string, `RepeatRule.text`).
  public static let repeatRule: PlistKey = "repeat"
  /// The day of the month (29–31) a monthly or yearly item keeps while a shorter month (or a
  /// year without 29 February) moved its due date earlier.
  public static let repeatDay: PlistKey = "repeatDay"
  /// The wall-clock time (minutes after midnight) a repeating item keeps while a clock change
  /// moved its due date later (an hour that did not exist that day).
  public static let repeatMinute: PlistKey = "repeatMinute"
}

extension ChecklistItem {
  /// The item's note: free text of any number of lines; "" when it has none.
  ///
  /// Setting "" removes the `note` key, so an item without a note is written as before.
  public var note: String {
    get {
      if case .string(let text)? = unknownFields[.note] { return text }
      return ""
    }
    set {
      unknownFields[.note] = newValue.isEmpty ? nil : .string(newValue)
    }
  }

  /// How the item repeats, or nil; it counts only while the item has a due date.
  ///
  /// A `repeat` value this version cannot read (written by a newer one) reads as nil and is
  /// kept until a rule is set. Setting a rule, or nil, forgets the kept day and time
  /// (`repeatDay`, `repeatMinute`), which belong to the old rule.
  public var repeatRule: RepeatRule? {
    get {
      if case .string(let text)? = unknownFields[.repeatRule] { return RepeatRule(parsing: text) }
      return nil
    }
    set {
      unknownFields[.repeatRule] = newValue.map { .string($0.text) }
      unknownFields[.repeatDay] = nil
      unknownFields[.repeatMinute] = nil
    }
  }

  /// Sets a due date chosen by hand (form, `--due`): a repeating series starts afresh from it,
  /// so the day and time the last step kept (`repeatDay`, `repeatMinute`) are forgotten.
  public mutating func setDueDateByHand(_ date: Date) {
    dueDate = date
    unknownFields[.repeatDay] = nil
    unknownFields[.repeatMinute] = nil
  }

  /// Whether checking the item moves its due date on instead of checking it.
  public var repeats: Bool { showsDueDate && repeatRule != nil }

  /// The day of the month the series keeps (see `PlistKey.repeatDay`), when in the file.
  public var repeatAnchorDay: Int? {
    get { Self.smallInteger(unknownFields[.repeatDay], in: 1...31) }
    set { unknownFields[.repeatDay] = newValue.map { .integer(Int64($0)) } }
  }

  /// The time of day the series keeps (see `PlistKey.repeatMinute`), when in the file.
  public var repeatAnchorMinute: Int? {
    get { Self.smallInteger(unknownFields[.repeatMinute], in: 0...1439) }
    set { unknownFields[.repeatMinute] = newValue.map { .integer(Int64($0)) } }
  }

  private static func smallInteger(_ value: PlistValue?, in range: ClosedRange<Int>) -> Int? {
    guard case .integer(let number)? = value, let int = Int(exactly: number), range.contains(int)
    else { return nil }
    return int
  }
}
