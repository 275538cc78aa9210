/// The extra keys of an item for subtasks, priorities and tags, which the iPhone app ignores.
///
/// Like the note and the repeat rule they live in `unknownFields`: files without them read and
/// write as before, a value this version cannot read (of another type, out of range) is kept as
/// it is until the field is set here, and the three-way merge takes them key by key (tags as a
/// set, see `ModelMerge`).
extension PlistKey {
  /// The `itemID` of the item's parent in the same list (an integer); absent for a top-level
  /// item.
  public static let parentItemID: PlistKey = "parentItemID"
  /// iCalendar's priority (an integer 1–9: 1–4 high, 5 medium, 6–9 low); absent for none.
  public static let priority: PlistKey = "priority"
  /// The item's tags (an array of strings), in the user's order.
  public static let tags: PlistKey = "tags"
}

/// How important an item is, as Reminders shows it: none, low `!`, medium `!!`, high `!!!`.
public enum PriorityLevel: String, CaseIterable, Sendable, Comparable {
  /// No priority (stored 0, or no key).
  case none
  /// Low: stored 6–9 (9 when set here).
  case low
  /// Medium: stored 5.
  case medium
  /// High: stored 1–4 (1 when set here).
  case high

  /// The level of an iCalendar priority (0 or out of 1–9: none).
  public init(priority: Int) {
    switch priority {
    case 1...4: self = .high
    case 5: self = .medium
    case 6...9: self = .low
    default: self = .none
    }
  }

  /// The level named `high`, `medium`, `low` or `none` (any case), or nil.
  public init?(name: String) {
    self.init(rawValue: name.lowercased())
  }

  /// The priority this program stores for the level: 1, 5, 9, or 0 for none (as Apple does).
  public var storedPriority: Int {
    switch self {
    case .none: 0
    case .low: 9
    case .medium: 5
    case .high: 1
    }
  }

  /// The marks shown before an item's text: `!`, `!!`, `!!!`, or "" for none.
  public var marks: String {
    switch self {
    case .none: ""
    case .low: "!"
    case .medium: "!!"
    case .high: "!!!"
    }
  }

  /// The level a run of marks (`!`, `!!`, `!!!`) stands for, or nil.
  public init?(marks: String) {
    guard let level = Self.allCases.first(where: { $0 != .none && $0.marks == marks }) else {
      return nil
    }
    self = level
  }

  private var rank: Int {
    switch self {
    case .none: 0
    case .low: 1
    case .medium: 2
    case .high: 3
    }
  }

  public static func < (left: PriorityLevel, right: PriorityLevel) -> Bool {
    left.rank < right.rank
  }
}

extension ChecklistItem {
  /// The `itemID` of the item's parent (the item it is a subtask of), or nil for a top-level
  /// item. Only a parent earlier in the same list counts (see `Checklist.outline`); setting nil
  /// removes the key.
  public var parentItemID: Int? {
    get {
      guard case .integer(let number)? = unknownFields[.parentItemID] else { return nil }
      return Int(exactly: number)
    }
    set { unknownFields[.parentItemID] = newValue.map { .integer(Int64($0)) } }
  }

  /// The stored iCalendar priority, 0–9 (0: none). A value out of 0–9 (or of another type)
  /// reads as 0 and stays in the file until a priority is set; setting 0 removes the key, and
  /// a value out of 0–9 is clamped.
  public var priority: Int {
    get {
      guard case .integer(let number)? = unknownFields[.priority], let value = Int(exactly: number),
        (0...9).contains(value)
      else { return 0 }
      return value
    }
    set {
      let value = min(max(newValue, 0), 9)
      unknownFields[.priority] = value == 0 ? nil : .integer(Int64(value))
    }
  }

  /// The priority's level. Setting a level the item already has changes nothing (a phone's
  /// `3` stays 3); another level writes 1, 5 or 9, and none removes the key.
  public var priorityLevel: PriorityLevel {
    get { PriorityLevel(priority: priority) }
    set {
      guard newValue != priorityLevel else { return }
      priority = newValue.storedPriority
    }
  }

  /// The item's tags, in order, without a repeat (compared ignoring case, the first spelling
  /// kept). A `tags` value that is not an array reads as none; strings are read from an array
  /// with other values in it. Setting them drops empty names and repeats; none removes the key.
  public var tags: [String] {
    get {
      guard case .array(let values)? = unknownFields[.tags] else { return [] }
      var names: [String] = []
      for case .string(let name) in values where !name.isEmpty {
        names.append(name)
      }
      return Self.uniqueTags(names)
    }
    set {
      let names = Self.uniqueTags(newValue.filter { !$0.isEmpty })
      unknownFields[.tags] = names.isEmpty ? nil : .array(names.map { .string($0) })
    }
  }

  /// Whether the item has the tag `name` (ignoring case).
  public func hasTag(_ name: String) -> Bool {
    let key = Self.tagKey(name)
    return tags.contains { Self.tagKey($0) == key }
  }

  /// Adds a tag at the end unless the item has it (ignoring case); whether it was added.
  @discardableResult
  public mutating func addTag(_ name: String) -> Bool {
    guard !name.isEmpty, !hasTag(name) else { return false }
    tags.append(name)
    return true
  }

  /// Removes a tag (ignoring case); whether the item had it.
  @discardableResult
  public mutating func removeTag(_ name: String) -> Bool {
    let key = Self.tagKey(name)
    let old = tags
    let kept = old.filter { Self.tagKey($0) != key }
    guard kept.count != old.count else { return false }
    tags = kept
    return true
  }

  /// What two tags are compared by: the name ignoring case.
  public static func tagKey(_ name: String) -> String { name.lowercased() }

  /// `names` without a repeat (ignoring case), the first spelling in its place.
  public static func uniqueTags(_ names: [String]) -> [String] {
    var seen = Set<String>()
    var result: [String] = []
    for name in names where seen.insert(tagKey(name)).inserted { result.append(name) }
    return result
  }
}

extension Checklist {
  /// For each item, the index of its parent, or nil for a top-level item.
  ///
  /// A child follows its parent: an item is a child only when its `parentItemID` is the
  /// `itemID` of an item whose subtree it continues (the item just before it, or one of that
  /// item's ancestors). Any other `parentItemID` (a missing parent, one later in the list or in
  /// another list) reads as top-level. One pass over the items.
  public func outline() -> [Int?] {
    var parents = [Int?](repeating: nil, count: items.count)
    // The chain of ancestors of the item just read (indices), and where each id is on it.
    var chain: [Int] = []
    var onChain: [Int: Int] = [:]  // itemID: position in chain
    items.withUnsafeBufferPointer { items in
      for index in items.indices {
        let item = items[index]
        if let parentID = item.parentItemID, let position = onChain[parentID] {
          for dropped in chain[(position + 1)...] { onChain[items[dropped].itemID] = nil }
          chain.removeSubrange((position + 1)...)
          parents[index] = chain[position]
        } else {
          if !chain.isEmpty {
            chain.removeAll(keepingCapacity: true)
            onChain.removeAll(keepingCapacity: true)
          }
        }
        // An id the chain already has (a file with a repeated id) is not pushed again.
        if onChain[item.itemID] == nil {
          onChain[item.itemID] = chain.count
          chain.append(index)
        }
      }
    }
    return parents
  }

  /// For each item, how deep it is: 0 for a top-level item, 1 for its child, and so on.
  public func depths() -> [Int] {
    let parents = outline()
    var depths = [Int](repeating: 0, count: parents.count)
    for (index, parent) in parents.enumerated() {
      if let parent { depths[index] = depths[parent] + 1 }
    }
    return depths
  }

  /// The indices of the item at `index` and all its descendants (the children that follow it,
  /// their children…): always starts at `index`.
  public func subtreeRange(at index: Int) -> Range<Int> {
    guard items.indices.contains(index) else { return index..<index }
    var inside: Set<Int> = [items[index].itemID]
    var end = index + 1
    while end < items.count, let parentID = items[end].parentItemID, inside.contains(parentID) {
      inside.insert(items[end].itemID)
      end += 1
    }
    return index..<end
  }

  /// How many descendants the item at `index` has.
  public func descendantCount(at index: Int) -> Int { subtreeRange(at: index).count - 1 }

  /// Whether every `parentItemID` names an item of this list that the child follows (see
  /// `outline`).
  public var outlineIsConsistent: Bool {
    guard items.contains(where: { $0.parentItemID != nil }) else { return true }
    let parents = outline()
    for (index, item) in items.enumerated() where item.parentItemID != nil {
      if parents[index] == nil { return false }
    }
    return true
  }

  /// Puts the outline right after a merge or an import: a child whose parent is not in the list
  /// (deleted, moved to another list) becomes top-level, a parent loop is broken at the item
  /// found first, and a child placed away from its parent moves to follow it (after the
  /// siblings before it). Items keep their order otherwise; a `parentItemID` of another type is
  /// left alone. Whether anything changed.
  @discardableResult
  public mutating func repairOutline() -> Bool {
    guard !outlineIsConsistent else { return false }
    var position: [Int: Int] = [:]
    for (index, item) in items.enumerated() where position[item.itemID] == nil {
      position[item.itemID] = index
    }
    var fixed = items
    // Parents by index; a missing one, or oneself, makes the item top-level.
    var parent = [Int?](repeating: nil, count: fixed.count)
    for index in fixed.indices {
      guard let parentID = fixed[index].parentItemID else { continue }
      if let at = position[parentID], at != index {
        parent[index] = at
      } else {
        fixed[index].parentItemID = nil
      }
    }
    // Loops: walking up from each item must end at a top-level one.
    var state = [UInt8](repeating: 0, count: fixed.count)  // 0 new, 1 on the walk, 2 done
    for start in fixed.indices where state[start] == 0 {
      var walk: [Int] = []
      var current: Int? = start
      while let index = current, state[index] == 0 {
        state[index] = 1
        walk.append(index)
        current = parent[index]
      }
      if let index = current, state[index] == 1 {
        // `index` is on this walk: its parent link closes the loop.
        parent[index] = nil
        fixed[index].parentItemID = nil
      }
      for index in walk { state[index] = 2 }
    }
    // Each item after its parent, siblings in their order: depth first over the tree.
    var children = [[Int]](repeating: [], count: fixed.count)
    var roots: [Int] = []
    for index in fixed.indices {
      if let up = parent[index] { children[up].append(index) } else { roots.append(index) }
    }
    var order: [Int] = []
    order.reserveCapacity(fixed.count)
    var stack = roots.reversed() as [Int]
    while let index = stack.popLast() {
      order.append(index)
      stack.append(contentsOf: children[index].reversed())
    }
    setItems(order.map { fixed[$0] })
    return true
  }
}
