import Foundation
import Testing

@testable import ChecklistsCore

/// A new file is XML, which keeps dates to the second: due dates made in the session (with a
/// fraction of a second) must not count as changes made elsewhere once written.
@Suite struct StoreDatePrecisionTests {
  /// A first run's store with one list of `texts`, each due a fraction past a second, saved.
  private func savedFirstRun(in folder: StoreTestFolder, _ texts: [String]) throws
    -> (ChecklistsStore, DataModel)
  {
    let (store, load) = try ChecklistsStore.open(location: folder.location())
    #expect(load.isFirstRun)
    var model = DataModel(nextItemID: load.model.nextItemID)
    model.apply(model.insertList(model.makeList(name: "List")))
    for (index, text) in texts.enumerated() {
      let due = Date(timeIntervalSinceReferenceDate: 800_000_000.25 + Double(index))
      let item = model.makeItem(text: text, dueDate: due)
      model.apply(try #require(model.insertItem(item, listID: model.lists[0].id)))
    }
    #expect(try store.save(model).outcome == .saved)
    return (store, model)
  }

  @Test func anAddElsewhereAfterAFirstSaveCountsAsOneChange() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    let (store, model) = try savedFirstRun(in: folder, ["One", "Two", "Three", "Four", "Five"])
    let (other, otherLoad) = try ChecklistsStore.open(location: folder.location())
    var theirs = otherLoad.model
    let added = theirs.makeItem(text: "Six")
    theirs.apply(try #require(theirs.insertItem(added, listID: theirs.lists[0].id)))
    _ = try other.save(theirs)

    let refreshed = try #require(store.refresh(model))
    #expect(refreshed.merged.report.changesFromElsewhere == 1)
    #expect(refreshed.statusLine.hasPrefix("1 change made elsewhere merged"))
    #expect(
      refreshed.merged.model.lists[0].items.map(\.text) == [
        "One", "Two", "Three", "Four", "Five", "Six",
      ])
  }

  @Test func aDueDateEditedElsewhereIsTakenNotAConflict() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    let (store, model) = try savedFirstRun(in: folder, ["One", "Two"])
    let (other, otherLoad) = try ChecklistsStore.open(location: folder.location())
    var theirs = otherLoad.model
    var edited = theirs.lists[0].items[0]
    let elsewhere = Date(timeIntervalSinceReferenceDate: 900_000_000)
    edited.dueDate = elsewhere
    let change = try #require(theirs.replaceItem(listID: theirs.lists[0].id, at: 0, with: edited))
    theirs.apply(change)
    _ = try other.save(theirs)

    let refreshed = try #require(store.refresh(model))
    #expect(refreshed.merged.report.conflicts.isEmpty)
    #expect(refreshed.merged.report.changesFromElsewhere == 1)
    #expect(refreshed.merged.model.lists[0].items[0].dueDate == elsewhere)
  }

  @Test func savingTheSameModelAgainWritesNothing() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    let (store, model) = try savedFirstRun(in: folder, ["One", "Two"])
    #expect(try store.save(model).outcome == .unchanged)
  }
}
