import Foundation
import Testing

@testable import ChecklistsCore

@Suite("Store: loading and saving")
struct StoreSaveTests {
  @Test func firstRunCreatesOneListNamedListAndWritesANewFolder0700AndFile0600() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    let location = DataFileLocation(
      dataFile: folder.path + "/new/sub/Checklists.plist", stateFile: folder.path + "/s.json")
    let (store, load) = try ChecklistsStore.open(location: location)
    #expect(load.isFirstRun)
    #expect(load.model.lists.map(\.name) == ["List"])
    #expect(load.state.checklistIndex == 0)
    #expect(load.state.checklistName == "List")
    #expect(load.state.firstTime == false)
    #expect(try store.save(load.model).outcome == .saved)
    let fs = SystemFileSystem()
    #expect(try fs.stat(folder.path + "/new").permissions == 0o700)
    #expect(try fs.stat(folder.path + "/new/sub").permissions == 0o700)
    #expect(try fs.stat(location.dataFile).permissions == 0o600)
    let decoded = try ChecklistsFileCoding.decode(
      try #require(FileManager.default.contents(atPath: location.dataFile)))
    #expect(decoded.lists.map(\.name) == ["List"])
    #expect(decoded.format == .xml)
  }

  /// Commands made the file (with "List" and a list that sorts before it) and saved the first
  /// run's state: the app then opens "List", not the list that sorts first; without "List",
  /// All Lists.
  @Test func aFirstRunsStateOpensListByName() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    let (store, load) = try ChecklistsStore.open(location: folder.location())
    try store.saveState(load.state)
    for (names, opened) in [(["Aaa", "List"], "List"), (["Aaa", "Zed"], nil)] {
      folder.write(
        "Checklists.plist", encodedBytes(DataModel(lists: names.map { Checklist(name: $0) })))
      let (_, again) = try ChecklistsStore.open(location: folder.location())
      let index = again.state.openListIndex(in: again.model)
      #expect((index >= 0 ? again.model.lists[index].name : nil) == opened)
    }
  }

  @Test func anExistingFileNeverGetsAnExtraList() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    folder.write("Checklists.plist", encodedBytes(sampleModel()))
    let (_, load) = try ChecklistsStore.open(location: folder.location())
    #expect(!load.isFirstRun)
    #expect(load.model == sampleModel())
    #expect(load.state.firstTime == false)
    #expect(load.model.nextItemID == 4)
  }

  @Test func savingKeepsThePreviousVersionAsBak() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    let old = encodedBytes(sampleModel())
    folder.write("Checklists.plist", old)
    let (store, load) = try ChecklistsStore.open(location: folder.location())
    let changed = adding("Laundry", to: load.model)
    #expect(try store.save(changed).outcome == .saved)
    #expect(folder.bytes("Checklists.plist.bak") == old)
    #expect(folder.bytes("Checklists.plist") == encodedBytes(changed))
    // A second save moves the .bak forward.
    let again = adding("Windows", to: changed)
    #expect(try store.save(again).outcome == .saved)
    #expect(folder.bytes("Checklists.plist.bak") == encodedBytes(changed))
    #expect(!folder.names().contains { $0.contains(".tmp-") })
  }

  @Test func nothingIsWrittenWhenNothingChanged() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    folder.write("Checklists.plist", encodedBytes(sampleModel()))
    let before = try SystemFileSystem().stat(folder.path + "/Checklists.plist")
    let (store, load) = try ChecklistsStore.open(location: folder.location())
    #expect(try store.save(load.model).outcome == .unchanged)
    let after = try SystemFileSystem().stat(folder.path + "/Checklists.plist")
    #expect(before == after)
    #expect(!folder.names().contains("Checklists.plist.bak"))
    // Saved once, the same model again is unchanged too.
    let changed = adding("Laundry", to: load.model)
    #expect(try store.save(changed).outcome == .saved)
    #expect(try store.save(changed).outcome == .unchanged)
  }

  @Test func anExistingFileKeepsItsPermissionBits() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    folder.write("Checklists.plist", encodedBytes(sampleModel()))
    chmod(folder.path + "/Checklists.plist", 0o640)
    let (store, load) = try ChecklistsStore.open(location: folder.location())
    try store.save(adding("Laundry", to: load.model))
    #expect(folder.permissions("Checklists.plist") == 0o640)
  }

  /// A folder whose `Checklists.plist` is a symbolic link to `real/Target.plist` (the sample).
  private func linkedFolder() throws -> StoreTestFolder {
    let folder = StoreTestFolder()
    try FileManager.default.createDirectory(
      atPath: folder.path + "/real", withIntermediateDirectories: true)
    folder.write("real/Target.plist", encodedBytes(sampleModel()))
    #expect(symlink("real/Target.plist", folder.path + "/Checklists.plist") == 0)
    return folder
  }

  @Test func aSymbolicLinkStaysAndItsTargetIsReplaced() throws {
    let folder = try linkedFolder()
    defer { folder.remove() }
    let (store, load) = try ChecklistsStore.open(location: folder.location())
    #expect(store.resolvedPath == folder.path + "/real/Target.plist")
    let changed = adding("Laundry", to: load.model)
    #expect(try store.save(changed).outcome == .saved)
    let link = try SystemFileSystem().lstat(folder.path + "/Checklists.plist")
    #expect(link.kind == .symbolicLink)
    #expect(
      try SystemFileSystem().readlink(folder.path + "/Checklists.plist") == "real/Target.plist")
    #expect(folder.bytes("real/Target.plist") == encodedBytes(changed))
    #expect(folder.bytes("real/Target.plist.bak") == encodedBytes(sampleModel()))
  }

  /// Through a symbolic link to a file of another name, a conflict copy is named after the
  /// file it is beside, and the hint for the damaged file finds it there.
  @Test func aConflictCopyBesideALinksTargetIsNamedAfterItAndHinted() throws {
    let folder = try linkedFolder()
    defer { folder.remove() }
    let (store, load) = try ChecklistsStore.open(location: folder.location())
    #expect(try store.save(adding("Laundry", to: load.model)).outcome == .saved)
    folder.write("real/Target.plist", Data("garbage".utf8))
    guard case .conflictCopy(_, let copy, _) = try store.save(adding("Tea", to: load.model)).outcome
    else {
      Issue.record("expected a conflict copy")
      return
    }
    #expect(PathText.name(of: copy).hasPrefix("Target.conflict-"))
    #expect(PathText.folder(of: copy) == folder.path + "/real")
    do {
      _ = try ChecklistsStore.open(location: folder.location())
      Issue.record("a damaged file opened")
    } catch {
      #expect(error.restoreHint?.contains(copy) == true, "\(error.restoreHint ?? "no hint")")
    }
  }

  @Test func aBinaryFileStaysBinary() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    folder.write("Checklists.plist", encodedBytes(sampleModel(), format: .binary))
    let (store, load) = try ChecklistsStore.open(location: folder.location())
    #expect(store.format == .binary)
    try store.save(adding("Laundry", to: load.model))
    let saved = try #require(folder.bytes("Checklists.plist"))
    #expect(saved.starts(with: Data("bplist00".utf8)))
  }

  @Test func theIPhoneFixtureLoadsAndSavesInItsFormat() throws {
    let fixture = FileFormatTestSupport.iosFixture.path
    let original = try #require(FileManager.default.contents(atPath: fixture))
    let folder = StoreTestFolder()
    defer { folder.remove() }
    folder.write("Checklists.plist", original)
    let (store, load) = try ChecklistsStore.open(location: folder.location())
    #expect(!load.model.lists.isEmpty)
    let expected = try ChecklistsFileCoding.decode(original)
    #expect(store.format == expected.format)
    var changed = load.model
    let first = try #require(changed.lists.first)
    let change = try #require(changed.insertItem(changed.makeItem(text: "New"), listID: first.id))
    changed.apply(change)
    #expect(try store.save(changed).outcome == .saved)
    #expect(folder.bytes("Checklists.plist.bak") == original)
  }

  @Test func aFileChangedByAnotherProgramIsMergedWithAndTheConflictLogged() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    folder.write("Checklists.plist", encodedBytes(sampleModel()))
    let clock: @Sendable () -> Date = { Date(timeIntervalSince1970: 1_790_000_000) }
    let utc = ZoneRules.utc
    let (store, load) = try ChecklistsStore.open(
      location: folder.location(), clock: clock, timeZone: utc)
    // Theirs: a new item and Milk renamed; ours: a new item and Milk renamed differently.
    var theirs = sampleModel(extraItem: "Theirs")
    theirs.apply(
      try #require(
        theirs.replaceItem(
          listID: theirs.lists[1].id, at: 0,
          with: ChecklistItem(
            text: "Oat milk", dueDate: theirs.lists[1].items[0].dueDate, itemID: 1))))
    folder.write("Checklists.plist", encodedBytes(theirs))
    var mine = adding("Mine", to: load.model)
    mine.apply(
      try #require(
        mine.replaceItem(
          listID: mine.lists[1].id, at: 0,
          with: ChecklistItem(text: "Milk 2L", dueDate: mine.lists[1].items[0].dueDate, itemID: 1)
        )))
    let result = try store.save(mine)
    guard case .merged(let report) = result.outcome else {
      Issue.record("expected a merge: \(result.outcome)")
      return
    }
    #expect(report.conflicts.count == 1)
    #expect(report.renumbered.count == 1)  // "Mine" and "Theirs" both took itemID 4
    // The renumbering is not told: ours was never written, nothing knew its old id.
    #expect(
      result.statusLine
        == "Saved; 1 change made elsewhere merged; 1 conflict: kept your change "
        + "(details in Checklists.plist.conflicts.log)")
    let saved = try ChecklistsFileCoding.decode(
      bytes: [UInt8](try #require(folder.bytes("Checklists.plist"))))
    #expect(
      saved.lists.map { $0.items.map(\.text) } == [
        ["Dishes", "Mine", "Theirs"], ["Milk 2L", "Eggs"],
      ])
    let log = String(
      decoding: folder.bytes("Checklists.plist.conflicts.log") ?? Data(), as: UTF8.self)
    #expect(
      log.contains(
        "2026-09-21 14:13:20 Checklists.plist: list \"Groceries\", item \"Milk 2L\", text: kept "
          + "\"Milk 2L\"; the other change was \"Oat milk\"\n"))
    #expect(!log.contains("itemID"))
    // The result is what the store now holds: saving it again writes nothing.
    let merged = try #require(result.merged?.model)
    #expect(try store.save(merged).outcome == .unchanged)
    #expect(!folder.names().contains { $0.contains("conflict-") })
  }

  /// A merge in memory (the app taking in a change made elsewhere) that keeps our value of a
  /// field changed on both sides logs it when the save writes that value, not before: the log
  /// was written at the merge, so an app killed before saving left a line naming a value the
  /// file never held.
  @Test func aConflictMergedInMemoryIsLoggedByTheSaveThatWritesIt() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    folder.write("Checklists.plist", encodedBytes(sampleModel()))
    let clock: @Sendable () -> Date = { Date(timeIntervalSince1970: 1_790_000_000) }
    let (store, load) = try ChecklistsStore.open(
      location: folder.location(), clock: clock, timeZone: ZoneRules.utc)
    func renamingMilk(_ model: DataModel, to text: String) throws -> DataModel {
      var model = model
      let list = model.lists[1]
      model.apply(
        try #require(
          model.replaceItem(
            listID: list.id, at: 0,
            with: ChecklistItem(text: text, dueDate: list.items[0].dueDate, itemID: 1))))
      return model
    }
    folder.write("Checklists.plist", encodedBytes(try renamingMilk(sampleModel(), to: "Oat milk")))
    let mine = try renamingMilk(load.model, to: "Milk 2L")
    let refreshed = try #require(store.refresh(mine))
    #expect(refreshed.merged.report.conflicts.count == 1)
    #expect(!refreshed.matchesFile)
    // Not saved yet: the file holds "Oat milk", and the log names nothing (a process killed
    // now never logs it).
    #expect(folder.bytes("Checklists.plist.conflicts.log") == nil)
    // The save writes "Milk 2L" and then logs it, once.
    #expect(try store.save(refreshed.merged.model).outcome != .unchanged)
    let saved = try ChecklistsFileCoding.decode(
      bytes: [UInt8](try #require(folder.bytes("Checklists.plist"))))
    #expect(saved.lists[1].items[0].text == "Milk 2L")
    let log = String(
      decoding: folder.bytes("Checklists.plist.conflicts.log") ?? Data(), as: UTF8.self)
    #expect(log.components(separatedBy: "kept \"Milk 2L\"").count == 2, "\(log)")
    #expect(try store.save(refreshed.merged.model).outcome == .unchanged)
    let again = String(
      decoding: folder.bytes("Checklists.plist.conflicts.log") ?? Data(), as: UTF8.self)
    #expect(again == log)
  }

  @Test func aFileThatCannotBeReadNowGetsOneConflictCopyKeptUpToDate() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    folder.write("Checklists.plist", encodedBytes(sampleModel()))
    let clock: @Sendable () -> Date = { Date(timeIntervalSince1970: 1_790_000_000) }
    let utc = ZoneRules.utc
    let (store, load) = try ChecklistsStore.open(
      location: folder.location(), clock: clock, timeZone: utc)
    folder.write("Checklists.plist", Data("not a plist".utf8))
    let mine = adding("Mine", to: load.model)
    let result = try store.save(mine)
    let copy = folder.path + "/Checklists.conflict-20260921-141320.plist"
    guard case .conflictCopy(_, let written, _) = result.outcome else {
      Issue.record("expected a conflict copy: \(result.outcome)")
      return
    }
    #expect(written == copy)
    #expect(folder.bytes("Checklists.plist") == Data("not a plist".utf8))
    #expect(FileManager.default.contents(atPath: copy) == encodedBytes(mine))
    // Later saves update the same copy.
    let more = adding("More", to: mine)
    guard case .conflictCopy(_, let second, _) = try store.save(more).outcome else {
      Issue.record("expected a conflict copy")
      return
    }
    #expect(second == copy)
    #expect(FileManager.default.contents(atPath: copy) == encodedBytes(more))
    #expect(folder.names().filter { $0.contains("conflict-") }.count == 1)
    // Once the file can be read again, saves merge with it.
    folder.write("Checklists.plist", encodedBytes(sampleModel(extraItem: "Back")))
    guard case .merged = try store.save(more).outcome else {
      Issue.record("expected a merge")
      return
    }
  }

  /// The file becomes unreadable and is then restored from its `.bak`, older than the last
  /// save: what the restored file lacks stays (it was not deleted anywhere), whether the app
  /// next looks at the file or saves. Without this, the item saved last was lost.
  @Test(arguments: [false, true])
  func aFileRestoredFromItsBackupAfterBeingUnreadableLosesNothingSavedSince(
    lookFirst: Bool
  ) throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    folder.write("Checklists.plist", encodedBytes(sampleModel()))
    let clock = SteppedClock()
    let (store, load) = try ChecklistsStore.open(location: folder.location(), clock: clock.read)
    let withB = adding("B", to: load.model)
    #expect(try store.save(withB).outcome == .saved)
    let backup = try #require(folder.bytes("Checklists.plist.bak"))
    folder.write("Checklists.plist", Data("garbage".utf8))
    let withC = adding("C", to: withB)
    if lookFirst {
      #expect(store.refresh(withC) == nil)
    } else {
      guard case .conflictCopy = try store.save(withC).outcome else {
        Issue.record("expected a conflict copy")
        return
      }
    }
    // Put back some seconds later (a file caught half-written is unreadable only for an instant).
    clock.advance(by: 5)
    folder.write("Checklists.plist", backup)
    let refreshed = try #require(store.refresh(withC))
    let chores = { (model: DataModel) in
      model.lists.first { $0.name == "Chores" }?.items.map(\.text) ?? []
    }
    #expect(chores(refreshed.merged.model) == ["Dishes", "B", "C"])
    #expect(refreshed.merged.report.keptMissingFromFile == 1)
    #expect(
      refreshed.statusLine.contains("kept 1 thing the file lacked after it could not be read"))
    #expect(try store.save(refreshed.merged.model).outcome == .saved)
    let written = try ChecklistsFileCoding.decode(try #require(folder.bytes("Checklists.plist")))
    #expect(chores(DataModel(lists: written.lists)) == ["Dishes", "B", "C"])
    // Once merged, the file is trusted again: an item deleted from it elsewhere goes.
    var deleted = DataModel(lists: written.lists)
    let list = try #require(deleted.lists.first { $0.name == "Chores" })
    _ = deleted.apply(try #require(deleted.deleteItem(listID: list.id, at: 1)))
    folder.write("Checklists.plist", encodedBytes(deleted))
    let again = try #require(store.refresh(refreshed.merged.model))
    #expect(chores(again.merged.model) == ["Dishes", "C"])
  }

  /// After a restored file was merged and before anything is saved, other writers change it
  /// again (a check, an item added under the number of an item the copy lacks, a deletion):
  /// those merge as usual, and what the copy lacked still stays. Before, every merge until the
  /// next save took only additions, and that save wrote the older values back.
  @Test func changesMadeElsewhereAfterARestoreMergeAsUsual() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    folder.write("Checklists.plist", encodedBytes(sampleModel(extraItem: "Extra")))
    let clock = SteppedClock()
    let (store, load) = try ChecklistsStore.open(location: folder.location(), clock: clock.read)
    let withB = adding("B", to: load.model)
    let (backup, restored) = try saveDamageAndPutBack(withB, store, folder, clock)
    #expect(restored.merged.report.keptMissingFromFile == 1)
    #expect(!restored.matchesFile)
    let chores = { (model: DataModel) in
      model.lists.first { $0.name == "Chores" }?.items ?? []
    }
    // Another writer reads the restored file: checks Dishes, deletes Extra and adds Eggs under
    // the number B has here (the copy does not have B).
    var theirs = DataModel(lists: try ChecklistsFileCoding.decode(backup).lists)
    let list = try #require(theirs.lists.first { $0.name == "Chores" })
    var dishes = list.items[0]
    dishes.checked = true
    _ = theirs.apply(try #require(theirs.replaceItem(listID: list.id, at: 0, with: dishes)))
    _ = theirs.apply(try #require(theirs.deleteItem(listID: list.id, at: 1)))
    theirs = adding("Eggs", to: theirs)
    #expect(chores(theirs).last?.itemID == chores(withB).last?.itemID)
    folder.write("Checklists.plist", encodedBytes(theirs))
    let again = try #require(store.refresh(restored.merged.model))
    #expect(chores(again.merged.model).map(\.text) == ["Dishes", "B", "Eggs"])
    #expect(chores(again.merged.model).first?.checked == true)
    #expect(again.merged.report.keptMissingFromFile == 0)
    #expect(again.merged.report.renumbered.map(\.text) == ["B"])
    #expect(!again.matchesFile)
    #expect(try store.save(again.merged.model).outcome == .saved)
    let written = try ChecklistsFileCoding.decode(try #require(folder.bytes("Checklists.plist")))
    let saved = chores(DataModel(lists: written.lists))
    #expect(saved.map(\.text) == ["Dishes", "B", "Eggs"])
    #expect(saved.first?.checked == true)
    #expect(Set(saved.map(\.itemID)).count == 3)
  }

  /// Saves `model`, damages the data file (a refresh finds nothing to take), then puts the
  /// `.bak` copy back, as a user restoring it would; returns that copy and the refresh that
  /// merged it.
  private func saveDamageAndPutBack(
    _ model: DataModel, _ store: ChecklistsStore, _ folder: StoreTestFolder, _ clock: SteppedClock
  ) throws -> (backup: Data, restored: RefreshResult) {
    #expect(try store.save(model).outcome == .saved)
    let backup = try #require(folder.bytes("Checklists.plist.bak"))
    folder.write("Checklists.plist", Data("garbage".utf8))
    #expect(store.refresh(model) == nil)
    clock.advance(by: 5)
    folder.write("Checklists.plist", backup)
    return (backup, try #require(store.refresh(model)))
  }

  /// The restored file's lists get the ids of the lists they are here, whatever their order by
  /// name (an empty list the copy still has sorts first), and the lists made here afterwards
  /// get ids of their own: later merges then land in the right lists. Found by review: an
  /// item added to Groceries elsewhere went into Chores, and a list made here took the id of
  /// one the copy had.
  @Test func aRestoredFilesListsKeepTheirIdentityInLaterMerges() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    var start = sampleModel()
    _ = start.apply(start.insertList(start.makeList(name: "Aa")))
    _ = start.apply(start.insertList(start.makeList(name: "Old")))
    folder.write("Checklists.plist", encodedBytes(start))
    let clock = SteppedClock()
    let (store, load) = try ChecklistsStore.open(location: folder.location(), clock: clock.read)
    var mine = load.model
    for name in ["Aa", "Old"] {
      let id = try #require(mine.lists.first { $0.name == name }?.id)
      _ = mine.apply(try #require(mine.deleteList(id: id)))
    }
    let (backup, restored) = try saveDamageAndPutBack(mine, store, folder, clock)
    var model = restored.merged.model
    #expect(model.lists.map(\.name) == ["Aa", "Chores", "Groceries", "Old"])
    // A list made here now, then changes elsewhere to the file as put back.
    _ = model.apply(model.insertList(model.makeList(name: "New")))
    var theirs = DataModel(lists: try ChecklistsFileCoding.decode(backup).lists)
    let groceries = try #require(theirs.lists.first { $0.name == "Groceries" }?.id)
    let bread = theirs.makeItem(text: "Bread", dueDate: Date(timeIntervalSince1970: 0))
    _ = theirs.apply(try #require(theirs.insertItem(bread, listID: groceries)))
    let old = try #require(theirs.lists.first { $0.name == "Old" }?.id)
    let milk = theirs.makeItem(text: "Milk", dueDate: Date(timeIntervalSince1970: 0))
    _ = theirs.apply(try #require(theirs.insertItem(milk, listID: old)))
    folder.write("Checklists.plist", encodedBytes(theirs))
    let again = try #require(store.refresh(model))
    let texts = { (name: String) in
      again.merged.model.lists.first { $0.name == name }?.items.map(\.text) ?? []
    }
    #expect(texts("Groceries") == ["Milk", "Eggs", "Bread"])
    #expect(texts("Chores") == ["Dishes"])
    #expect(texts("Old") == ["Milk"])
    #expect(texts("New") == [])
    let ids = again.merged.model.lists.map(\.id)
    #expect(Set(ids).count == ids.count)
  }

  /// Put back after being gone, not only unreadable: the same. And the older copy's values of
  /// what both have (a text renamed since) are not taken as changes.
  @Test func aFileDeletedAndRestoredKeepsWhatWasSavedSinceAndItsNewerValues() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    folder.write("Checklists.plist", encodedBytes(sampleModel()))
    let clock = SteppedClock()
    let (store, load) = try ChecklistsStore.open(location: folder.location(), clock: clock.read)
    var renamed = adding("B", to: load.model)
    let chores = try #require(renamed.lists.first { $0.name == "Chores" })
    var dishes = chores.items[0]
    dishes.text = "Dishes and pans"
    _ = renamed.apply(try #require(renamed.replaceItem(listID: chores.id, at: 0, with: dishes)))
    #expect(try store.save(renamed).outcome == .saved)
    let backup = try #require(folder.bytes("Checklists.plist.bak"))
    try FileManager.default.removeItem(atPath: folder.path + "/Checklists.plist")
    #expect(store.refresh(renamed)?.statusLine.contains("was deleted by another program") == true)
    clock.advance(by: 5)
    folder.write("Checklists.plist", backup)
    let refreshed = try #require(store.refresh(renamed))
    #expect(!refreshed.matchesFile)
    let texts = refreshed.merged.model.lists.first { $0.name == "Chores" }?.items.map(\.text)
    #expect(texts == ["Dishes and pans", "B"])
    // The save writes it, though nothing changed since the look.
    #expect(try store.save(refreshed.merged.model).outcome == .saved)
    let written = try ChecklistsFileCoding.decode(try #require(folder.bytes("Checklists.plist")))
    #expect(written.lists.first { $0.name == "Chores" }?.items.map(\.text) == texts)
  }

  /// Unreadable only for an instant (a program writing the file in place, caught half-way), or
  /// unreadable and then written by this store: the file's deletions count as usual afterwards.
  @Test(arguments: [false, true])
  func aMomentUnreadableDoesNotKeepLaterDeletionsOut(savedMeanwhile: Bool) throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    folder.write("Checklists.plist", encodedBytes(sampleModel(extraItem: "Extra")))
    let clock = SteppedClock()
    let (store, load) = try ChecklistsStore.open(location: folder.location(), clock: clock.read)
    folder.write("Checklists.plist", Data("<?xml".utf8))
    #expect(store.refresh(load.model) == nil)
    var current = load.model
    if savedMeanwhile {
      clock.advance(by: 5)
      try FileManager.default.removeItem(atPath: folder.path + "/Checklists.plist")
      _ = store.refresh(current)
      #expect(try store.save(current).outcome == .recreated)
      clock.advance(by: 5)
    }
    // Another program deletes "Extra".
    folder.write("Checklists.plist", encodedBytes(sampleModel()))
    let refreshed = try #require(store.refresh(current))
    current = refreshed.merged.model
    #expect(current.lists.first { $0.name == "Chores" }?.items.map(\.text) == ["Dishes"])
    #expect(refreshed.merged.report.keptMissingFromFile == 0)
  }

  @Test func aFileTouchedButNotChangedIsSavedNormally() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    let bytes = encodedBytes(sampleModel())
    folder.write("Checklists.plist", bytes)
    let (store, load) = try ChecklistsStore.open(location: folder.location())
    // Same content, new inode and mtime: not a foreign change.
    try FileManager.default.removeItem(atPath: folder.path + "/Checklists.plist")
    folder.write("Checklists.plist", bytes)
    #expect(try store.save(adding("Laundry", to: load.model)).outcome == .saved)
  }

  @Test func aFileDeletedByAnotherProgramIsRecreatedAndTheUserTold() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    folder.write("Checklists.plist", encodedBytes(sampleModel()))
    let (store, load) = try ChecklistsStore.open(location: folder.location())
    try FileManager.default.removeItem(atPath: folder.path + "/Checklists.plist")
    let changed = adding("Laundry", to: load.model)
    let result = try store.save(changed)
    #expect(result.outcome == .recreated)
    #expect(result.statusLine.contains("had been deleted") == true)
    #expect(folder.bytes("Checklists.plist") == encodedBytes(changed))
  }

  @Test func staleTemporaryFilesOfDeadProcessesAreRemovedOnLoad() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    folder.write("Checklists.plist", encodedBytes(sampleModel()))
    // A pid above the kernel's maximum never runs; our own pid is alive.
    let dead = ".Checklists.plist.tmp-99999999-1"
    let alive = ".Checklists.plist.tmp-\(getppid())-1"
    let unrelated = ".Other.plist.tmp-99999999-1"
    for name in [dead, alive, unrelated] { folder.write(name, Data("partial".utf8)) }
    try FileManager.default.createDirectory(
      atPath: folder.path + "/state", withIntermediateDirectories: true)
    let deadState = "state/.Checklists.plist.json.tmp-99999999-7"
    folder.write(deadState, Data("{".utf8))
    _ = try ChecklistsStore.open(location: folder.location())
    #expect(folder.bytes(deadState) == nil)
    #expect(!folder.names().contains(dead))
    #expect(folder.names().contains(alive))
    #expect(folder.names().contains(unrelated))
  }

  @Test func aRescueCopyGoesNextToTheFileElseToTheFallbackFolder() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    folder.write("Checklists.plist", encodedBytes(sampleModel()))
    let utc = ZoneRules.utc
    let (store, load) = try ChecklistsStore.open(
      location: folder.location(),
      clock: { Date(timeIntervalSince1970: 1_790_000_000) }, timeZone: utc)
    let changed = adding("Laundry", to: load.model)
    let path = try store.writeRescueCopy(changed)
    #expect(path == folder.path + "/Checklists.rescue-20260921-141320.plist")
    #expect(FileManager.default.contents(atPath: path) == encodedBytes(changed))
    #expect(folder.bytes("Checklists.plist") == encodedBytes(sampleModel()))

    // When the folder refuses, the fallback folder gets it.
    let fallback = StoreTestFolder()
    defer { fallback.remove() }
    let faulty = FaultyFileSystem()
    let (faultyStore, _) = try ChecklistsStore.open(
      location: folder.location(), fileSystem: faulty,
      clock: { Date(timeIntervalSince1970: 1_790_000_000) }, timeZone: utc)
    let folderPath = folder.path
    faulty.setFault(.init(call: "open", code: EROFS) { $0.hasPrefix(folderPath + "/") })
    let second = try faultyStore.writeRescueCopy(changed, fallbackFolders: [fallback.path])
    #expect(second == fallback.path + "/Checklists.rescue-20260921-141320.plist")
    #expect(FileManager.default.contents(atPath: second) == encodedBytes(changed))
    // When nothing works, the error says so.
    faulty.setFault(.init(call: "open", code: EROFS) { _ in true })
    #expect(throws: StoreError.self) {
      try faultyStore.writeRescueCopy(changed, fallbackFolders: [fallback.path])
    }
  }

  @Test func theBackupFallsBackToACopyWithoutHardLinks() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    let old = encodedBytes(sampleModel())
    folder.write("Checklists.plist", old)
    let faulty = FaultyFileSystem(fault: .init(call: "link", code: EPERM) { _ in true })
    let (store, load) = try ChecklistsStore.open(
      location: folder.location(), fileSystem: faulty)
    #expect(try store.save(adding("Laundry", to: load.model)).outcome == .saved)
    #expect(folder.bytes("Checklists.plist.bak") == old)
    #expect(!folder.names().contains { $0.contains(".tmp-") })
  }
}

@Suite("Store: owner and group of a saved file")
struct StoreOwnershipTests {
  @Test func savingAsRootKeepsTheFilesOwnerAndGroup() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    let path = folder.path + "/Checklists.plist"
    folder.write("Checklists.plist", encodedBytes(sampleModel()))
    // Needs root (these machines run the tests as root): give the file to another user.
    try #require(chown(path, 1234, 1235) == 0, "chown needs root")
    let (store, load) = try ChecklistsStore.open(location: folder.location())
    #expect(try store.save(adding("Laundry", to: load.model)).outcome == .saved)
    let saved = try SystemFileSystem().stat(path)
    #expect(saved.owner == 1234)
    #expect(saved.group == 1235)
    #expect(saved.permissions == 0o644 || saved.permissions == 0o600)
    #expect(folder.bytes("Checklists.plist") == encodedBytes(adding("Laundry", to: load.model)))
  }

  @Test func aRefusedChangeOfOwnerStillSaves() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    let path = folder.path + "/Checklists.plist"
    folder.write("Checklists.plist", encodedBytes(sampleModel()))
    try #require(chown(path, 1234, 1235) == 0, "chown needs root")
    let faulty = FaultyFileSystem(fault: .init(call: "fchown", code: EPERM) { _ in true })
    let (store, load) = try ChecklistsStore.open(
      location: folder.location(), fileSystem: faulty)
    #expect(try store.save(adding("Laundry", to: load.model)).outcome == .saved)
    #expect(faulty.calls.contains { $0.hasPrefix("fchown ") })
    let saved = try SystemFileSystem().stat(path)
    #expect(saved.owner == geteuid())
    #expect(!folder.names().contains { $0.contains(".tmp-") })
  }

  @Test func aFileAlreadyOwnedByTheSaverNeedsNoChangeOfOwner() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    folder.write("Checklists.plist", encodedBytes(sampleModel()))
    let faulty = FaultyFileSystem()
    let (store, load) = try ChecklistsStore.open(
      location: folder.location(), fileSystem: faulty)
    #expect(try store.save(adding("Laundry", to: load.model)).outcome == .saved)
    #expect(!faulty.calls.contains { $0.hasPrefix("fchown ") })
  }
}

/// A clock the test moves on by hand.
final class SteppedClock: @unchecked Sendable {
  private let lock = NSLock()
  private var now = Date(timeIntervalSince1970: 1_790_000_000)

  /// The time now, as the store asks for it.
  var read: @Sendable () -> Date { { [self] in lock.withLock { now } } }

  /// Moves the time on.
  func advance(by seconds: TimeInterval) { lock.withLock { now += seconds } }
}
