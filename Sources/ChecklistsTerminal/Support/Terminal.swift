import CNcursesw
import CTerminalSupport
import ChecklistsUI

#if canImport(Glibc)
  import Glibc
#endif

/// The full-screen terminal: starts and stops curses, reads input tokens, knows the size.
///
/// Start it with `Terminal.start(environment:)`; `stop()` restores the terminal exactly
/// (curses ends, the alternate screen is left, the cursor shows, the saved tty modes come back).
public final class Terminal {
  /// The curses window covering the screen.
  let window: UnsafeMutablePointer<WINDOW>
  private let screen: OpaquePointer
  /// The read end of the signal pipe.
  let signalFD: Int32
  /// How roles and attributes become curses attributes and colour pairs.
  let palette: Palette
  /// Whether the terminal reports the mouse (its terminfo entry names a mouse report).
  private let hasMouse: Bool
  /// The emoji sequences the terminal draws whole in two columns.
  let emojiSequences: EmojiSequences
  private var isActive = true
  private var isSuspended = false

  /// The terminal's size in cells.
  public private(set) var width: Int
  /// The terminal's size in cells.
  public private(set) var height: Int

  private static let pasteAndFocusOn = "\u{1B}[?2004h\u{1B}[?1004h"
  private static let pasteAndFocusOff = "\u{1B}[?2004l\u{1B}[?1004l"
  /// Button presses and the wheel, reported in SGR form (`ESC [ < b ; x ; y M`); the decoder
  /// reads them, every one (curses made one event of the reports of one read).
  private static let mouseOn = "\u{1B}[?1000h\u{1B}[?1006h"
  private static let mouseOff = "\u{1B}[?1006l\u{1B}[?1000l"

  private var modesOn: String { Self.pasteAndFocusOn + (hasMouse ? Self.mouseOn : "") }
  private var modesOff: String { (hasMouse ? Self.mouseOff : "") + Self.pasteAndFocusOff }

  private init(
    window: UnsafeMutablePointer<WINDOW>, screen: OpaquePointer, signalFD: Int32,
    palette: Palette, hasMouse: Bool, emojiSequences: EmojiSequences
  ) {
    self.window = window
    self.screen = screen
    self.signalFD = signalFD
    self.palette = palette
    self.hasMouse = hasMouse
    self.emojiSequences = emojiSequences
    self.width = Int(cn_getmaxx(window))
    self.height = Int(cn_getmaxy(window))
  }

  /// Starts full-screen mode on standard input and output.
  ///
  /// Refuses when either is not a terminal, `TERM` is unset or unknown, or the terminal cannot
  /// address the cursor. Installs the signal pipe and crash handler before curses starts, so
  /// curses leaves those signals to us.
  public static func start(environment: [String: String]) throws(TerminalError) -> Terminal {
    guard isatty(STDIN_FILENO) == 1 else { throw .notATerminal(stream: "standard input") }
    guard isatty(STDOUT_FILENO) == 1 else { throw .notATerminal(stream: "standard output") }
    guard let termName = environment["TERM"], !termName.isEmpty else { throw .noTerminalType }
    ProcessLocale.adoptUTF8()

    _ = ct_save_termios(STDIN_FILENO)
    ct_install_crash_handlers()
    let signalFD = ct_install_signal_handlers()

    guard let screen = newterm(nil, cn_stdout(), cn_stdin()) else {
      throw .unknownTerminalType(termName)
    }
    set_term(screen)
    guard cn_has_string_capability("cup") != 0, let window = cn_stdscr() else {
      endwin()
      delscreen(screen)
      _ = ct_restore_termios()
      throw .unsuitableTerminal(termName)
    }
    // Until the screen has been through one `endwin` and update, curses (6.4) writes its output
    // after every cursor move: the first frame of All Lists went out in 35 writes, each one a
    // wake-up of the terminal. Through that once, before anything is set or drawn, a frame is
    // one write (or a few, past curses' buffer).
    endwin()
    doupdate()

    raw()
    noecho()
    nonl()
    intrflush(window, false)
    keypad(window, true)
    nodelay(window, true)
    set_escdelay(25)
    _ = ct_disable_flow_control(STDIN_FILENO)
    def_prog_mode()

    let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
    let palette = Palette.make(useColor: !noColor && has_colors())
    // The mouse reports reach the decoder as the bytes they are: curses would take them for
    // its key `kmous` and give one event for all the reports of one read.
    let hasMouse = cn_has_string_capability("kmous") != 0
    mousemask(0, nil)
    keyok(KEY_MOUSE, false)

    let terminal = Terminal(
      window: window, screen: screen, signalFD: signalFD, palette: palette, hasMouse: hasMouse,
      emojiSequences: EmojiSequences.drawnWhole(environment: environment))
    terminal.writeRaw(terminal.modesOn)
    ct_set_screen_active(1)
    terminal.readSize()
    return terminal
  }

  /// Leaves full-screen mode for a while (suspend): modes off, curses ended, tty modes restored.
  public func suspend() {
    guard isActive, !isSuspended else { return }
    isSuspended = true
    leaveScreen()
  }

  /// Comes back after `suspend()` (or a stop from outside): modes on, size re-read, and the next
  /// flush repaints everything.
  public func resume() {
    guard isActive else { return }
    if isSuspended {
      isSuspended = false
    } else {
      reset_prog_mode()
    }
    _ = ct_disable_flow_control(STDIN_FILENO)
    writeRaw(modesOn)
    ct_set_screen_active(1)
    readSize()
    clearok(window, true)
  }

  /// Ends full-screen mode for good and restores the terminal as it was.
  public func stop() {
    guard isActive else { return }
    if !isSuspended { leaveScreen() }
    isActive = false
    delscreen(screen)
  }

  deinit { stop() }

  private func leaveScreen() {
    ct_set_screen_active(0)
    writeRaw(modesOff)
    curs_set(1)
    endwin()
    _ = ct_restore_termios()
  }

  /// Re-reads the size from the tty and tells curses; returns whether it changed.
  @discardableResult
  public func readSize() -> Bool {
    var rows: Int32 = 0
    var columns: Int32 = 0
    if ct_window_size(STDOUT_FILENO, &rows, &columns) == 0,
      rows != Int32(cn_getmaxy(window)) || columns != Int32(cn_getmaxx(window))
    {
      resizeterm(rows, columns)
    }
    let changed = width != Int(cn_getmaxx(window)) || height != Int(cn_getmaxy(window))
    width = Int(cn_getmaxx(window))
    height = Int(cn_getmaxy(window))
    return changed
  }

  /// What one non-blocking read of the keyboard gave.
  enum Read {
    /// Nothing is pending.
    case nothing
    /// A token for the decoder.
    case token(InputToken)
    /// Something that means nothing to the program (an unknown key, a mouse motion).
    case ignored
  }

  /// Reads one input token without waiting.
  func read() -> Read {
    var code: wint_t = 0
    let result = wget_wch(window, &code)
    switch result {
    case OK:
      guard let scalar = Unicode.Scalar(code) else { return .ignored }
      return .token(.scalar(scalar))
    case KEY_CODE_YES:
      return read(keyCode: Int32(bitPattern: code))
    default:
      return .nothing
    }
  }

  private func read(keyCode code: Int32) -> Read {
    switch code {
    case KEY_RESIZE:
      readSize()
      return .token(.event(.resize(width: width, height: height)))
    default:
      if let key = CursesKeys.key(forCode: code, name: Self.keyName(code)) {
        return .token(.key(key))
      }
      return .ignored
    }
  }

  private static func keyName(_ code: Int32) -> String {
    guard let name = keyname(code) else { return "" }
    return String(cString: name)
  }

  /// Rings the bell.
  func ringBell() { beep() }

  /// Writes bytes straight to the terminal after what curses has drawn (exact colours).
  func writeBytes(_ text: String) { writeRaw(Array(text.utf8)) }

  /// Writes bytes straight to the terminal after what curses has drawn (images).
  func writeBytes(_ bytes: [UInt8]) { writeRaw(bytes) }

  /// Writes bytes straight to the terminal, after what curses has buffered.
  private func writeRaw(_ text: String) { writeRaw(Array(text.utf8)) }

  /// Writes bytes straight to the terminal, after what curses has buffered.
  private func writeRaw(_ raw: [UInt8]) {
    fflush(cn_stdout())
    var bytes = raw
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeMutableBytes { buffer -> Int in
        guard let base = buffer.baseAddress else { return -1 }
        return write(STDOUT_FILENO, base + offset, buffer.count - offset)
      }
      if written < 0 {
        if errno == EINTR { continue }
        return
      }
      offset += written
    }
  }
}
