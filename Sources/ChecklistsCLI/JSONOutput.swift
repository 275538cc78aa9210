import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The JSON shapes the commands print; keys mirror the plist's, dates are ISO 8601.
enum JSONOutput {
  /// An item as in the plist, plus whether its due date counts.
  struct Item: Codable {
    var text: String
    var checked: Bool
    var dueDate: Date
    var shouldRemind: Bool
    /// Whether the due date counts (given by the user, or Remind Me on); not a plist key.
    var hasDueDate: Bool
    var itemID: Int
    /// The item's note; absent when it has none.
    var note: String?
    /// The item's repeat rule (`RepeatRule.text`); absent when it does not repeat.
    var `repeat`: String?
    /// How long before the due date it reminds (`ReminderLead.text`: "15m", "1h", "1d"; the
    /// plist's `remindBefore` in minutes); absent for at the due time.
    var remindBefore: String?
    /// The day of the month a repeating item keeps (the plist's `repeatDay`), when it has one.
    var repeatDay: Int?
    /// The time of day a repeating item keeps (the plist's `repeatMinute`), when it has one.
    var repeatMinute: Int?
    /// The `itemID` of the item's parent (the item it is a subtask of, earlier in the same
    /// list); absent for a top-level item.
    var parentItemID: Int?
    /// The stored priority, 1–9 (1–4 high, 5 medium, 6–9 low; this program writes 1, 5, 9);
    /// absent for none.
    var priority: Int?
    /// The item's tags, in order; absent when it has none.
    var tags: [String]?
    /// The absolute path of the item's photo; absent when it has none (or the path is not
    /// known to the command).
    var photo: String?

    /// The item; with `photos`, its photo's path in that library.
    init(_ item: ChecklistItem, photos: PhotoLibrary? = nil) {
      let fields = ItemFields(item)
      text = fields.text
      checked = item.checked
      dueDate = fields.dueDate
      shouldRemind = fields.remind
      hasDueDate = fields.shownDueDate != nil
      itemID = item.itemID
      note = fields.note.isEmpty ? nil : fields.note
      `repeat` = fields.repeatRule?.text
      remindBefore = fields.reminderLead.isNone ? nil : fields.reminderLead.text
      repeatDay = item.repeatAnchorDay
      repeatMinute = item.repeatAnchorMinute
      parentItemID = item.parentItemID
      priority = item.priority == 0 ? nil : item.priority
      let tags = item.tags
      self.tags = tags.isEmpty ? nil : tags
      if let photos, let name = fields.photo { photo = photos.path(of: name) }
    }
  }

  /// A list as in the plist.
  struct List: Codable {
    var name: String
    var iconName: String
    var items: [Item]

    init(_ list: Checklist, photos: PhotoLibrary? = nil) {
      name = list.name
      iconName = list.iconName
      items = list.items.map { Item($0, photos: photos) }
    }
  }

  /// Encodes a value as pretty JSON with sorted keys, ending in a newline. Dates are RFC 3339
  /// in UTC, in the proleptic Gregorian calendar as in the plist (`InternetDateTime`).
  static func encode<T: Encodable>(_ value: T) throws(CLIError) -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .custom { date, encoder in
      guard let text = InternetDateTime.string(date) else {
        throw EncodingError.invalidValue(
          date, .init(codingPath: encoder.codingPath, debugDescription: "date out of range"))
      }
      var container = encoder.singleValueContainer()
      try container.encode(text)
    }
    do {
      return try encoder.encode(value) + Data("\n".utf8)
    } catch EncodingError.invalidValue(let value as Date, _) {
      throw .failure(
        "could not write JSON: a date is out of the years JSON dates can hold "
          + "(\(value.timeIntervalSinceReferenceDate) seconds from 2001)")
    } catch {
      throw .failure("could not write JSON: \(error)")
    }
  }
}

/// Dates as the plain output shows them: "2026-12-24 18:00" in the commands' time zone.
enum PlainDate {
  static func string(_ date: Date, timeZone: ZoneRules) -> String {
    DateStamp.string(date, timeZone: timeZone, format: DateStamp.minutes)
  }
}
