import Testing

@testable import ChecklistsTerminal

/// The terminal's own notification: which sequence a terminal takes, and what is sent.
@Suite struct TerminalNotificationTests {
  @Test func eachTerminalGetsTheSequenceItTakes() {
    func kind(_ environment: [String: String]) -> TerminalNotification.Kind? {
      TerminalNotification.kind(environment: environment)
    }
    #expect(kind(["TERM": "xterm-kitty"]) == .kitty)
    #expect(kind(["TERM": "tmux-256color", "KITTY_WINDOW_ID": "1"]) == .kitty)
    #expect(kind(["TERM": "foot"]) == .osc777)
    #expect(kind(["TERM": "rxvt-unicode-256color"]) == .osc777)
    #expect(kind(["TERM": "xterm-256color", "VTE_VERSION": "7600"]) == .osc777)
    #expect(kind(["TERM": "xterm-ghostty"]) == .osc777)
    #expect(kind(["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"]) == .osc9)
    #expect(kind(["TERM": "xterm-256color"]) == .osc9)
    #expect(kind(["TERM": "linux"]) == nil)
    #expect(kind(["TERM": "vt100"]) == nil)
    #expect(kind(["TERM": "dumb"]) == nil)
  }

  @Test func theSequencesCarryTitleAndBody() {
    func text(_ kind: TerminalNotification.Kind, tmux: Bool = false) -> String {
      String(
        decoding: TerminalNotification.sequence(
          title: "Reminder", body: "Pay rent (Bills)", kind: kind, throughTmux: tmux),
        as: UTF8.self)
    }
    #expect(text(.osc9) == "\u{1B}]9;Reminder: Pay rent (Bills)\u{1B}\\")
    #expect(text(.osc777) == "\u{1B}]777;notify;Reminder;Pay rent (Bills)\u{1B}\\")
    #expect(
      text(.kitty)
        == "\u{1B}]99;i=checklists:d=0;Reminder\u{1B}\\"
        + "\u{1B}]99;i=checklists:p=body;Pay rent (Bills)\u{1B}\\")
    // tmux's passthrough: every ESC doubled inside `ESC P tmux; … ESC \`.
    #expect(
      text(.osc9, tmux: true)
        == "\u{1B}Ptmux;\u{1B}\u{1B}]9;Reminder: Pay rent (Bills)\u{1B}\u{1B}\\\u{1B}\\")
  }

  @Test func controlCharactersFromTheDataNeverReachTheTerminal() {
    let bytes = TerminalNotification.sequence(
      title: "Re;minder", body: "Pay\u{1B}]0;owned\u{07} rent\nnow\u{9B}2J", kind: .osc777,
      throughTmux: false)
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(text == "\u{1B}]777;notify;Re,minder;Pay]0;owned rent now2J\u{1B}\\")
    #expect(bytes.filter { $0 == 0x1B }.count == 2)
    #expect(TerminalNotification.clean(String(repeating: "é", count: 500), limit: 400).count == 400)
  }
}
