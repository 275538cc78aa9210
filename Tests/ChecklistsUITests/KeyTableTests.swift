import ChecklistsCore
import ChecklistsTestSupport
import Foundation
import Testing

@testable import ChecklistsUI

/// The key notation, the default table and the `bind` lines of the config file.
@Suite struct KeyTableTests {
  /// A line that would leave no way out (no key to quit, to finish or cancel a form, to close
  /// help) is refused and not applied; the lines before it stay.
  @Test func noLineTakesAwayTheLastWayOut() {
    let text = """
      bind browse q none
      bind generic <C-c> none
      bind form <Enter> none
      bind form <F2> done
      bind form <Enter> none
      bind help q none
      """
    let (table, problems) = KeyTable.configured(by: ConfigFile.parse(text))
    #expect(
      problems.map(\.description) == [
        "config line 2: <C-c> on generic would leave no key to quit from All Lists (bind "
          + "another key to it first)",
        "config line 3: <Enter> on form would leave no key to finish a form (bind another key "
          + "to it first)",
      ])
    #expect(table.action(for: .character("q"), on: .lists) == nil)
    #expect(table.action(for: .control("c"), on: .lists) == .interrupt)
    #expect(table.action(for: .function(2), on: .form) == .done)
    #expect(table.action(for: .enter, on: .form) == nil)
    #expect(table.action(for: .character("q"), on: .help) == nil)
    #expect(table.lostWayOut() == nil)
  }

  @Test func everyDefaultKeyHasANotationThatReadsBack() {
    for row in KeyTable.defaults.rows {
      for key in row.keys {
        let written = KeyNotation.notation(key)
        #expect(KeyNotation.parse(written) == key, "\(written)")
      }
    }
  }

  @Test func notationReadsNamesInAnyCaseAndRefusesTheRest() {
    let cases: [(String, Key?)] = [
      ("n", .character("n")), ("N", .character("N")), ("+", .character("+")),
      ("日", .character("日")), ("<C-n>", .control("n")), ("<c-N>", .control("n")),
      ("<Down>", .down), ("<down>", .down), ("<PgDn>", .pageDown), ("<PageUp>", .pageUp),
      ("<Enter>", .enter), ("<CR>", .enter), ("<Esc>", .escape), ("<Tab>", .tab),
      ("<S-Tab>", .backTab), ("<Space>", .character(" ")), ("<Hash>", .character("#")),
      ("#", .character("#")), ("<lt>", .character("<")), ("<", .character("<")),
      ("<BS>", .backspace), ("<Del>", .delete), ("<Home>", .home), ("<F1>", .function(1)),
      ("<F12>", .function(12)), ("<C-h>", .backspace), ("<C-m>", .enter), ("<C-i>", .tab),
      ("<F13>", nil), ("<F0>", nil), ("<F01>", nil), ("<C-1>", nil), ("<C-nn>", nil),
      ("<Foo>", nil), ("ab", nil), ("", nil), (" ", nil), ("<>", nil), ("\u{1B}", nil),
    ]
    for (text, key) in cases {
      #expect(KeyNotation.parse(text) == key, "\(text)")
    }
  }

  @Test func defaultsNeverShadowTypingAndEveryActionHasAKey() {
    let table = KeyTable.defaults
    // Every key in force where a text field has the focus, its fallbacks' keys included (the
    // Notes field's own: Ctrl-D leaves it, and no key edits text there that does elsewhere).
    for screen in KeyScreen.allCases where screen.hasTextEntry {
      for row in table.rows where screen.lookupOrder.contains(row.screen) {
        for key in row.keys where table.action(for: key, on: screen) == row.action {
          #expect(
            row.action.givesWayToTyping || !KeyNotation.isTextEditing(key, on: screen),
            "\(screen) \(KeyNotation.notation(key))")
        }
      }
    }
    #expect(KeyNotation.isTextEditing(.control("d"), on: .form))
    #expect(!KeyNotation.isTextEditing(.control("d"), on: .note))
    #expect(KeyNotation.isTextEditing(.control("k"), on: .note))
    #expect(!KeyNotation.isTextEditing(.control("d"), on: .repeat))
    for action in KeyAction.allCases {
      #expect(table.rows.contains { $0.action == action && !$0.keys.isEmpty }, "\(action)")
    }
    for screen in KeyScreen.allCases {
      let keys = table.rows(of: screen).flatMap(\.keys)
      #expect(Set(keys).count == keys.count, "a key twice on \(screen)")
    }
  }

  @Test func keysAreLookedUpOnTheScreenThenItsFallbacks() {
    let table = KeyTable.defaults
    #expect(table.action(for: .character("x"), on: .checklist) == .toggle)
    #expect(table.action(for: .character("j"), on: .checklist) == .next)
    #expect(table.action(for: .control("s"), on: .checklist) == .save)
    #expect(table.action(for: .control("s"), on: .due) == .save)
    #expect(table.action(for: .enter, on: .icon) == .chooseIcon)
    #expect(table.action(for: .enter, on: .remind) == .done)
    #expect(table.action(for: .character("x"), on: .form) == nil)
    #expect(table.action(for: .control("c"), on: .quitPrompt) == .rescueQuit)
    #expect(table.action(for: .control("s"), on: .quitPrompt) == nil)
    #expect(table.keys(for: .help, on: .remind) == [.character("?"), .function(1)])
    #expect(table.keys(for: .help, on: .form) == [.function(1)])
  }

  // MARK: - Config

  func configured(_ text: String) -> (table: KeyTable, problems: [ConfigProblem]) {
    KeyTable.configured(by: ConfigFile.parse(text))
  }

  /// A key bound twice on one screen is a warning naming both lines; the later line is in
  /// force; the same key on another screen is another binding.
  @Test func aKeyBoundTwiceIsAWarningNamingBothLines() {
    let (table, problems) = configured(
      "bind checklist n add-item\nbind browse n filter\n# a comment\nbind checklist n toggle\n"
        + "bind checklist <Space> none\nbind checklist <F2> sort\n")
    #expect(
      problems.map(\.description) == [
        "config line 4: n on checklist is bound twice: line 1 binds it to add-item, line 4 to "
          + "toggle (line 4 is in force)"
      ])
    #expect(table.action(for: .character("n"), on: .checklist) == .toggle)
    #expect(table.action(for: .character("n"), on: .lists) == .filter)
  }

  /// Ctrl-H, -I, -J and -M are Backspace, Tab and Enter to a terminal: binding them is refused
  /// with the key to write instead, and Enter keeps its action.
  @Test func chordsTheTerminalSendsAsOtherKeysAreRefused() {
    let (table, problems) = configured(
      "bind checklist <C-m> toggle-check\nbind browse <C-j> none\nbind form <C-i> next-field\n")
    #expect(
      problems.map(\.description) == [
        "config line 1: <C-m> is the same key as <Enter> to a terminal (it sends the same byte); "
          + "write <Enter> to bind that key",
        "config line 2: <C-j> is the same key as <Enter> to a terminal (it sends the same byte); "
          + "write <Enter> to bind that key",
        "config line 3: <C-i> is the same key as <Tab> to a terminal (it sends the same byte); "
          + "write <Tab> to bind that key",
      ])
    #expect(
      table.action(for: .enter, on: .checklist)
        == KeyTable.defaults.action(for: .enter, on: .checklist))
    #expect(table.action(for: .control("n"), on: .checklist) == nil)
  }

  @Test func bindAddsAKeyAndNoneUnbindsIt() {
    let (table, problems) = configured(
      """
      # my keys
      bind checklist <C-n> add-item
      bind checklist d none
      bind browse j none
      bind lists <C-t> toggle-remind
      """)
    #expect(problems.map(\.line) == [5])
    #expect(table.action(for: .control("n"), on: .checklist) == .addItem)
    #expect(table.action(for: .character("a"), on: .checklist) == .addItem)
    #expect(table.action(for: .character("d"), on: .checklist) == nil)
    #expect(table.action(for: .delete, on: .checklist) == .deleteItem)
    #expect(table.action(for: .character("d"), on: .lists) == .deleteList)
    #expect(table.action(for: .character("j"), on: .checklist) == nil)
    #expect(table.action(for: .character("j"), on: .lists) == nil)
    #expect(table.action(for: .character("j"), on: .help) == .next)
    #expect(table.keys(for: .addItem, on: .checklist) == [.character("a"), .control("n")])
  }

  @Test func rebindingMovesTheKeyFromItsOldAction() {
    let (table, problems) = configured("bind checklist x delete-item\nbind browse x quit\n")
    #expect(problems.isEmpty)
    #expect(table.action(for: .character("x"), on: .checklist) == .deleteItem)
    #expect(table.keys(for: .toggle, on: .checklist) == [.character(" ")])
    // The Checklist's own binding wins over browse's; All Lists has none of its own.
    #expect(table.action(for: .character("x"), on: .lists) == .quit)
    // Unbound then bound again: bound.
    let (again, _) = configured("bind checklist d none\nbind checklist d toggle\n")
    #expect(again.action(for: .character("d"), on: .checklist) == .toggle)
  }

  @Test func badLinesAreProblemsWithTheirLineNumbersAndTheRestApplies() {
    let (table, problems) = configured(
      """
      bind checklist <C-n> add-item
      bind kitchen n add-item
      bind checklist <Ctrl-n> add-item
      bind checklist n frobnicate
      bind lists x toggle
      bind form x done
      bind generic q quit
      bind form <C-u> cancel
      bind checklist n
      launch rockets
      bind due > day-later
      bind form <F2> done
      """)
    let messages = problems.map(\.description)
    #expect(problems.map(\.line) == [2, 3, 4, 5, 6, 7, 8, 9, 10])
    #expect(messages[0].hasPrefix("config line 2: unknown screen 'kitchen' (screens: generic,"))
    #expect(messages[1].hasPrefix("config line 3: '<Ctrl-n>' is not a key"))
    #expect(messages[2].hasPrefix("config line 4: unknown action 'frobnicate'"))
    #expect(
      messages[3] == "config line 5: toggle does nothing on lists (it works on checklist, planner)")
    #expect(messages[4].hasPrefix("config line 6: x on form would shadow typing in a text field"))
    #expect(messages[5].hasPrefix("config line 7: quit does nothing on generic"))
    #expect(messages[6].hasPrefix("config line 8: <C-u> on form would shadow typing"))
    #expect(messages[7].hasPrefix("config line 9: bind needs SCREEN KEY ACTION"))
    #expect(messages[8].hasPrefix("config line 10: unknown command 'launch'"))
    // Good lines around the bad ones are in force.
    #expect(table.action(for: .control("n"), on: .checklist) == .addItem)
    #expect(table.action(for: .character(">"), on: .due) == .dayLater)
    #expect(table.action(for: .function(2), on: .remind) == .done)
    #expect(table.action(for: .character("x"), on: .form) == nil)
  }

  @Test func theStatusLineNamesTheFirstProblemAndCountsTheRest() {
    #expect(ConfigProblem.statusLine(for: []) == nil)
    let one = [ConfigProblem(line: 3, message: "unknown action 'x'")]
    #expect(
      ConfigProblem.statusLine(for: one)
        == "config line 3: unknown action 'x' (the rest of the config is in force)")
    let three = one + [ConfigProblem(line: 5, message: "b"), ConfigProblem(line: 9, message: "c")]
    #expect(
      ConfigProblem.statusLine(for: three)
        == "3 config problems (checklists config --check); config line 3: unknown action 'x'")
  }

  // MARK: - The app follows the table

  @Test func aReboundKeyWorksAndTheOldOneSaysSo() {
    let (table, _) = configured("bind checklist c toggle\nbind checklist x none\n")
    var app = ChecklistsApp(
      model: sampleModel(), checklistIndex: 1,
      options: AppOptions(timeZone: .utc, keys: table), size: (60, 15), now: testNow)
    #expect(app.screen().contains("Space check"))
    app.press(.character("c"))
    #expect(app.openList?.items[0].checked == true)
    app.press(.character("x"))
    #expect(app.openList?.items[0].checked == true)
    #expect(app.statusMessage == "x: not a key here — ? for help")
    app.press(.character("?"))
    #expect(app.screen().contains("Space c "))
  }

  /// The help screen's title names the key that closes it as bound.
  @Test func theHelpTitleNamesItsCloseKeyAsBound() {
    let (table, _) = configured("bind help <Esc> none\n")
    var app = ChecklistsApp(
      model: sampleModel(), checklistIndex: 1,
      options: AppOptions(timeZone: .utc, keys: table), size: (80, 15), now: testNow)
    app.press(.character("?"))
    let title = app.screen().split(separator: "\n").first.map(String.init) ?? ""
    #expect(title.hasSuffix("q closes"), "\(title)")
    #expect(!app.screen().contains("Esc closes"))
  }

  /// Paired rows pair keys of a kind, whatever order the config bound them in; keys that do
  /// not pair up get a row each.
  @Test func helpPairsArrowsWithArrowsAndLettersWithLetters() throws {
    func help(_ config: String) -> [String] {
      let (table, _) = configured(config)
      let app = ChecklistsApp(
        model: sampleModel(), checklistIndex: 1,
        options: AppOptions(timeZone: .utc, keys: table), size: (80, 15), now: testNow)
      return app.helpLines(.checklist, width: 78).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
    }
    for config in ["", "bind browse <Down> next\n", "bind browse <Up> previous\n"] {
      let row = help(config).first { $0.hasSuffix("previous / next row") }
      #expect(row?.hasPrefix("Up/Down k/j ") == true, "\(config): \(String(describing: row))")
    }
    let unpaired = help("bind browse j none\nbind browse <C-n> next\n")
    #expect(!unpaired.contains { $0.hasSuffix("previous / next row") })
    #expect(unpaired.contains { $0.hasPrefix("Down Ctrl-N ") })
  }

  @Test func messagesNameTheKeysInForce() {
    let (table, _) = configured(
      "bind browse u none\nbind browse <C-u> undo\nbind browse ? none\nbind checklist <F2> help\n")
    var app = ChecklistsApp(
      model: sampleModel(), checklistIndex: 1,
      options: AppOptions(timeZone: .utc, keys: table), size: (80, 15), now: testNow)
    app.press(.character("d"))
    #expect(app.statusMessage == "Deleted \"Milk\" (Ctrl-U undoes)", "\(app.screen())")
    app.press(.character("Z"))
    #expect(app.statusMessage == "Z: not a key here — F2 for help")
  }

  @Test func theQuitPromptNamesItsKeys() {
    let (table, _) = configured("bind quit-prompt <F5> retry-save\nbind quit-prompt r none\n")
    var app = ChecklistsApp(
      model: sampleModel(), options: AppOptions(timeZone: .utc, keys: table), size: (100, 15),
      now: testNow)
    _ = app.handle(.quitSaveFailed("disk full"), now: testNow)
    #expect(
      app.screen().contains(
        "Not saved: R retry · w save elsewhere · q quit with a rescue copy · Esc stay"))
    #expect(app.press(.function(5)) == [.quit])
  }
}
