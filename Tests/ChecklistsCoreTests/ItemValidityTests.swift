import Foundation
import Testing

@testable import ChecklistsCore

@Suite struct ItemValidityTests {
  @Test func textMustShowSomethingWhenJudged() {
    #expect(ItemValidity(text: "Milk").problem == nil)
    for blank in ["", " \n\r\t", "\u{200D}\u{1B}"] {
      #expect(ItemValidity(text: blank).problem == .emptyText)
    }
    // Text not given (or unchanged) is not judged: a task synced without a title keeps it.
    #expect(ItemValidity(text: nil).problem == nil)
  }

  @Test func remindRepeatAndLeadNeedADueDate() {
    #expect(ItemValidity(text: "A", remind: true).problem == .remindNeedsDueDate)
    #expect(ItemValidity(text: "A", repeats: true).problem == .repeatNeedsDueDate)
    #expect(ItemValidity(text: "A", lead: true).problem == .leadNeedsDueDate)
    #expect(
      ItemValidity(text: "A", hasDueDate: true, remind: true, repeats: true, lead: true).problem
        == nil)
  }

  /// The first rule broken wins: text, Remind Me, repeat, lead time.
  @Test func theFirstRuleBrokenIsTheOneNamed() {
    #expect(
      ItemValidity(text: " ", remind: true, repeats: true, lead: true).problem == .emptyText)
    #expect(
      ItemValidity(text: "A", remind: true, repeats: true, lead: true).problem
        == .remindNeedsDueDate)
    #expect(ItemValidity(repeats: true, lead: true).problem == .repeatNeedsDueDate)
    #expect(throws: ItemValidityError.leadNeedsDueDate) { try ItemValidity(lead: true).check() }
  }

  /// The words each place has always used.
  @Test func messagesFollowWhereTheItemWasGiven() {
    let path = #"bad.json: list 1 ("D"), item 1"#
    #expect(ItemValidityError.emptyText.message(for: .itemForm) == "The item needs some text")
    #expect(
      ItemValidityError.remindNeedsDueDate.message(for: .itemForm) == "Remind Me needs a due date")
    #expect(
      ItemValidityError.repeatNeedsDueDate.message(for: .itemForm) == "Repeat needs a due date")
    #expect(ItemValidityError.emptyText.message(for: .addCommand) == "the item text is empty")
    #expect(ItemValidityError.emptyText.message(for: .editCommand) == "the item text is empty")
    #expect(
      ItemValidityError.remindNeedsDueDate.message(for: .addCommand)
        == "--remind needs --due DATE")
    #expect(
      ItemValidityError.repeatNeedsDueDate.message(for: .editCommand)
        == "--repeat needs a due date: give --due DATE too")
    #expect(
      ItemValidityError.leadNeedsDueDate.message(for: .addCommand)
        == "--remind-before needs --due DATE")
    #expect(
      ItemValidityError.leadNeedsDueDate.message(for: .editCommand)
        == "--remind-before needs a due date: give --due DATE too")
    #expect(
      ItemValidityError.repeatNeedsDueDate.message(for: .importedItem(path: path))
        == #"bad.json: list 1 ("D"), item 1: "repeat" needs a due date: give "dueDate" too"#)
    #expect(
      ItemValidityError.leadNeedsDueDate.message(for: .importedItem(path: path))
        == #"bad.json: list 1 ("D"), item 1: "remindBefore" needs a due date: give "dueDate" too"#
    )
  }

  @Test func removingTheDueDateTakesWhatNeedsIt() {
    var item = ChecklistItem(
      text: "Water plants", dueDate: Date(timeIntervalSince1970: 1_800_000_000),
      shouldRemind: true, hasDueDate: true, itemID: 1)
    item.repeatRule = .weekly
    item.repeatAnchorDay = 31
    item.reminderLead = ReminderLead(minutes: 15)
    item.note = "kept"
    item.removeDueDate()
    #expect(!item.showsDueDate)
    #expect(item.repeatRule == nil && item.repeatAnchorDay == nil)
    #expect(item.reminderLead.isNone)
    #expect(item.unknownFields == [.note: .string("kept")])
    #expect(item.dueDate == Date(timeIntervalSince1970: 1_800_000_000))
  }

  /// A rule this version cannot read (from a newer one) stays for the version that wrote it.
  @Test func removingTheDueDateKeepsAnUnreadableRule() {
    var item = ChecklistItem(text: "A", hasDueDate: true, itemID: 1)
    item.unknownFields[.repeatRule] = .string("every full moon")
    item.removeDueDate()
    #expect(item.unknownFields[.repeatRule] == .string("every full moon"))
  }
}
