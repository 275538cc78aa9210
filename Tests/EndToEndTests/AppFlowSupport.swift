import ChecklistsTestSupport
import Foundation
import Testing

/// A bash shell in tmux that starts the real `checklists` app as a user would, with helpers to
/// read the data file and run the scripting CLI on the same private data folder.
final class AppFlowShell {
  /// The tmux session running the shell.
  let session: TmuxSession
  private let app: String

  /// The iPhone app's fixture file.
  static var fixture: URL {
    URL(fileURLWithPath: BuiltBinary.repositoryRoot + "/Tests/Fixtures/Checklists-ios.plist")
  }

  /// Copies the iPhone fixture in as the data file.
  static func copyFixture(into folder: URL) throws {
    try FileManager.default.copyItem(
      at: fixture, to: folder.appendingPathComponent("Checklists.plist"))
  }

  /// Starts bash in a `width`×`height` pane; `prepare` gets the data folder first.
  init(
    width: Int = 100, height: Int = 30, logOutput: Bool = false,
    prepare: (URL) throws -> Void = { _ in }
  ) throws {
    app = shellQuote(try BuiltBinary.existingPath())
    session = try TmuxSession(
      command: "exec bash --norc --noprofile -i", width: width, height: height,
      environment: ["PS1": "READY$ "], logOutput: logOutput, prepare: prepare)
    try session.waitFor(text: "READY$")
  }

  /// Closes the tmux server and removes the temporary folder.
  func close() { session.close() }

  /// The data file's path.
  var dataFile: URL { session.dataFile }

  /// The environment the CLI needs to use the same data and state folders.
  var environment: [String: String] {
    [
      "XDG_DATA_HOME": session.dataHome.path, "XDG_STATE_HOME": session.stateHome.path,
      "HOME": session.directory.path, "LANG": "C.UTF-8", "TZ": "UTC",
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
    ]
  }

  /// Starts the app from the shell (it records its exit status in `status`).
  func launch(waitingFor text: String, timeout: TimeInterval = 10) throws {
    try? FileManager.default.removeItem(at: session.directory.appendingPathComponent("status"))
    try session.type("clear; \(app); echo $? > status")
    try session.sendKeys("Enter")
    try session.waitFor(text: text, timeout: timeout)
  }

  /// Presses `q` and waits for the app's exit status.
  func quit(timeout: TimeInterval = 10) throws -> String {
    try session.sendKeys("q")
    try session.waitUntil("the app to exit", timeout: timeout) {
      session.text(of: "status").hasSuffix("\n")
    }
    return session.text(of: "status").trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Runs the CLI on the same data file.
  @discardableResult
  func cli(_ arguments: String...) throws -> ProcessResult {
    try BuiltBinary.run(arguments, environment: environment)
  }

  /// The data file decoded by Foundation: the lists, each a dictionary.
  func lists() throws -> [[String: Any]] {
    let data = try Data(contentsOf: dataFile)
    guard
      let lists = try PropertyListSerialization.propertyList(from: data, format: nil)
        as? [[String: Any]]
    else { throw TmuxError(description: "the data file is not an array of lists") }
    return lists
  }

  /// The items of the list named `name` in the data file.
  func items(of name: String) throws -> [[String: Any]] {
    guard let list = try lists().first(where: { $0["name"] as? String == name }) else {
      throw TmuxError(description: "no list \(name) in the data file")
    }
    return list["items"] as? [[String: Any]] ?? []
  }

  /// The texts of the items of the list `name` in file order.
  func itemTexts(of name: String) throws -> [String] {
    try items(of: name).compactMap { $0["text"] as? String }
  }

  /// The lines of the screen that contain `text`.
  func lines(containing text: String) throws -> [String] {
    try session.capture().split(separator: "\n").map(String.init).filter { $0.contains(text) }
  }
}

extension AppFlowShell {
  /// Writes a data file of lists named `names` (in that order), each with the items in `items`
  /// under its name, as the iPhone app would (XML, unchecked items, no reminders).
  static func writeLists(
    _ names: [String], items: [String: [String]] = [:], into folder: URL
  ) throws {
    var nextID = 0
    let lists: [[String: Any]] = names.map { name in
      let listItems: [[String: Any]] = (items[name] ?? []).map { text in
        defer { nextID += 1 }
        return [
          "text": text, "checked": false, "shouldRemind": false, "itemID": nextID,
          "dueDate": Date(timeIntervalSince1970: 1_800_000_000),
        ]
      }
      return ["name": name, "iconName": "No Icon", "items": listItems]
    }
    let data = try PropertyListSerialization.data(fromPropertyList: lists, format: .xml, options: 0)
    try data.write(to: folder.appendingPathComponent("Checklists.plist"))
  }
}
