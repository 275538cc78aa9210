import ChecklistsCore
import Foundation

/// Subcommands that exercise the store from a separate process (the kill and lock tests).
enum StoreTools {
  /// `save-loop FILE COUNT`: opens FILE, then COUNT times appends "item N" to the list "Loop"
  /// (created when missing) and saves; prints "ready" after the first save.
  static func saveLoop(_ arguments: [String]) -> Int32 {
    guard arguments.count == 2, let count = Int(arguments[1]) else {
      return usage("save-loop FILE COUNT")
    }
    do {
      let location = try DataFileLocation.resolve(
        environment: ProcessInfo.processInfo.environment, filePath: arguments[0])
      let (store, load) = try ChecklistsStore.open(location: location)
      var model = load.model
      if !model.lists.contains(where: { $0.name == "Loop" }) {
        model.apply(model.insertList(model.makeList(name: "Loop")))
      }
      for round in 0..<count {
        guard let list = model.lists.first(where: { $0.name == "Loop" }) else { return 1 }
        let item = model.makeItem(text: "item \(list.items.count + 1)")
        if let change = model.insertItem(item, listID: list.id) { model.apply(change) }
        try store.save(model)
        if round == 0 { FileHandle.standardOutput.write(Data("ready\n".utf8)) }
      }
      return 0
    } catch {
      FileHandle.standardError.write(Data("\(error.message)\n".utf8))
      return 1
    }
  }

  /// `hold-lock FILE`: takes FILE's lock, prints "locked" and waits until killed.
  static func holdLock(_ arguments: [String]) -> Int32 {
    guard arguments.count == 1 else { return usage("hold-lock FILE") }
    do {
      let location = try DataFileLocation.resolve(
        environment: ProcessInfo.processInfo.environment, filePath: arguments[0])
      let lock = try DataFileLock.acquire(
        dataFile: location.dataFile, shownPath: location.displayPath)
      FileHandle.standardOutput.write(Data("locked\n".utf8))
      withExtendedLifetime(lock) {
        while true { pause() }
      }
      return 0
    } catch {
      FileHandle.standardError.write(Data("\(error.message)\n".utf8))
      return 1
    }
  }

  private static func usage(_ text: String) -> Int32 {
    FileHandle.standardError.write(Data("usage: checklists-bench \(text)\n".utf8))
    return 2
  }
}
