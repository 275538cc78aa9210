import ChecklistsCore
import Foundation

/// Decides when reminders fire: each unchecked item with Remind Me on fires once, when its due
/// date passes while the app runs (a due date already past when set or loaded does not fire).
struct ReminderTracker {
  /// A reminder that fired.
  struct Fired: Equatable {
    var listID: Checklist.ID
    var itemID: Int
    var text: String
    var listName: String
  }

  private struct Key: Hashable {
    var itemID: Int
    var dueDate: Date
  }

  /// Reminders due in (`lastCheck`, now] fire at the next check.
  private(set) var lastCheck: Date
  /// No reminder falls due before this (it may be early, never late); nil when none is pending.
  private(set) var nextDue: Date?
  private var fired: Set<Key> = []

  init(model: DataModel, now: Date) {
    lastCheck = now
    nextDue = Self.earliest(in: model, after: now)
  }

  /// Fires the reminders that fell due since the last check; O(1) when none is due.
  mutating func advance(model: DataModel, now: Date) -> [Fired] {
    guard let next = nextDue, next <= now else {
      if now > lastCheck { lastCheck = now }
      return []
    }
    var result: [Fired] = []
    for list in model.lists {
      for item in list.items
      where item.shouldRemind && !item.checked && item.dueDate > lastCheck && item.dueDate <= now {
        if fired.insert(Key(itemID: item.itemID, dueDate: item.dueDate)).inserted {
          result.append(
            Fired(listID: list.id, itemID: item.itemID, text: item.text, listName: list.name))
        }
      }
    }
    if now > lastCheck { lastCheck = now }
    nextDue = Self.earliest(in: model, after: now)
    return result
  }

  /// Takes note of a change that may add a pending reminder.
  mutating func note(_ change: ModelChange, now: Date) {
    switch change {
    case .insertItem(_, _, let item), .replaceItem(_, _, _, let item):
      consider(item)
    case .insertList(let list):
      for item in list.items { consider(item) }
    case .deleteItem, .deleteList, .editList, .moveItem:
      break
    }
  }

  private mutating func consider(_ item: ChecklistItem) {
    guard item.shouldRemind, !item.checked, item.dueDate > lastCheck else { return }
    if let next = nextDue, next <= item.dueDate { return }
    nextDue = item.dueDate
  }

  private static func earliest(in model: DataModel, after now: Date) -> Date? {
    var best: Date?
    for list in model.lists {
      for item in list.items where item.shouldRemind && !item.checked && item.dueDate > now {
        if best.map({ item.dueDate < $0 }) ?? true { best = item.dueDate }
      }
    }
    return best
  }
}

extension ChecklistsApp {
  /// Fires due reminders: a status line message and a bell (unless the bell is off).
  mutating func fireReminders(now: Date) -> [Effect] {
    let fired = reminders.advance(model: dataModel, now: now)
    guard let last = fired.last else { return [] }
    lastReminder = (last.listID, last.itemID)
    var text = "\(glyphs.reminder) Reminder: \(quoted(last.text)) (\(last.listName))"
    if fired.count > 1 { text += " and \(fired.count - 1) more" }
    text += " \(glyphs.dash) r shows it"
    status = StatusMessage(text: text, isError: false)
    return options.bellEnabled ? [.bell] : []
  }
}
