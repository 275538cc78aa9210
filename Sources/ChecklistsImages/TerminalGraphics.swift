import ChecklistsCore

/// How photos are drawn on this terminal.
public enum GraphicsMode: Equatable, Sendable {
  /// The kitty graphics protocol (kitty, WezTerm, Ghostty, Konsole).
  case kitty
  /// Sixel graphics (foot, WezTerm, xterm -ti vt340, mlterm, Windows Terminal).
  case sixel
  /// iTerm2's inline images (iTerm2, WezTerm).
  case iterm2
  /// Coloured half blocks, in 24-bit colour or the 256-colour palette.
  case blocks(ColorDepth)
  /// The text `[photo 4032×3024 JPEG]`.
  case text
}

/// The colours a terminal shows.
public enum ColorDepth: Equatable, Sendable {
  /// 24-bit colour (`COLORTERM=truecolor` or `24bit`).
  case trueColor
  /// The xterm 256-colour palette.
  case palette256
}

/// The user's choice: `CHECKLISTS_IMAGES=…` or `set images = …` in the config file.
public enum GraphicsSetting: String, CaseIterable, Sendable {
  /// Ask the terminal (kitty's query, the device attributes) and look at the environment.
  case auto
  case kitty
  case sixel
  case iterm
  case blocks
  case text

  /// The setting from the environment (which wins) or the configuration; `auto` when neither
  /// says. A value that is not a setting is reported and `auto` is used.
  public static func chosen(environment: [String: String], config: ConfigFile?) -> (
    setting: GraphicsSetting, problem: String?
  ) {
    let known = allCases.map(\.rawValue).joined(separator: ", ")
    if let value = environment["CHECKLISTS_IMAGES"], !value.isEmpty {
      if let setting = GraphicsSetting(rawValue: value.lowercased()) { return (setting, nil) }
      return (.auto, "CHECKLISTS_IMAGES=\(value) is not one of \(known); using auto")
    }
    if let value = config?.value(of: .images) {
      if let setting = GraphicsSetting(rawValue: value.lowercased()) { return (setting, nil) }
      let line = config?.settings.last { $0.name == ConfigSetting.images.rawValue }?.line ?? 0
      return (.auto, "config line \(line): images = \(value) is not one of \(known); using auto")
    }
    return (.auto, nil)
  }
}

/// What a terminal answered to `TerminalGraphicsQuery.bytes`.
public struct TerminalGraphicsReplies: Equatable, Sendable {
  /// Whether kitty's graphics query was answered `OK`.
  public var kitty = false
  /// Whether the primary device attributes list 4 (sixel graphics).
  public var sixel = false
  /// Whether the device attributes came (they end the answers: a terminal answers them after
  /// any query before them, so nothing more is coming).
  public var complete = false
  /// How many bytes of the input were answers (to be removed before reading keys).
  public var consumed = 0

  /// Creates replies.
  public init(kitty: Bool = false, sixel: Bool = false, complete: Bool = false, consumed: Int = 0) {
    self.kitty = kitty
    self.sixel = sixel
    self.complete = complete
    self.consumed = consumed
  }
}

/// The query a program writes once to learn what the terminal draws, and the parser of the
/// answers.
public enum TerminalGraphicsQuery {
  /// The id of the 1×1 query image (never shown: `a=q` only asks).
  public static let queryID: UInt32 = 31
  /// kitty's graphics query, then the primary device attributes request (`ESC [ c`).
  public static let bytes: [UInt8] =
    Array(
      "\u{1B}_Gi=\(queryID),s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\".utf8) + deviceAttributes
  /// The primary device attributes request alone, for tmux and GNU screen: they take an
  /// application program command as the window's title (kitty's query would rename the pane)
  /// and answer the attributes themselves.
  public static let deviceAttributes: [UInt8] = Array("\u{1B}[c".utf8)

  /// Reads answers at the start of `input`: kitty's `ESC _ G i=31;OK ESC \` (or an error
  /// text) and the device attributes `ESC [ ? 62 ; 4 ; … c`. Stops at the first byte that
  /// belongs to neither (a key typed meanwhile), which is left unconsumed.
  public static func parse(_ input: [UInt8]) -> TerminalGraphicsReplies {
    var replies = TerminalGraphicsReplies()
    var offset = 0
    while offset < input.count {
      if input[offset...].starts(with: [0x1B, 0x5F, 0x47]) {  // ESC _ G
        guard let end = stringTerminator(input, from: offset + 3) else { break }
        let body = String(decoding: input[(offset + 3)..<end], as: UTF8.self)
        let parts = body.split(separator: ";", maxSplits: 1)
        if parts.count == 2, parts[0].split(separator: ",").contains("i=\(queryID)") {
          replies.kitty = parts[1] == "OK"
        }
        offset = end + 2
        replies.consumed = offset
        continue
      }
      if input[offset...].starts(with: [0x1B, 0x5B, 0x3F]) {  // ESC [ ?
        var index = offset + 3
        while index < input.count, input[index] == 0x3B || (0x30...0x39).contains(input[index]) {
          index += 1
        }
        guard index < input.count else { break }
        guard input[index] == 0x63 else { break }  // 'c'
        let attributes = String(decoding: input[(offset + 3)..<index], as: UTF8.self)
          .split(separator: ";").compactMap { Int($0) }
        replies.sixel = attributes.dropFirst().contains(4)
        replies.complete = true
        offset = index + 1
        replies.consumed = offset
        break
      }
      break
    }
    return replies
  }

  private static func stringTerminator(_ input: [UInt8], from start: Int) -> Int? {
    var index = start
    while index + 1 < input.count {
      if input[index] == 0x1B && input[index + 1] == 0x5C { return index }
      index += 1
    }
    return nil
  }
}

/// Decides how photos are drawn from the setting, the environment and the terminal's answers.
public enum GraphicsDetection {
  /// The colours the environment says the terminal has; nil when photos must be text
  /// (`NO_COLOR` set, `TERM` unset, `dumb` or `vt100`).
  public static func colorDepth(environment: [String: String]) -> ColorDepth? {
    if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return nil }
    let term = environment["TERM"] ?? ""
    if term.isEmpty || term == "dumb" || term.hasPrefix("vt100") { return nil }
    let colorTerm = (environment["COLORTERM"] ?? "").lowercased()
    return colorTerm == "truecolor" || colorTerm == "24bit" ? .trueColor : .palette256
  }

  /// Whether the environment names a terminal with iTerm2's inline images.
  public static func supportsITerm2(environment: [String: String]) -> Bool {
    environment["TERM_PROGRAM"] == "iTerm.app" || environment["LC_TERMINAL"] == "iTerm2"
  }

  /// The mode: a setting other than `auto` is used as it is (`blocks` in the colours the
  /// environment says, 256 when it says none); `auto` takes kitty, then sixel from the
  /// terminal's answers, then iTerm2 from the environment, then half blocks, and text where
  /// the environment wants no colour.
  public static func mode(
    setting: GraphicsSetting, environment: [String: String], replies: TerminalGraphicsReplies?
  ) -> GraphicsMode {
    switch setting {
    case .kitty: return .kitty
    case .sixel: return .sixel
    case .iterm: return .iterm2
    case .text: return .text
    case .blocks: return .blocks(colorDepth(environment: environment) ?? .palette256)
    case .auto:
      guard let depth = colorDepth(environment: environment) else { return .text }
      if replies?.kitty == true { return .kitty }
      if replies?.sixel == true { return .sixel }
      if supportsITerm2(environment: environment) { return .iterm2 }
      return .blocks(depth)
    }
  }

  /// What to ask the terminal before choosing, nil for nothing (see `needsQuery`): inside tmux
  /// or GNU screen the device attributes alone.
  public static func query(setting: GraphicsSetting, environment: [String: String]) -> [UInt8]? {
    guard needsQuery(setting: setting, environment: environment) else { return nil }
    return insideMultiplexer(environment: environment)
      ? TerminalGraphicsQuery.deviceAttributes : TerminalGraphicsQuery.bytes
  }

  /// Whether the program runs inside tmux or GNU screen (`TMUX`, `STY`, or a `TERM` of theirs).
  public static func insideMultiplexer(environment: [String: String]) -> Bool {
    let term = environment["TERM"] ?? ""
    return !(environment["TMUX"] ?? "").isEmpty || !(environment["STY"] ?? "").isEmpty
      || term.hasPrefix("screen") || term.hasPrefix("tmux")
  }

  /// Whether the terminal should be asked (`TerminalGraphicsQuery.bytes`) before choosing: with
  /// `auto` on a colour terminal, except the Linux console (it shows no images, and a query it
  /// does not know could reach the screen).
  public static func needsQuery(setting: GraphicsSetting, environment: [String: String]) -> Bool {
    setting == .auto && colorDepth(environment: environment) != nil
      && environment["TERM"] != "linux"
  }
}
