import ChecklistsUI
import Glibc
import Testing

@testable import ChecklistsTerminal

/// The escape and key decoder, fed the tokens curses would deliver, without a terminal.
@Suite struct TerminalInputDecoderTests {
  private func tokens(_ text: String) -> [InputToken] {
    text.unicodeScalars.map { .scalar($0) }
  }

  private func decode(_ text: String) -> [InputEvent] {
    var decoder = InputDecoder()
    return decoder.feed(tokens(text)) + decoder.endOfInput()
  }

  @Test func plainTextBecomesCharacters() {
    #expect(decode("ab") == [.key(.character("a")), .key(.character("b"))])
  }

  @Test func utf8TextAndWideCharacters() {
    #expect(decode("é日🙂") == [.key(.character("é")), .key(.character("日")), .key(.character("🙂"))])
  }

  @Test func combiningMarksJoinThePreviousCharacter() {
    let events = decode("e\u{301}a\u{308}\u{304}")
    #expect(events == [.key(.character("e\u{301}")), .key(.character("a\u{308}\u{304}"))])
  }

  @Test func combiningMarkArrivingInALaterTokenStillJoins() {
    var decoder = InputDecoder()
    var events = decoder.feed(.scalar("e"))
    events += decoder.feed(.scalar("\u{301}"))
    events += decoder.endOfInput()
    #expect(events == [.key(.character("e\u{301}"))])
  }

  @Test func everyMouseReportOfOneReadIsAnEvent() {
    // A double click on a slow link: two presses and two releases in one read.
    let events = decode("\u{1B}[<0;6;5M\u{1B}[<0;6;5m\u{1B}[<0;6;5M\u{1B}[<0;6;5mq")
    let press = InputEvent.mouse(
      MouseEvent(kind: .press, position: GridPosition(row: 4, column: 5)))
    #expect(events == [press, press, .key(.character("q"))])
  }

  @Test func mouseReportsOfEveryKindAndForm() {
    func at(_ kind: MouseEvent.Kind, _ row: Int, _ column: Int) -> InputEvent {
      .mouse(MouseEvent(kind: kind, position: GridPosition(row: row, column: column)))
    }
    // The wheel, a press with Shift (4) or Ctrl (16) held; motions (32), the right button and
    // releases are not events; nor are reports that are not numbers.
    #expect(
      decode("\u{1B}[<64;1;1M\u{1B}[<65;200;300M") == [
        at(.wheelUp, 0, 0), at(.wheelDown, 299, 199),
      ])
    #expect(decode("\u{1B}[<4;2;3M\u{1B}[<16;2;3M") == [at(.press, 2, 1), at(.press, 2, 1)])
    #expect(
      decode("\u{1B}[<32;2;3M\u{1B}[<2;2;3M\u{1B}[<0;2;3m\u{1B}[<;2;3M\u{1B}[<0;2M\u{1B}[<0;0;3M")
        .isEmpty)
    // The older form: ESC [ M and three bytes, each 32 more than button, column and row.
    #expect(decode("\u{1B}[M %$\u{1B}[M#%$\u{1B}[M`%$") == [at(.press, 3, 4), at(.wheelUp, 3, 4)])
  }

  @Test func emojiSequencesStayOneCharacter() {
    #expect(decode("👍🏽🇫🇷") == [.key(.character("👍🏽")), .key(.character("🇫🇷"))])
  }

  @Test func controlChords() {
    #expect(
      decode("\u{01}\u{03}\u{13}\u{1A}") == [
        .key(.control("a")), .key(.control("c")), .key(.control("s")), .key(.control("z")),
      ])
  }

  @Test func tabEnterAndBackspaceAreNotChords() {
    #expect(
      decode("\t\r\n\u{7F}\u{08}") == [
        .key(.tab), .key(.enter), .key(.enter), .key(.backspace), .key(.backspace),
      ])
  }

  @Test func otherControlCodesAreDropped() {
    #expect(decode("\u{00}\u{1C}x\u{85}") == [.key(.character("x"))])
  }

  @Test func loneEscapeAtEndOfInput() {
    var decoder = InputDecoder()
    #expect(decoder.feed(.scalar("\u{1B}")).isEmpty)
    #expect(decoder.endOfInput() == [.key(.escape)])
  }

  @Test func twoEscapesAreTwoEscapeKeys() {
    #expect(decode("\u{1B}\u{1B}") == [.key(.escape), .key(.escape)])
  }

  @Test func altChordsAreDropped() {
    #expect(decode("\u{1B}xy") == [.key(.character("y"))])
  }

  @Test func escapeBeforeADecodedKeyIsDropped() {
    var decoder = InputDecoder()
    let events = decoder.feed([.scalar("\u{1B}"), .key(.up), .key(.down)])
    #expect(events == [.key(.down)])
  }

  @Test func unknownSequencesAreDropped() {
    #expect(
      decode("\u{1B}[12;5Xa\u{1B}[99~b\u{1B}OZc") == [
        .key(.character("a")), .key(.character("b")), .key(.character("c")),
      ])
  }

  @Test func focusReports() {
    #expect(decode("\u{1B}[I\u{1B}[O") == [.focusGained, .focusLost])
  }

  @Test func cursorSequencesCursesDidNotDecode() {
    #expect(
      decode("\u{1B}[A\u{1B}[1;5B\u{1B}OC\u{1B}[3~\u{1B}[5~\u{1B}OP\u{1B}[Z") == [
        .key(.up), .key(.down), .key(.right), .key(.delete), .key(.pageUp), .key(.function(1)),
        .key(.backTab),
      ])
  }

  @Test func bracketedPasteIsOneEvent() {
    let events = decode("x\u{1B}[200~hello\r\nworld\ttab\u{1B}[201~y")
    #expect(
      events == [
        .key(.character("x")), .paste("hello\nworld\ttab"), .key(.character("y")),
      ])
  }

  @Test func pasteSpanningSeveralReads() {
    var decoder = InputDecoder()
    var events = decoder.feed(tokens("\u{1B}[200~ab"))
    events += decoder.endOfInput()
    #expect(events.isEmpty)
    #expect(decoder.isWaitingForMore)
    events += decoder.feed(tokens("c\u{1B}[20"))
    events += decoder.endOfInput()
    events += decoder.feed(tokens("1~"))
    #expect(events == [.paste("abc")])
    #expect(!decoder.isWaitingForMore)
  }

  @Test func pasteKeepsControlCharactersOut() {
    #expect(decode("\u{1B}[200~a\u{07}b\u{1B}xc\u{1B}[201~") == [.paste("abxc")])
  }

  @Test func pasteDoesNotRunKeyBindings() {
    #expect(decode("\u{1B}[200~q\u{03}\u{1A}\u{1B}[201~") == [.paste("q")])
  }

  @Test func unfinishedPasteIsDeliveredWhenItExpires() {
    var decoder = InputDecoder()
    _ = decoder.feed(tokens("\u{1B}[200~partial"))
    #expect(decoder.expire() == [.paste("partial")])
    #expect(decode("z") == [.key(.character("z"))])
  }

  @Test func unfinishedSequenceIsDroppedWhenItExpires() {
    var decoder = InputDecoder()
    _ = decoder.feed(tokens("\u{1B}[12"))
    #expect(decoder.isWaitingForMore)
    #expect(decoder.expire().isEmpty)
    #expect(decoder.feed(tokens("3")) + decoder.endOfInput() == [.key(.character("3"))])
  }

  @Test func decodedKeysAndEventsPassThrough() {
    var decoder = InputDecoder()
    let mouse = MouseEvent(kind: .press, position: GridPosition(row: 2, column: 3))
    let events = decoder.feed([
      .scalar("a"), .key(.pageDown), .event(.mouse(mouse)), .event(.resize(width: 80, height: 24)),
    ])
    #expect(
      events == [
        .key(.character("a")), .key(.pageDown), .mouse(mouse), .resize(width: 80, height: 24),
      ])
  }

  @Test func modifiedCursorKeysByCursesName() {
    #expect(CursesKeys.modifiedKey(name: "kUP5") == .up)
    #expect(CursesKeys.modifiedKey(name: "kRIT3") == .right)
    #expect(CursesKeys.modifiedKey(name: "kxIN") == nil)
    #expect(CursesKeys.modifiedKey(name: "kUP") == nil)
  }

  @Test func cellTextNeverCarriesControlCharacters() {
    #expect(CellText.scalars(for: "a\u{1B}\u{7F}\u{9B}") == ["a", "?", "?", "?"])
    #expect(CellText.scalars(for: "") == [" "])
    #expect(CellText.scalars(for: "e\u{301}") == ["e", "\u{301}"])
    #expect(
      CellText.scalars(for: "e\u{301}\u{302}\u{303}\u{304}\u{305}").count == CellText.maximumScalars
    )
    // A joined sequence keeps what comes before its first joiner, never a joiner at the end.
    #expect(CellText.scalars(for: "👨‍👩‍👧‍👦") == ["👨"])
    #expect(CellText.scalars(for: "🏳️‍🌈") == ["🏳", "\u{FE0F}"])
    // Drawn whole where the terminal draws the kind of sequence in two columns.
    #expect(CellText.wholeSequence("👩‍💻", drawn: .joined) == ["👩", "\u{200D}", "💻"])
    #expect(CellText.wholeSequence("👩‍💻", drawn: .modifiers) == nil)
    #expect(CellText.wholeSequence("👍🏽", drawn: .modifiers) == ["👍", "\u{1F3FD}"])
    #expect(CellText.wholeSequence("👍🏽", drawn: .joined) == nil)
    #expect(CellText.wholeSequence("👩🏽‍💻", drawn: .joined) == nil)
    #expect(CellText.wholeSequence("👩🏽‍💻", drawn: [.joined, .modifiers])?.count == 4)
    #expect(CellText.wholeSequence("👨‍👩‍👧‍👦", drawn: .joined) == nil)  // 7 scalars
    #expect(CellText.wholeSequence("🇫🇷", drawn: [.joined, .modifiers]) == nil)
    #expect(CellText.wholeSequence("e\u{301}", drawn: .joined) == nil)
    #expect(
      EmojiSequences.drawnWhole(environment: ["TMUX": "/tmp/s,1,0", "TERM": "xterm-kitty"])
        == .joined)
    #expect(EmojiSequences.drawnWhole(environment: ["TERM": "xterm-kitty"]) == .modifiers)
    #expect(EmojiSequences.drawnWhole(environment: ["TERM": "xterm-256color"]).isEmpty)
  }

  /// The stack buffer a cell is written from holds what `scalars(for:)` gives, zero-terminated.
  @Test(arguments: ["a", "", "a\u{1B}\u{7F}\u{9B}", "e\u{301}", "👨‍👩‍👧‍👦", "日", "\u{0}", "abcdefgh"])
  func cellTextFillsTheSameScalarsWithoutAllocating(text: String) {
    let expected = CellText.scalars(for: text).map { wchar_t(bitPattern: $0.value) }
    let written = withUnsafeTemporaryAllocation(
      of: wchar_t.self, capacity: CellText.maximumScalars + 1
    ) { buffer in
      buffer.initialize(repeating: 0x7E)
      let count = CellText.fill(buffer, with: text)
      return (Array(buffer[0..<count]), buffer[count])
    }
    #expect(written.0 == expected)
    #expect(written.1 == 0)
  }
  // MARK: - The terminal's answers to the graphics query

  /// A decoder after the graphics query was sent.
  private func asked() -> InputDecoder {
    var decoder = InputDecoder()
    decoder.expectsAnswers = true
    return decoder
  }

  @Test func kittyAnswerAndDeviceAttributesAreKeptAsideNeverTyped() {
    var decoder = asked()
    let answer = "\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;4;22c"
    let events = decoder.feed(tokens(answer + "x")) + decoder.endOfInput()
    #expect(events == [.key(.character("x"))])
    #expect(decoder.terminalAnswers == Array(answer.utf8))
    #expect(decoder.deviceAttributesArrived)
  }

  @Test func answersSplitOverReadsAndKeysAroundThem() {
    var decoder = asked()
    var events = decoder.feed(tokens("a\u{1B}_Gi=31;ENOTSUP"))
    #expect(decoder.isWaitingForMore)
    #expect(!decoder.deviceAttributesArrived)
    events += decoder.feed(tokens(":no\u{1B}"))
    events += decoder.feed(tokens("\\\u{1B}[?1;2"))
    #expect(!decoder.deviceAttributesArrived)
    events += decoder.feed(tokens("c\u{1B}[A"))
    events += decoder.endOfInput()
    #expect(events == [.key(.character("a")), .key(.up)])
    #expect(decoder.deviceAttributesArrived)
    #expect(decoder.terminalAnswers == Array("\u{1B}_Gi=31;ENOTSUP:no\u{1B}\\\u{1B}[?1;2c".utf8))
  }

  @Test func anAnswerEndedByBellCountsAsEndedByST() {
    var decoder = asked()
    let events = decoder.feed(tokens("\u{1B}_Gi=31;OK\u{07}b")) + decoder.endOfInput()
    #expect(events == [.key(.character("b"))])
    #expect(decoder.terminalAnswers == Array("\u{1B}_Gi=31;OK\u{1B}\\".utf8))
  }

  @Test func altUnderscoreIsAnAltChordNotAnAnswer() {
    var decoder = asked()
    let events = decoder.feed(tokens("\u{1B}_ab")) + decoder.endOfInput()
    #expect(events == [.key(.character("a")), .key(.character("b"))])
    #expect(decoder.terminalAnswers.isEmpty)
  }

  @Test func anUnfinishedAnswerExpiresAndAnEscInsideStartsAfresh() {
    var decoder = asked()
    var events = decoder.feed(tokens("\u{1B}_Gi=31;OK"))
    events += decoder.expire()
    events += decoder.feed(tokens("q"))
    events += decoder.endOfInput()
    #expect(events == [.key(.character("q"))])
    #expect(decoder.terminalAnswers.isEmpty)
    // An Esc that does not end the string: the string goes, the sequence after it counts.
    events = decoder.feed(tokens("\u{1B}_Gi=31\u{1B}[B")) + decoder.endOfInput()
    #expect(events == [.key(.down)])
    #expect(decoder.terminalAnswers.isEmpty)
  }

  @Test func aKeyCursesDecodedCutsAnUnfinishedAnswer() {
    var decoder = asked()
    var events = decoder.feed(tokens("\u{1B}_Gi=31"))
    events += decoder.feed(.key(.pageDown))
    #expect(events == [.key(.pageDown)])
    #expect(!decoder.isWaitingForMore)
  }

  @Test func anOverlongAnswerIsDropped() {
    var decoder = asked()
    let long = "\u{1B}_G" + String(repeating: "A", count: 5000) + "\u{1B}\\z"
    let events = decoder.feed(tokens(long)) + decoder.endOfInput()
    #expect(decoder.terminalAnswers.isEmpty)
    #expect(events == [.key(.character("z"))])
  }

  @Test func withoutAQueryEscUnderscoreGIsTyping() {
    var decoder = InputDecoder()
    let events = decoder.feed(tokens("\u{1B}_Gx")) + decoder.endOfInput()
    #expect(events == [.key(.character("G")), .key(.character("x"))])
    #expect(!decoder.isWaitingForMore)
  }

  @Test func theDeviceAttributesEndTheWaitForAnswers() {
    var decoder = asked()
    _ = decoder.feed(tokens("\u{1B}[?1;2c"))
    #expect(!decoder.expectsAnswers)
    let events = decoder.feed(tokens("\u{1B}_Gy")) + decoder.endOfInput()
    #expect(events == [.key(.character("G")), .key(.character("y"))])
  }

  @Test func anEscEscInsideAnAnswerIsNoEscapeKey() {
    var decoder = asked()
    let events = decoder.feed(tokens("\u{1B}_Gi=31\u{1B}\u{1B}[B")) + decoder.endOfInput()
    #expect(events == [.key(.down)])
  }
}
