import ChecklistsCore
import Foundation
import Testing

@testable import ChecklistsUI

/// The item form's early reminder: `+` and `-` on the Remind Me row step the lead time, shown
/// beside the switch, saved as the item's `reminderLead`.
@Suite struct ItemFormLeadTests {
  func itemForm(_ app: ChecklistsApp) -> ItemFormScreen? {
    if let form = app.itemForm { return form }
    return nil
  }

  /// Home: "Bins", due 30 minutes after `testNow`, with Remind Me off and the lead `lead`.
  func homeModel(lead: Int = 0) -> DataModel {
    var bins = item("Bins", dueInMinutes: 30, id: 1)
    bins.hasDueDate = true
    bins.reminderLead = ReminderLead(minutes: lead)
    return DataModel(lists: [Checklist(name: "Home", iconName: "Chores", items: [bins])])
  }

  @Test func plusStepsTheLeadTimeTurnsRemindMeOnAndDoneSavesIt() throws {
    var app = makeApp(homeModel(), checklistIndex: 0, width: 80, height: 16)
    app.press(.character("e"), .tab, .tab)
    #expect(itemForm(app)?.focus == .remind)
    #expect(app.screen().contains("Space switch  Enter done  Esc cancel  Right/Left earlier/later"))
    app.press(.character("+"))
    #expect(itemForm(app)?.remind == true)
    #expect(itemForm(app)?.reminderLead == ReminderLead(minutes: 5))
    app.press(.right)
    #expect(itemForm(app)?.reminderLead == ReminderLead(minutes: 15))
    #expect(
      app.screen() == """
         Edit Item                                                                 Home

         Text      Bins

         Notes

         Remind Me ● On  15 min before

         Due Date  2027-01-15 08:40
                   → Fri 15 Jan 2027, 08:40

         Repeat    Never

         Priority  None

        Space switch  Enter done  Esc cancel  Right/Left earlier/later  ? help
        """)
    app.press(.enter)
    let saved = try #require(app.dataModel.lists.first?.items.first)
    #expect(saved.shouldRemind)
    #expect(saved.reminderLead.minutes == 15)
    #expect(app.statusMessage == "\"Bins\": reminder on; reminds 15 min before")
  }

  @Test func minusWrapsToADayAndBackToTheDueTimeRemovesTheKey() throws {
    var app = makeApp(homeModel(lead: 90), checklistIndex: 0, width: 80, height: 16)
    app.press(.character("e"), .tab, .tab)
    // A lead time set with the CLI (90 minutes) is among the choices, in order.
    #expect(itemForm(app)?.leadChoices.map(\.minutes) == [0, 5, 15, 30, 60, 90, 1440])
    #expect(app.screen().contains("Remind Me ○ Off  90 min before"))
    app.press(.left)
    #expect(itemForm(app)?.reminderLead == ReminderLead(minutes: 60))
    app.press(.left, .left, .left, .left)
    #expect(itemForm(app)?.reminderLead == ReminderLead.none)
    #expect(app.screen().contains("Remind Me ● On  at the due time"))
    app.press(.left)
    #expect(itemForm(app)?.reminderLead == ReminderLead(minutes: 1440))
    app.press(.right)
    app.press(.enter)
    let saved = try #require(app.dataModel.lists.first?.items.first)
    #expect(saved.reminderLead.isNone)
    #expect(saved.unknownFields[.remindBefore] == nil)
  }

  /// Sets Home's first item's lead to `minutes` as another program would, and merges it.
  func changeLeadElsewhere(to minutes: Int, in app: inout ChecklistsApp) throws {
    var model = app.dataModel
    let list = try #require(model.lists.first)
    let old = try #require(list.items.first)
    var new = old
    new.reminderLead = ReminderLead(minutes: minutes)
    _ = model.apply(.replaceItem(listID: list.id, index: 0, old: old, new: new))
    _ = app.handle(
      .mergedFromElsewhere(
        MergedLists(model: model, renumbered: [:], matchesFile: true), message: "merged"),
      now: testNow)
  }

  /// A lead changed elsewhere while the form is open shows in the form when the form left it
  /// alone, and Done keeps it; one changed in the form too keeps the form's, and Done says so.
  @Test func theLeadFollowsAChangeMadeElsewhereUnlessTheFormChangedIt() throws {
    var bins = item("Bins", dueInMinutes: 3 * 1_440, id: 1)
    bins.hasDueDate = true
    bins.shouldRemind = true
    bins.reminderLead = ReminderLead(minutes: 15)
    let model = DataModel(lists: [Checklist(name: "Home", iconName: "Chores", items: [bins])])
    var app = makeApp(model, checklistIndex: 0, width: 80, height: 16)
    app.press(.character("e"))
    try changeLeadElsewhere(to: 60, in: &app)
    #expect(itemForm(app)?.reminderLead == ReminderLead(minutes: 60))
    #expect(app.screen().contains("1 h before"))
    app.press(.enter)
    #expect(app.dataModel.lists.first?.items.first?.reminderLead.minutes == 60)

    app.press(.character("e"), .tab, .tab, .right)
    #expect(itemForm(app)?.reminderLead == ReminderLead(minutes: 1_440))
    try changeLeadElsewhere(to: 5, in: &app)
    #expect(itemForm(app)?.reminderLead == ReminderLead(minutes: 1_440))
    app.press(.enter)
    #expect(app.dataModel.lists.first?.items.first?.reminderLead.minutes == 1_440)
    #expect(
      app.statusMessage?.hasSuffix("(kept yours: early reminder also changed elsewhere)") == true)
  }
}
