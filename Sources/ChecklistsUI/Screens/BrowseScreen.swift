import ChecklistsCore
import FoundationEssentials

/// A screen of rows to browse: All Lists, a Checklist, or Today, Scheduled and search. They
/// are the bottom of the stack: All Lists always, then Today/Scheduled/search when one is
/// open, then a Checklist (above the view it was opened from, so going back returns there).
/// Forms, pickers, help and questions show over them.
protocol BrowseScreen: Screen {
  /// The due dates its rows on screen show (their text changes as time passes).
  func visibleDueDates(in app: ChecklistsApp) -> [Date]
  /// Whether what it shows changes at midnight (Today's count, the days of Scheduled).
  var changesAtMidnight: Bool { get }
}

extension ChecklistsApp {
  /// The browse screen on show (the topmost one).
  var shownBrowseScreen: (any BrowseScreen)? {
    stack.screens.last { $0 is any BrowseScreen } as? any BrowseScreen
  }

  /// Where a browse screen opened now goes: over the browse screens, under what shows over them.
  private var browseTop: Int { (stack.screens.lastIndex { $0 is any BrowseScreen } ?? -1) + 1 }

  /// Lets a browse screen answer with its state back on the stack, where the app's navigation
  /// and change paths find it; false when its answer closed it.
  mutating func answer<S: BrowseScreen>(as screen: inout S, _ body: (inout ChecklistsApp) -> Void)
    -> Bool
  {
    stack.insert(screen, at: browseTop)
    body(&self)
    guard let index = stack.screens.lastIndex(where: { $0 is S }),
      let answered = stack.remove(at: index) as? S
    else { return false }
    screen = answered
    return true
  }

  /// `answer(as:)`'s reply for the stack.
  mutating func reply<S: BrowseScreen>(as screen: inout S, _ body: (inout ChecklistsApp) -> Void)
    -> ScreenReply
  {
    answer(as: &screen, body) ? .handled() : .close
  }

  // MARK: - The browse screens' state, for the app's navigation and change paths

  /// All Lists' selection, scrolling and filter.
  var allLists: Browser {
    get { stack.first(AllListsScreen.self)?.browser ?? Browser() }
    set { stack.update(AllListsScreen.self) { $0.browser = newValue } }
  }

  /// The smart row highlighted on All Lists (Today or Scheduled), nil when a list is.
  var smartSelected: PlannerKind? {
    get { stack.first(AllListsScreen.self)?.smartSelected }
    set { stack.update(AllListsScreen.self) { $0.smartSelected = newValue } }
  }

  /// The list on screen; setting one shows it over the browse screen on show. Nil closes it
  /// and shows All Lists (a view it was opened from closes too: only going back, `closeList`,
  /// returns there).
  var open: OpenList? {
    get { stack.first(ChecklistScreen.self)?.open }
    set {
      guard let newValue else {
        guard stack.contains(ChecklistScreen.self) else { return }
        stack.remove(ChecklistScreen.self)
        stack.remove(PlannerScreen.self)
        return
      }
      if stack.contains(ChecklistScreen.self) {
        stack.update(ChecklistScreen.self) { $0.open = newValue }
      } else {
        stack.insert(ChecklistScreen(open: newValue), at: browseTop)
      }
    }
  }

  /// Today, Scheduled or a search, when one is on screen (not under a list opened from it).
  var planner: PlannerView? {
    get { (shownBrowseScreen as? PlannerScreen)?.view }
    set {
      guard let newValue else {
        stack.remove(PlannerScreen.self)
        return
      }
      if shownBrowseScreen is PlannerScreen {
        stack.update(PlannerScreen.self) { $0.view = newValue }
      } else {
        stack.insert(PlannerScreen(view: newValue), at: browseTop)
      }
    }
  }

  /// The model version the planner view's lines were made from (-1: to be made again).
  var plannerVersion: Int {
    get { (shownBrowseScreen as? PlannerScreen)?.version ?? -1 }
    set { stack.update(PlannerScreen.self) { $0.version = newValue } }
  }

  /// The line to select when the planner view is next made (after an undo).
  var plannerKeep: PlannerLine? {
    get { (shownBrowseScreen as? PlannerScreen)?.keep }
    set { stack.update(PlannerScreen.self) { $0.keep = newValue } }
  }
}

/// When a letter (`d`) last deleted an item: the same letter right after (vim's `dd`) deletes
/// nothing.
struct ItemDelete: Equatable {
  var date: Date
  var key: Key
}

extension ChecklistsApp {
  /// When a letter last deleted an item on the browse screen on show (a Checklist, or Today,
  /// Scheduled and search), for the `dd` guard.
  var lastItemDelete: ItemDelete? {
    get {
      switch shownBrowseScreen {
      case let screen as ChecklistScreen: return screen.lastItemDelete
      case let screen as PlannerScreen: return screen.lastItemDelete
      default: return nil
      }
    }
    set {
      switch shownBrowseScreen {
      case is ChecklistScreen: stack.update(ChecklistScreen.self) { $0.lastItemDelete = newValue }
      case is PlannerScreen: stack.update(PlannerScreen.self) { $0.lastItemDelete = newValue }
      default: break
      }
    }
  }
}

extension Hint {
  /// The hint of one action.
  init(_ action: KeyAction, _ label: String, _ dropRank: Int) {
    self.init(actions: [action], label: label, dropRank: dropRank)
  }
}

extension ChecklistsApp {
  /// The status line while a filter or a search is typed: `/` and the field.
  func drawTyping(_ field: TextField, into grid: inout CellGrid) {
    let row = grid.height - 1
    let style = CellStyle(color: .accent)
    grid.fill(row: row, column: 0, width: grid.width, style: style)
    grid.draw("/", row: row, column: 0, width: 1, style: style)
    grid.drawField(field, row: row, column: 1, width: grid.width - 1, style: style, focused: true)
  }
}
