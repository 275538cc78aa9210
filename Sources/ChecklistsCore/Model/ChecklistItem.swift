import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// One to-do item of a checklist, as the iPhone app's `ChecklistItem`.
public struct ChecklistItem: Equatable, Sendable {
  /// What to do.
  public var text: String
  /// Whether the item is done.
  public var checked: Bool
  /// When the item is due; it counts only when `showsDueDate` (the app stores one on every item).
  public var dueDate: Date
  /// Whether a reminder fires at `dueDate`.
  public var shouldRemind: Bool
  /// Whether the user gave the item a due date (form, `--due`, import); kept in the file under
  /// the extra key `hasDueDate`, which the iPhone app ignores; false in files without it.
  public var hasDueDate: Bool
  /// The app's identifier for the item's notification; unique across the file.
  public var itemID: Int
  /// Keys a newer app wrote that this version does not know; written back unchanged.
  public var unknownFields: [PlistKey: PlistValue]

  /// Creates an item; the defaults are the app's (unchecked, due now, no reminder).
  public init(
    text: String,
    checked: Bool = false,
    dueDate: Date = Date(),
    shouldRemind: Bool = false,
    hasDueDate: Bool = false,
    itemID: Int,
    unknownFields: [PlistKey: PlistValue] = [:]
  ) {
    self.text = text
    self.checked = checked
    self.dueDate = dueDate
    self.shouldRemind = shouldRemind
    self.hasDueDate = hasDueDate
    self.itemID = itemID
    self.unknownFields = unknownFields
  }

  /// Whether the item has a due date that counts: one was given, or Remind Me is on.
  public var showsDueDate: Bool { hasDueDate || shouldRemind }
}

extension ChecklistItem: Codable {
  enum CodingKeys: String, CodingKey {
    case text, checked, dueDate, shouldRemind, itemID, hasDueDate
  }

  /// Decodes the five known keys and `hasDueDate` when present; unknown keys are kept only by
  /// the fast codec.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      text: try container.decode(String.self, forKey: .text),
      checked: try container.decode(Bool.self, forKey: .checked),
      dueDate: try container.decode(Date.self, forKey: .dueDate),
      shouldRemind: try container.decode(Bool.self, forKey: .shouldRemind),
      hasDueDate: try container.decodeIfPresent(Bool.self, forKey: .hasDueDate) ?? false,
      itemID: try container.decode(Int.self, forKey: .itemID)
    )
  }

  /// Encodes the five known keys, as the app does, and `hasDueDate` when it is true.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(text, forKey: .text)
    try container.encode(checked, forKey: .checked)
    try container.encode(dueDate, forKey: .dueDate)
    try container.encode(shouldRemind, forKey: .shouldRemind)
    try container.encode(itemID, forKey: .itemID)
    if hasDueDate { try container.encode(true, forKey: .hasDueDate) }
  }
}
