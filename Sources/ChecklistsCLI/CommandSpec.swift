import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Every option a command can take. Specs and commands name options by case, so a misspelt
/// option does not compile; the raw value is what the user types.
enum OptionName: String, CaseIterable, Sendable {
  case check = "--check"
  case dryRun = "--dry-run"
  case defaults = "--defaults"
  case due = "--due"
  case duplicate = "--duplicate"
  case forceDelete = "--force-delete"
  case format = "--format"
  case icon = "--icon"
  case initialize = "--init"
  case install = "--install"
  case json = "--json"
  case name = "--name"
  case noDue = "--no-due"
  case noRemind = "--no-remind"
  case note = "--note"
  case notify = "--notify"
  case remind = "--remind"
  case remindBefore = "--remind-before"
  case photo = "--photo"
  case priority = "--priority"
  case tag = "--tag"
  case top = "--top"
  case under = "--under"
  case untag = "--untag"
  case withChildren = "--with-children"
  case remove = "--remove"
  case `repeat` = "--repeat"
  case text = "--text"
  case uninstall = "--uninstall"
  case vdir = "--vdir"
  case within = "--within"
}

/// One command: its words, options, help text and what it does.
struct CommandSpec: Sendable {
  /// The command's name, e.g. "add".
  var name: String
  /// The positional arguments' names, e.g. ["LIST", "TEXT"].
  var positionals: [String]
  /// Positional arguments that may be left out, after the others (e.g. `photo`'s FILE).
  var optionalPositionals: [String] = []
  /// Options taking a value, with the value's name (e.g. `.due`: "DATE").
  var valueOptions: [(OptionName, String)]
  /// Options without a value (e.g. `.remind`).
  var flags: [OptionName]
  /// One line saying what the command does.
  var summary: String
  /// More lines for `--help`.
  var details: String = ""
  /// The exit status of a failure that is not a usage error (`due` uses 3: its 1 means
  /// "nothing due").
  var failureStatus: Int32 = 1
  /// Runs the command; returns the exit status.
  var run: @Sendable (ParsedArguments, CommandContext) throws(CLIError) -> Int32

  /// A command; an option given twice (or as both a value option and a flag) stops the program
  /// at construction, so a wrong table cannot ship.
  init(
    name: String, positionals: [String], optionalPositionals: [String] = [],
    valueOptions: [(OptionName, String)] = [],
    flags: [OptionName] = [], summary: String, details: String = "", failureStatus: Int32 = 1,
    run: @escaping @Sendable (ParsedArguments, CommandContext) throws(CLIError) -> Int32
  ) {
    let declared = valueOptions.map(\.0) + flags
    precondition(
      Set(declared).count == declared.count, "\(name): an option is declared twice: \(declared)")
    self.name = name
    self.positionals = positionals
    self.optionalPositionals = optionalPositionals
    self.valueOptions = valueOptions
    self.flags = flags
    self.summary = summary
    self.details = details
    self.failureStatus = failureStatus
    self.run = run
  }

  /// Every option the command takes.
  var options: Set<OptionName> { Set(valueOptions.map(\.0) + flags) }

  /// "add LIST TEXT [--due DATE] [--remind]".
  var usage: String {
    var words = ["checklists", name] + positionals + optionalPositionals.map { "[\($0)]" }
    words += valueOptions.map { "[\($0.0.rawValue) \($0.1)]" }
    words += flags.map { "[\($0.rawValue)]" }
    return words.joined(separator: " ")
  }

  /// The text `checklists COMMAND --help` prints.
  var help: String {
    "usage: \(usage)\n\n\(summary)\n" + (details.isEmpty ? "" : "\n\(details)\n")
  }

  /// Splits the words after the command into positionals, options and flags.
  func parse(_ arguments: [String]) throws(CLIError) -> ParsedArguments {
    var parsed = ParsedArguments(command: name, declared: options)
    var index = 0
    var optionsEnded = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
        parsed.positionals.append(argument)
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      if argument == "--help" || argument == "-h" {
        parsed.wantsHelp = true
        continue
      }
      let key = String(argument.split(separator: "=", maxSplits: 1).first ?? "")
      if let option = OptionName(rawValue: key), valueOptions.contains(where: { $0.0 == option }) {
        if argument.contains("=") {
          parsed.values[option] = String(argument.dropFirst(key.count + 1))
        } else {
          guard index < arguments.count else {
            throw .usage("\(key) needs a value", usage: usage)
          }
          parsed.values[option] = arguments[index]
          index += 1
        }
        if let value = parsed.values[option] { parsed.repeated[option, default: []].append(value) }
      } else if let flag = OptionName(rawValue: argument), flags.contains(flag) {
        parsed.flags.insert(flag)
      } else {
        var message = "unknown option \(argument) for \(name)"
        if let last = positionals.last, !positionals.isEmpty {
          // "-5 eggs" is a text, not an option: say how to give it.
          let article = last.first.map { "AEIOU".contains($0) } == true ? "an" : "a"
          message +=
            "; \(article) \(last) that starts with - goes after --, e.g. checklists \(name) "
          message += positionals.dropLast().joined(separator: " ")
          message += positionals.count > 1 ? " " : ""
          message += "-- \"\(argument)\""
        }
        throw .usage(message, usage: usage)
      }
    }
    if parsed.wantsHelp { return parsed }
    if parsed.positionals.count < positionals.count {
      let missing = positionals[parsed.positionals.count...].joined(separator: " ")
      throw .usage("\(name) needs \(missing)", usage: usage)
    }
    if parsed.positionals.count > positionals.count + optionalPositionals.count {
      let extra = parsed.positionals[positionals.count + optionalPositionals.count]
      throw .usage("unexpected argument \"\(extra)\" (quote a text with spaces)", usage: usage)
    }
    return parsed
  }

  /// The one-line usage shown after a usage error without a command.
  static let shortUsage =
    "checklists [--file PATH] COMMAND [ARGUMENTS] (checklists --help lists them)"

  /// All commands, in the order `--help` lists them.
  static let all: [CommandSpec] =
    [
      ListCommands.lists, ListCommands.show, ItemCommands.add, ItemCommands.edit,
      ItemCommands.check,
      ItemCommands.uncheck, ItemCommands.remove, ListCommands.newList, ListCommands.editList,
      ListCommands.removeList,
      UndoCommand.undo,
      TransferCommands.export, TransferCommands.importFile, DueCommand.due, SyncCommand.sync,
      SyncCommand.merge,
      KeyCommands.keys, KeyCommands.config, RemindersCommand.reminders, SnoozeCommand.snooze,
    ] + PlannerCommands.all + [PhotoCommands.photo]

  /// Commands that work but are left out of `--help` and the docs.
  static let hidden: [CommandSpec] = [help]

  /// `help`: the overview, as `--help`; with `--format markdown|man`, the COMMANDS section of
  /// the README or the man page (for `scripts/update-docs`).
  static let help = CommandSpec(
    name: "help", positionals: [], valueOptions: [(.format, "markdown|man")],
    summary: "Show the commands and options (as --help)."
  ) { arguments, context throws(CLIError) in
    guard let name = arguments.value(.format) else {
      context.output.write(overview)
      return 0
    }
    guard let format = CommandDocs.Format(rawValue: name) else {
      throw .usage("--format is markdown or man, not \"\(name)\"")
    }
    context.output.write(CommandDocs.render(format))
    return 0
  }

  /// The command called `name`, shown or hidden.
  static func named(_ name: String) -> CommandSpec? {
    all.first { $0.name == name } ?? hidden.first { $0.name == name }
  }

  /// The text `checklists --help` prints.
  static var overview: String {
    let width = all.map(\.name.count).max() ?? 0
    let commands = all.map {
      "  \(TextMatching.padded($0.name, to: width))  \($0.summary)"
    }
    return """
      usage: checklists [--file PATH] [COMMAND [ARGUMENTS]]

      Without a command, checklists opens the full-screen app.

      Commands:
      \(commands.joined(separator: "\n"))

      Options:
        --file PATH  use this data file (default: $CHECKLISTS_FILE, else
                     $XDG_DATA_HOME/checklists/Checklists.plist)
        --help       show help (also after a command)
        --version    print the version

      LIST is a list's number in `checklists lists` or its name; ITEM is an item's
      number in `checklists show LIST` or its text. A name or text is found as
      search finds it (any case and accent), or by a unique start; when several
      match, the command names them. A number always means the number. A text that
      starts with - goes after --.

      """
  }
}

/// The words after a command, sorted out.
struct ParsedArguments {
  /// The command's name, for the check below.
  let command: String
  /// The options the command declares: asking for another one is a programming error.
  let declared: Set<OptionName>
  var positionals: [String] = []
  /// The values of the value options given.
  var values: [OptionName: String] = [:]
  /// Every value given for each value option, in order (`--tag a --tag b`); `values` holds the
  /// last.
  var repeated: [OptionName: [String]] = [:]
  /// The flags given.
  var flags: Set<OptionName> = []
  /// Whether `--help` (or `-h`) was given.
  var wantsHelp = false

  init(command: String, declared: Set<OptionName>) {
    self.command = command
    self.declared = declared
  }

  /// The value given for a value option, or nil.
  func value(_ option: OptionName) -> String? {
    precondition(declared.contains(option), "\(command) does not take \(option.rawValue)")
    return values[option]
  }

  /// Every value given for a value option that may be repeated, in order; [] when absent.
  func values(_ option: OptionName) -> [String] {
    precondition(declared.contains(option), "\(command) does not take \(option.rawValue)")
    return repeated[option] ?? []
  }

  /// Whether a flag was given.
  func has(_ flag: OptionName) -> Bool {
    precondition(declared.contains(flag), "\(command) does not take \(flag.rawValue)")
    return flags.contains(flag)
  }
}
