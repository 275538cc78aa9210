import ChecklistsCore
import ChecklistsTestSupport
import Foundation
import Testing

extension CLITests {
  /// `TZ` as the commands read it: a name, `:name`, a path, a POSIX rule, an unknown name.
  @Suite("CLI: TZ selects the zone dates are read and shown in", .serialized)
  struct CLITimeZoneTests {
    @Test(arguments: [
      ("Asia/Kathmandu", "2026-12-24T12:15:00Z"),
      (":America/New_York", "2026-12-24T23:00:00Z"),
      ("/usr/share/zoneinfo/Australia/Sydney", "2026-12-24T07:00:00Z"),
      ("<+0545>-5:45", "2026-12-24T12:15:00Z"),
      ("EST5EDT,M3.2.0,M11.1.0", "2026-12-24T23:00:00Z"),
      ("Bogus/Zone", "2026-12-24T18:00:00Z"),
    ])
    func aDueDateIsReadAndShownInTheZoneOfTZ(tz: String, instant: String) throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData([Checklist(name: "Home")])
      let environment = ["CHECKLISTS_NOW": "2026-12-01T11:00:00Z", "TZ": tz]
      let added = sandbox.call(
        "add", "Home", "Party", "--due", "2026-12-24 18:00", extra: environment)
      #expect(added.status == 0, "\(added.stderr)")
      #expect(added.stdout.contains("due Thu 24 Dec 2026, 18:00"), "\(added.stdout)")
      let item = try #require(try sandbox.lists().first?.items.last)
      #expect(item.dueDate == ISO8601DateFormatter().date(from: instant), "TZ=\(tz)")
      let shown = sandbox.call("show", "Home", extra: environment)
      #expect(shown.stdout.contains("due 2026-12-24 18:00"), "\(shown.stdout)")
    }
  }
}
