import ChecklistsCore
import FoundationEssentials
import Testing

@testable import ChecklistsUI

/// `z` on a reminder that rang: it rings again after the snooze, and the driver is told so
/// that the reminder service delivers it again too.
@Suite struct ReminderSnoozeTests {
  let due = testNow.addingTimeInterval(30 * 60)

  /// The app with "Pay rent" (Groceries) just rung.
  func rung() -> ChecklistsApp {
    var app = makeApp()
    _ = app.handle(.tick, now: testNow)
    _ = app.handle(.tick, now: due)
    return app
  }

  @Test func zSnoozesTheLatestReminderForTenMinutes() {
    var app = rung()
    let effects = app.handle(.key(.character("z")), now: due)
    let until = due.addingTimeInterval(600)
    #expect(effects == [.snoozeReminder(key: "3@\(Int(due.timeIntervalSince1970))", until: until)])
    #expect(app.statusMessage == "Snoozed \"Pay rent\": it reminds again in 10 min")
    #expect(app.nextWakeUp(after: due) == until)
    #expect(app.handle(.tick, now: until.addingTimeInterval(-1)).sounds == [])
    #expect(app.handle(.tick, now: until).sounds == [.bell])
    #expect(app.statusMessage == "⏰ Reminder: \"Pay rent\" (Groceries) — r shows it, z snoozes it")
    // Once: it does not ring again by itself, but it can be snoozed again.
    #expect(app.handle(.tick, now: until.addingTimeInterval(60)).sounds == [])
    let again = app.handle(.key(.character("z")), now: until.addingTimeInterval(60))
    #expect(again.count == 1)
  }

  @Test func nothingToSnoozeBeforeAReminderOrAfterItsItemChanged() {
    var app = makeApp()
    #expect(app.press(.character("z")) == [])
    #expect(app.statusMessage == "No reminder to snooze")
    var checked = rung()
    checked.press(.character("r"), now: due)
    checked.press(.character(" "), now: due)
    #expect(checked.openList?.items[2].checked == true)
    #expect(checked.handle(.key(.character("z")), now: due) == [])
    #expect(checked.statusMessage == "No reminder to snooze")
    // A new due date is a new reminder: the old one's snooze does not apply to it.
    #expect(checked.handle(.tick, now: due.addingTimeInterval(600)).sounds == [])
  }

  @Test func theSnoozeLastsThroughAnUndoOfSomethingElse() {
    var app = rung()
    _ = app.handle(.key(.character("z")), now: due)
    app.press(.character("l"), now: due)
    app.press(.character("d"), now: due)
    app.press(.character("u"), now: due.addingTimeInterval(1))
    #expect(app.handle(.tick, now: due.addingTimeInterval(600)).sounds == [.bell])
  }

  @Test func theReportToTheDriverSaysWhatRangAndWhetherTheWindowHasTheFocus() {
    var app = makeApp()
    _ = app.handle(.tick, now: testNow)
    _ = app.handle(.focusLost, now: testNow)
    let effects = app.handle(.tick, now: due)
    let report = FiredReminders(
      keys: ["3@\(Int(due.timeIntervalSince1970))"],
      lines: [FiredReminders.Line(text: "Pay rent", listName: "Groceries")], focusLost: true)
    #expect(effects == [.bell, .remindersFired(report)])
    var focused = makeApp()
    _ = focused.handle(.tick, now: testNow)
    let seen = focused.handle(.tick, now: due)
    #expect(
      seen.contains(
        .remindersFired(
          FiredReminders(
            keys: report.keys, lines: report.lines, focusLost: false))))
  }

  @Test func theHintNamesTheKeysInForce() {
    let (table, problems) = KeyTable.configured(
      by: ConfigFile.parse("bind browse z none\nbind browse <C-y> snooze-reminder\n"))
    #expect(problems.isEmpty)
    var app = ChecklistsApp(
      model: sampleModel(), options: AppOptions(timeZone: .utc, keys: table), size: (80, 15),
      now: testNow)
    _ = app.handle(.tick, now: testNow)
    _ = app.handle(.tick, now: due)
    #expect(
      app.statusMessage == "⏰ Reminder: \"Pay rent\" (Groceries) — r shows it, Ctrl-Y snoozes it")
    #expect(app.handle(.key(.character("z")), now: due) == [])
    #expect(app.handle(.key(.control("y")), now: due).count == 1)
  }
}
