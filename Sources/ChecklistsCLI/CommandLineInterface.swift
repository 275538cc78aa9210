import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The scripting commands (`lists`, `show`, `add`, `due`, …) on the same store as the app.
public enum CommandLineInterface {
  /// The version `--version` prints.
  public static let version = "0.1.0"

  /// Runs the command in `arguments` (the words after the program name).
  ///
  /// Returns nil when there is no command (the caller then starts the full-screen app), else
  /// the exit status after printing: 0 done, 1 failed (`due`: nothing due; it fails with 3),
  /// 2 usage error. Output goes to `streams` (the process's stdout and stderr by default).
  /// `keyTable` is the full-screen app's, for `keys` and `config --check`.
  public static func run(
    _ arguments: [String], environment: [String: String], keyTable: AppKeyTable,
    streams: CLIStreams = .standard
  ) -> Int32? {
    let output = CLIOutput(streams: streams)
    var failureStatus: Int32 = 1
    guard
      let status = dispatch(
        arguments, environment: environment, keyTable: keyTable, output: output,
        failureStatus: &failureStatus)
    else { return nil }
    // Output that was lost (a full disk, a closed stdout: `export > backup`) is a failure,
    // whatever the command did.
    guard let failure = streams.outputFailure(), status < 2 else { return status }
    _ = output.fail(CLIError.failure("could not write the output: \(failure)"))
    return failureStatus
  }

  /// Runs the command `arguments` name (see `run`); sets `failureStatus` to its status for
  /// an error.
  private static func dispatch(
    _ arguments: [String], environment: [String: String], keyTable: AppKeyTable,
    output: CLIOutput, failureStatus: inout Int32
  ) -> Int32? {
    let global: GlobalOptions
    do {
      global = try GlobalOptions.parse(arguments)
    } catch {
      return output.fail(error)
    }
    if global.version {
      output.line("checklists \(version)")
      return 0
    }
    guard let name = global.command else {
      if global.help {
        output.write(CommandSpec.overview)
        return 0
      }
      return nil
    }
    guard let spec = CommandSpec.named(name) else {
      return output.fail(
        CLIError.usage("unknown command \"\(name)\"", usage: CommandSpec.shortUsage))
    }
    failureStatus = spec.failureStatus
    do throws(CLIError) {
      let parsed = try spec.parse(global.rest)
      if parsed.wantsHelp {
        output.write(spec.help)
        return 0
      }
      let location = try storeCall {
        try DataFileLocation.resolve(environment: environment, filePath: global.filePath)
      }
      let context = CommandContext(
        location: location, output: output, now: try Clock.now(environment: environment),
        timeZone: Clock.timeZone(environment: environment), environment: environment,
        photos: CommandPhotos(), keyTable: keyTable,
        fileNamed: global.filePath != nil || !(environment["CHECKLISTS_FILE"] ?? "").isEmpty,
        commandWords: [name] + global.rest)
      return try spec.run(parsed, context)
    } catch {
      var error = error
      if error.status == 2 && error.usage == nil { error.usage = spec.usage }
      if error.status == 1 { error.status = spec.failureStatus }
      return output.fail(error)
    }
  }

  /// The `--file PATH` given before or after the command, for the app to open; nil without one.
  public static func fileOption(in arguments: [String]) -> String? {
    (try? GlobalOptions.parse(arguments))?.filePath
  }
}

/// `--file`, `--help`, `--version` and the command name, taken from the arguments.
struct GlobalOptions {
  var filePath: String?
  var help = false
  var version = false
  var command: String?
  /// The arguments after the command, with `--file` removed.
  var rest: [String] = []

  static func parse(_ arguments: [String]) throws(CLIError) -> GlobalOptions {
    var options = GlobalOptions()
    var index = 0
    var afterDoubleDash = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if afterDoubleDash {
        options.rest.append(argument)
        continue
      }
      if argument == "--file" {
        guard index < arguments.count else {
          throw .usage("--file needs a path", usage: CommandSpec.shortUsage)
        }
        options.filePath = try filePath(arguments[index])
        index += 1
      } else if argument.hasPrefix("--file=") {
        options.filePath = try filePath(String(argument.dropFirst("--file=".count)))
      } else if options.command == nil {
        switch argument {
        case "--help", "-h": options.help = true
        case "--version": options.version = true
        case "--": afterDoubleDash = true
        default:
          if argument.hasPrefix("-") {
            throw .usage("unknown option \(argument)", usage: CommandSpec.shortUsage)
          }
          options.command = argument
        }
      } else {
        if argument == "--" { afterDoubleDash = true }
        options.rest.append(argument)
      }
    }
    return options
  }

  /// The path `--file` gave; an empty one is an error (`--file "$F"` with F unset), not the
  /// default file, which a command could then change by mistake.
  private static func filePath(_ path: String) throws(CLIError) -> String {
    guard !path.isEmpty else {
      throw .usage(
        "--file needs a path, and it was given an empty one", usage: CommandSpec.shortUsage)
    }
    return path
  }
}

/// A failure to report: the message, the exit status and, for usage errors, the usage line.
struct CLIError: Error {
  var message: String
  var status: Int32
  var usage: String?
  /// More lines after the message (e.g. how to restore a backup), each an error line of its own.
  var notes: [String] = []

  static func usage(_ message: String, usage: String) -> CLIError {
    CLIError(message: message, status: 2, usage: usage)
  }

  /// A usage error of the running command; its usage line is added when reported.
  static func usage(_ message: String) -> CLIError {
    CLIError(message: message, status: 2, usage: nil)
  }

  static func failure(_ message: String) -> CLIError {
    CLIError(message: message, status: 1, usage: nil)
  }
}

/// Runs a store call, turning its error into an exit-1 failure.
func storeCall<T>(_ body: () throws -> T) throws(CLIError) -> T {
  do {
    return try body()
  } catch let error as StoreError {
    var failure = CLIError.failure(error.message)
    if let hint = error.restoreHint { failure.notes.append(hint) }
    throw failure
  } catch {
    throw .failure("\(error)")
  }
}

/// The time the commands take as now.
enum Clock {
  /// The present moment, or the instant in `CHECKLISTS_NOW` (ISO 8601, e.g.
  /// "2026-11-30T11:00:00Z").
  ///
  /// `CHECKLISTS_NOW` exists for tests only, so that `due` and relative dates can be checked
  /// against a fixed clock; it is deliberately left out of `--help` and the docs. The time zone
  /// comes from `TZ` as usual.
  static func now(environment: [String: String]) throws(CLIError) -> Date {
    guard let text = environment["CHECKLISTS_NOW"] else { return Date() }
    guard let date = ImportedLists.parseISODate(text) else {
      throw .usage("CHECKLISTS_NOW is not an ISO 8601 date and time: \"\(text)\"")
    }
    return date
  }

  /// The time zone dates are read and shown in: `TZ` of the environment the commands were given
  /// (see `ZoneRules.resolve`), else the process's own zone, which comes from the same variable
  /// for a command run as a process.
  static func timeZone(environment: [String: String]) -> ZoneRules {
    guard environment["TZ"] != nil else { return .current }
    return ZoneRules.resolve(environment: environment)
  }
}

/// What every command gets: where the file is, where to print, the time and the environment.
struct CommandContext {
  var location: DataFileLocation
  var output: CLIOutput
  var now: Date
  /// The time zone of the dates the commands read and print.
  var timeZone: ZoneRules
  /// The process's environment (`PATH` to find helpers such as `notify-send`).
  var environment: [String: String]
  /// The photos the command holds while it runs, and the ones it read.
  var photos: CommandPhotos
  /// The full-screen app's key table (`keys`, `config --check`).
  var keyTable: AppKeyTable
  /// Whether the data file was named (`--file`, `CHECKLISTS_FILE`) rather than the default one:
  /// a named file that does not exist is likely a typo, so only a command that changes lists
  /// creates it, and only in a folder that exists.
  var fileNamed = false
  /// The command and its arguments as given, which the undo log names the change by.
  var commandWords: [String] = []

  /// The command as typed, words with spaces or quotes in quotes: `check Groceries "cafe au"`.
  var commandText: String {
    commandWords.map { word in
      word.isEmpty || word.contains(where: { $0 == " " || $0 == "\"" || $0 == "'" })
        ? "\"" + TextMatching.replacing("\"", with: "\\\"", in: word) + "\"" : word
    }.joined(separator: " ")
  }

  /// Opens the store, printing load warnings. No lock is taken: a save takes it for the moment
  /// it reads, merges and writes, so commands work while the app has the file open.
  func open() throws(CLIError) -> (ChecklistsStore, LoadResult) {
    try open(toChange: true)
  }

  /// Opens the store for a command that only shows the lists (`lists`, `show`, `export`): no
  /// lock and no lock file; saves replace the file atomically, so a read sees a whole version.
  /// That changes cannot be saved is not said: nothing is to be saved.
  func openToShow() throws(CLIError) -> (ChecklistsStore, LoadResult) {
    try open(toChange: false)
  }

  private func open(toChange: Bool) throws(CLIError) -> (ChecklistsStore, LoadResult) {
    if fileNamed, (try? SystemFileSystem().lstat(location.dataFile)) == nil {
      guard toChange else {
        throw .failure(
          "\(location.displayPath): no such file (a command that adds or changes lists creates it)")
      }
      let folder = PathText.folder(of: location.dataFile)
      guard (try? SystemFileSystem().stat(folder))?.kind == .directory else {
        throw .failure(
          "\(location.display(folder)): no such folder; a new data file is made only in a folder "
            + "that exists")
      }
    }
    let (store, load) = try storeCall {
      try ChecklistsStore.open(location: location, timeZone: timeZone)
    }
    for warning in load.warnings where toChange || warning != load.saveWarning {
      output.error("warning: \(warning)")
    }
    photos.opened(store: store)
    return (store, load)
  }

  /// The app's due-date formatter in the commands' time zone.
  var dueDateFormatter: DueDateFormatter { DueDateFormatter(timeZone: timeZone) }

  /// Saves the model and the state once, merged with changes made elsewhere meanwhile; says on
  /// stderr what the merge did; returns 1 when the change went to a conflict copy. The state is
  /// the loaded one with `update` applied and the next item ID raised past the model's, merged
  /// into the state file as it is at the save (what the app or `due --notify` wrote meanwhile
  /// stays).
  ///
  /// What the command changed goes to the undo log beside the state file (`checklists undo`),
  /// unless `recordsUndo` is false (the undo itself).
  func save(
    _ model: DataModel, store: ChecklistsStore, state loaded: ChecklistsState,
    recordsUndo: Bool = true,
    updatingState update: (inout ChecklistsState) -> Void = { _ in }
  ) throws(CLIError)
    -> Int32
  {
    let before = store.lastModel
    let result = try storeCall { try store.save(model) }
    switch result.outcome {
    case .saved, .unchanged:
      if let note = result.formatNote { output.error(note) }
    case .merged, .recreated:
      output.error(result.statusLine)
    case .conflictCopy:
      output.error(result.exitNotice ?? result.statusLine)
      return 1
    }
    photos.saved((result.merged?.model ?? model).photoNames, output: output)
    if recordsUndo {
      do throws(StoreError) {
        try store.recordCommandChange(
          CommandChange(summary: commandText, from: before, to: model))
      } catch {
        output.error("warning: \(error.message); `checklists undo` cannot take this back")
      }
    }
    var state = loaded
    update(&state)
    state.nextItemID = max(state.nextItemID, (result.merged?.model ?? model).nextItemID)
    do {
      try store.saveState(state, base: loaded)
    } catch {
      output.error("warning: \(error.message)")
    }
    return 0
  }
}
