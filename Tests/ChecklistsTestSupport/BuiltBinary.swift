import Foundation

/// The package's built executables (`swift build` must have run first) and a way to run them.
public enum BuiltBinary {
  /// The repository's root, found from this file's path (`<root>/Tests/ChecklistsTestSupport/…`).
  public static let repositoryRoot: String = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

  /// The folder `swift build` puts debug executables in.
  public static let binFolder: String = {
    let conventional = repositoryRoot + "/.build/debug"
    if FileManager.default.isExecutableFile(atPath: conventional + "/checklists") {
      return conventional
    }
    let shown = try? runProcess(
      "/usr/bin/env", ["swift", "build", "--show-bin-path", "--package-path", repositoryRoot])
    let path = (shown?.stdout ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    return shown?.status == 0 && !path.isEmpty ? path : conventional
  }()

  /// The path of an executable of the package, e.g. "checklists".
  public static func path(_ name: String = "checklists") -> String { binFolder + "/" + name }

  /// The path of an executable that must exist; throws how to make it when it does not.
  public static func existingPath(_ name: String = "checklists") throws -> String {
    let found = path(name)
    guard FileManager.default.isExecutableFile(atPath: found) else {
      throw ProcessRunError(description: "no built \(name) at \(found); run `swift build` first")
    }
    return found
  }

  /// Whether `path` (from `fastestPath`) is a release build.
  public static func isRelease(_ path: String) -> Bool { path.contains("/release/") }

  /// The release build of `name` when it is at least as new as the debug one (CI builds release
  /// before the tests), else the debug build: for tests that run a tool hundreds of times.
  public static func fastestPath(_ name: String) -> String {
    let debug = path(name)
    let release = (binFolder as NSString).deletingLastPathComponent + "/release/" + name
    let files = FileManager.default
    guard
      let releaseDate = (try? files.attributesOfItem(atPath: release))?[.modificationDate] as? Date
    else { return debug }
    let debugDate = (try? files.attributesOfItem(atPath: debug))?[.modificationDate] as? Date
    return releaseDate >= (debugDate ?? .distantPast) ? release : debug
  }

  /// Runs an executable of the package with `arguments` and exactly `environment`; stdin is
  /// empty.
  public static func run(
    _ arguments: [String], environment: [String: String], executable: String = "checklists",
    executablePath: String? = nil
  ) throws -> ProcessResult {
    try runProcess(executablePath ?? path(executable), arguments, environment: environment)
  }

  /// Runs `checklists` with stdout on a pseudo-terminal (through util-linux `script`); returns
  /// the status and what the terminal showed, with the terminal's "\r\n" turned back into "\n".
  public static func runOnTerminal(_ arguments: [String], environment: [String: String]) throws
    -> (status: Int32, output: String)
  {
    let quoted = ([path()] + arguments).map(shellQuote)
    let run = try run(
      ["-q", "-e", "-c", quoted.joined(separator: " ") + " 2>/dev/null", "/dev/null"],
      environment: environment, executablePath: "/usr/bin/script")
    return (run.status, run.stdout.replacingOccurrences(of: "\r\n", with: "\n"))
  }
}
