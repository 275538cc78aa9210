import Foundation

/// One to-do item of a checklist, as the iPhone app's `ChecklistItem`.
public struct ChecklistItem: Equatable, Sendable {
  /// What to do.
  public var text: String
  /// Whether the item is done.
  public var checked: Bool
  /// When the item is due; meaningful for reminders only when `shouldRemind` is on.
  public var dueDate: Date
  /// Whether a reminder fires at `dueDate`.
  public var shouldRemind: Bool
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
    itemID: Int,
    unknownFields: [PlistKey: PlistValue] = [:]
  ) {
    self.text = text
    self.checked = checked
    self.dueDate = dueDate
    self.shouldRemind = shouldRemind
    self.itemID = itemID
    self.unknownFields = unknownFields
  }
}

extension ChecklistItem: Codable {
  enum CodingKeys: String, CodingKey {
    case text, checked, dueDate, shouldRemind, itemID
  }

  /// Decodes the five known keys; unknown keys are kept only by the fast codec.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      text: try container.decode(String.self, forKey: .text),
      checked: try container.decode(Bool.self, forKey: .checked),
      dueDate: try container.decode(Date.self, forKey: .dueDate),
      shouldRemind: try container.decode(Bool.self, forKey: .shouldRemind),
      itemID: try container.decode(Int.self, forKey: .itemID)
    )
  }

  /// Encodes the five known keys, as the app does.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(text, forKey: .text)
    try container.encode(checked, forKey: .checked)
    try container.encode(dueDate, forKey: .dueDate)
    try container.encode(shouldRemind, forKey: .shouldRemind)
    try container.encode(itemID, forKey: .itemID)
  }
}
