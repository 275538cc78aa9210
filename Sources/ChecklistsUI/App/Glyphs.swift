import ChecklistsCore

/// The symbols the views draw, with ASCII stand-ins.
struct Glyphs {
  let ascii: Bool

  /// The check-mark column (3 columns wide).
  func checkMark(_ checked: Bool) -> String {
    if ascii { return checked ? "[x]" : "[ ]" }
    return checked ? " ✔ " : " · "
  }

  /// The Remind Me switch.
  func toggle(_ on: Bool) -> String {
    if ascii { return on ? "[x] On" : "[ ] Off" }
    return on ? "● On" : "○ Off"
  }

  /// Columns the icon column takes.
  var iconWidth: Int { ascii ? 8 : 2 }

  /// The icon for a list's `iconName` (blank for No Icon or an unknown name).
  func icon(_ name: String) -> String {
    guard let icon = IconName(rawValue: name) else { return ascii ? "" : "" }
    return ascii ? Self.asciiIcons[icon] ?? "" : Self.emojiIcons[icon] ?? ""
  }

  /// The icon of a Today or Scheduled row.
  func smartIcon(_ kind: PlannerKind) -> String {
    switch kind {
    case .today: return ascii ? "[today]" : "📌"
    case .scheduled: return ascii ? "[sched]" : "📆"
    case .search: return ascii ? "[find]" : "🔎"
    }
  }

  /// Separates a title from its counts.
  var dash: String { ascii ? "-" : "—" }

  /// Leads what a typed due date was understood as.
  var arrow: String { ascii ? "->" : "→" }

  /// Separates notes in the title bar.
  var dot: String { ascii ? "," : "·" }

  /// Ends text that was cut short.
  var ellipsis: String { ascii ? "~" : "…" }

  /// The reminder sign on the status line.
  var reminder: String { ascii ? "(!)" : "⏰" }

  /// Marks the due date of a repeating item.
  var repeats: String { ascii ? "(r)" : "↻" }

  /// Marks the row of an item with a photo.
  var photo: String { ascii ? "[p]" : "📷" }

  static let emojiIcons: [IconName: String] = [
    .noIcon: "", .appointments: "📅", .birthdays: "🎂", .chores: "🧹", .drinks: "🍹",
    .folder: "📁", .groceries: "🛒", .inbox: "📥", .photos: "📷", .trips: "✈",
  ]

  static let asciiIcons: [IconName: String] = [
    .noIcon: "", .appointments: "[appt]", .birthdays: "[bday]", .chores: "[chore]",
    .drinks: "[drink]", .folder: "[folder]", .groceries: "[groc]", .inbox: "[inbox]",
    .photos: "[photo]", .trips: "[trip]",
  ]
}
