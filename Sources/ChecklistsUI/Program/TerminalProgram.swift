import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// What the terminal driver needs from the UI: the Model/Update/View loop.
public protocol TerminalProgram {
  /// The data to save.
  var dataModel: DataModel { get }
  /// Whether `dataModel` changed since it was loaded or last saved.
  var isDirty: Bool { get }
  /// Updates the state for one event at time `now`; returns what the driver must do.
  mutating func handle(_ event: InputEvent, now: Date) -> [Effect]
  /// Draws the current screen into `grid` (the grid has the terminal's size).
  func render(into grid: inout CellGrid, now: Date)
  /// When the program next needs a `.tick` (a reminder falls due), if ever.
  func nextWakeUp(after now: Date) -> Date?
}
