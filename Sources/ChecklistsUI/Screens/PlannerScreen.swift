import ChecklistsCore
import FoundationEssentials

/// Today, Scheduled or a search: items from every list (each row names its list), opened over
/// All Lists. Showing a row's item in its list opens a Checklist over it; going back returns
/// here.
struct PlannerScreen: BrowseScreen {
  /// The view's lines, selection and scrolling, and a search's query.
  var view: PlannerView
  /// The model version the lines were made from (-1: to be made again).
  var version = -1
  /// The line to select when the lines are next made (after an undo).
  var keep: PlannerLine?
  /// When a letter (`d`) last deleted an item here, for the `dd` guard.
  var lastItemDelete: ItemDelete?

  func keyScreen(in app: ChecklistsApp) -> KeyScreen { view.isTyping ? .filter : .planner }

  var helpContext: HelpContext? { .planner }

  func canPerform(_ action: KeyAction, in app: ChecklistsApp) -> Bool? {
    switch action {
    case .moveToList:
      guard case .item = view.selectedLine else { return false }
      return app.dataModel.lists.count > 1
    case .moveDown, .moveUp, .clearChecked, .sort: return false
    default: return nil
    }
  }

  func hints(in app: ChecklistsApp) -> [Hint]? {
    if view.isTyping {
      return [Hint(.keepFilter, "to the results", 0), Hint(.clearFilter, "close search", 0)]
    }
    let undo = Hint(.undo, "undo", 7)
    let back = Hint(.back, "back", 3)
    let messages = Hint(.messages, "messages", 12)
    guard view.selectedLine != nil else {
      return [Hint(.search, "search", 1), undo, back, messages, Hint(.help, "help", 0)]
    }
    if case .list = view.selectedLine {
      return [
        Hint(.open, "open", 1), Hint(.search, "search", 2), undo, back, messages,
        Hint(.help, "help", 0),
      ]
    }
    return [
      Hint(.toggle, "check", 1), Hint(.open, "show in list", 2), Hint(.editItem, "edit", 4),
      Hint(.deleteItem, "delete", 5), Hint(.moveToList, "move", 6),
      Hint(.search, "search", 8), undo, back, messages, Hint(.help, "help", 0),
    ]
  }

  mutating func perform(_ action: KeyAction, key: Key, now: Date, app: inout ChecklistsApp)
    -> ScreenReply
  {
    if let motion = action.motion {
      view.selected = motion.target(
        from: view.selected, count: view.selectable.count, page: app.contentRows)
      view.clamp(rows: app.contentRows)
      return .handled()
    }
    switch action {
    case .filter, .search:
      return app.reply(as: &self) { $0.performInPlanner(.search, key: key, now: now) }
    case .clearFilter:
      guard view.isTyping else { return .handled() }
      return app.reply(as: &self) { $0.closePlanner() }
    case .keepFilter:
      guard view.isTyping else { return .handled() }
      return app.reply(as: &self) { $0.keepSearch() }
    case .open, .addList, .editList, .deleteList, .toggle, .addItem, .editItem, .deleteItem,
      .moveDown, .moveUp, .sort, .back, .closeList, .clearChecked, .moveToList:
      return app.reply(as: &self) { $0.performInPlanner(action, key: key, now: now) }
    default:
      return .passed
    }
  }

  mutating func type(_ key: Key, now: Date, app: inout ChecklistsApp) -> ScreenReply {
    guard view.isTyping else {
      return app.reply(as: &self) { $0.unknownKey(key) }  // its keys name the help key
    }
    return app.reply(as: &self) { $0.updateSearch(now: now) { _ = $0.handle(key) } }
  }

  mutating func paste(_ text: String, now: Date, app: inout ChecklistsApp) -> ScreenReply {
    guard view.isTyping else { return .handled() }
    return app.reply(as: &self) { $0.updateSearch(now: now) { $0.insert(text) } }
  }

  mutating func click(_ mouse: MouseEvent, now: Date, app: inout ChecklistsApp) -> ScreenReply {
    return app.reply(as: &self) { $0.handlePlannerMouse(mouse, now: now) }
  }

  mutating func clamp(in app: ChecklistsApp) { view.clamp(rows: app.contentRows) }

  func draw(into grid: inout CellGrid, now: Date, app: ChecklistsApp) {
    app.renderPlanner(view, into: &grid, now: now)
  }

  func drawStatus(into grid: inout CellGrid, app: ChecklistsApp) -> Bool {
    guard app.stack.top is Self, view.isTyping else { return false }
    app.drawTyping(view.query, into: &grid)
    return true
  }

  var drawsContent: Bool { true }
  var allowsReminderJump: Bool { true }

  func visibleDueDates(in app: ChecklistsApp) -> [Date] { app.plannerDueDates(view) }
  var changesAtMidnight: Bool { view.kind != .search }
}
