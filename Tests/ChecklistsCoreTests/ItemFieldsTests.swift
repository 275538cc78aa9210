import Foundation
import Testing

@testable import ChecklistsCore

@Suite struct ItemFieldsTests {
  let day = Date(timeIntervalSince1970: 1_800_000_000)

  func item() -> ChecklistItem {
    var item = ChecklistItem(text: "Milk", dueDate: day, hasDueDate: true, itemID: 7)
    item.note = "oat"
    item.repeatRule = .weekly
    return item
  }

  @Test func copiesAnItemsFieldsAndBackUnchanged() {
    let item = item()
    let fields = ItemFields(item)
    #expect(fields.text == "Milk" && fields.note == "oat" && fields.repeatRule == .weekly)
    #expect(fields.shownDueDate == day && !fields.remind && fields.photo == nil)
    #expect(fields.applied(to: item, since: fields) == item)
  }

  @Test func writesOnlyWhatChangedAndKeepsChangesMadeElsewhere() {
    let opened = ItemFields(item())
    var edited = opened
    edited.text = "Oat milk"
    // Elsewhere meanwhile: the note and the repeat changed.
    var elsewhere = item()
    elsewhere.note = "two cartons"
    elsewhere.repeatRule = .daily
    let saved = edited.applied(to: elsewhere, since: opened)
    #expect(saved.text == "Oat milk")
    #expect(saved.note == "two cartons" && saved.repeatRule == .daily)
  }

  @Test func theDueDateAndRemindMeGoTogether() {
    let opened = ItemFields(item())
    var edited = opened
    edited.remind = true
    edited.reminderLead = ReminderLead(minutes: 15)
    let later = day.addingTimeInterval(3600)
    edited.dueDate = later
    let saved = edited.applied(to: item(), since: opened)
    #expect(saved.shouldRemind && saved.dueDate == later && saved.hasDueDate)
    #expect(saved.reminderLead.minutes == 15)
    // Removing the due date keeps the stored date: the file needs one.
    var undated = opened
    undated.hasDueDate = false
    let removed = undated.applied(to: item(), since: opened)
    #expect(!removed.showsDueDate && removed.dueDate == day)
  }

  @Test func aStoredPriorityStaysUntilTheLevelChangesAndTagsWriteWhenChanged() {
    var stored = item()
    stored.priority = 3
    stored.tags = ["work"]
    let opened = ItemFields(stored)
    #expect(opened.priority == .high && opened.tags == ["work"])
    // Unchanged: 3 stays; another field changed elsewhere stays too.
    var elsewhere = stored
    elsewhere.tags = ["work", "home"]
    var edited = opened
    edited.text = "Oat milk"
    let saved = edited.applied(to: elsewhere, since: opened)
    #expect(saved.priority == 3 && saved.tags == ["work", "home"])
    // Changed: the level's number, and the tags as given.
    edited.priority = .medium
    edited.tags = ["errands"]
    let changed = edited.applied(to: stored, since: opened)
    #expect(changed.priority == 5 && changed.tags == ["errands"])
  }
}
