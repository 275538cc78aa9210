import Foundation

/// The result of a three-way merge: the lists to keep and what to tell the user.
public struct MergeResult: Equatable, Sendable {
  /// The merged lists; lists that ours has keep ours' run-time ids.
  public var model: DataModel
  /// Changes taken from elsewhere, conflicts, kept and renumbered items.
  public var report: MergeReport
  /// Theirs, with the run-time ids of the result: the base of the next merge when the result is
  /// not written (the file still holds theirs).
  public var theirs: DataModel
}

/// A three-way merge of the model: base (what this process last read or wrote), ours (memory)
/// and theirs (the file now), item by item.
///
/// - Items are matched by `itemID` (the n-th item with an id on one side pairs with the n-th on
///   another). Lists pair by run-time id between base and ours (ours descends from base), and by
///   name, then by the items they hold, between base and theirs (a renamed list is one list).
/// - Field by field: a field changed on one side takes that side's value; changed on both to
///   different values, ours wins and the conflict is reported. The list an item is in is such a
///   field, so moves between lists merge too.
/// - Changed on one side and deleted on the other, an item (or list) stays. Added on both sides,
///   both stay; two new items with the same `itemID` leave ours renumbered (unless they are the
///   same item: same list and fields).
/// - An item moved within its list on one side keeps its place after the neighbour it follows
///   on that side; ours wins when both moved it.
/// - Lists that no side changed are taken as they are without looking at their items, so the
///   cost follows the lists that changed.
public enum ModelMerge {
  /// Merges `ours` and `theirs`, which both descend from `base`; `ours` must share `base`'s list
  /// ids (it was loaded or merged together with it).
  public static func merge(base: DataModel, ours: DataModel, theirs: [Checklist]) -> MergeResult {
    var merger = Merger(base: base.lists, ours: ours, theirs: theirs)
    return merger.run(baseNextItemID: base.nextItemID)
  }
}

/// An item's identity across versions: its `itemID` and which occurrence of that id it is.
struct ItemKey: Hashable {
  var id: Int
  var occurrence: Int
}

/// Where an item is on one side: the slot (merged list) and its index in that side's list.
struct ItemLocation {
  var slot: Int
  var position: Int
}

/// One list of the result: its base, ours and theirs versions (indices), any may be missing.
struct MergeSlot {
  var base: Int?
  var ours: Int?
  var theirs: Int?
  /// Unchanged on every side: taken as it is.
  var quiet = false
  /// Whether the list is in the result.
  var survives = true
}

/// The state of one merge.
private struct Merger {
  let base: [Checklist]
  let ours: DataModel
  let theirs: [Checklist]
  var slots: [MergeSlot] = []
  var report = MergeReport()

  // Items of the active slots, per side.
  var baseItems: [ItemKey: ItemLocation] = [:]
  var oursItems: [ItemKey: ItemLocation] = [:]
  var theirsItems: [ItemKey: ItemLocation] = [:]
  var oursKeys: [Int: [ItemKey]] = [:]
  var theirsKeys: [Int: [ItemKey]] = [:]
  var baseKeys: [Int: [ItemKey]] = [:]
  /// What to write at an entry of ours' or theirs' lists (by that side's key).
  var oursEmit: [ItemKey: ChecklistItem] = [:]
  var theirsEmit: [ItemKey: ChecklistItem] = [:]
  /// Keys each side moved within a slot (not on the longest run kept in base order).
  var oursMoved: Set<ItemKey> = []
  var theirsMoved: Set<ItemKey> = []

  init(base: [Checklist], ours: DataModel, theirs: [Checklist]) {
    self.base = base
    self.ours = ours
    self.theirs = theirs
  }

  mutating func run(baseNextItemID: Int) -> MergeResult {
    makeSlots()
    decideListSurvival()
    indexItems()
    findMoves()
    let nextItemID = decideItems(baseNextItemID: baseNextItemID)
    let (model, theirsModel) = buildModel(nextItemID: nextItemID)
    return MergeResult(model: model, report: report, theirs: theirsModel)
  }

  // MARK: - Lists

  mutating func makeSlots() {
    var oursIndexByID: [Checklist.ID: Int] = [:]
    for (index, list) in ours.lists.enumerated() { oursIndexByID[list.id] = index }
    let theirsToBase = ListMatching.match(base: base, other: theirs)
    var theirsOfBase = [Int?](repeating: nil, count: base.count)
    for (index, match) in theirsToBase.enumerated() {
      if let match { theirsOfBase[match] = index }
    }
    var baseIDs = Set<Checklist.ID>()
    for (index, list) in base.enumerated() {
      baseIDs.insert(list.id)
      var slot = MergeSlot(base: index, ours: oursIndexByID[list.id], theirs: theirsOfBase[index])
      if let o = slot.ours, let t = slot.theirs {
        slot.quiet = ours.lists[o] == list && theirs[t] == list
      }
      slots.append(slot)
    }
    for (index, list) in ours.lists.enumerated() where !baseIDs.contains(list.id) {
      slots.append(MergeSlot(base: nil, ours: index, theirs: nil))
    }
    // A list of theirs that matches no base list may still be one of ours that theirs does not
    // have otherwise: new on both sides under one name, or renamed with all its items replaced.
    let unmatched = theirsToBase.indices.filter { theirsToBase[$0] == nil }
    guard !unmatched.isEmpty else { return }
    let open = slots.indices.filter { slots[$0].ours != nil && slots[$0].theirs == nil }
    let oursMatch = ListMatching.match(
      base: open.compactMap { slots[$0].ours.map { ours.lists[$0] } },
      other: unmatched.map { theirs[$0] })
    for (offset, index) in unmatched.enumerated() {
      if let match = oursMatch[offset] {
        slots[open[match]].theirs = index
      } else {
        slots.append(MergeSlot(base: nil, ours: nil, theirs: index))
      }
    }
  }

  /// A list deleted on one side stays when the other side changed it (and then keeps all its
  /// items as that side has them).
  mutating func decideListSurvival() {
    for index in slots.indices {
      let slot = slots[index]
      guard let b = slot.base else { continue }
      switch (slot.ours, slot.theirs) {
      case (let o?, nil):
        slots[index].survives = ours.lists[o] != base[b]
        if slots[index].survives {
          report.keptLists.append(ours.lists[o].name)
        } else {
          report.changesFromElsewhere += 1
        }
      case (nil, let t?):
        slots[index].survives = theirs[t] != base[b]
        if slots[index].survives {
          report.keptLists.append(theirs[t].name)
          report.changesFromElsewhere += 1
        }
      case (nil, nil):
        slots[index].survives = false
      case (.some, .some):
        break
      }
    }
  }

  // MARK: - Items

  mutating func indexItems() {
    for (slotIndex, slot) in slots.enumerated() where !slot.quiet {
      if let b = slot.base {
        baseKeys[slotIndex] = Self.index(base[b].items, slot: slotIndex, into: &baseItems)
      }
      if let o = slot.ours {
        oursKeys[slotIndex] = Self.index(ours.lists[o].items, slot: slotIndex, into: &oursItems)
      }
      if let t = slot.theirs {
        theirsKeys[slotIndex] = Self.index(theirs[t].items, slot: slotIndex, into: &theirsItems)
      }
    }
  }

  static func index(
    _ items: [ChecklistItem], slot: Int, into table: inout [ItemKey: ItemLocation]
  ) -> [ItemKey] {
    var keys: [ItemKey] = []
    keys.reserveCapacity(items.count)
    for (position, item) in items.enumerated() {
      var key = ItemKey(id: item.itemID, occurrence: 0)
      while table[key] != nil { key.occurrence += 1 }
      table[key] = ItemLocation(slot: slot, position: position)
      keys.append(key)
    }
    return keys
  }

  /// Marks the items each side moved within a list: those off the longest run that keeps the
  /// base order.
  mutating func findMoves() {
    for (slotIndex, slot) in slots.enumerated() where !slot.quiet && slot.base != nil {
      if slot.ours != nil, let keys = oursKeys[slotIndex] {
        oursMoved.formUnion(movedKeys(keys, slot: slotIndex))
      }
      if slot.theirs != nil, let keys = theirsKeys[slotIndex] {
        theirsMoved.formUnion(movedKeys(keys, slot: slotIndex))
      }
    }
  }

  func movedKeys(_ keys: [ItemKey], slot: Int) -> [ItemKey] {
    var candidates: [(key: ItemKey, basePosition: Int)] = []
    candidates.reserveCapacity(keys.count)
    for key in keys {
      if let location = baseItems[key], location.slot == slot {
        candidates.append((key, location.position))
      }
    }
    let kept = LongestIncreasingRun.members(candidates.map(\.basePosition))
    var moved: [ItemKey] = []
    for (offset, candidate) in candidates.enumerated() where !kept[offset] {
      moved.append(candidate.key)
    }
    return moved
  }

  func item(_ location: ItemLocation, in lists: [Checklist], side: KeyPath<MergeSlot, Int?>)
    -> ChecklistItem?
  {
    guard let index = slots[location.slot][keyPath: side] else { return nil }
    return lists[index].items[location.position]
  }

  func listName(_ slot: Int) -> String {
    let s = slots[slot]
    if let o = s.ours { return ours.lists[o].name }
    if let t = s.theirs { return theirs[t].name }
    if let b = s.base { return base[b].name }
    return ""
  }

  /// Decides every item's fate; returns the next free item id.
  mutating func decideItems(baseNextItemID: Int) -> Int {
    var nextID = max(ours.nextItemID, baseNextItemID)
    for key in theirsItems.keys where key.id >= nextID && key.id < Int.max { nextID = key.id + 1 }
    for (key, baseLocation) in baseItems {
      let b = item(baseLocation, in: base, side: \.base)
      guard let b else { continue }
      let oursLocation = oursItems[key]
      let theirsLocation = theirsItems[key]
      let o = oursLocation.flatMap { item($0, in: ours.lists, side: \.ours) }
      let t = theirsLocation.flatMap { item($0, in: theirs, side: \.theirs) }
      switch (o, t) {
      case (let o?, let t?):
        guard let oursLocation, let theirsLocation else { continue }
        mergeBoth(
          key: key, base: b, ours: o, theirs: t, baseSlot: baseLocation.slot,
          oursSlot: oursLocation.slot, theirsSlot: theirsLocation.slot)
      case (let o?, nil):
        guard let oursLocation else { continue }
        let listKept = slots[baseLocation.slot].theirs == nil && slots[baseLocation.slot].survives
        if listKept {
          oursEmit[key] = o
        } else if o == b && oursLocation.slot == baseLocation.slot {
          // Deleted elsewhere (a deleted list counts once, not item by item).
          if slots[baseLocation.slot].theirs != nil { report.changesFromElsewhere += 1 }
        } else {
          oursEmit[key] = o
          report.keptItems.append(
            KeptItem(
              list: listName(oursLocation.slot), text: o.text,
              reason: "deleted elsewhere, changed here"))
        }
      case (nil, let t?):
        guard let theirsLocation else { continue }
        let listKept = slots[baseLocation.slot].ours == nil && slots[baseLocation.slot].survives
        if listKept {
          theirsEmit[key] = t
        } else if t == b && theirsLocation.slot == baseLocation.slot {
          continue  // deleted here
        } else {
          theirsEmit[key] = t
          report.changesFromElsewhere += 1
          report.keptItems.append(
            KeptItem(
              list: listName(theirsLocation.slot), text: t.text,
              reason: "deleted here, changed elsewhere"))
        }
      case (nil, nil):
        continue
      }
    }
    // New items. The same new item on both sides (same id, list and fields) is one item.
    var sameOnBothSides = Set<ItemKey>()
    for (key, location) in oursItems where baseItems[key] == nil {
      guard var o = item(location, in: ours.lists, side: \.ours) else { continue }
      if let theirsLocation = theirsItems[key] {
        if theirsLocation.slot == location.slot,
          item(theirsLocation, in: theirs, side: \.theirs) == o
        {
          sameOnBothSides.insert(key)
          oursEmit[key] = o
          continue
        }
        let oldID = o.itemID
        o.itemID = nextID
        if nextID < Int.max { nextID += 1 }
        report.renumbered.append(
          Renumbering(list: listName(location.slot), text: o.text, oldID: oldID, newID: o.itemID))
      }
      oursEmit[key] = o
    }
    for (key, location) in theirsItems where baseItems[key] == nil && !sameOnBothSides.contains(key)
    {
      guard let t = item(location, in: theirs, side: \.theirs) else { continue }
      theirsEmit[key] = t
      report.changesFromElsewhere += 1
    }
    report.renumbered.sort { $0.newID < $1.newID }
    report.keptItems.sort { ($0.list, $0.text) < ($1.list, $1.text) }
    return nextID
  }

  /// An item that both sides still have: field by field, and which list it ends in.
  mutating func mergeBoth(
    key: ItemKey, base b: ChecklistItem, ours o: ChecklistItem, theirs t: ChecklistItem,
    baseSlot: Int, oursSlot: Int, theirsSlot: Int
  ) {
    if t == b && theirsSlot == baseSlot && !theirsMoved.contains(key) {
      oursEmit[key] = o
      return
    }
    let place = "list \(MergeReport.quote(listName(oursSlot))), item \(MergeReport.quote(o.text))"
    var fields = FieldMerge(place: place)
    var merged = o
    merged.text = fields.pick(b.text, o.text, t.text, field: "text") { MergeReport.quote($0) }
    merged.checked = fields.pick(b.checked, o.checked, t.checked, field: "checked") {
      $0 ? "checked" : "unchecked"
    }
    merged.dueDate = fields.pick(b.dueDate, o.dueDate, t.dueDate, field: "due date") {
      Self.describe($0)
    }
    merged.hasDueDate = fields.pick(b.hasDueDate, o.hasDueDate, t.hasDueDate, field: "has due date")
    { $0 ? "set" : "not set" }
    merged.shouldRemind = fields.pick(
      b.shouldRemind, o.shouldRemind, t.shouldRemind, field: "remind me"
    ) { $0 ? "on" : "off" }
    merged.unknownFields = fields.pickFields(b.unknownFields, o.unknownFields, t.unknownFields)
    let slot = fields.pick(baseSlot, oursSlot, theirsSlot, field: "list") {
      "in list \(MergeReport.quote(listName($0)))"
    }
    report.conflicts += fields.conflicts
    let theirsPlaces = slot != oursSlot || (theirsMoved.contains(key) && !oursMoved.contains(key))
    if theirsPlaces {
      theirsEmit[key] = merged
    } else {
      oursEmit[key] = merged
    }
    if merged != o || theirsPlaces { report.changesFromElsewhere += 1 }
  }

  static func describe(_ date: Date) -> String {
    PlistDateFormat.format(date.timeIntervalSinceReferenceDate) ?? "\(date)"
  }

  // MARK: - The result

  mutating func buildModel(nextItemID: Int) -> (merged: DataModel, theirs: DataModel) {
    var lists: [Checklist] = []
    lists.reserveCapacity(slots.count)
    var nextListID = ours.nextListIDValue
    var theirsWithIDs = theirs
    for slot in slots where !slot.survives {
      if let t = slot.theirs {
        theirsWithIDs[t].id = nextListID
        nextListID += 1
      }
    }
    for (index, slot) in slots.enumerated() where slot.survives {
      if slot.quiet, let o = slot.ours {
        lists.append(ours.lists[o])
        if let t = slot.theirs { theirsWithIDs[t].id = ours.lists[o].id }
        continue
      }
      var list: Checklist
      if let o = slot.ours {
        list = ours.lists[o]
        if let t = slot.theirs {
          let b = slot.base.map { base[$0] }
          let other = theirs[t]
          var fields = FieldMerge(place: "list \(MergeReport.quote(list.name))")
          let name = fields.pick(b?.name ?? list.name, list.name, other.name, field: "name") {
            MergeReport.quote($0)
          }
          let icon = fields.pick(
            b?.iconName ?? list.iconName, list.iconName, other.iconName, field: "icon"
          ) { $0 }
          let unknown = fields.pickFields(
            b?.unknownFields ?? list.unknownFields, list.unknownFields, other.unknownFields)
          if name != list.name || icon != list.iconName || unknown != list.unknownFields {
            report.changesFromElsewhere += 1
          }
          report.conflicts += fields.conflicts
          list.name = name
          list.iconName = icon
          list.unknownFields = unknown
        }
      } else if let t = slot.theirs {
        list = theirs[t]
        list.id = nextListID
        nextListID += 1
        if slot.base == nil { report.changesFromElsewhere += 1 }
      } else {
        continue
      }
      if let t = slot.theirs { theirsWithIDs[t].id = list.id }
      list.setItems(orderedItems(slot: index))
      lists.append(list)
    }
    return (
      DataModel(listsKeepingIDs: lists, nextItemID: nextItemID, nextListID: nextListID),
      DataModel(listsKeepingIDs: theirsWithIDs, nextItemID: nextItemID, nextListID: nextListID)
    )
  }

  /// The items of a slot in merged order: ours' order, with the items theirs placed inserted
  /// after the item they follow in theirs' list (and after ours' new items there).
  func orderedItems(slot: Int) -> [ChecklistItem] {
    var front: [ChecklistItem] = []
    var after: [ItemKey: [ChecklistItem]] = [:]
    if let keys = theirsKeys[slot] {
      var anchor: ItemKey?
      for key in keys {
        if let item = theirsEmit[key] {
          if let anchor {
            after[anchor, default: []].append(item)
          } else {
            front.append(item)
          }
        } else if oursEmit[key] != nil, oursItems[key]?.slot == slot {
          anchor = key
        }
      }
    }
    // Theirs' insertions after an item come after ours' new items there (those theirs does not
    // have), just before the next item both sides have.
    var result: [ChecklistItem] = []
    var pending = front
    if let keys = oursKeys[slot] {
      result.reserveCapacity(keys.count + front.count)
      for key in keys {
        guard let item = oursEmit[key] else { continue }
        if !pending.isEmpty, theirsEmit[key] == nil, theirsItems[key]?.slot == slot {
          result += pending
          pending.removeAll()
        }
        result.append(item)
        if let following = after[key] { pending += following }
      }
    }
    return result + pending
  }
}

/// Three-way choice of one field at a time, collecting conflicts.
struct FieldMerge {
  let place: String
  var conflicts: [MergeConflict] = []

  /// Theirs when only theirs changed it, else ours; a conflict when both changed it differently.
  mutating func pick<T: Equatable>(
    _ base: T, _ ours: T, _ theirs: T, field: String, describe: (T) -> String
  ) -> T {
    if theirs == base || theirs == ours { return ours }
    if ours == base { return theirs }
    conflicts.append(
      MergeConflict(place: place, field: field, kept: describe(ours), other: describe(theirs)))
    return ours
  }

  /// Key by key, the same rule over a dictionary of extra fields (a key deleted counts as a
  /// change).
  mutating func pickFields(
    _ base: [PlistKey: PlistValue], _ ours: [PlistKey: PlistValue], _ theirs: [PlistKey: PlistValue]
  ) -> [PlistKey: PlistValue] {
    if theirs == base || theirs == ours { return ours }
    if ours == base { return theirs }
    var result = ours
    let keys = Set(base.keys).union(ours.keys).union(theirs.keys)
    for key in keys.sorted() {
      let value = pick(base[key], ours[key], theirs[key], field: key.string) {
        $0.map { $0.kindDescription } ?? "removed"
      }
      result[key] = value
    }
    return result
  }
}
