import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// An item shown outside its list (Today, Scheduled, search): where it lives and what it is.
public struct PlannerRow: Equatable, Sendable {
  /// The item's list.
  public var listID: Checklist.ID
  /// The list's index in `DataModel.lists` when the row was made.
  public var listIndex: Int
  /// The list's name, shown on the row.
  public var listName: String
  /// The item's index in its list when the row was made.
  public var itemIndex: Int
  /// The item.
  public var item: ChecklistItem

  /// Creates a row.
  public init(
    listID: Checklist.ID, listIndex: Int, listName: String, itemIndex: Int, item: ChecklistItem
  ) {
    self.listID = listID
    self.listIndex = listIndex
    self.listName = listName
    self.itemIndex = itemIndex
    self.item = item
  }
}

/// The smart lists at the top of All Lists: views of the unchecked items with a due date,
/// computed from the model, a clock and a time zone. They are not lists in the file.
///
/// An item has a due date when `ChecklistItem.showsDueDate`. Each call scans every item once
/// and sorts only the items it keeps, by due date, then list and item order.
public struct SmartLists: Sendable {
  /// The time zone whose days the views follow.
  public let timeZone: ZoneRules

  /// Smart lists in `timeZone` (the local one by default).
  public init(timeZone: ZoneRules = .current) {
    self.timeZone = timeZone
  }

  /// A day group of Scheduled.
  public enum Section: Equatable, Hashable, Sendable {
    /// Due before now.
    case overdue
    /// Due from now to the end of today.
    case today
    /// Due tomorrow.
    case tomorrow
    /// Due on a later day (the `GregorianDays` day number of its wall date).
    case day(Int)
  }

  /// One group of Scheduled: its heading and its rows.
  public struct Group: Equatable, Sendable {
    /// Which group.
    public var section: Section
    /// The heading: "Overdue", "Today", "Tomorrow", "Thu 10 Dec" (or "10 Dec 2027" in
    /// another year).
    public var title: String
    /// The rows, by due date.
    public var rows: [PlannerRow]
  }

  /// Today: the unchecked items due before the end of today, overdue ones included, by due
  /// date.
  public func today(_ model: DataModel, now: Date) -> [PlannerRow] {
    let clock = ZonedWallClock(timeZone: timeZone)
    let endOfToday = clock.date(days: clock.day(of: now) + 1, hour: 0, minute: 0)
    return rows(model) { $0 < endOfToday }
  }

  /// How many items Today and Scheduled have (the counts on All Lists), in one pass over the
  /// items and without building rows: Scheduled every unchecked item with a due date, Today
  /// those due before the end of today.
  public func counts(_ model: DataModel, now: Date) -> (today: Int, scheduled: Int) {
    let clock = ZonedWallClock(timeZone: timeZone)
    let endOfToday = clock.date(days: clock.day(of: now) + 1, hour: 0, minute: 0)
    var today = 0
    var scheduled = 0
    for list in model.lists where list.uncheckedCount > 0 {
      // Read in place: a copy of each item would retain and release all its texts.
      list.items.withUnsafeBufferPointer { items in
        for index in items.indices where !items[index].checked && items[index].showsDueDate {
          scheduled += 1
          if items[index].dueDate < endOfToday { today += 1 }
        }
      }
    }
    return (today, scheduled)
  }

  /// Scheduled: every unchecked item with a due date, grouped Overdue, Today, Tomorrow, then
  /// one group per later day; empty groups are left out.
  public func scheduled(_ model: DataModel, now: Date) -> [Group] {
    let clock = ZonedWallClock(timeZone: timeZone)
    let today = clock.day(of: now)
    let formatter = DueDateFormatter(timeZone: timeZone)
    var groups: [Group] = []
    // Rows come by due date: the day is looked up only when a row passes the next midnight.
    var day = today
    var nextMidnight = clock.date(days: today + 1, hour: 0, minute: 0)
    for row in rows(model, { _ in true }) {
      let due = row.item.dueDate
      let section: Section
      if due < now {
        section = .overdue
      } else {
        if due >= nextMidnight {
          day = clock.day(of: due)
          nextMidnight = clock.date(days: day + 1, hour: 0, minute: 0)
        }
        section = day <= today ? .today : day == today + 1 ? .tomorrow : .day(day)
      }
      if groups.last?.section == section {
        groups[groups.count - 1].rows.append(row)
        continue
      }
      let title: String
      switch section {
      case .overdue: title = "Overdue"
      case .today: title = "Today"
      case .tomorrow: title = "Tomorrow"
      case .day: title = formatter.day(due, now: now)
      }
      groups.append(Group(section: section, title: title, rows: [row]))
    }
    return groups
  }

  private func rows(_ model: DataModel, _ keep: (Date) -> Bool) -> [PlannerRow] {
    var found: [PlannerRow] = []
    for (listIndex, list) in model.lists.enumerated() where list.uncheckedCount > 0 {
      for (itemIndex, item) in list.items.enumerated()
      where !item.checked && item.showsDueDate && keep(item.dueDate) {
        found.append(
          PlannerRow(
            listID: list.id, listIndex: listIndex, listName: list.name, itemIndex: itemIndex,
            item: item))
      }
    }
    // Sorted by small keys, not by moving rows: ties keep list and item order.
    var keys: [(time: Double, row: Int32)] = []
    keys.reserveCapacity(found.count)
    for (index, row) in found.enumerated() {
      keys.append(
        (row.item.dueDate.timeIntervalSinceReferenceDate, Int32(truncatingIfNeeded: index)))
    }
    keys.sort { $0.time < $1.time || ($0.time == $1.time && $0.row < $1.row) }
    return keys.map { found[Int($0.row)] }
  }
}
