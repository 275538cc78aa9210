import ChecklistsCore
import FoundationEssentials

/// The help screen (`?`): every key of the screen it was opened on, from the key table; or the
/// status line's messages so far (`M`).
struct HelpScreen: Screen {
  /// The screen whose keys are shown.
  var context: HelpContext
  /// The first line shown.
  var top = 0

  func keyScreen(in app: ChecklistsApp) -> KeyScreen { .help }

  func canPerform(_ action: KeyAction, in app: ChecklistsApp) -> Bool? {
    switch action {
    case .previous: return top > 0
    case .next: return top < bottom(in: app)
    default: return nil
    }
  }

  func hints(in app: ChecklistsApp) -> [Hint]? {
    [
      Hint(actions: [.closeHelp], label: "close", dropRank: 0),
      Hint(actions: [.previous, .next], label: "scroll", dropRank: 1),
    ]
  }

  mutating func perform(_ action: KeyAction, key: Key, now: Date, app: inout ChecklistsApp)
    -> ScreenReply
  {
    if let motion = action.motion {
      let count = app.helpLines(context, width: app.width - 2).count
      top = motion.target(from: top, count: count, page: app.contentRows)
      return .handled()
    }
    switch action {
    case .help, .closeHelp: return .close
    case .messages:
      self = HelpScreen(context: .messages)
      return .handled()
    default: return .passed
    }
  }

  mutating func type(_ key: Key, now: Date, app: inout ChecklistsApp) -> ScreenReply {
    .handled()
  }

  mutating func paste(_ text: String, now: Date, app: inout ChecklistsApp) -> ScreenReply {
    .handled()
  }

  mutating func click(_ mouse: MouseEvent, now: Date, app: inout ChecklistsApp) -> ScreenReply {
    if mouse.kind != .press { top += mouse.kind == .wheelDown ? 3 : -3 }
    return .handled()
  }

  mutating func clamp(in app: ChecklistsApp) {
    top = min(max(top, 0), bottom(in: app))
  }

  /// The last first line that still fills the screen.
  private func bottom(in app: ChecklistsApp) -> Int {
    max(app.helpLines(context, width: app.width - 2).count - app.contentRows, 0)
  }

  var drawsContent: Bool { true }
  var hidesPhotos: Bool { true }

  func draw(into grid: inout CellGrid, now: Date, app: ChecklistsApp) {
    // The first key that closes help here, as rebound (none: no hint).
    let close = app.keys.keyName(.closeHelp, on: .help).map { "\($0) closes" } ?? ""
    app.renderTitle(context == .messages ? "Messages" : "Help", right: close, into: &grid)
    let lines = app.helpLines(context, width: grid.width - 2)
    let rows = grid.height - 2
    let top = min(max(self.top, 0), max(lines.count - rows, 0))
    for screenRow in 0..<rows where top + screenRow < lines.count {
      let style = top + screenRow == 0 ? CellStyle(color: .accent, attributes: [.bold]) : .plain
      grid.draw(
        lines[top + screenRow], row: screenRow + 1, column: 1, width: grid.width - 2, style: style)
    }
  }
}
