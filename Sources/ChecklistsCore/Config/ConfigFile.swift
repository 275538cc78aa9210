import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The user's configuration file, `$XDG_CONFIG_HOME/checklists/config`, in tig-style lines.
///
/// ```
/// # comments start with '#'
/// set vdir = ~/.local/share/vdir/checklists
/// bind checklist <C-n> add-item
/// bind checklist d none
/// ```
///
/// This type only reads the syntax: which `set` names exist and which `bind` lines mean something
/// is decided by their readers (`ConfigSetting`, the key table). A bad line is a `ConfigProblem`
/// with its line number; it never stops the rest of the file from being read.
public struct ConfigFile: Equatable, Sendable {
  /// A `set NAME = VALUE` line.
  public struct Setting: Equatable, Sendable {
    /// The setting's name, as written.
    public var name: String
    /// The value with quotes removed.
    public var value: String
    /// The 1-based line number.
    public var line: Int

    /// Creates a setting line.
    public init(name: String, value: String, line: Int) {
      self.name = name
      self.value = value
      self.line = line
    }
  }

  /// A `bind SCREEN KEY ACTION` line, not yet checked against the key table.
  public struct Binding: Equatable, Sendable {
    /// The screen or context name (`generic`, `lists`, `checklist`, `form`, …).
    public var screen: String
    /// The key in the documented notation (`n`, `<C-n>`, `<Down>`, …).
    public var key: String
    /// The action's name, or `none` to unbind.
    public var action: String
    /// The 1-based line number.
    public var line: Int

    /// Creates a binding line.
    public init(screen: String, key: String, action: String, line: Int) {
      self.screen = screen
      self.key = key
      self.action = action
      self.line = line
    }
  }

  /// Where the file was read from, when it was read from a file.
  public var path: String?
  /// The `set` lines, in file order.
  public var settings: [Setting]
  /// The `bind` lines, in file order.
  public var bindings: [Binding]
  /// Lines that could not be read, in file order.
  public var problems: [ConfigProblem]

  /// Creates a configuration from its parts.
  public init(
    path: String? = nil, settings: [Setting] = [], bindings: [Binding] = [],
    problems: [ConfigProblem] = []
  ) {
    self.path = path
    self.settings = settings
    self.bindings = bindings
    self.problems = problems
  }

  /// The value of the last `set NAME = …` line for a known setting, if any.
  public func value(of setting: ConfigSetting) -> String? {
    settings.last { $0.name == setting.rawValue }?.value
  }

  /// The configuration file's path: `$XDG_CONFIG_HOME/checklists/config`, else `~/.config/…`.
  public static func defaultPath(environment: [String: String]) -> String {
    if let configHome = environment["XDG_CONFIG_HOME"], configHome.hasPrefix("/") {
      let trimmed =
        configHome.count > 1 && configHome.hasSuffix("/")
        ? String(configHome.dropLast()) : configHome
      return trimmed + "/checklists/config"
    }
    let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? PathText.accountHome()
    return home + "/.config/checklists/config"
  }

  /// Reads the configuration at `path`; a missing file is an empty configuration.
  ///
  /// A file that exists but cannot be read is one problem (line 0), never a thrown error: the
  /// app starts without it.
  public static func load(path: String) -> ConfigFile {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
      return ConfigFile(path: path)
    } catch {
      var isFolder = false
      if !FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
        return ConfigFile(path: path)
      }
      let reason = isFolder ? "it is a folder" : "it cannot be read"
      return ConfigFile(
        path: path, problems: [ConfigProblem(line: 0, message: "\(path): \(reason)")])
    }
    guard let text = String(data: data, encoding: .utf8) else {
      return ConfigFile(
        path: path, problems: [ConfigProblem(line: 0, message: "\(path): not UTF-8 text")])
    }
    var config = parse(text)
    config.path = path
    return config
  }

  /// Reads configuration text.
  public static func parse(_ text: String) -> ConfigFile {
    var config = ConfigFile()
    var number = 0
    // "\r\n" is one Character in Swift: split on both.
    let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
    for line in lines {
      number += 1
      let words: [String]
      switch ConfigTokenizer.words(of: line) {
      case .success(let found): words = found
      case .failure(let message):
        config.problems.append(ConfigProblem(line: number, message: message))
        continue
      }
      guard let command = words.first else { continue }
      switch command {
      case "set":
        readSetting(words, line: number, into: &config)
      case "bind":
        guard words.count == 4 else {
          config.problems.append(
            ConfigProblem(
              line: number,
              message: "bind needs SCREEN KEY ACTION, as in 'bind checklist n add-item'"))
          continue
        }
        config.bindings.append(
          Binding(screen: words[1], key: words[2], action: words[3], line: number))
      default:
        config.problems.append(
          ConfigProblem(
            line: number,
            message:
              "unknown command '\(ConfigTokenizer.shown(command))' (lines start with set or bind)"
          ))
      }
    }
    return config
  }

  private static func readSetting(_ words: [String], line: Int, into config: inout ConfigFile) {
    // `set NAME = VALUE` and `set NAME=VALUE` both read.
    var rest = Array(words.dropFirst())
    if rest.count == 1, let equals = rest[0].firstIndex(of: "=") {
      let name = String(rest[0][..<equals])
      let value = String(rest[0][rest[0].index(after: equals)...])
      rest = [name, "=", value]
    } else if rest.count == 2, rest[0].hasSuffix("="), rest[0].count > 1 {
      rest = [String(rest[0].dropLast()), "=", rest[1]]
    } else if rest.count == 2, rest[1].hasPrefix("="), rest[1].count > 1 {
      rest = [rest[0], "=", String(rest[1].dropFirst())]
    }
    guard rest.count == 3, rest[1] == "=", !rest[0].isEmpty else {
      // A value of several words is most likely a path with spaces.
      let message =
        rest.count > 3 && rest[1] == "="
        ? "set \(ConfigTokenizer.shown(rest[0])) takes one value: put a value with spaces in "
          + "quotes, as in 'set vdir = \"~/My Tasks\"'"
        : "set needs NAME = VALUE, as in 'set vdir = ~/vdir'"
      config.problems.append(ConfigProblem(line: line, message: message))
      return
    }
    guard let setting = ConfigSetting(rawValue: rest[0]) else {
      let known = ConfigSetting.allCases.map(\.rawValue).joined(separator: ", ")
      config.problems.append(
        ConfigProblem(
          line: line,
          message: "unknown setting '\(ConfigTokenizer.shown(rest[0]))' (known: \(known))"))
      return
    }
    if let allowed = setting.values, !allowed.contains(rest[2].lowercased()) {
      config.problems.append(
        ConfigProblem(
          line: line,
          message: "\(setting.rawValue) is one of \(allowed.joined(separator: ", ")), not "
            + "'\(ConfigTokenizer.shown(rest[2]))'"))
      return
    }
    config.settings.append(Setting(name: rest[0], value: rest[2], line: line))
  }
}

/// The names `set` accepts.
public enum ConfigSetting: String, CaseIterable, Sendable {
  /// The vdir folder that `checklists sync` and the app keep in step with the data file.
  case vdir
  /// How photos are drawn: `auto`, `kitty`, `sixel`, `iterm`, `blocks` or `text`
  /// (`CHECKLISTS_IMAGES` overrides it).
  case images

  /// The values the setting takes (any case); nil when it takes any (a path).
  public var values: [String]? {
    switch self {
    case .vdir: return nil
    case .images: return ["auto", "kitty", "sixel", "iterm", "blocks", "text"]
    }
  }
}

/// A configuration line that could not be read.
public struct ConfigProblem: Error, Equatable, Sendable, CustomStringConvertible {
  /// The 1-based line number; 0 for a problem with the whole file.
  public var line: Int
  /// What is wrong, for the user.
  public var message: String

  /// Creates a problem.
  public init(line: Int, message: String) {
    self.line = line
    self.message = message
  }

  /// `config line N: …`, or the message alone for a whole-file problem.
  public var description: String {
    line > 0 ? "config line \(line): \(message)" : "config: \(message)"
  }
}

/// Splits a configuration line into words: whitespace separates, `"…"` and `'…'` quote, `#` at
/// the start of a word begins a comment.
enum ConfigTokenizer {
  enum Outcome: Equatable {
    case success([String])
    case failure(String)
  }

  static func words(of line: Substring) -> Outcome {
    var words: [String] = []
    var current = ""
    var inWord = false
    var quote: Character?
    var escaped = false
    for character in line {
      if let open = quote {
        if escaped {
          current.append(character)
          escaped = false
        } else if character == "\\" && open == "\"" {
          escaped = true
        } else if character == open {
          quote = nil
        } else {
          current.append(character)
        }
        continue
      }
      if character == " " || character == "\t" {
        if inWord {
          words.append(current)
          current = ""
          inWord = false
        }
        continue
      }
      if character == "#" && !inWord { break }
      inWord = true
      if character == "\"" || character == "'" {
        quote = character
      } else {
        current.append(character)
      }
    }
    if quote != nil { return .failure("a quote is not closed") }
    if inWord { words.append(current) }
    return .success(words)
  }

  /// A word as shown in a message: control characters escaped, long words cut.
  static func shown(_ word: String) -> String {
    var out = ""
    for scalar in word.unicodeScalars.prefix(40) {
      if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value) {
        out += "\\u{\(String(scalar.value, radix: 16))}"
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return word.unicodeScalars.count > 40 ? out + "…" : out
  }
}
