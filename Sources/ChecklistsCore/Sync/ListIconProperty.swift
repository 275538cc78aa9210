import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// A list's icon carried on each of its tasks, `X-CHECKLISTS-ICON`, so that it reaches other
/// computers through the server: vdirsyncer's metadata carries a collection's `displayname`
/// and `color` (and `description`, `order`), never our `checklists-icon` file.
///
/// A task without the property says nothing about the icon (a task from another app, or one
/// rewritten by an app that drops unknown properties); "No Icon" is written as such, and only
/// over an icon a task carried, so tasks of a list without an icon carry nothing.
enum ListIconProperty {
  /// The property's name.
  static let name = "X-CHECKLISTS-ICON"

  /// The icon the calendar's task carries, or nil.
  static func icon(in calendar: ICSComponent) -> String? {
    guard let todo = TaskMapping.task(in: calendar), let property = todo.property(name) else {
      return nil
    }
    let icon = ICalendar.unescapeText(property.value).trimmingSpaces()
    return icon.isEmpty ? nil : icon
  }

  /// Makes the calendar's task carry `icon`; returns whether the calendar changed. Nothing else
  /// in the file changes.
  @discardableResult
  static func set(_ icon: String, in calendar: inout ICSComponent) -> Bool {
    guard let index = taskIndex(in: calendar),
      case .component(var todo) = calendar.entries[index]
    else { return false }
    let current = todo.property(name).map { ICalendar.unescapeText($0.value) }
    if current == icon { return false }
    if current == nil && icon == IconName.noIcon.rawValue { return false }
    todo.set(ICSProperty(name: name, value: ICalendar.escapeText(icon)))
    calendar.entries[index] = .component(todo)
    return true
  }

  /// Whether `set` would change the calendar.
  static func differs(_ icon: String, in calendar: ICSComponent) -> Bool {
    var copy = calendar
    return set(icon, in: &copy)
  }

  /// The entry of the calendar's task, as `TaskMapping.task(in:)` chooses it.
  private static func taskIndex(in calendar: ICSComponent) -> Int? {
    func isTask(_ entry: ICSComponent.Entry, series: Bool) -> Bool {
      guard case .component(let todo) = entry, todo.name == "VTODO" else { return false }
      return !series || todo.property("RECURRENCE-ID") == nil
    }
    return calendar.entries.firstIndex { isTask($0, series: true) }
      ?? calendar.entries.firstIndex { isTask($0, series: false) }
  }
}
