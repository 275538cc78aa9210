import ChecklistsCore
import Foundation

/// Subcommands for the durability tests: a save loop that says what it is about to write.
enum DurabilityTools {
  /// `announced-save-loop FILE COUNT`: opens FILE (taking the lock), prints "ready K" where K is
  /// the number of items in the list "Loop" (0 when missing), then COUNT times appends
  /// "item N" to "Loop" and saves, printing "saving N" before and "saved N MS" (the save's
  /// duration in milliseconds) after each save.
  static func announcedSaveLoop(_ arguments: [String]) -> Int32 {
    guard arguments.count == 2, let count = Int(arguments[1]) else {
      FileHandle.standardError.write(
        Data("usage: checklists-bench announced-save-loop FILE COUNT\n".utf8))
      return 2
    }
    do {
      let location = try DataFileLocation.resolve(
        environment: ProcessInfo.processInfo.environment, filePath: arguments[0])
      let (store, load) = try ChecklistsStore.open(location: location)
      var model = load.model
      let existing = model.lists.first { $0.name == "Loop" }?.items.count ?? 0
      say("ready \(existing)")
      if !model.lists.contains(where: { $0.name == "Loop" }) {
        model.apply(model.insertList(model.makeList(name: "Loop")))
      }
      for _ in 0..<count {
        guard let list = model.lists.first(where: { $0.name == "Loop" }) else { return 1 }
        let next = list.items.count + 1
        let item = model.makeItem(text: "item \(next)")
        if let change = model.insertItem(item, listID: list.id) { model.apply(change) }
        say("saving \(next)")
        let start = DispatchTime.now().uptimeNanoseconds
        try store.save(model)
        let milliseconds = (DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
        say("saved \(next) \(milliseconds)")
      }
      return 0
    } catch {
      FileHandle.standardError.write(Data("\(error.message)\n".utf8))
      return 1
    }
  }

  private static func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
  }
}
