/// The kinds of emoji sequence a terminal draws as one glyph in the two columns the grid counts
/// for it, so that a cell may hold the whole grapheme cluster; elsewhere a cell holds its first
/// emoji (what the terminal would otherwise spread over four columns and more).
///
/// Measured (the cursor's column after the sequence; docs/user-guide.md, Emoji sequences): tmux 3.3a joins ZWJ
/// sequences (👩‍💻) and splits skin tones (👍🏽); kitty 0.26.5 joins skin tones and splits
/// ZWJ sequences; xterm 379 splits both. Flags (🇫🇷) are joined by all three, but curses counts
/// a regional indicator as one column, so a flag keeps its first letter everywhere.
struct EmojiSequences: OptionSet, Equatable, Sendable {
  let rawValue: Int

  /// Emoji joined with U+200D (👩‍💻, 👨‍👩‍👧).
  static let joined = EmojiSequences(rawValue: 1 << 0)
  /// An emoji and a skin-tone modifier (👍🏽).
  static let modifiers = EmojiSequences(rawValue: 1 << 1)

  /// What the terminal the app runs in draws whole, from the environment: inside tmux (`TMUX`)
  /// ZWJ sequences, in kitty (`TERM=xterm-kitty`, `KITTY_WINDOW_ID`) skin tones, elsewhere
  /// nothing (each cell keeps its first emoji, as before).
  static func drawnWhole(environment: [String: String]) -> EmojiSequences {
    if !(environment["TMUX"] ?? "").isEmpty { return .joined }
    if environment["TERM"] == "xterm-kitty" || !(environment["KITTY_WINDOW_ID"] ?? "").isEmpty {
      return .modifiers
    }
    return []
  }

  /// The kinds of sequence `scalars` (one grapheme cluster) is; empty for anything else.
  static func kinds(of scalars: Substring.UnicodeScalarView) -> EmojiSequences {
    var kinds: EmojiSequences = []
    for scalar in scalars.dropFirst() {
      switch scalar.value {
      case 0x200D: kinds.insert(.joined)
      case 0x1F3FB...0x1F3FF: kinds.insert(.modifiers)
      default: break
      }
    }
    return kinds
  }
}
