/// The icons the iPhone app offers for a checklist, by their file names.
public enum IconName: String, CaseIterable, Sendable {
  case noIcon = "No Icon"
  case appointments = "Appointments"
  case birthdays = "Birthdays"
  case chores = "Chores"
  case drinks = "Drinks"
  case folder = "Folder"
  case groceries = "Groceries"
  case inbox = "Inbox"
  case photos = "Photos"
  case trips = "Trips"

  /// Finds an icon by name, ignoring case ("groceries", "no icon").
  public init?(caseInsensitive name: String) {
    let wanted = name.lowercased()
    guard let match = Self.allCases.first(where: { $0.rawValue.lowercased() == wanted }) else {
      return nil
    }
    self = match
  }
}
