/// A move of the selection (or of the first line shown) on a list-like screen: All Lists, a
/// Checklist, the icon picker and help all move with this one type.
enum Motion: Sendable, CaseIterable {
  case previous, next, pageUp, pageDown, halfPageUp, halfPageDown, first, last

  /// The position after the move from `current` among `count` rows, `page` of them on screen;
  /// always within `0..<count` (0 when there are none).
  func target(from current: Int, count: Int, page: Int) -> Int {
    let page = max(page, 1)
    let half = max(page / 2, 1)
    let moved: Int
    switch self {
    case .previous: moved = current - 1
    case .next: moved = current + 1
    case .pageUp: moved = current - page
    case .pageDown: moved = current + page
    case .halfPageUp: moved = current - half
    case .halfPageDown: moved = current + half
    case .first: moved = 0
    case .last: moved = count - 1
    }
    return min(max(moved, 0), max(count - 1, 0))
  }
}
