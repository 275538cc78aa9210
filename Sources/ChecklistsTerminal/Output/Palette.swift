import CNcursesw
import ChecklistsUI

/// How each `ColorRole` looks: a colour pair plus attributes, or attributes alone without colour.
struct Palette {
  /// The curses look of one role.
  struct Look {
    /// The colour pair number (0 = the terminal's default colours).
    var pair: Int16
    /// Attributes the role always adds.
    var attributes: TextAttributes
    /// Whether the pair sets a background, which already highlights: a cell's reverse is
    /// dropped so it does not undo the highlight.
    var hasBackground = false
  }

  private let looks: [ColorRole: Look]

  /// The look of a role.
  func look(for role: ColorRole) -> Look {
    looks[role] ?? Look(pair: 0, attributes: [])
  }

  /// The curses attributes for a cell style (without the colour pair).
  func cursesAttributes(for style: CellStyle) -> attr_t {
    let look = look(for: style.color)
    var attributes = style.attributes.union(look.attributes)
    if look.hasBackground { attributes.remove(.reverse) }
    var result = cn_a_normal()
    if attributes.contains(.bold) { result |= cn_a_bold() }
    if attributes.contains(.dim) { result |= cn_a_dim() }
    if attributes.contains(.reverse) { result |= cn_a_reverse() }
    if attributes.contains(.underline) { result |= cn_a_underline() }
    return result
  }

  /// Attributes standing in for colours (no colour support, or `NO_COLOR`).
  static func monochromeAttributes(for role: ColorRole) -> TextAttributes {
    switch role {
    case .normal: return []
    case .title: return .bold
    case .selection: return .reverse
    case .status: return .reverse
    case .error: return [.bold, .reverse]
    case .dim: return .dim
    case .accent: return .bold
    case .overdue: return [.bold, .underline]
    case .checked: return .dim
    case .control: return .bold
    }
  }

  /// Foreground, background (-1 = default) and attributes for a role in colour.
  static func colors(for role: ColorRole) -> (Int16, Int16, TextAttributes) {
    let black = Int16(COLOR_BLACK)
    switch role {
    case .normal: return (-1, -1, [])
    case .title: return (Int16(COLOR_CYAN), -1, .bold)
    case .selection: return (black, Int16(COLOR_CYAN), [])
    case .status: return (black, Int16(COLOR_WHITE), [])
    case .error: return (Int16(COLOR_WHITE), Int16(COLOR_RED), .bold)
    case .dim: return (-1, -1, .dim)
    case .accent: return (Int16(COLOR_YELLOW), -1, [])
    case .overdue: return (Int16(COLOR_RED), -1, .bold)
    case .checked: return (Int16(COLOR_GREEN), -1, [])
    case .control: return (Int16(COLOR_BLUE), -1, .bold)
    }
  }

  /// Sets up colour pairs when `useColor` and the terminal has at least 8 colours and pairs;
  /// otherwise every role maps to attributes only.
  static func make(useColor: Bool) -> Palette {
    var looks: [ColorRole: Look] = [:]
    var colorWorks = false
    if useColor, start_color() == OK {
      use_default_colors()
      colorWorks = true
    }
    for (offset, role) in ColorRole.allCases.enumerated() {
      if colorWorks, role != .normal {
        let (foreground, background, attributes) = colors(for: role)
        let pair = Int16(offset)
        if init_pair(pair, foreground, background) == OK {
          looks[role] = Look(pair: pair, attributes: attributes, hasBackground: background >= 0)
          continue
        }
      }
      looks[role] = Look(pair: 0, attributes: monochromeAttributes(for: role))
    }
    if colorWorks { looks[.normal] = Look(pair: 0, attributes: []) }
    return Palette(looks: looks)
  }
}
