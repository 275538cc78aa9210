import ChecklistsCore
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
    let keyTable = context.keyTable
    var format = keyTable.formats.first ?? "text"
    if arguments.has(.json) { format = "json" }
    if let name = arguments.value(.format) {
      guard keyTable.formats.contains(name) else {
        let known = keyTable.formats.joined(separator: ", ")
        throw .usage("unknown format \"\(name)\" (formats: \(known))")
      }
      format = name
    }
    var config: ConfigFile?
    if !arguments.has(.defaults) {
      let file = ConfigFile.load(path: ConfigFile.defaultPath(environment: context.environment))
      for problem in keyTable.problems(file) { context.output.error("warning: \(problem)") }
      config = file
    }
    context.output.write(keyTable.rendered(config, format))
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
    let problems = context.keyTable.problems(config)
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
