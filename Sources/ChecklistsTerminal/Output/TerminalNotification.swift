/// A desktop notification sent through the terminal itself: the escape sequence the terminal
/// turns into a notification of its own (while the app's window is in the background).
///
/// Terminals differ in which one they take, and ignore the ones they do not know:
/// - kitty: OSC 99 (its own protocol: a title, then the body);
/// - foot, urxvt, VTE terminals (GNOME Terminal, Tilix…), Ghostty: OSC 777 `notify;title;body`;
/// - iTerm2, WezTerm, Windows Terminal, ConEmu and the rest: OSC 9 with one line of text.
///
/// Inside tmux, the sequence goes through tmux's passthrough (`ESC P tmux; … ESC \`, every ESC
/// doubled) to the terminal tmux runs in, where `allow-passthrough` is on; tmux drops it
/// otherwise. The linux console and VT terminals get nothing (they would show the text).
public enum TerminalNotification {
  /// Which escape sequence a terminal takes.
  public enum Kind: Equatable, Sendable {
    case kitty, osc777, osc9
  }

  /// The kind the terminal of `environment` takes; nil for terminals that take none.
  ///
  /// Inside tmux `TERM` names tmux, so the variables a terminal exports (which tmux's server
  /// keeps from where it started) decide.
  public static func kind(environment: [String: String]) -> Kind? {
    let term = environment["TERM"] ?? ""
    let program = environment["TERM_PROGRAM"] ?? ""
    if term == "linux" || term.hasPrefix("vt") || term == "dumb" { return nil }
    if term == "xterm-kitty" || environment["KITTY_WINDOW_ID"] != nil { return .kitty }
    if term.hasPrefix("foot") || term.hasPrefix("rxvt") || term == "xterm-ghostty"
      || program == "ghostty" || environment["VTE_VERSION"] != nil
    {
      return .osc777
    }
    return .osc9
  }

  /// The bytes that send a notification `title` / `body`, wrapped for tmux when `throughTmux`.
  /// Control characters in the texts are left out (they would end the sequence early).
  public static func sequence(title: String, body: String, kind: Kind, throughTmux: Bool)
    -> [UInt8]
  {
    let title = clean(title, limit: 100)
    let body = clean(body, limit: 400)
    var text: String
    switch kind {
    case .kitty:
      // The first part sets the title and waits (d=0); the second adds the body and shows it.
      text = "\u{1B}]99;i=checklists:d=0;\(title)\u{1B}\\"
      text += "\u{1B}]99;i=checklists:p=body;\(body)\u{1B}\\"
    case .osc777:
      // `;` separates the fields.
      text = "\u{1B}]777;notify;\(title.replacing(";", with: ","));\(body)\u{1B}\\"
    case .osc9:
      // One line; a leading digit would read as one of ConEmu's OSC 9 commands.
      text = "\u{1B}]9;\(title): \(body)\u{1B}\\"
    }
    var bytes = Array(text.utf8)
    if throughTmux {
      var wrapped = Array("\u{1B}Ptmux;".utf8)
      for byte in bytes {
        if byte == 0x1B { wrapped.append(0x1B) }
        wrapped.append(byte)
      }
      wrapped += Array("\u{1B}\\".utf8)
      bytes = wrapped
    }
    return bytes
  }

  /// `text` without control characters (C0, DEL, C1; a line break becomes a space), cut to
  /// `limit` characters.
  static func clean(_ text: String, limit: Int) -> String {
    var scalars = String.UnicodeScalarView()
    var count = 0
    for scalar in text.unicodeScalars {
      guard count < limit else { break }
      let value = scalar.value
      if value == 0x0A || value == 0x09 {
        scalars.append(" ")
      } else if value < 0x20 || (0x7F...0x9F).contains(value) {
        continue
      } else {
        scalars.append(scalar)
      }
      count += 1
    }
    return String(scalars)
  }
}
