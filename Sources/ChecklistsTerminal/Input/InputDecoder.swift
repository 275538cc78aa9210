import ChecklistsCore
import ChecklistsUI

/// One unit of input as curses delivers it, before escape sequences are put together.
public enum InputToken: Equatable, Sendable {
  /// A character code (`wget_wch` returned `OK`).
  case scalar(Unicode.Scalar)
  /// A key curses decoded itself (`KEY_CODE_YES`).
  case key(Key)
  /// A finished event (mouse report, resize) that needs no decoding.
  case event(InputEvent)
}

/// Turns curses input tokens into `InputEvent`s without touching a terminal.
///
/// It joins combining marks into one grapheme, maps control codes to chords, collects bracketed
/// paste (`ESC [ 200 ~` … `ESC [ 201 ~`) into one `.paste`, reads focus reports (`ESC [ I`,
/// `ESC [ O`), reads every mouse report (SGR `ESC [ < b ; x ; y M`, and the older
/// `ESC [ M` and three bytes), so two clicks that arrive in one read are two presses, treats
/// an Esc with nothing after it as `.escape`, and drops Alt chords and
/// escape sequences it does not know, so they never turn into text. The terminal's answers to
/// queries (kitty's `ESC _ G … ESC \`, the device attributes `ESC [ ? … c`) are kept aside in
/// `terminalAnswers`, never typed.
public struct InputDecoder: Sendable {
  private enum State: Equatable {
    case ground
    /// An Esc was read; what follows decides what it was.
    case escape
    /// `ESC [` and the parameter and intermediate bytes so far.
    case controlSequence(String)
    /// `ESC O`: one final byte follows.
    case singleShift
    /// Inside a bracketed paste; `tail` holds the bytes after an Esc that may end it.
    case paste(tail: String?)
    /// Inside an application program command (`ESC _` … `ESC \\`), kitty's answers;
    /// `escaped`: the last byte was an Esc that may end it.
    case applicationString(escaped: Bool)
    /// `ESC [ M`: an X10 mouse report, whose three bytes (button, column, row) so far.
    case x10Mouse([UInt32])
  }

  /// The longest answer kept; a longer one is dropped.
  private static let answerLimit = 4096

  private static let pasteStartParameter = "200"
  private static let pasteEnd = "[201~"

  private var state: State = .ground
  /// A printable grapheme waiting for possible combining marks.
  private var pendingCharacter: String = ""
  private var pasteText: String = ""
  private var answerText: [UInt8] = []
  /// The answer being read grew past `answerLimit`: the rest is read to its end and dropped.
  private var answerOverflowed = false

  /// The terminal's answers to queries so far, as it sent them: kitty's graphics replies and
  /// the primary device attributes.
  public private(set) var terminalAnswers: [UInt8] = []
  /// Whether the primary device attributes have arrived (they end the answers to a query:
  /// terminals answer in order and every terminal answers them).
  public private(set) var deviceAttributesArrived = false
  /// Whether a query was sent and kitty's answer may still come: only then does `ESC _ G`
  /// start an answer (otherwise it is Alt+_ and then G typed).
  public var expectsAnswers = false

  /// Creates a decoder in its initial state.
  public init() {}

  /// Whether a sequence or paste is unfinished: the driver should call `expire()` if nothing more
  /// arrives soon.
  public var isWaitingForMore: Bool {
    switch state {
    case .ground, .escape: return false
    case .controlSequence, .singleShift, .paste, .applicationString, .x10Mouse: return true
    }
  }

  /// Decodes one token; returns the events it completes.
  public mutating func feed(_ token: InputToken) -> [InputEvent] {
    var events: [InputEvent] = []
    if case .paste(let tail) = state {
      feedPaste(token, tail: tail, into: &events)
      return events
    }
    if case .applicationString(let escaped) = state {
      if case .scalar(let scalar) = token {
        feedApplicationString(scalar, escaped: escaped, into: &events)
        return events
      }
      state = .ground  // a decoded key or event cuts an unfinished answer: dropped
    }
    switch token {
    case .scalar(let scalar):
      feedScalar(scalar, into: &events)
    case .key(let key):
      flushCharacter(into: &events)
      if state == .ground {
        events.append(.key(key))
      } else {
        // Esc followed by a decoded key is an Alt chord: dropped.
        state = .ground
      }
    case .event(let event):
      flushCharacter(into: &events)
      if state == .escape { events.append(.key(.escape)) }
      if state != .ground { state = .ground }
      events.append(event)
    }
    return events
  }

  /// Decodes several tokens.
  public mutating func feed(_ tokens: [InputToken]) -> [InputEvent] {
    tokens.flatMap { feed($0) }
  }

  /// Says that no more input is available right now: finishes a pending grapheme and turns a
  /// pending Esc into `.escape` (curses already waited the escape delay for what follows).
  public mutating func endOfInput() -> [InputEvent] {
    var events: [InputEvent] = []
    flushCharacter(into: &events)
    if state == .escape {
      state = .ground
      events.append(.key(.escape))
    }
    return events
  }

  /// Gives up on an unfinished sequence after a while: an incomplete escape sequence is dropped,
  /// a paste whose end marker never came is delivered as far as it got.
  public mutating func expire() -> [InputEvent] {
    var events = endOfInput()
    switch state {
    case .paste:
      events.append(.paste(pasteText))
      pasteText = ""
      state = .ground
    case .controlSequence, .singleShift, .applicationString, .x10Mouse:
      state = .ground
    case .ground, .escape:
      break
    }
    return events
  }

  // MARK: - Outside a paste

  private mutating func feedScalar(_ scalar: Unicode.Scalar, into events: inout [InputEvent]) {
    switch state {
    case .ground:
      feedGroundScalar(scalar, into: &events)
    case .escape:
      switch scalar {
      case "[": state = .controlSequence("")
      case "O": state = .singleShift
      case "_" where expectsAnswers:
        answerText = [0x1B, 0x5F]
        answerOverflowed = false
        state = .applicationString(escaped: false)
      case "\u{1B}": events.append(.key(.escape))  // Esc Esc: the first one was alone
      default: state = .ground  // Alt chord: dropped
      }
    case .controlSequence(let body):
      let value = scalar.value
      if (0x20...0x3F).contains(value) {
        let body = body + String(scalar)
        state = body.unicodeScalars.count > 32 ? .ground : .controlSequence(body)
      } else if scalar == "M" && body.isEmpty {
        state = .x10Mouse([])
      } else if scalar == "~" && body == Self.pasteStartParameter {
        pasteText = ""
        lastPastedWasCarriageReturn = false
        state = .paste(tail: nil)
      } else if (0x40...0x7E).contains(value) {
        finishControlSequence(parameters: body, final: scalar, into: &events)
      } else {
        state = .ground  // malformed: dropped
        if scalar == "\u{1B}" { state = .escape }
      }
    case .singleShift:
      state = .ground
      if let key = Self.singleShiftKey(scalar) { events.append(.key(key)) }
    case .x10Mouse(let bytes):
      let bytes = bytes + [scalar.value]
      guard bytes.count == 3 else {
        state = .x10Mouse(bytes)
        return
      }
      state = .ground
      // Each byte is 32 more than its value; positions count from 1.
      let values = bytes.map { Int($0) - 32 }
      if let mouse = MouseReport.event(
        button: values[0], column: values[1] - 1, row: values[2] - 1,
        released: values[0] & 3 == 3)
      {
        events.append(.mouse(mouse))
      }
    case .paste, .applicationString:
      break  // handled by feedPaste and feedApplicationString
    }
  }

  /// One scalar of an application program command; `ESC \\` (or BEL) ends it.
  private mutating func feedApplicationString(
    _ scalar: Unicode.Scalar, escaped: Bool, into events: inout [InputEvent]
  ) {
    if escaped {
      _ = answerText.popLast()  // the Esc
      guard scalar == "\\" else {
        // An Esc that does not end the string starts something new: the string is dropped.
        answerText = []
        state = .escape
        // A second Esc is the start of that something, not an Esc key of its own.
        if scalar != "\u{1B}" { feedScalar(scalar, into: &events) }
        return
      }
    }
    if answerText.count == 2 && scalar != "G" {
      // Only kitty's graphics answers are expected: `ESC _` was an Alt chord (dropped).
      answerText = []
      state = .ground
      feedScalar(scalar, into: &events)
      return
    }
    if escaped || scalar == "\u{07}" {
      if !answerOverflowed { terminalAnswers += answerText + [0x1B, 0x5C] }
      answerText = []
      state = .ground
      return
    }
    if answerOverflowed {
      answerText = scalar == "\u{1B}" ? [0x1B] : []
    } else {
      answerText += Array(String(scalar).utf8)
      if answerText.count > Self.answerLimit {
        answerOverflowed = true
        answerText = scalar == "\u{1B}" ? [0x1B] : []
      }
    }
    state = .applicationString(escaped: scalar == "\u{1B}")
  }

  private mutating func feedGroundScalar(_ scalar: Unicode.Scalar, into events: inout [InputEvent])
  {
    let value = scalar.value
    if value == 0x1B {
      flushCharacter(into: &events)
      state = .escape
      return
    }
    if let key = Self.controlKey(value) {
      flushCharacter(into: &events)
      events.append(.key(key))
      return
    }
    if ControlCharacters.isControl(value) {
      flushCharacter(into: &events)  // other control codes: dropped
      return
    }
    if !pendingCharacter.isEmpty {
      let joined = pendingCharacter + String(scalar)
      if joined.count == 1 {
        pendingCharacter = joined  // a combining mark or joiner continues the grapheme
        return
      }
      flushCharacter(into: &events)
    }
    pendingCharacter = String(scalar)
  }

  private mutating func flushCharacter(into events: inout [InputEvent]) {
    guard let character = pendingCharacter.first else { return }
    pendingCharacter = ""
    events.append(.key(.character(character)))
  }

  private mutating func finishControlSequence(
    parameters: String, final: Unicode.Scalar, into events: inout [InputEvent]
  ) {
    state = .ground
    let first = parameters.split(separator: ";").first.map(String.init) ?? ""
    if parameters.hasPrefix("<") {
      // An SGR mouse report: `< button ; column ; row`, M pressed, m released.
      guard final == "M" || final == "m" else { return }
      let numbers = parameters.dropFirst().split(separator: ";").map { Int($0) }
      guard numbers.count == 3, let button = numbers[0], let column = numbers[1],
        let row = numbers[2],
        let mouse = MouseReport.event(
          button: button, column: column - 1, row: row - 1, released: final == "m")
      else { return }
      events.append(.mouse(mouse))
      return
    }
    if parameters.hasPrefix("?") {
      // Answers to queries, never keys: the device attributes are kept for the driver.
      if final == "c" {
        terminalAnswers += [0x1B, 0x5B] + Array(parameters.utf8) + [0x63]
        deviceAttributesArrived = true
        expectsAnswers = false
      }
      return
    }
    switch final {
    case "I" where parameters.isEmpty: events.append(.focusGained)
    case "O" where parameters.isEmpty: events.append(.focusLost)
    case "A": events.append(.key(.up))
    case "B": events.append(.key(.down))
    case "C": events.append(.key(.right))
    case "D": events.append(.key(.left))
    case "H": events.append(.key(.home))
    case "F": events.append(.key(.end))
    case "Z": events.append(.key(.backTab))
    case "~":
      switch first {
      case "1", "7": events.append(.key(.home))
      case "4", "8": events.append(.key(.end))
      case "3": events.append(.key(.delete))
      case "5": events.append(.key(.pageUp))
      case "6": events.append(.key(.pageDown))
      default: break  // unknown: dropped
      }
    default:
      break  // unknown: dropped
    }
  }

  private static func singleShiftKey(_ scalar: Unicode.Scalar) -> Key? {
    switch scalar {
    case "A": return .up
    case "B": return .down
    case "C": return .right
    case "D": return .left
    case "H": return .home
    case "F": return .end
    case "P": return .function(1)
    case "Q": return .function(2)
    case "R": return .function(3)
    case "S": return .function(4)
    default: return nil
    }
  }

  /// The key for a C0 control code or DEL, nil for codes that are not keys.
  static func controlKey(_ value: UInt32) -> Key? {
    switch value {
    case 9: return .tab
    case 10, 13: return .enter
    case 8, 0x7F: return .backspace
    case 1...26:
      guard let letter = Unicode.Scalar(0x60 + value) else { return nil }
      return .control(Character(letter))
    default: return nil
    }
  }

  // MARK: - Inside a paste

  private mutating func feedPaste(
    _ token: InputToken, tail: String?, into events: inout [InputEvent]
  ) {
    guard case .scalar(let scalar) = token else {
      if case .key(let key) = token {
        switch key {
        case .enter: pasteText += "\n"
        case .tab: pasteText += "\t"
        default: break  // keys inside a paste are not text
        }
      }
      return
    }
    if let tail {
      let candidate = tail + String(scalar)
      if candidate == Self.pasteEnd {
        events.append(.paste(pasteText))
        pasteText = ""
        state = .ground
      } else if Self.pasteEnd.hasPrefix(candidate) {
        state = .paste(tail: candidate)
      } else {
        // Not the end marker: the Esc is dropped, the bytes after it are pasted text.
        state = .paste(tail: nil)
        for element in candidate.unicodeScalars { appendPasted(element) }
      }
      return
    }
    if scalar == "\u{1B}" {
      state = .paste(tail: "")
    } else {
      appendPasted(scalar)
    }
  }

  /// Adds a pasted scalar: line breaks become "\n", tabs stay, other control codes are dropped.
  private mutating func appendPasted(_ scalar: Unicode.Scalar) {
    switch scalar.value {
    case 13: pasteText += "\n"
    case 10:
      if !lastPastedWasCarriageReturn { pasteText += "\n" }
    case 9: pasteText += "\t"
    case let value where ControlCharacters.isControl(value): break
    default: pasteText.unicodeScalars.append(scalar)
    }
    lastPastedWasCarriageReturn = scalar.value == 13
  }

  private var lastPastedWasCarriageReturn = false
}
