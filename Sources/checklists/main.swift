// PROVISIONAL: the lead replaces this file when integrating the store and the CLI.
import ChecklistsCore
import ChecklistsTerminal
import ChecklistsUI
import Foundation

FullScreen.prepareProcess()

let environment = ProcessInfo.processInfo.environment

/// The data file: `$CHECKLISTS_FILE`, else `$XDG_DATA_HOME/checklists/Checklists.plist`.
func dataFileURL() -> URL {
  if let path = environment["CHECKLISTS_FILE"], !path.isEmpty { return URL(fileURLWithPath: path) }
  let base =
    environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
    ?? (NSHomeDirectory() + "/.local/share")
  return URL(fileURLWithPath: base).appendingPathComponent("checklists/Checklists.plist")
}

let fileURL = dataFileURL()
var lists: [Checklist] = []
var fileFormat = PlistFormat.xml
if let data = try? Data(contentsOf: fileURL) {
  do {
    let document = try ChecklistsFileCoding.decode(data)
    lists = document.lists
    fileFormat = document.format
  } catch {
    FileHandle.standardError.write(Data("checklists: \(fileURL.path): \(error.message)\n".utf8))
    exit(1)
  }
}

/// Writes the lists to `url` in the file's format.
func write(_ model: DataModel, to url: URL, format: PlistFormat) -> SaveOutcome {
  do {
    let encoded = try ChecklistsFileCoding.encode(model.lists, format: format)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try encoded.data.write(to: url, options: .atomic)
    return SaveOutcome(succeeded: true, message: "Saved")
  } catch {
    return SaveOutcome(succeeded: false, message: "Save failed: \(error)")
  }
}

let format = fileFormat
let hooks = TerminalDriverHooks<ChecklistsApp>(
  save: { write($0, to: fileURL, format: format) },
  rescue: { model in
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("checklists-rescue-\(getpid()).plist")
    return write(model, to: url, format: format).succeeded ? url.path : nil
  },
  persistState: { _ in }
)
let status = FullScreen.run(environment: environment, hooks: hooks) { width, height in
  ChecklistsApp(
    model: DataModel(lists: lists),
    isFirstRun: !FileManager.default.fileExists(atPath: fileURL.path),
    size: (width, height), now: Date())
}
exit(status)
