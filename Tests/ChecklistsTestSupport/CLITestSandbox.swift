import ChecklistsCore
import Foundation

/// A temporary home with its own XDG folders, for running `checklists` commands.
public struct CLITestSandbox: Sendable {
  /// The sandbox's folder (also `HOME`).
  public let root: String

  /// A new sandbox in a fresh temporary folder.
  public init() {
    root = NSTemporaryDirectory() + "checklists-cli-test-" + UUID().uuidString
    try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
  }

  /// Removes the sandbox's folder.
  public func remove() { try? FileManager.default.removeItem(atPath: root) }

  /// The default data file in this sandbox.
  public var dataFile: String { root + "/data/checklists/Checklists.plist" }

  /// The environment commands run with: the sandbox's folders, UTC, a UTF-8 locale.
  public var environment: [String: String] {
    [
      "HOME": root, "XDG_DATA_HOME": root + "/data", "XDG_STATE_HOME": root + "/state",
      "TZ": "UTC", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin",
    ]
  }

  /// Runs the built `checklists` with the sandbox's environment (plus `extra`).
  public func run(_ arguments: String..., extra: [String: String] = [:]) throws -> ProcessResult {
    try BuiltBinary.run(arguments, environment: environment.merging(extra) { $1 })
  }

  /// Why a file could not be written.
  public struct WriteError: Error, CustomStringConvertible {
    /// The path.
    public var description: String
  }

  /// Writes lists as the data file, or as the file at `path`, in XML (or in `format`: binary
  /// holds the control characters XML cannot).
  public func writeData(_ lists: [Checklist], to path: String? = nil, format: PlistFormat = .xml)
    throws
  {
    let path = path ?? dataFile
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    let data = try ChecklistsFileCoding.encode(lists, format: format).data
    guard FileManager.default.createFile(atPath: path, contents: data) else {
      throw WriteError(description: "could not write \(path)")
    }
  }

  /// The data file's bytes (or those of the file at `path`).
  public func bytes(_ path: String? = nil) -> Data? {
    FileManager.default.contents(atPath: path ?? dataFile)
  }

  /// The data file's lists (or those of the file at `path`).
  public func lists(_ path: String? = nil) throws -> [Checklist] {
    try ChecklistsFileCoding.decode(bytes(path) ?? Data()).lists
  }
}

/// Fixed lists for the tests: "Groceries" (Milk, Eggs checked), "Chores" (Dishes), "Empty".
public func sampleLists(now: Date = Date()) -> [Checklist] {
  let due = Date(timeIntervalSince1970: 1_800_000_000)
  var groceries = Checklist(name: "Groceries", iconName: "Groceries")
  groceries.insertItem(ChecklistItem(text: "Milk", dueDate: due, itemID: 1))
  groceries.insertItem(ChecklistItem(text: "Eggs", checked: true, dueDate: due, itemID: 2))
  var chores = Checklist(name: "Chores", iconName: "Chores")
  chores.insertItem(ChecklistItem(text: "Dishes", checked: true, dueDate: due, itemID: 3))
  return [groceries, chores, Checklist(name: "Empty")]
}
