@testable import ChecklistsUI

extension ChecklistsApp {
  /// Whether the item form or the list form is on the stack.
  var hasForm: Bool { itemForm != nil || listForm != nil }
}
