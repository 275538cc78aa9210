import ChecklistsCore
import ChecklistsTestSupport
import Foundation
import Testing

@testable import ChecklistsCLI

/// `checklists snooze LIST ITEM [DURATION]` on a fixed clock: the shared record it writes.
@Suite("CLI: snooze") struct CLISnoozeTests {
  static let now = "2026-12-04T12:00:00Z"
  static let nowDate = Date(timeIntervalSince1970: 1_796_385_600)

  static func write(_ sandbox: CLITestSandbox) throws {
    let items = [
      ChecklistItem(
        text: "Pay rent", checked: false, dueDate: nowDate - 60, shouldRemind: true, itemID: 1),
      ChecklistItem(
        text: "Later", checked: false, dueDate: nowDate + 3600, shouldRemind: true, itemID: 2),
      ChecklistItem(
        text: "Quiet", checked: false, dueDate: nowDate - 60, shouldRemind: false, itemID: 3),
    ]
    try sandbox.writeData([Checklist(name: "Home", items: items)])
  }

  static func state(_ sandbox: CLITestSandbox) throws -> ChecklistsState {
    let folder = sandbox.root + "/state/checklists"
    let name = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).first)
    return try JSONDecoder().decode(
      ChecklistsState.self, from: Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
  }

  @Test func snoozesForTenMinutesOrTheDurationGiven() throws {
    let sandbox = CLITestSandbox()
    defer { sandbox.remove() }
    try Self.write(sandbox)
    let clock = ["CHECKLISTS_NOW": Self.now]
    let first = sandbox.call("snooze", "Home", "Pay rent", extra: clock)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout == "Snoozed \"Pay rent\" in Home until Fri 4 Dec 2026, 12:10.\n")
    let key = "1@\(1_796_385_540)"
    #expect(try Self.state(sandbox).snoozed == [key: 1_796_386_200])
    #expect(try Self.state(sandbox).notified == [key])
    let longer = sandbox.call("snooze", "Home", "Pay rent", "2h", extra: clock)
    #expect(longer.stdout == "Snoozed \"Pay rent\" in Home until Fri 4 Dec 2026, 14:00.\n")
    #expect(try Self.state(sandbox).snoozed == [key: 1_796_392_800])
  }

  @Test func refusesWhatHasNoReminderThatCame() throws {
    let sandbox = CLITestSandbox()
    defer { sandbox.remove() }
    try Self.write(sandbox)
    let clock = ["CHECKLISTS_NOW": Self.now]
    let later = sandbox.call("snooze", "Home", "Later", extra: clock)
    #expect(later.status == 1)
    #expect(
      later.stderr
        == "checklists: the reminder of \"Later\" in Home has not come yet (Fri 4 Dec 2026, 13:00); nothing to snooze\n"
    )
    let quiet = sandbox.call("snooze", "Home", "Quiet", extra: clock)
    #expect(
      quiet.stderr
        == "checklists: \"Quiet\" in Home has no reminder to snooze (Remind Me is off)\n")
    let bad = sandbox.call("snooze", "Home", "Pay rent", "soon", extra: clock)
    #expect(bad.status == 2)
    #expect(
      bad.stderr.hasPrefix("checklists: DURATION is a duration like 10m, 2h, 1d, not \"soon\""))
  }
}
