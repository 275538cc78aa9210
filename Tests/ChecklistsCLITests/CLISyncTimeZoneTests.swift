import ChecklistsCore
import ChecklistsTestSupport
import Foundation
import Testing

/// `checklists sync` run with `TZ` set far from the zones the tasks name: each due date is the
/// instant its file means, not that wall time on the local clock.
@Suite("CLI: sync reads other producers' zones whatever TZ says")
struct CLISyncTimeZoneTests {
  @Test(arguments: [
    ("thunderbird-mozilla-tzid.ics", 1_796_889_600),  // 09:00 in Berlin, 08:00 UTC
    ("evolution-softwarestudio-tzid.ics", 1_797_350_400),  // 17:00 in Douala, 16:00 UTC
    ("outlook-windows-tzid.ics", 1_784_118_600),  // 14:30 in W. Europe summer, 12:30 UTC
    ("exchange-windows-tzid-without-vtimezone.ics", 1_796_079_600),  // 10:00 in Sydney
  ])
  func aDueDateIsTheInstantItsZoneSays(file: String, instant: Int) throws {
    let sandbox = CLITestSandbox()
    defer { sandbox.remove() }
    try sandbox.writeData([Checklist(name: "Home")])
    let folder = sandbox.root + "/vdir/foreign"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let source = BuiltBinary.repositoryRoot + "/Tests/Fixtures/foreign-tasks/" + file
    try FileManager.default.copyItem(atPath: source, toPath: folder + "/" + file)
    try Data("Foreign\n".utf8).write(to: URL(fileURLWithPath: folder + "/displayname"))
    for zone in ["Pacific/Kiritimati", "Pacific/Pago_Pago"] {
      let run = try sandbox.run("sync", "--vdir", sandbox.root + "/vdir", extra: ["TZ": zone])
      #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
      let list = try #require(try sandbox.lists().first { $0.name == "Foreign" })
      let item = try #require(list.items.first)
      #expect(item.hasDueDate && Int(item.dueDate.timeIntervalSince1970) == instant, "TZ=\(zone)")
    }
  }
}
