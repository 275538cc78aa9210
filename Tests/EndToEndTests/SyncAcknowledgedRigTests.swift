import ChecklistsCore
import ChecklistsTestSupport
import Foundation
import Testing

extension ServerAndCLIProcesses {
  /// `ACKNOWLEDGED` (RFC 9074) both ways through Radicale and vdirsyncer: a reminder dismissed
  /// on the phone is not delivered here, one dismissed here is dismissed on the phone.
  @Suite("Sync: reminders dismissed on one device are dismissed on the other", .serialized)
  struct SyncAcknowledgedRigTests {
    /// The state file of the rig's data file, as JSON.
    static func state(_ rig: SyncRig) throws -> (path: String, json: [String: Any]) {
      let path = try DataFileLocation.resolve(environment: rig.environment).stateFile
      guard let data = FileManager.default.contents(atPath: path) else { return (path, [:]) }
      return (path, try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any]))
    }

    @Test func acknowledgedOnThePhoneIsDeliveredHereAndDismissedHereReachesThePhone() throws {
      let rig = try SyncRig()
      try rig.startServer()
      try #require(rig.sandbox.run("new-list", "Home").status == 0)
      for text in ["Dentist", "Call mum"] {
        let added = try rig.sandbox.run(
          "add", "Home", text, "--due", "2026-12-03 09:00", "--remind")
        try #require(added.status == 0, "\(added.stderr)")
      }
      let first = try rig.firstRound()
      try #require(first.status == 0, "\(first.stdout)\(first.stderr)")
      try rig.vdirsyncer("sync")
      try rig.startPhone()
      let due = try #require(try rig.sandbox.lists().first?.items.first?.dueDate)
      let key = { (itemID: Int) in "\(itemID)@\(Int(due.timeIntervalSince1970))" }

      // The phone dismisses "Dentist" at 09:01, as Apple writes it.
      try rig.phoneEdit("Dentist", stamp: "20261203T090100Z") { lines in
        guard let trigger = lines.firstIndex(where: { $0.hasPrefix("TRIGGER") }) else { return }
        lines.insert("ACKNOWLEDGED:20261203T090100Z", at: trigger + 1)
      }
      try rig.phoneSync()
      let round = try rig.round()
      #expect(round.status == 0, "\(round.stdout)\(round.stderr)")
      let dentist = try #require(rig.sandbox.lists().first?.items.first { $0.text == "Dentist" })
      #expect((try Self.state(rig).json["notified"] as? [String]) == [key(dentist.itemID)])
      // "Call mum" is dismissed here (what the reminder service records when you close it).
      let call = try #require(rig.sandbox.lists().first?.items.first { $0.text == "Call mum" })
      var (path, json) = try Self.state(rig)
      json["acknowledged"] = [key(call.itemID): Int64(due.timeIntervalSince1970) + 120]
      var notified = json["notified"] as? [String] ?? []
      notified.append(key(call.itemID))
      json["notified"] = notified
      try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: path))
      let again = try rig.round()
      #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
      try rig.phoneSync()
      let phone = try #require(rig.phoneTasks()["Call mum"])
      #expect(phone.contains("ACKNOWLEDGED:20261203T090200Z"), "\(phone)")
      #expect(rig.phoneTasks()["Dentist"]?.filter { $0.hasPrefix("ACKNOWLEDGED") }.count == 1)
      #expect((try Self.state(rig).json["acknowledged"] as? [String: Any] ?? [:]).isEmpty)
      let files = Array(rig.phoneFiles().values) + rig.vdirFiles()
      #expect(try rig.validate(files) == "")
      // Nothing more to write at the next round.
      let before = rig.phoneTasks()
      let quiet = try rig.round()
      #expect(quiet.status == 0)
      try rig.phoneSync()
      #expect(rig.phoneTasks() == before)
    }
  }
}
