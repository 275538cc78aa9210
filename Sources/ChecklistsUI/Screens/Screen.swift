import ChecklistsCore
import FoundationEssentials

/// What a screen did with a key, a paste or a click.
enum ScreenReply: Equatable {
  /// The screen answered: `effects` for the driver; it stays on the stack unless `closes`.
  case handled(effects: [Effect] = [], closes: Bool = false)
  /// Not this screen's to answer: the screen below it answers.
  case passed
  /// The action does not apply and its key is typing (`+` in a Due Date field without a date).
  case typing

  /// Answered, and the screen closes.
  static let close = ScreenReply.handled(closes: true)
}

/// One screen of the app on the `ScreenStack`, as the iPhone app's view controllers and sheets:
/// it owns its state and answers for itself what the key table calls it, what an action does,
/// whether an action can be done now, what a typed key, a paste and a click do, and how it draws.
///
/// The app asks the top of the stack; a screen passes what is not its own to the one below.
/// While a screen answers it is off the stack (it may change the app, push or pop others) and
/// goes back on top afterwards unless it closed.
protocol Screen: Equatable, Sendable {
  /// The screen of the key table whose keys apply in this exact state.
  func keyScreen(in app: ChecklistsApp) -> KeyScreen
  /// The help `?` opens over it; nil when it is the help of the screen below.
  var helpContext: HelpContext? { get }
  /// Whether `action` would do something now (the hints show only those); nil when the screen
  /// below knows.
  func canPerform(_ action: KeyAction, in app: ChecklistsApp) -> Bool?
  /// The status line's hints in display order; nil when the screen below gives them.
  func hints(in app: ChecklistsApp) -> [Hint]?
  /// Does `action`.
  mutating func perform(_ action: KeyAction, key: Key, now: Date, app: inout ChecklistsApp)
    -> ScreenReply
  /// A key the table does not bind here (typing, or "not a key here").
  mutating func type(_ key: Key, now: Date, app: inout ChecklistsApp) -> ScreenReply
  /// Pasted text.
  mutating func paste(_ text: String, now: Date, app: inout ChecklistsApp) -> ScreenReply
  /// A click or the wheel.
  mutating func click(_ mouse: MouseEvent, now: Date, app: inout ChecklistsApp) -> ScreenReply
  /// Follows a merge from elsewhere (the lists it shows may have gone); false when it closes.
  mutating func followMerge(in app: ChecklistsApp) -> Bool
  /// Keeps the state in range after any event (the terminal's size, the model may have changed).
  mutating func clamp(in app: ChecklistsApp)
  /// Draws the content area (the title bar and the rows above the status line), when
  /// `drawsContent`.
  func draw(into grid: inout CellGrid, now: Date, app: ChecklistsApp)
  /// Draws the status line; false when the screen below (or the app's message) does.
  func drawStatus(into grid: inout CellGrid, app: ChecklistsApp) -> Bool
  /// Whether it draws the whole content area (what is below it does not show).
  var drawsContent: Bool { get }
  /// Whether photos below it stay hidden while it shows.
  var hidesPhotos: Bool { get }
  /// The photos it shows, each in its box; nil when it shows none of its own.
  func photoBoxes(in app: ChecklistsApp) -> [PhotoBox]?
  /// Whether a reminder's message may offer `r` (jump to it) while it shows.
  var allowsReminderJump: Bool { get }
  /// Whether a Ctrl-C in a form stays pending while it shows (a second one quits).
  var keepsInterruptPending: Bool { get }
  /// What a first Ctrl-C keeps (a form's draft: "the item"), saying how to leave instead of
  /// quitting; nil when Ctrl-C quits.
  var interruptKeeps: String? { get }
}

extension Screen {
  var helpContext: HelpContext? { nil }
  mutating func followMerge(in app: ChecklistsApp) -> Bool { true }
  func canPerform(_ action: KeyAction, in app: ChecklistsApp) -> Bool? { nil }
  func hints(in app: ChecklistsApp) -> [Hint]? { nil }
  mutating func type(_ key: Key, now: Date, app: inout ChecklistsApp) -> ScreenReply { .passed }
  mutating func paste(_ text: String, now: Date, app: inout ChecklistsApp) -> ScreenReply {
    .passed
  }
  mutating func click(_ mouse: MouseEvent, now: Date, app: inout ChecklistsApp) -> ScreenReply {
    .passed
  }
  mutating func clamp(in app: ChecklistsApp) {}
  func draw(into grid: inout CellGrid, now: Date, app: ChecklistsApp) {}
  func drawStatus(into grid: inout CellGrid, app: ChecklistsApp) -> Bool { false }
  var drawsContent: Bool { false }
  var hidesPhotos: Bool { false }
  func photoBoxes(in app: ChecklistsApp) -> [PhotoBox]? { nil }
  var allowsReminderJump: Bool { false }
  var keepsInterruptPending: Bool { false }
  var interruptKeeps: String? { nil }
}
