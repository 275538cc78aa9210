import CNcursesw
import ChecklistsUI

/// Turns a curses mouse report into a `MouseEvent`.
enum MouseTranslation {
  /// The event for a report: button 1 pressed or clicked is a press, buttons 4 and 5 the wheel;
  /// nil for anything else (releases, other buttons).
  static func event(from report: MEVENT) -> MouseEvent? {
    let position = GridPosition(row: Int(report.y), column: Int(report.x))
    let state = report.bstate
    if state & (cn_button1_pressed() | cn_button1_clicked()) != 0 {
      return MouseEvent(kind: .press, position: position)
    }
    if state & cn_button4_pressed() != 0 { return MouseEvent(kind: .wheelUp, position: position) }
    if state & cn_button5_pressed() != 0 {
      return MouseEvent(kind: .wheelDown, position: position)
    }
    return nil
  }
}
