import ChecklistsCore
import FoundationEssentials

/// All Lists: the Today and Scheduled rows, then every list (filtered with `/`). It is the
/// bottom of the stack; a list, Today, Scheduled or a search opens over it.
struct AllListsScreen: BrowseScreen {
  /// Selection, scrolling and filter of the lists' rows.
  var browser = Browser()
  /// The smart row highlighted (Today or Scheduled), nil when a list is.
  var smartSelected: PlannerKind?

  func keyScreen(in app: ChecklistsApp) -> KeyScreen {
    browser.filterField == nil ? .lists : .filter
  }

  var helpContext: HelpContext? { .allLists }

  func canPerform(_ action: KeyAction, in app: ChecklistsApp) -> Bool? {
    switch action {
    case .moveDown, .moveUp, .clearChecked, .moveToList, .sort: return false
    default: return nil
    }
  }

  func hints(in app: ChecklistsApp) -> [Hint]? {
    let undo = Hint(.undo, "undo", 7)
    let messages = Hint(.messages, "messages", 12)
    guard browser.rowCount(total: app.dataModel.lists.count) > 0 || smartSelected != nil else {
      return [
        Hint(.addList, "add", 1), undo, Hint(.quit, "quit", 3), messages, Hint(.help, "help", 0),
      ]
    }
    if smartSelected != nil {
      return [
        Hint(.open, "open", 1), Hint(.addList, "add list", 2), Hint(.search, "search", 6), undo,
        Hint(.quit, "quit", 3), messages, Hint(.help, "help", 0),
      ]
    }
    return [
      Hint(.open, "open", 1), Hint(.addList, "add", 2), Hint(.editList, "edit", 4),
      Hint(.deleteList, "delete", 5), Hint(.search, "search", 6), Hint(.filter, "filter", 6),
      undo, Hint(.quit, "quit", 3), messages, Hint(.help, "help", 0),
    ]
  }

  mutating func perform(_ action: KeyAction, key: Key, now: Date, app: inout ChecklistsApp)
    -> ScreenReply
  {
    if let motion = action.motion {
      return app.reply(as: &self) { $0.moveOnAllLists(motion) }
    }
    switch action {
    case .filter:
      browser.filterField = TextField(browser.filter ?? "")
      return .handled()
    case .search:
      return app.reply(as: &self) { $0.openPlanner(.search, now: now) }
    case .clearFilter:
      guard browser.filterField != nil || browser.filter != nil else { return .handled() }
      browser.filterField = nil
      return app.reply(as: &self) { $0.setListsFilter(nil) }
    case .keepFilter:
      browser.filterField = nil
      return .handled()
    case .open, .addList, .editList, .deleteList:
      return app.reply(as: &self) { $0.performOnAllLists(action, now: now) }
    default:
      return .passed
    }
  }

  mutating func type(_ key: Key, now: Date, app: inout ChecklistsApp) -> ScreenReply {
    guard var field = browser.filterField else {
      return app.reply(as: &self) { $0.unknownKey(key) }  // its keys name the help key
    }
    _ = field.handle(key)
    browser.filterField = field
    return app.reply(as: &self) { $0.setListsFilter(field.text.isEmpty ? nil : field.text) }
  }

  mutating func paste(_ text: String, now: Date, app: inout ChecklistsApp) -> ScreenReply {
    guard var field = browser.filterField else { return .handled() }
    field.insert(text)
    browser.filterField = field
    return app.reply(as: &self) { $0.setListsFilter(field.text.isEmpty ? nil : field.text) }
  }

  mutating func click(_ mouse: MouseEvent, now: Date, app: inout ChecklistsApp) -> ScreenReply {
    return app.reply(as: &self) { $0.clickOnAllLists(mouse, now: now) }
  }

  mutating func clamp(in app: ChecklistsApp) {
    browser.clamp(total: app.dataModel.lists.count, visibleRows: app.listRows)
  }

  func draw(into grid: inout CellGrid, now: Date, app: ChecklistsApp) {
    app.renderAllLists(self, into: &grid)
  }

  func drawStatus(into grid: inout CellGrid, app: ChecklistsApp) -> Bool {
    guard app.stack.top is Self, let field = browser.filterField else { return false }
    app.drawTyping(field, into: &grid)
    return true
  }

  var drawsContent: Bool { true }
  var allowsReminderJump: Bool { true }

  func visibleDueDates(in app: ChecklistsApp) -> [Date] { [] }
  var changesAtMidnight: Bool { true }
}
