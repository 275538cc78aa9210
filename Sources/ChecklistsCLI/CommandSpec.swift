import ChecklistsCore
import Foundation

/// One command: its words, options, help text and what it does.
struct CommandSpec: Sendable {
  /// The command's name, e.g. "add".
  var name: String
  /// The positional arguments' names, e.g. ["LIST", "TEXT"].
  var positionals: [String]
  /// Options taking a value, with the value's name (e.g. "--due": "DATE").
  var valueOptions: [(String, String)] = []
  /// Options without a value (e.g. "--remind").
  var flags: [String] = []
  /// One line saying what the command does.
  var summary: String
  /// More lines for `--help`.
  var details: String = ""
  /// The exit status of a failure that is not a usage error (`due` uses 3: its 1 means
  /// "nothing due").
  var failureStatus: Int32 = 1
  /// Runs the command; returns the exit status.
  var run: @Sendable (ParsedArguments, CommandContext) throws(CLIError) -> Int32

  /// "add LIST TEXT [--due DATE] [--remind]".
  var usage: String {
    var words = ["checklists", name] + positionals
    words += valueOptions.map { "[\($0.0) \($0.1)]" }
    words += flags.map { "[\($0)]" }
    return words.joined(separator: " ")
  }

  /// The text `checklists COMMAND --help` prints.
  var help: String {
    "usage: \(usage)\n\n\(summary)\n" + (details.isEmpty ? "" : "\n\(details)\n")
  }

  /// Splits the words after the command into positionals, options and flags.
  func parse(_ arguments: [String]) throws(CLIError) -> ParsedArguments {
    var parsed = ParsedArguments()
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
        parsed.flags.insert("--help")
        continue
      }
      let key = String(argument.split(separator: "=", maxSplits: 1).first ?? "")
      if valueOptions.contains(where: { $0.0 == key }) {
        if argument.contains("=") {
          parsed.options[key] = String(argument.dropFirst(key.count + 1))
        } else {
          guard index < arguments.count else {
            throw .usage("\(key) needs a value", usage: usage)
          }
          parsed.options[key] = arguments[index]
          index += 1
        }
      } else if flags.contains(argument) {
        parsed.flags.insert(argument)
      } else {
        var message = "unknown option \(argument) for \(name)"
        if let last = positionals.last, !positionals.isEmpty {
          // "-5 eggs" is a text, not an option: say how to give it.
          message += "; a \(last) that starts with - goes after --, e.g. checklists \(name) "
          message += positionals.dropLast().joined(separator: " ")
          message += positionals.count > 1 ? " " : ""
          message += "-- \"\(argument)\""
        }
        throw .usage(message, usage: usage)
      }
    }
    if parsed.flags.contains("--help") { return parsed }
    if parsed.positionals.count < positionals.count {
      let missing = positionals[parsed.positionals.count...].joined(separator: " ")
      throw .usage("\(name) needs \(missing)", usage: usage)
    }
    if parsed.positionals.count > positionals.count {
      let extra = parsed.positionals[positionals.count]
      throw .usage("unexpected argument \"\(extra)\" (quote a text with spaces)", usage: usage)
    }
    return parsed
  }

  /// The one-line usage shown after a usage error without a command.
  static let shortUsage =
    "checklists [--file PATH] COMMAND [ARGUMENTS] (checklists --help lists them)"

  /// All commands, in the order `--help` lists them.
  static let all: [CommandSpec] = [
    ListCommands.lists, ListCommands.show, ItemCommands.add, ItemCommands.edit, ItemCommands.check,
    ItemCommands.uncheck, ItemCommands.remove, ListCommands.newList, ListCommands.removeList,
    TransferCommands.export, TransferCommands.importFile, DueCommand.due, KeyCommands.keys,
    KeyCommands.config,
  ]

  /// The text `checklists --help` prints.
  static var overview: String {
    let width = all.map(\.name.count).max() ?? 0
    let commands = all.map {
      "  \($0.name.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.summary)"
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

      LIST is a list's name (any case) or its number in `checklists lists`;
      ITEM is an item's number in `checklists show LIST` or its text (any case when
      only one item matches). A text that starts with - goes after --.

      """
  }
}

/// The words after a command, sorted out.
struct ParsedArguments {
  var positionals: [String] = []
  var options: [String: String] = [:]
  var flags: Set<String> = []
}
