import Foundation
import Testing

@testable import ChecklistsCore

@Suite("Config file")
struct ConfigFileTests {
  @Test func readsSettingsBindingsAndComments() {
    let config = ConfigFile.parse(
      """
      # my keys
      set vdir = ~/vdir/checklists   # synced by cron

      bind checklist <C-n> add-item
      \tbind   generic  j   move-down
      bind checklist d none
      """)
    #expect(config.problems.isEmpty)
    #expect(
      config.settings == [ConfigFile.Setting(name: "vdir", value: "~/vdir/checklists", line: 2)])
    #expect(
      config.bindings == [
        ConfigFile.Binding(screen: "checklist", key: "<C-n>", action: "add-item", line: 4),
        ConfigFile.Binding(screen: "generic", key: "j", action: "move-down", line: 5),
        ConfigFile.Binding(screen: "checklist", key: "d", action: "none", line: 6),
      ])
    #expect(config.value(of: .vdir) == "~/vdir/checklists")
  }

  @Test func quotedValuesKeepSpacesAndHashes() {
    let config = ConfigFile.parse(
      """
      set vdir = "/home/me/My Lists #1"
      set vdir='/tmp/a b'
      set vdir="/x/\\"q\\""
      """)
    #expect(config.problems.isEmpty)
    #expect(config.settings.map(\.value) == ["/home/me/My Lists #1", "/tmp/a b", "/x/\"q\""])
    #expect(config.value(of: .vdir) == "/x/\"q\"", "the last line wins")
  }

  @Test func settingSpellingsWithoutSpaces() {
    for line in ["set vdir=/a", "set vdir= /a", "set vdir =/a", "set vdir = /a"] {
      let config = ConfigFile.parse(line)
      #expect(config.problems.isEmpty, "\(line)")
      #expect(config.value(of: .vdir) == "/a", "\(line)")
    }
  }

  @Test func badLinesAreProblemsWithLineNumbersAndTheRestIsRead() {
    let config = ConfigFile.parse(
      "set vdir /a\nbind checklist n\nfrobnicate x\nset colour = red\nset vdir = \"/open\n"
        + "bind lists a add-list\r\n")
    #expect(
      config.problems.map(\.description) == [
        "config line 1: set needs NAME = VALUE, as in 'set vdir = ~/vdir'",
        "config line 2: bind needs SCREEN KEY ACTION, as in 'bind checklist n add-item'",
        "config line 3: unknown command 'frobnicate' (lines start with set or bind)",
        "config line 4: unknown setting 'colour' (known: vdir, images)",
        "config line 5: a quote is not closed",
      ])
    #expect(
      config.bindings == [
        ConfigFile.Binding(screen: "lists", key: "a", action: "add-list", line: 6)
      ])
  }

  /// A path with spaces needs quotes, and the message says so; a setting with a fixed set of
  /// values refuses any other.
  @Test func settingValuesAreChecked() {
    let config = ConfigFile.parse(
      "set vdir = ~/My Tasks\nset vdir = \"~/My Tasks\"\nset images = foo\nset images = Kitty\n")
    #expect(
      config.problems.map(\.description) == [
        "config line 1: set vdir takes one value: put a value with spaces in quotes, as in "
          + "'set vdir = \"~/My Tasks\"'",
        "config line 3: images is one of auto, kitty, sixel, iterm, blocks, text, not 'foo'",
      ])
    #expect(config.value(of: .vdir) == "~/My Tasks")
    #expect(config.value(of: .images) == "Kitty")
  }

  @Test func controlCharactersInMessagesAreEscaped() {
    let config = ConfigFile.parse("\u{1B}[2J x")
    #expect(
      config.problems.first?.message
        == "unknown command '\\u{1b}[2J' (lines start with set or bind)")
  }

  @Test func defaultPathFollowsXDG() {
    #expect(
      ConfigFile.defaultPath(environment: ["XDG_CONFIG_HOME": "/c/", "HOME": "/h"])
        == "/c/checklists/config")
    #expect(
      ConfigFile.defaultPath(environment: ["XDG_CONFIG_HOME": "rel", "HOME": "/h"])
        == "/h/.config/checklists/config")
    #expect(ConfigFile.defaultPath(environment: ["HOME": "/h"]) == "/h/.config/checklists/config")
  }

  @Test func loadingMissingUnreadableAndFolderPaths() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("config-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }

    let missing = ConfigFile.load(path: folder + "/none")
    #expect(
      missing.problems.isEmpty && missing.settings.isEmpty && missing.path == folder + "/none")

    let asFolder = ConfigFile.load(path: folder)
    #expect(asFolder.problems.map(\.description) == ["config: \(folder): it is a folder"])

    let binary = folder + "/binary"
    try Data([0xFF, 0xFE, 0x00]).write(to: URL(fileURLWithPath: binary))
    #expect(ConfigFile.load(path: binary).problems.map(\.message) == ["\(binary): not UTF-8 text"])

    let good = folder + "/config"
    try Data("set vdir = /v\n".utf8).write(to: URL(fileURLWithPath: good))
    let loaded = ConfigFile.load(path: good)
    #expect(loaded.value(of: .vdir) == "/v" && loaded.path == good)
  }
}
