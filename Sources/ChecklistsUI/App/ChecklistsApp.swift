import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The Checklists app as a pure state machine: keys in, effects out, screens drawn into a grid.
///
/// Screens mirror the iPhone app: All Lists, a Checklist, Item detail, List detail (with its
/// icon picker) and Help (`?` lists every key of the screen). Every edit is a `ModelChange`
/// kept for undo (`u`) and redo (Ctrl-R); undo shows the list and row it touched.
///
/// Choices worth knowing:
/// - Deleting a list asks `Delete list "X" with N items? y/n` (a list can hold much work, even
///   if undo would bring it back); deleting an item does not ask (u undoes it).
/// - Control characters in data are drawn as Control Pictures (`␛` for ESC), see `SafeText`.
/// - By due date (`s`) shows items with a due date (given, or Remind Me on) by due date first,
///   then the others in manual order; moving items (J/K) needs manual order.
/// - Cost per key and per frame does not grow with the number of items: only visible rows are
///   drawn; filtering and due-date ordering are computed once per filter keystroke or change.
public struct ChecklistsApp: TerminalProgram {
  /// The model, its history, the status line, reminders and photos, beneath the screens.
  var session: Session
  /// The data to save.
  public var dataModel: DataModel { session.model }
  /// Names of the lists shown by due date rather than in manual order (persisted by the driver).
  public var sortByDue: Set<String> { session.sortByDue }

  let options: AppOptions
  /// The glyphs and the due dates' parser and formatter.
  let environment: AppEnvironment
  var width: Int
  var height: Int

  /// The screens on show, bottom first: All Lists, a list or Today/Scheduled/search over it,
  /// and the help, questions and pickers over those (see `Screen`).
  var stack = ScreenStack()
  /// The status line's message, if one is showing.
  var status: StatusMessage? {
    get { session.status }
    set { session.status = newValue }
  }

  /// Effects a handler asked for on the way (a chosen photo's check), sent with the event's.
  var queuedEffects: [Effect] = []
  /// Photos are not drawn while the terminal window is in the background (focus lost).
  var photosHidden = false

  /// When a due date on screen next reads differently (a `.tick` redraws it); nil when none.
  var redrawAt: Date?
  /// Whether the last key was a Ctrl-C in a form that kept the form open (a second one quits).
  var interruptPending = false
  /// How soon after a `d` a second `d` is taken for a `dd` and ignored.
  static let doubleDeleteWindow: TimeInterval = 0.5

  /// Creates the app on a loaded model.
  ///
  /// - Parameters:
  ///   - checklistIndex: the list to open at start (the saved `ChecklistIndex`), -1 for All Lists.
  ///   - openView: on All Lists, the view to open at start: "today" or "scheduled" (as
  ///     `openView` gave it when the app last quit); anything else opens none.
  ///   - sortByDue: names of lists shown by due date.
  ///   - isFirstRun: on the very first run with no lists, a list named "List" is made and opened,
  ///     as the iPhone app does.
  ///   - size: the terminal's size in columns and rows.
  ///   - now: the time; reminders already due at start do not fire (their rows show overdue).
  public init(
    model: DataModel, checklistIndex: Int = -1, openView: String? = nil,
    sortByDue: Set<String> = [], isFirstRun: Bool = false, options: AppOptions = AppOptions(),
    size: (width: Int, height: Int), now: Date
  ) {
    self.session = Session(
      model: model, sortByDue: sortByDue,
      showsPhotos: options.photos != nil && options.photoColors != nil, now: now)
    self.options = options
    self.environment = AppEnvironment(options: options)
    self.width = max(size.width, 0)
    self.height = max(size.height, 0)
    stack.push(AllListsScreen())
    var startIndex = checklistIndex
    if isFirstRun && dataModel.lists.isEmpty {
      let list = session.makeList(name: "List", iconName: IconName.noIcon.rawValue)
      _ = session.apply(.change(dataModel.insertList(list)), now: now)
      startIndex = 0
      let words = [
        keys.keyName(.addItem, on: .checklist).map { "Press \($0) to add an item" },
        keys.keyName(.help, on: .checklist).map { "\($0) for help" },
      ].compactMap { $0 }
      status = StatusMessage(
        text: (["Welcome!"] + [words.joined(separator: ", ")]).joined(separator: " "),
        isError: false)
    }
    if startIndex >= 0 && startIndex < dataModel.lists.count {
      allLists.selected = startIndex
      openList(id: dataModel.lists[startIndex].id)
    }
    clampSelections()
    refreshSmartCounts(now: now)
    if open == nil, let openView,
      let kind = PlannerKind.allCases.first(where: { Self.name(of: $0) == openView })
    {
      openPlanner(kind, now: now)
    }
    redrawAt = nextRedraw(after: now)
  }

  /// The view open on All Lists' behalf, to open again at the next start: "today",
  /// "scheduled", or nil (a list, All Lists, or a search, which is not kept).
  public var openView: String? { planner.flatMap { Self.name(of: $0.kind) } }

  /// The name a view is remembered by; nil for a search.
  private static func name(of kind: PlannerKind) -> String? {
    switch kind {
    case .today: return "today"
    case .scheduled: return "scheduled"
    case .search: return nil
    }
  }

  /// Whether `dataModel` changed since it was loaded or last saved.
  public var isDirty: Bool { session.isDirty }

  /// The index of the list on screen in `dataModel.lists`, -1 on All Lists.
  public var checklistIndex: Int {
    guard let open else { return -1 }
    return dataModel.index(ofList: open.listID) ?? -1
  }

  /// The status line's message, if one is showing (for tests and the driver's title).
  var statusMessage: String? { status?.text }

  /// When the screen next needs a `.tick`: the next reminder, or the next instant a due date
  /// on screen reads differently ("in 3 min" becoming "in 2 min", a row turning overdue, a new
  /// day). One deadline for the driver's single timer; O(visible rows).
  public func nextWakeUp(after now: Date) -> Date? {
    guard let redrawAt else { return session.reminders.nextDue }
    guard let due = session.reminders.nextDue else { return redrawAt }
    return min(due, redrawAt)
  }

  /// The first instant after `now` at which a due date on screen reads differently.
  func nextRedraw(after now: Date) -> Date? {
    // Today's count on All Lists, and Today and Scheduled's days, change at midnight (also
    // under a screen over them, which shows them again when it closes).
    var next: Date? =
      shownBrowseScreen?.changesAtMidnight == true
      ? nextMidnight(after: now) : nil
    for date in visibleDueDates() {
      let change = formatter.nextChange(of: date, after: now)
      if next.map({ change < $0 }) ?? true { next = change }
    }
    return next
  }

  /// The due dates the rows on screen show (none while a form or a screen covers the rows).
  func visibleDueDates() -> [Date] {
    guard let screen = stack.screens.last(where: \.drawsContent) as? any BrowseScreen
    else { return [] }
    return screen.visibleDueDates(in: self)
  }

  // MARK: - Events

  /// Updates the state for one event at time `now`; returns what the driver must do.
  public mutating func handle(_ event: InputEvent, now: Date) -> [Effect] {
    var effects: [Effect] = []
    if case .key(let key) = event, !keyActs(key) { return [] }
    if case .key(let key) = event, !key.isControl {
      status = nil
    }
    // A resize only lays the screen out again. Reminders wait for the tick that follows at
    // once, so building their index does not hold up the first screen, which the driver
    // draws after its first resize.
    let firesReminders = if case .resize = event { false } else { true }
    if firesReminders { effects += fireReminders(now: now) }
    switch event {
    case .key(let key):
      photosHidden = false
      effects += handleKey(key, now: now)
    case .paste(let text):
      if !isTooSmall { handlePaste(text, now: now) }
    case .mouse(let mouse):
      if !isTooSmall { handleMouse(mouse, now: now) }
    case .resize(let newWidth, let newHeight):
      width = max(newWidth, 0)
      height = max(newHeight, 0)
    case .focusLost:
      closePhotoPicker()
      photosHidden = true
      if isDirty { effects.append(requestSave()) }
    case .focusGained:
      photosHidden = false
    case .tick:
      break
    case .saveFinished(let outcome):
      session.saveFinished(succeeded: outcome.succeeded)
      let note = outcome.merged.flatMap { adopt($0, now: now) }
      status = StatusMessage(
        text: [outcome.message, note].compactMap { $0 }.joined(separator: "; "),
        isError: !outcome.succeeded)
    case .photoLoaded(let request, let picture):
      session.photosRequested.remove(request)
      session.photoPictures.insert(picture, for: request)
    case .photoChecked(let path, let problem):
      photoChecked(path, problem: problem)
    case .quitSaveFailed(let reason):
      stack.remove(QuitPromptScreen.self)
      stack.push(QuitPromptScreen(reason: reason))
      status = nil
    case .mergedFromElsewhere(let merged, let message):
      let note = adopt(merged, now: now)
      session.tellMerge(merged, message: message, note: note)
    case .notice(let text):
      status = StatusMessage(text: text, isError: true)
    }
    refreshPlannerIfNeeded(event: event, now: now)
    clampSelections()
    if firesReminders { effects += fireReminders(now: now) }
    redrawAt = nextRedraw(after: now)
    effects += photoLoads()
    effects += queuedEffects
    queuedEffects.removeAll()
    return effects
  }

  /// The help for the screen on show.
  var helpContext: HelpContext {
    for screen in stack.screens.reversed() {
      if let context = screen.helpContext { return context }
    }
    return .allLists  // All Lists is always on the stack
  }

  /// Says that a key does nothing here (any key but Esc, which people press to be sure).
  mutating func unknownKey(_ key: Key, on screen: KeyScreen? = nil) {
    if key == .escape { return }
    let name = KeyNotation.display(key)
    let help =
      keys.keyName(.help, on: screen ?? keyScreen).map { " \(glyphs.dash) \($0) for help" } ?? ""
    status = StatusMessage(text: "\(name): not a key here\(help)", isError: false)
  }

  mutating func requestSave() -> Effect {
    session.saveRequested()
    return .save
  }

  /// Rows available to list contents (between the title bar and the status line).
  var contentRows: Int { max(height - 2, 1) }

  mutating func clampSelections() {
    // A list deleted (elsewhere, or by an undo) closes.
    if let open, dataModel.list(withID: open.listID) == nil { self.open = nil }
    clampScreens()
  }

  /// Pasted text goes to the screen on top (a field that takes it), or to none.
  mutating func handlePaste(_ text: String, now: Date) {
    _ = askScreens { $0.paste(text, now: now, app: &$1) }
  }
}

extension Key {
  /// Whether this is a control chord (these leave the status line message alone).
  var isControl: Bool {
    if case .control = self { return true }
    return false
  }
}
