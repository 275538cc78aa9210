import ChecklistsCore
import FoundationEssentials

/// The screens on show, bottom first: the app asks the top one, and each passes down what is
/// not its own (see `Screen`).
struct ScreenStack: Equatable {
  /// The screens, bottom first.
  fileprivate(set) var screens: [any Screen] = []

  /// The screen on top, if any.
  var top: (any Screen)? { screens.last }

  /// Puts `screen` on top.
  mutating func push(_ screen: some Screen) { screens.append(screen) }

  /// The topmost screen of type `S`, if one is on the stack.
  func first<S: Screen>(_ type: S.Type) -> S? {
    for screen in screens.reversed() {
      if let found = screen as? S { return found }
    }
    return nil
  }

  /// Whether a screen of type `S` is on the stack.
  func contains<S: Screen>(_ type: S.Type) -> Bool { first(type) != nil }

  /// Puts `screen` at `index` (0 is the bottom).
  mutating func insert(_ screen: some Screen, at index: Int) {
    screens.insert(screen, at: min(max(index, 0), screens.count))
  }

  /// Takes the screen at `index` off the stack.
  mutating func remove(at index: Int) -> any Screen { screens.remove(at: index) }

  /// Takes every screen of type `S` off the stack.
  mutating func remove<S: Screen>(_ type: S.Type) { screens.removeAll { $0 is S } }

  /// Changes the topmost screen of type `S` in place (nothing when there is none).
  mutating func update<S: Screen>(_ type: S.Type, _ change: (inout S) -> Void) {
    guard let index = screens.lastIndex(where: { $0 is S }), var screen = screens[index] as? S
    else { return }
    change(&screen)
    screens[index] = screen
  }

  /// Whether a screen draws the content area (the screens below it do not show).
  var coversContent: Bool { screens.contains { $0.drawsContent } }

  /// Whether photos stay hidden (a screen covers them).
  var hidesPhotos: Bool { screens.contains { $0.hidesPhotos } }

  /// Whether a Ctrl-C in a form stays pending (a second one quits).
  var keepsInterruptPending: Bool { screens.contains { $0.keepsInterruptPending } }

  /// What a first Ctrl-C keeps, from the topmost screen that keeps a draft.
  var interruptKeeps: String? { screens.reversed().lazy.compactMap(\.interruptKeeps).first }

  /// Whether a reminder's message may offer to jump to it.
  var allowsReminderJump: Bool { screens.allSatisfy { $0.allowsReminderJump } }

  /// Takes out the screen at `index` to let it answer.
  fileprivate mutating func take(at index: Int) -> any Screen { screens.remove(at: index) }

  /// Puts a screen back where it was taken from (on top of what its answer popped below it).
  fileprivate mutating func putBack(_ screen: any Screen, at index: Int) {
    screens.insert(screen, at: min(index, screens.count))
  }

  static func == (lhs: ScreenStack, rhs: ScreenStack) -> Bool {
    lhs.screens.count == rhs.screens.count
      && zip(lhs.screens, rhs.screens).allSatisfy { $0.isEqual(to: $1) }
  }
}

extension Screen {
  /// Whether `other` is this same screen in the same state.
  func isEqual(to other: any Screen) -> Bool { (other as? Self) == self }
}

extension ChecklistsApp {
  /// Asks the screens from the top down; the first one that does not pass answers. Each is off
  /// the stack while it answers and goes back where it was unless it closed.
  mutating func askScreens(
    _ ask: (inout any Screen, inout ChecklistsApp) -> ScreenReply
  ) -> ScreenReply {
    var index = stack.screens.count - 1
    while index >= 0 {
      var screen = stack.take(at: index)
      let reply = ask(&screen, &self)
      if case .handled(_, closes: true) = reply {
      } else {
        stack.putBack(screen, at: index)
      }
      if reply != .passed { return reply }
      index = min(index, stack.screens.count) - 1
    }
    return .passed
  }

  /// Lets every screen follow a merge from elsewhere; those that cannot close.
  mutating func followMergeOnScreens() {
    var stack = self.stack
    var kept: [any Screen] = []
    for var screen in stack.screens where screen.followMerge(in: self) { kept.append(screen) }
    stack.screens = kept
    self.stack = stack
  }

  /// Lets every screen keep its state in range.
  mutating func clampScreens() {
    var stack = self.stack
    for index in stack.screens.indices {
      stack.screens[index].clamp(in: self)
    }
    self.stack = stack
  }

  /// The list picker of `m`, when it shows.
  var listPicker: ListPickerScreen? { stack.first(ListPickerScreen.self) }
  /// The help screen, when it shows.
  var help: HelpScreen? { stack.first(HelpScreen.self) }
  /// The y/n question on the status line, if one is asked.
  var confirmation: Confirmation? { stack.first(ConfirmationScreen.self)?.question }
  /// Asking what to do after quitting could not save; nil otherwise.
  var quitPrompt: QuitPromptScreen? { stack.first(QuitPromptScreen.self) }
}
