import ChecklistsCore
import FoundationEssentials

/// A Checklist: one list's items, in manual or due-date order (`s`), filtered with `/`. It
/// opens over All Lists, or over Today, Scheduled or a search when a row there showed the item
/// in its list (going back returns there).
struct ChecklistScreen: BrowseScreen {
  /// The list, its selection, scrolling, filter and due-date order.
  var open: OpenList
  /// When a letter (`d`) last deleted an item: the same letter right after (vim's `dd`)
  /// deletes nothing.
  var lastItemDelete: ItemDelete?

  func keyScreen(in app: ChecklistsApp) -> KeyScreen {
    open.browser.filterField == nil ? .checklist : .filter
  }

  var helpContext: HelpContext? { .checklist }

  func canPerform(_ action: KeyAction, in app: ChecklistsApp) -> Bool? {
    let list = app.dataModel.list(withID: open.listID)
    switch action {
    case .moveDown, .moveUp:
      guard let list, open.dueOrder == nil else { return false }
      let target = open.browser.selected + (action == .moveDown ? 1 : -1)
      return target >= 0 && target < open.browser.rowCount(total: list.items.count)
    case .clearChecked:
      return list?.items.contains { $0.checked } ?? false
    case .moveToList:
      guard let list else { return false }
      return app.dataModel.lists.count > 1 && open.browser.rowCount(total: list.items.count) > 0
    case .sort:
      guard let list else { return false }
      return open.dueOrder != nil || list.items.count > 1
    case .indent, .outdent, .toggleFold, .cyclePriority:
      guard let index = open.browser.index(ofRow: open.browser.selected),
        index < open.outline.itemCount, index < list?.items.count ?? 0
      else { return false }
      switch action {
      case .outdent: return open.outline.depths[index] > 0
      case .toggleFold: return open.showsOutline && open.outline.info(index).hasChildren
      default: return true  // indent says why not when there is no item above to go under
      }
    case .foldAll: return open.showsOutline && open.outline.hasSubtasks
    case .unfoldAll: return open.showsOutline && open.outline.hidesAny
    default: return nil
    }
  }

  func hints(in app: ChecklistsApp) -> [Hint]? {
    guard let list = app.dataModel.list(withID: open.listID) else { return nil }
    let undo = Hint(.undo, "undo", 7)
    let messages = Hint(.messages, "messages", 12)
    let escape = Hint(.back, open.browser.filter != nil ? "clear filter" : "back", 3)
    guard open.browser.rowCount(total: list.items.count) > 0 else {
      return [Hint(.addItem, "add", 1), undo, escape, messages, Hint(.help, "help", 0)]
    }
    // Only on a parent (it drops first): a list without subtasks shows the hints it always did.
    let folded =
      open.browser.index(ofRow: open.browser.selected).map {
        $0 < open.outline.itemCount && open.outline.info($0).isFolded
      } ?? false
    let foldHint = Hint(.toggleFold, folded ? "unfold" : "fold", 13)
    return [
      Hint(.toggle, "check", 1), Hint(.addItem, "add", 2), Hint(.editItem, "edit", 4),
      Hint(.deleteItem, "delete", 5),
      Hint(actions: [.moveDown, .moveUp], label: "move", dropRank: 9),
      Hint(.sort, open.dueOrder == nil ? "by due date" : "manual order", 8),
      Hint(.moveToList, "move to list", 6), Hint(.clearChecked, "clear checked", 10),
      Hint(.filter, "filter", 7), foldHint, undo, escape, messages,
      Hint(.help, "help", 0),
    ]
  }

  /// The selected item's photo in the pane beside a wide list.
  func photoBoxes(in app: ChecklistsApp) -> [PhotoBox]? {
    guard let paneWidth = app.previewPaneWidth,
      let box = app.previewPaneBox(open, paneWidth: paneWidth).box
    else { return [] }
    return [box]
  }

  mutating func perform(_ action: KeyAction, key: Key, now: Date, app: inout ChecklistsApp)
    -> ScreenReply
  {
    if let motion = action.motion {
      if let list = app.dataModel.list(withID: open.listID) {
        app.moveSelection(&open.browser, motion, total: list.items.count)
      }
      return .handled()
    }
    switch action {
    case .filter:
      open.browser.filterField = TextField(open.browser.filter ?? "")
      return .handled()
    case .search, .open, .addList, .editList, .deleteList:
      return .handled()  // All Lists' own
    case .clearFilter:
      guard open.browser.filterField != nil || open.browser.filter != nil else {
        return .handled()
      }
      open.browser.filterField = nil
      return app.reply(as: &self) { $0.setChecklistFilter(nil) }
    case .keepFilter:
      open.browser.filterField = nil
      return .handled()
    case .toggle, .addItem, .editItem, .deleteItem, .moveDown, .moveUp, .sort, .back,
      .closeList, .clearChecked, .moveToList, .indent, .outdent, .toggleFold, .foldAll,
      .unfoldAll, .cyclePriority:
      return app.reply(as: &self) { $0.performOnChecklist(action, key: key, now: now) }
    default:
      return .passed
    }
  }

  mutating func type(_ key: Key, now: Date, app: inout ChecklistsApp) -> ScreenReply {
    guard var field = open.browser.filterField else {
      return app.reply(as: &self) { $0.unknownKey(key) }  // its keys name the help key
    }
    _ = field.handle(key)
    open.browser.filterField = field
    return app.reply(as: &self) { $0.setChecklistFilter(field.text.isEmpty ? nil : field.text) }
  }

  mutating func paste(_ text: String, now: Date, app: inout ChecklistsApp) -> ScreenReply {
    guard var field = open.browser.filterField else { return .handled() }
    field.insert(text)
    open.browser.filterField = field
    return app.reply(as: &self) { $0.setChecklistFilter(field.text.isEmpty ? nil : field.text) }
  }

  mutating func click(_ mouse: MouseEvent, now: Date, app: inout ChecklistsApp) -> ScreenReply {
    return app.reply(as: &self) { $0.clickOnChecklist(mouse, now: now) }
  }

  mutating func clamp(in app: ChecklistsApp) {
    guard let list = app.dataModel.list(withID: open.listID) else { return }
    open.browser.clamp(total: list.items.count, visibleRows: app.contentRows)
  }

  func draw(into grid: inout CellGrid, now: Date, app: ChecklistsApp) {
    if let paneWidth = app.previewPaneWidth {
      app.renderChecklistWithPane(open, paneWidth: paneWidth, into: &grid, now: now)
    } else {
      app.renderChecklist(open, into: &grid, now: now)
    }
  }

  func drawStatus(into grid: inout CellGrid, app: ChecklistsApp) -> Bool {
    guard app.stack.top is Self, let field = open.browser.filterField else { return false }
    app.drawTyping(field, into: &grid)
    return true
  }

  var drawsContent: Bool { true }
  var allowsReminderJump: Bool { true }

  /// The due dates of the rows on screen: O(visible rows).
  func visibleDueDates(in app: ChecklistsApp) -> [Date] {
    guard let list = app.dataModel.list(withID: open.listID) else { return [] }
    let total = list.items.count
    let count = open.browser.rowCount(total: total)
    let rows = app.height - 2
    guard rows > 0, !app.isTooSmall else { return [] }
    let top = app.visibleTop(open.browser, count: count, rows: rows)
    var dates: [Date] = []
    for row in top..<max(min(top + rows, count), top) {
      guard let index = open.browser.index(ofRow: row), index < total else { continue }
      let item = list.items[index]
      if item.showsDueDate { dates.append(item.dueDate) }
    }
    return dates
  }

  var changesAtMidnight: Bool { false }
}
