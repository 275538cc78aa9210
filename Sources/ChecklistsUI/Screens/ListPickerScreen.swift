import ChecklistsCore
import FoundationEssentials

/// Choosing the list an item moves to (`m`): the other lists, in All Lists order.
struct ListPickerScreen: Screen {
  /// The list the item is in.
  var listID: Checklist.ID
  /// The item's id, and its index when the picker opened (found again by id).
  var itemID: Int
  var itemIndex: Int
  /// The lists it can go to.
  var targets: [Checklist.ID]
  /// The highlighted row of `targets`.
  var selected = 0

  func keyScreen(in app: ChecklistsApp) -> KeyScreen { .picker }

  var helpContext: HelpContext? { .listPicker }

  func hints(in app: ChecklistsApp) -> [Hint]? {
    [
      Hint(actions: [.pick], label: "move here", dropRank: 0),
      Hint(actions: [.closePicker], label: "back", dropRank: 0),
      Hint(actions: [.help], label: "help", dropRank: 1),
    ]
  }

  mutating func perform(_ action: KeyAction, key: Key, now: Date, app: inout ChecklistsApp)
    -> ScreenReply
  {
    if let motion = action.motion {
      selected = motion.target(from: selected, count: targets.count, page: app.contentRows - 1)
      return .handled()
    }
    switch action {
    case .pick:
      app.moveToPickedList(self, now: now)
      return .close
    case .closePicker:
      return .close
    case .quit:
      // A picker is a question, not a place to quit from: say how to leave it.
      let pick = app.keyName(.pick, on: .picker, or: "Enter")
      let back = app.keyName(.closePicker, on: .picker, or: "Esc")
      app.status = StatusMessage(
        text: "\(pick) moves the item there, \(back) goes back without moving it",
        isError: false)
      return .handled()
    default:
      return .passed
    }
  }

  mutating func paste(_ text: String, now: Date, app: inout ChecklistsApp) -> ScreenReply {
    .handled()
  }

  mutating func click(_ mouse: MouseEvent, now: Date, app: inout ChecklistsApp) -> ScreenReply {
    .handled()
  }

  /// Keeps to the lists there are after a merge: a list deleted elsewhere goes, one made
  /// elsewhere comes in, the same list stays highlighted; with no other list left it closes.
  mutating func followMerge(in app: ChecklistsApp) -> Bool {
    let highlighted = targets.indices.contains(selected) ? targets[selected] : nil
    targets = app.dataModel.lists.map(\.id).filter { $0 != listID }
    guard !targets.isEmpty else { return false }
    selected =
      highlighted.flatMap { targets.firstIndex(of: $0) } ?? min(selected, targets.count - 1)
    return true
  }

  var drawsContent: Bool { true }
  var hidesPhotos: Bool { true }
  var allowsReminderJump: Bool { true }

  /// The lists an item can move to, as rows like All Lists' with the chosen one highlighted.
  func draw(into grid: inout CellGrid, now: Date, app: ChecklistsApp) {
    let model = app.dataModel
    let text =
      model.list(withID: listID)?.index(ofItemID: itemID, near: itemIndex).flatMap { index in
        model.list(withID: listID)?.items[index].text
      } ?? ""
    app.renderTitle("Move \(app.quoted(text)) to", into: &grid)
    let rows = grid.height - 2
    let top = max(min(selected - rows / 2, targets.count - rows), 0)
    for screenRow in 0..<rows where top + screenRow < targets.count {
      let row = top + screenRow
      guard let list = model.list(withID: targets[row]) else { continue }
      let isSelected = row == selected
      let style = CellStyle(
        color: isSelected ? .selection : .normal, attributes: isSelected ? [.reverse] : [])
      let y = screenRow + 1
      grid.fill(row: y, column: 0, width: grid.width, style: style)
      grid.draw(
        app.glyphs.icon(list.iconName), row: y, column: 1, width: app.glyphs.iconWidth,
        style: style)
      let column = 2 + app.glyphs.iconWidth
      grid.draw(
        list.name, row: y, column: column, width: max(grid.width - column - 1, 0), style: style)
    }
  }
}
