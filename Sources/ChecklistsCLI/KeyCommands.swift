import ChecklistsCore
import ChecklistsUI
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// `keys` and `config`: the key table in force and the configuration file's problems.
enum KeyCommands {
  static let keys = CommandSpec(
    name: "keys", positionals: [], valueOptions: [(.format, "FORMAT")],
    flags: [.json, .defaults],
    summary: "Show every key of the full-screen app, screen by screen (after your config).",
    details: """
      Each line: the keys in config notation, the action's name and what it does. The keys are
      the defaults with the `bind` lines of $XDG_CONFIG_HOME/checklists/config applied
      (--defaults: the defaults alone). --json prints one object per screen and action;
      --format text|json|markdown|man chooses the output.
      """
  ) { arguments, context throws(CLIError) in
    var format = KeyTable.Format.text
    if arguments.has(.json) { format = .json }
    if let name = arguments.value(.format) {
      guard let chosen = KeyTable.Format(rawValue: name) else {
        let known = KeyTable.Format.allCases.map(\.rawValue).joined(separator: ", ")
        throw .usage("unknown format \"\(name)\" (formats: \(known))")
      }
      format = chosen
    }
    var table = KeyTable.defaults
    if !arguments.has(.defaults) {
      let config = ConfigFile.load(path: ConfigFile.defaultPath(environment: context.environment))
      let (configured, problems) = KeyTable.configured(by: config)
      table = configured
      for problem in problems { context.output.error("warning: \(problem)") }
    }
    context.output.write(table.rendered(as: format))
    return 0
  }

  static let config = CommandSpec(
    name: "config", positionals: [], flags: [.check],
    summary: "Check the configuration file: every problem with its line; exit 1 if any.",
    details: """
      The file is $XDG_CONFIG_HOME/checklists/config (default ~/.config/checklists/config):
      `bind SCREEN KEY ACTION` lines (`checklists keys` lists screens, keys and actions; the
      action `none` unbinds), `set NAME = VALUE` lines and `#` comments. Without --check it
      prints the file's path.
      """
  ) { arguments, context throws(CLIError) in
    let path = ConfigFile.defaultPath(environment: context.environment)
    guard arguments.has(.check) else {
      context.output.line(path)
      return 0
    }
    let config = ConfigFile.load(path: path)
    let (_, problems) = KeyTable.configured(by: config)
    for problem in problems { context.output.line(problem.description) }
    if !problems.isEmpty { return 1 }
    if FileManager.default.fileExists(atPath: path) {
      let binds = config.bindings.count
      context.output.line(
        "config OK: \(path) (\(binds) bind \(binds == 1 ? "line" : "lines"), "
          + "\(config.settings.count) set \(config.settings.count == 1 ? "line" : "lines"))")
    } else {
      context.output.line("config OK: no file at \(path); the default keys are in force")
    }
    return 0
  }
}
