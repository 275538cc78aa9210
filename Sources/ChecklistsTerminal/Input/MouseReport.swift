import ChecklistsUI

/// What a terminal's mouse report means to the program (the terminal layer reads the reports
/// itself: curses gives one event for the reports of one read, so a double click whose four
/// reports came together was one click).
enum MouseReport {
  /// The event for a report's button code (xterm's: the low two bits the button, 64 the wheel,
  /// 32 a motion, 4/8/16 Shift/Meta/Ctrl) at a 0-based position: button 1 pressed is a press,
  /// the wheel scrolls; nil for releases, motions, other buttons and positions off the screen.
  static func event(button: Int, column: Int, row: Int, released: Bool) -> MouseEvent? {
    guard !released, button & 32 == 0, column >= 0, row >= 0 else { return nil }
    let position = GridPosition(row: row, column: column)
    if button & 64 != 0 {
      switch button & 3 {
      case 0: return MouseEvent(kind: .wheelUp, position: position)
      case 1: return MouseEvent(kind: .wheelDown, position: position)
      default: return nil
      }
    }
    guard button & (128 | 3) == 0 else { return nil }
    return MouseEvent(kind: .press, position: position)
  }
}
