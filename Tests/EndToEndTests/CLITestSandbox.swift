import ChecklistsCore
import Foundation
import Testing

/// A temporary home with its own XDG folders, for running the built `checklists`.
struct CLITestSandbox {
  let root: String

  init() {
    root = NSTemporaryDirectory() + "checklists-cli-test-" + UUID().uuidString
    try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
  }

  func remove() { try? FileManager.default.removeItem(atPath: root) }

  /// The default data file in this sandbox.
  var dataFile: String { root + "/data/checklists/Checklists.plist" }

  var environment: [String: String] {
    [
      "HOME": root, "XDG_DATA_HOME": root + "/data", "XDG_STATE_HOME": root + "/state",
      "TZ": "UTC", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin",
    ]
  }

  /// Runs `checklists` with the sandbox's environment (plus `extra`).
  func run(_ arguments: String..., extra: [String: String] = [:]) throws -> BuiltBinary.Run {
    try BuiltBinary.run(arguments, environment: environment.merging(extra) { $1 })
  }

  /// Writes lists as the data file (XML).
  func writeData(_ lists: [Checklist], to path: String? = nil) throws {
    let path = path ?? dataFile
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    let data = try ChecklistsFileCoding.encode(lists, format: .xml).data
    #expect(FileManager.default.createFile(atPath: path, contents: data))
  }

  /// The data file's bytes.
  func bytes(_ path: String? = nil) -> Data? {
    FileManager.default.contents(atPath: path ?? dataFile)
  }

  /// The data file's lists.
  func lists(_ path: String? = nil) throws -> [Checklist] {
    try ChecklistsFileCoding.decode(bytes(path) ?? Data()).lists
  }
  /// Starts `checklists-bench hold-lock` on the data file and returns once it holds the lock.
  func startLockHolder() throws -> Process {
    let holder = Process()
    holder.executableURL = URL(fileURLWithPath: BuiltBinary.path("checklists-bench"))
    holder.arguments = ["hold-lock", dataFile]
    let pipe = Pipe()
    holder.standardOutput = pipe
    try holder.run()
    // "locked" arrives once the lock is held.
    let line = pipe.fileHandleForReading.availableData
    #expect(String(decoding: line, as: UTF8.self) == "locked\n")
    return holder
  }

}

/// Fixed lists for the tests: "Groceries" (Milk, Eggs checked), "Chores" (Dishes), "Empty".
func sampleLists(now: Date = Date()) -> [Checklist] {
  let due = Date(timeIntervalSince1970: 1_800_000_000)
  var groceries = Checklist(name: "Groceries", iconName: "Groceries")
  groceries.insertItem(ChecklistItem(text: "Milk", dueDate: due, itemID: 1))
  groceries.insertItem(ChecklistItem(text: "Eggs", checked: true, dueDate: due, itemID: 2))
  var chores = Checklist(name: "Chores", iconName: "Chores")
  chores.insertItem(ChecklistItem(text: "Dishes", checked: true, dueDate: due, itemID: 3))
  return [groceries, chores, Checklist(name: "Empty")]
}
