import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

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
  ///
  /// `keepingWhatTheirsLacks` is for a file that could not be read for a while and is now
  /// readable again, most likely an older copy put back: only what it adds is taken; what it
  /// lacks stays (counted in `MergeReport.keptMissingFromFile`) and its older values of what
  /// both have do not count as changes.
  public static func merge(
    base: DataModel, ours: DataModel, theirs: [Checklist], keepingWhatTheirsLacks: Bool = false
  ) -> MergeResult {
    guard keepingWhatTheirsLacks else {
      var merger = Merger(base: base.lists, ours: ours, theirs: theirs)
      return merger.run(baseNextItemID: base.nextItemID)
    }
    // The file is an older copy: what it adds (items and lists base does not have) is taken,
    // and nothing else, neither what it lacks nor its older values of what both have.
    let taken = additionsOnly(base: base.lists, theirs: theirs, newFrom: base.nextItemID)
    var merger = Merger(base: base.lists, ours: ours, theirs: taken.lists)
    var result = merger.run(baseNextItemID: base.nextItemID)
    result.report.keptMissingFromFile = taken.lacked
    // The base of the next merge is the file as it is: what it lacks and its older values then
    // count as changes made here, which later merges keep and the next save writes.
    // Ids by the taken lists' own order (`theirsIDs`), not the result's, which is sorted.
    var lists = theirs
    var nextListID = max(result.theirs.nextListIDValue, result.model.nextListIDValue)
    for index in lists.indices {
      if let place = taken.places[index] {
        lists[index].id = merger.theirsIDs[place]
      } else {
        lists[index].id = nextListID
        nextListID += 1
      }
    }
    result.theirs = DataModel(
      listsKeepingIDs: lists, nextItemID: result.theirs.nextItemID, nextListID: nextListID)
    // The lists ours makes next must not take the ids just given.
    result.model = DataModel(
      listsKeepingIDs: result.model.lists, nextItemID: result.model.nextItemID,
      nextListID: nextListID)
    return result
  }

  /// Base with what `theirs` adds to it: its items with an `itemID` from `newFrom` on (given
  /// since base was made; a lower one that base does not have was deleted since), in the base
  /// list theirs' list pairs with (or in a list of their own, if it adds items or is empty); how many of
  /// base's items (or empty lists) theirs lacks; and for each list of theirs, the index of the
  /// result's list it is (nil for a list base does not have that adds nothing).
  static func additionsOnly(base: [Checklist], theirs: [Checklist], newFrom: Int) -> (
    lists: [Checklist], lacked: Int, places: [Int?]
  ) {
    var baseIDs = Set<Int>()
    for list in base { baseIDs.formUnion(list.items.lazy.map(\.itemID)) }
    var theirsIDs = Set<Int>()
    for list in theirs { theirsIDs.formUnion(list.items.lazy.map(\.itemID)) }
    let pairs = ListMatching.match(base: base, other: theirs)
    var lists = base
    var paired = [Bool](repeating: false, count: base.count)
    var own: [Checklist] = []
    var places = [Int?](repeating: nil, count: theirs.count)
    for (index, list) in theirs.enumerated() {
      let added = list.items.filter { $0.itemID >= newFrom && !baseIDs.contains($0.itemID) }
      if let match = pairs[index] {
        paired[match] = true
        places[index] = match
        if !added.isEmpty { lists[match].setItems(lists[match].items + added) }
      } else if !added.isEmpty || list.items.isEmpty {
        // An empty list has no itemID to tell its age by: kept rather than lost.
        var new = list
        new.setItems(added)
        places[index] = base.count + own.count
        own.append(new)
      }
    }
    var lacked = 0
    for (index, list) in base.enumerated() {
      let missing = list.items.reduce(0) { $0 + (theirsIDs.contains($1.itemID) ? 0 : 1) }
      lacked += missing > 0 ? missing : (paired[index] ? 0 : 1)
    }
    return (lists + own, lacked, places)
  }
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
  /// After `run`: the run-time id each of theirs' lists has in the result, in theirs' order.
  var theirsIDs: [Checklist.ID] = []

  // Items of the active slots, per side; each side's `emit` says what to write at its entries.
  var baseIndex = ItemIndex(capacity: 0, slots: 0)
  var oursIndex = ItemIndex(capacity: 0, slots: 0)
  var theirsIndex = ItemIndex(capacity: 0, slots: 0)

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
          report.deletionsFromElsewhere += 1
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
    var counts = (base: 0, ours: 0, theirs: 0)
    for slot in slots where !slot.quiet {
      counts.base += slot.base.map { base[$0].items.count } ?? 0
      counts.ours += slot.ours.map { ours.lists[$0].items.count } ?? 0
      counts.theirs += slot.theirs.map { theirs[$0].items.count } ?? 0
    }
    baseIndex = ItemIndex(capacity: counts.base, slots: slots.count)
    oursIndex = ItemIndex(capacity: counts.ours, slots: slots.count)
    theirsIndex = ItemIndex(capacity: counts.theirs, slots: slots.count)
    for (slotIndex, slot) in slots.enumerated() where !slot.quiet {
      if let b = slot.base { baseIndex.add(base[b].items, slot: slotIndex) }
      if let o = slot.ours { oursIndex.add(ours.lists[o].items, slot: slotIndex) }
      if let t = slot.theirs { theirsIndex.add(theirs[t].items, slot: slotIndex) }
    }
    baseIndex.finishAdding()
    oursIndex.finishAdding()
    theirsIndex.finishAdding()
  }

  /// Marks the items each side moved within a list: those off the longest run that keeps the
  /// base order.
  mutating func findMoves() {
    for (slotIndex, slot) in slots.enumerated() where !slot.quiet && slot.base != nil {
      if let entries = oursIndex.slotEntries[slotIndex] {
        for entry in movedEntries(entries, of: oursIndex, slot: slotIndex) {
          oursIndex.moved[entry] = true
        }
      }
      if let entries = theirsIndex.slotEntries[slotIndex] {
        for entry in movedEntries(entries, of: theirsIndex, slot: slotIndex) {
          theirsIndex.moved[entry] = true
        }
      }
    }
  }

  func movedEntries(_ entries: Range<Int>, of side: ItemIndex, slot: Int) -> [Int] {
    var candidates: [Int] = []
    var positions: [Int] = []
    candidates.reserveCapacity(entries.count)
    positions.reserveCapacity(entries.count)
    for entry in entries {
      if let baseEntry = baseIndex.entry(side.keys[entry]),
        baseIndex.locations[baseEntry].slot == slot
      {
        candidates.append(entry)
        positions.append(baseIndex.locations[baseEntry].position)
      }
    }
    let kept = LongestIncreasingRun.members(positions)
    var moved: [Int] = []
    for (offset, entry) in candidates.enumerated() where !kept[offset] { moved.append(entry) }
    return moved
  }

  func baseItem(_ location: ItemLocation) -> ChecklistItem? {
    guard let index = slots[location.slot].base else { return nil }
    return base[index].items[location.position]
  }

  func oursItem(_ location: ItemLocation) -> ChecklistItem? {
    guard let index = slots[location.slot].ours else { return nil }
    return ours.lists[index].items[location.position]
  }

  func theirsItem(_ location: ItemLocation) -> ChecklistItem? {
    guard let index = slots[location.slot].theirs else { return nil }
    return theirs[index].items[location.position]
  }

  func listName(_ slot: Int) -> String {
    let s = slots[slot]
    if let o = s.ours { return ours.lists[o].name }
    if let t = s.theirs { return theirs[t].name }
    if let b = s.base { return base[b].name }
    return ""
  }

  /// The IDs of every item on every side.
  private func allItemIDs() -> Set<Int> {
    var ids = Set<Int>()
    for key in oursIndex.keys { ids.insert(key.id) }
    for key in theirsIndex.keys { ids.insert(key.id) }
    for key in baseIndex.keys { ids.insert(key.id) }
    return ids
  }

  /// Decides every item's fate; returns the next free item id.
  mutating func decideItems(baseNextItemID: Int) -> Int {
    var nextID = max(ours.nextItemID, baseNextItemID)
    for key in theirsIndex.keys where key.id >= nextID && key.id < Int.max { nextID = key.id + 1 }
    var spare: UnusedItemIDs?
    var renumberedIDs: [Int: Int] = [:]  // ours' old id: new id
    var oursInBase = [Bool](repeating: false, count: oursIndex.count)
    var theirsInBase = [Bool](repeating: false, count: theirsIndex.count)
    for baseEntry in 0..<baseIndex.count {
      let key = baseIndex.keys[baseEntry]
      let baseLocation = baseIndex.locations[baseEntry]
      guard let b = baseItem(baseLocation) else { continue }
      let oursEntry = oursIndex.entry(key)
      let theirsEntry = theirsIndex.entry(key)
      if let oursEntry { oursInBase[oursEntry] = true }
      if let theirsEntry { theirsInBase[theirsEntry] = true }
      switch (oursEntry, theirsEntry) {
      case (let oe?, let te?):
        let oursLocation = oursIndex.locations[oe]
        let theirsLocation = theirsIndex.locations[te]
        guard let o = oursItem(oursLocation),
          let t = theirsItem(theirsLocation)
        else { continue }
        mergeBoth(
          oursEntry: oe, theirsEntry: te, base: b, ours: o, theirs: t,
          baseSlot: baseLocation.slot, oursSlot: oursLocation.slot,
          theirsSlot: theirsLocation.slot)
      case (let oe?, nil):
        let oursLocation = oursIndex.locations[oe]
        guard let o = oursItem(oursLocation) else { continue }
        let listKept = slots[baseLocation.slot].theirs == nil && slots[baseLocation.slot].survives
        if listKept {
          oursIndex.emit[oe] = o
        } else if o == b && oursLocation.slot == baseLocation.slot {
          // Deleted elsewhere (a deleted list counts once, not item by item).
          if slots[baseLocation.slot].theirs != nil {
            report.changesFromElsewhere += 1
            report.deletionsFromElsewhere += 1
          }
        } else {
          oursIndex.emit[oe] = o
          report.keptItems.append(
            KeptItem(
              list: listName(oursLocation.slot), text: o.text,
              reason: "deleted elsewhere, changed here"))
        }
      case (nil, let te?):
        let theirsLocation = theirsIndex.locations[te]
        guard let t = theirsItem(theirsLocation) else { continue }
        let listKept = slots[baseLocation.slot].ours == nil && slots[baseLocation.slot].survives
        if listKept {
          theirsIndex.emit[te] = t
        } else if t == b && theirsLocation.slot == baseLocation.slot {
          continue  // deleted here
        } else {
          theirsIndex.emit[te] = t
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
    var sameOnBothSides = Set<Int>()  // theirs' entries
    for oe in 0..<oursIndex.count where !oursInBase[oe] {
      let location = oursIndex.locations[oe]
      guard var o = oursItem(location) else { continue }
      if let te = theirsIndex.entry(oursIndex.keys[oe]) {
        let theirsLocation = theirsIndex.locations[te]
        if theirsLocation.slot == location.slot,
          theirsItem(theirsLocation) == o
        {
          sameOnBothSides.insert(te)
          oursIndex.emit[oe] = o
          continue
        }
        let oldID = o.itemID
        if nextID < Int.max {
          o.itemID = nextID
          nextID += 1
        } else {
          // Counting up has reached Int.max (a file holds that ID): the smallest IDs no item
          // on any side has; both sides' new items took Int.max before.
          var ids = spare ?? UnusedItemIDs(inUse: allItemIDs())
          o.itemID = ids.take()
          spare = ids
        }
        report.renumbered.append(
          Renumbering(list: listName(location.slot), text: o.text, oldID: oldID, newID: o.itemID))
        renumberedIDs[oldID] = o.itemID
      }
      oursIndex.emit[oe] = o
    }
    if !renumberedIDs.isEmpty { followRenumberedParents(renumberedIDs) }
    for te in 0..<theirsIndex.count
    where !theirsInBase[te] && !sameOnBothSides.contains(te) {
      guard let t = theirsItem(theirsIndex.locations[te]) else { continue }
      theirsIndex.emit[te] = t
      report.changesFromElsewhere += 1
    }
    report.keptItems.sort { ($0.list, $0.text) < ($1.list, $1.text) }
    return nextID
  }

  /// Ours' children of an item of ours that was renumbered point at its new id: every emitted
  /// item whose `parentItemID` is ours' (not one theirs set) and names an old id.
  mutating func followRenumberedParents(_ map: [Int: Int]) {
    for oe in 0..<oursIndex.count {
      guard let item = oursIndex.emit[oe], let parentID = item.parentItemID,
        let newID = map[parentID],
        oursItem(oursIndex.locations[oe])?.parentItemID == parentID
      else { continue }
      oursIndex.emit[oe]?.parentItemID = newID
    }
    for te in 0..<theirsIndex.count {
      guard let item = theirsIndex.emit[te], let parentID = item.parentItemID,
        let newID = map[parentID], let oe = oursIndex.entry(theirsIndex.keys[te]),
        oursItem(oursIndex.locations[oe])?.parentItemID == parentID,
        theirsItem(theirsIndex.locations[te])?.parentItemID != parentID
      else { continue }
      theirsIndex.emit[te]?.parentItemID = newID
    }
  }

  /// An item that both sides still have: field by field, and which list it ends in.
  mutating func mergeBoth(
    oursEntry: Int, theirsEntry: Int, base b: ChecklistItem, ours o: ChecklistItem,
    theirs t: ChecklistItem, baseSlot: Int, oursSlot: Int, theirsSlot: Int
  ) {
    let theirsMoved = theirsIndex.moved[theirsEntry]
    if t == b && theirsSlot == baseSlot && !theirsMoved {
      oursIndex.emit[oursEntry] = o
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
    // A repeat or a lead time set on one side and the due date taken away on the other: what
    // needs a due date goes with it, as `edit --no-due` does (ItemValidity's rule).
    let validity = ItemValidity(
      hasDueDate: merged.showsDueDate, repeats: merged.repeatRule != nil,
      lead: !merged.reminderLead.isNone)
    if validity.problem != nil { merged.removeDueDate() }
    let slot = fields.pick(baseSlot, oursSlot, theirsSlot, field: "list") {
      "in list \(MergeReport.quote(listName($0)))"
    }
    report.conflicts += fields.conflicts
    let theirsPlaces = slot != oursSlot || (theirsMoved && !oursIndex.moved[oursEntry])
    if theirsPlaces {
      theirsIndex.emit[theirsEntry] = merged
    } else {
      oursIndex.emit[oursEntry] = merged
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
    var changed: [Int] = []  // indices in `lists` of the lists not taken as they are
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
        if let b = slot.base {
          // Deleted here, kept for a change made elsewhere: it keeps its id, so that an undo
          // of the delete sees it is there again instead of adding a second copy.
          list.id = base[b].id
        } else {
          list.id = nextListID
          nextListID += 1
          report.changesFromElsewhere += 1
        }
      } else {
        continue
      }
      if let t = slot.theirs { theirsWithIDs[t].id = list.id }
      list.setItems(orderedItems(slot: index))
      changed.append(lists.count)
      lists.append(list)
    }
    followMovedParents(&lists, changed: changed)
    // A child whose parent was deleted elsewhere becomes top-level; one the merge placed away
    // from its parent follows it again.
    for index in changed { lists[index].repairOutline() }
    theirsIDs = theirsWithIDs.map(\.id)
    return (
      DataModel(listsKeepingIDs: lists, nextItemID: nextItemID, nextListID: nextListID),
      DataModel(listsKeepingIDs: theirsWithIDs, nextItemID: nextItemID, nextListID: nextListID)
    )
  }

  /// Children left behind by a parent that moved to another list (on one side, while the
  /// other side kept or added children under it in the old list) follow it there; the report
  /// says which (`MergeReport.movedWithParents`). A child whose parent is in another list
  /// without having moved from the child's list stays, and `repairOutline` makes it top-level.
  mutating func followMovedParents(_ lists: inout [Checklist], changed: [Int]) {
    // Only lists both sides did not leave as they were can have a child away from its parent
    // (a parent that moved changed the list it left and the one it went to).
    let orphaned = changed.filter { !lists[$0].outlineIsConsistent }
    guard !orphaned.isEmpty else { return }
    var listOf: [Int: Int] = [:]  // item id: index in `lists`
    for index in changed {
      for item in lists[index].items where listOf[item.itemID] == nil {
        listOf[item.itemID] = index
      }
    }
    var baseListIDOf: [Int: Checklist.ID] = [:]
    for list in base {
      for item in list.items where baseListIDOf[item.itemID] == nil {
        baseListIDOf[item.itemID] = list.id
      }
    }
    // In order, so that a child's children follow it: an item whose parent is moving moves.
    var moving: [Int: Int] = [:]  // item id: target list index
    var moves: [(from: Int, item: Int, to: Int)] = []
    for index in orphaned {
      let list = lists[index]
      for (position, item) in list.items.enumerated() {
        guard let parentID = item.parentItemID else { continue }
        let target: Int
        if let follows = moving[parentID] {
          target = follows
        } else if let there = listOf[parentID], there != index,
          baseListIDOf[parentID] == list.id
        {
          target = there
        } else {
          continue
        }
        moving[item.itemID] = target
        moves.append((index, position, target))
      }
    }
    guard !moves.isEmpty else { return }
    var taken: [Int: [ChecklistItem]] = [:]  // target list index: items in order
    for move in moves {
      let item = lists[move.from].items[move.item]
      taken[move.to, default: []].append(item)
      report.movedWithParents.append(
        KeptItem(
          list: lists[move.from].name, text: item.text,
          reason: "moved with its parent to list \(MergeReport.quote(lists[move.to].name))"))
      report.changesFromElsewhere += 1
    }
    for (index, list) in lists.enumerated() {
      let leaving = Set(moves.filter { $0.from == index }.map(\.item))
      let arriving = taken[index] ?? []
      guard !leaving.isEmpty || !arriving.isEmpty else { continue }
      var items = list.items.enumerated().filter { !leaving.contains($0.offset) }.map(\.element)
      items += arriving
      lists[index].setItems(items)
    }
  }

  /// The items of a slot in merged order: ours' order, with the items theirs placed inserted
  /// after the item they follow in theirs' list (and after ours' new items there).
  func orderedItems(slot: Int) -> [ChecklistItem] {
    var front: [ChecklistItem] = []
    var after: [Int: [ChecklistItem]] = [:]  // by ours' entry
    if let entries = theirsIndex.slotEntries[slot] {
      var anchor: Int?
      for te in entries {
        if let item = theirsIndex.emit[te] {
          if let anchor {
            after[anchor, default: []].append(item)
          } else {
            front.append(item)
          }
        } else if let oe = oursIndex.entry(theirsIndex.keys[te]), oursIndex.emit[oe] != nil,
          oursIndex.locations[oe].slot == slot
        {
          anchor = oe
        }
      }
    }
    // Theirs' insertions after an item come after ours' new items there (those theirs does not
    // have), just before the next item both sides have.
    var result: [ChecklistItem] = []
    var pending = front
    if let entries = oursIndex.slotEntries[slot] {
      result.reserveCapacity(entries.count + front.count)
      for oe in entries {
        guard let item = oursIndex.emit[oe] else { continue }
        if !pending.isEmpty, let te = theirsIndex.entry(oursIndex.keys[oe]),
          theirsIndex.emit[te] == nil, theirsIndex.locations[te].slot == slot
        {
          result += pending
          pending.removeAll()
        }
        result.append(item)
        if !after.isEmpty, let following = after[oe] { pending += following }
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
      if key == .tags, let tags = Self.mergeTags(base[key], ours[key], theirs[key]) {
        result[key] = tags
        continue
      }
      let value = pick(base[key], ours[key], theirs[key], field: key.string) { value in
        // A note or a rule is text the user wrote: the log keeps the losing words.
        switch value {
        case .string(let text)?: return MergeReport.quote(text)
        case .integer(let number)?: return String(number)
        case .bool(let flag)?: return flag ? "true" : "false"
        case let other?: return other.kindDescription
        case nil: return "removed"
        }
      }
      result[key] = value
    }
    return result
  }
}

extension FieldMerge {
  /// Tags merge as a set: ours' tags in ours' order, less those theirs removed, then those theirs
  /// added (compared ignoring case); a tag added on one side and removed on the other follows
  /// the side that changed it. Nil when a side's value is not an array of tags (then the key
  /// merges as any other).
  static func mergeTags(_ base: PlistValue?, _ ours: PlistValue?, _ theirs: PlistValue?)
    -> PlistValue??
  {
    if theirs == base || theirs == ours { return .some(ours) }
    if ours == base { return .some(theirs) }
    guard let b = tagNames(base), let o = tagNames(ours), let t = tagNames(theirs) else {
      return nil
    }
    let baseKeys = Set(b.map(ChecklistItem.tagKey))
    let theirsKeys = Set(t.map(ChecklistItem.tagKey))
    let removedThere = baseKeys.subtracting(theirsKeys)
    var merged = o.filter { !removedThere.contains(ChecklistItem.tagKey($0)) }
    merged += t.filter { !baseKeys.contains(ChecklistItem.tagKey($0)) }
    var item = ChecklistItem(text: "", itemID: 0)
    item.tags = merged
    return .some(item.unknownFields[.tags])
  }

  private static func tagNames(_ value: PlistValue?) -> [String]? {
    guard let value else { return [] }
    guard case .array(let values) = value else { return nil }
    var names: [String] = []
    for element in values {
      guard case .string(let name) = element else { return nil }
      names.append(name)
    }
    return names
  }
}

extension ChecklistItem {
  /// An edit from `from` to `to` made again on `current`, field by field: each field that
  /// `current` still holds as in `from` takes its value in `to`; a field changed elsewhere since
  /// (a merge) keeps its value, whether or not the edit touched it (the newer change wins).
  /// Undo and redo use it so that they take back only what the edit changed and nothing done
  /// elsewhere since.
  public static func rebase(from: ChecklistItem, to: ChecklistItem, onto current: ChecklistItem)
    -> ChecklistItem
  {
    var fields = FieldMerge(place: "")
    var result = current
    result.text = fields.pick(from.text, current.text, to.text, field: "text") { $0 }
    result.checked = fields.pick(from.checked, current.checked, to.checked, field: "") { _ in "" }
    result.dueDate = fields.pick(from.dueDate, current.dueDate, to.dueDate, field: "") { _ in "" }
    result.hasDueDate = fields.pick(from.hasDueDate, current.hasDueDate, to.hasDueDate, field: "") {
      _ in ""
    }
    result.shouldRemind = fields.pick(
      from.shouldRemind, current.shouldRemind, to.shouldRemind, field: ""
    ) { _ in "" }
    result.unknownFields = fields.pickFields(
      from.unknownFields, current.unknownFields, to.unknownFields)
    result.itemID = current.itemID
    return result
  }
}
