import ChecklistsCore
import ChecklistsTestSupport
import Foundation
import Testing

extension EndToEndProcesses {
  /// The user's `bind` lines in the real binary: the app in tmux and `keys` / `config --check`.
  @Suite("Keys: the config file's bind lines", .serialized)
  struct KeyConfigTests {
    /// Writes `text` as the config file under `configHome`.
    static func writeConfig(_ text: String, configHome: URL) throws {
      let folder = configHome.appendingPathComponent("checklists")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try text.write(
        to: folder.appendingPathComponent("config"), atomically: true, encoding: .utf8)
    }

    @Test func aReboundKeyWorksInTheAppAndABadLineIsNamed() throws {
      let configHome = FileManager.default.temporaryDirectory.appendingPathComponent(
        "checklists-e2e-config-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: configHome) }
      try Self.writeConfig(
        "bind checklist c toggle\nbind checklist <Space> none\nbind checklist x none\n"
          + "bind checklist n frobnicate\n",
        configHome: configHome)
      let session = try TmuxSession(
        command: shellQuote(try BuiltBinary.existingPath()), width: 160, height: 12,
        environment: ["XDG_CONFIG_HOME": configHome.path, "CHECKLISTS_IMAGES": "svg"])
      defer { session.close() }
      // First run: the app makes "List" and opens it; the bad line is on the status line, and
      // so is the bad image setting, after it (one start notice does not hide another).
      try session.waitFor(text: "config line 4: unknown action 'frobnicate'")
      // Too long for the line: cut, and M shows it whole.
      try session.waitFor(text: "; CHECKLISTS_IMAGES=svg i… M all of it")
      try session.sendKeys("M")
      try session.waitFor("the whole message") {
        $0.contains("Messages, newest last") && $0.contains("iterm, blocks, text; using auto")
      }
      try session.sendKeys("q")
      try session.waitFor(text: "No items yet")
      try session.sendKeys("a")
      try session.waitFor(text: "Add Item")
      try session.type("Milk")
      try session.sendKeys("Enter")
      try session.waitFor(text: "1 of 1 remaining")
      // Any key clears the message; the hint then names the new key; the old one is refused.
      try session.sendKeys("j")
      try session.waitFor(text: "c check")
      try session.sendKeys("Space")
      try session.waitFor(text: "Space: not a key here")
      try session.sendKeys("c")
      try session.waitFor(text: "0 of 1 remaining")
      try session.sendKeys("?")
      // The help screen can reach tmux in more than one write: wait for all of it.
      try session.waitFor("the Checklist help naming the rebound c") {
        $0.contains("Keys: Checklist") && ($0.contains("  c  ") || $0.contains(" c "))
      }
      try session.sendKeys("Escape")
      try session.waitFor(text: "0 of 1 remaining")
      try session.sendKeys("q")
      // Quitting saves with fsync: give a loaded machine time. The pane going dead is the
      // exit: in full-suite runs tmux 3.3a sometimes left its pane_dead_status empty for this
      // pane (the app's own command), so the saved file is what shows the quit saved.
      try session.waitUntil("the app to exit", timeout: 30) { try session.paneIsDead() }
      let file = session.dataHome.appendingPathComponent("checklists/Checklists.plist")
      let saved = try Data(contentsOf: file)
      #expect(String(decoding: saved, as: UTF8.self).contains("Milk"))
    }

    @Test func keysPrintsTheTableInForceAndConfigCheckEveryProblem() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      let configHome = sandbox.root + "/config"
      let extra = ["XDG_CONFIG_HOME": configHome]

      // No file: the defaults, and config --check is clean.
      let clean = try sandbox.run("config", "--check", extra: extra)
      #expect(clean.status == 0)
      #expect(clean.stdout.hasPrefix("config OK: no file at \(configHome)/checklists/config"))

      try KeyConfigTests.writeConfig(
        """
        # keys
        bind checklist <C-n> add-item
        bind checklist d none
        bind checklist n frobnicate
        bind form x done
        set vdir = /tmp/vdir
        """, configHome: URL(fileURLWithPath: configHome))
      let json = try sandbox.run("keys", "--json", extra: extra)
      #expect(json.status == 0)
      let rows = try #require(
        try JSONSerialization.jsonObject(with: json.stdoutBytes) as? [[String: Any]])
      func keys(_ screen: String, _ action: String) -> [String]? {
        rows.first { $0["screen"] as? String == screen && $0["action"] as? String == action }?[
          "keys"] as? [String]
      }
      #expect(keys("checklist", "add-item") == ["a", "<C-n>"])
      #expect(keys("checklist", "delete-item") == ["<Del>"])
      #expect(keys("checklist", "none") == ["d"])
      #expect(keys("generic", "save") == ["<C-s>"])
      #expect(rows.allSatisfy { $0["summary"] is String && $0["label"] is String })
      #expect(json.stderr.contains("config line 4: unknown action 'frobnicate'"))

      let defaults = try sandbox.run("keys", "--defaults", "--json", extra: extra)
      #expect(defaults.stderr.isEmpty)
      #expect(defaults.stdout.contains("\"d\""))

      let text = try sandbox.run("keys", extra: extra)
      #expect(text.status == 0)
      #expect(text.stdout.contains("checklist: a Checklist\n"))

      let check = try sandbox.run("config", "--check", extra: extra)
      #expect(check.status == 1)
      let lines = check.stdout.split(separator: "\n").map(String.init)
      #expect(lines.count == 2)
      #expect(lines.first?.hasPrefix("config line 4: unknown action 'frobnicate'") == true)
      #expect(lines.last?.hasPrefix("config line 5: x on form would shadow typing") == true)

      let bad = try sandbox.run("keys", "--format", "pdf", extra: extra)
      #expect(bad.status == 2)
      #expect(bad.stderr.contains("unknown format \"pdf\""))
    }
  }
}
