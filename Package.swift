// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "checklists",
  // Linux only: the code uses glibc's pipe2, stat's st_mtim and inotify, and ncursesw through
  // pkg-config. SwiftPM's `platforms` names only Apple platforms (with minimum versions), so it
  // is left out rather than claim a macOS build that does not exist.
  products: [
    .executable(name: "checklists", targets: ["checklists"]),
    .executable(name: "checklists-bench", targets: ["checklists-bench"]),
  ],
  targets: [
    /// Model, file format, store, state and dates: Foundation only, no terminal.
    .target(name: "ChecklistsCore"),
    /// The UI as a pure state machine plus views drawing into a cell grid: no terminal.
    .target(name: "ChecklistsUI", dependencies: ["ChecklistsCore"]),
    /// ncursesw, wide-character API, through the system library.
    .systemLibrary(
      name: "CNcursesw",
      pkgConfig: "ncursesw",
      providers: [.apt(["libncursesw5-dev"])]
    ),
    /// Async-signal-safe C pieces: the signal pipe and the crash handler that restores the tty.
    .target(name: "CTerminalSupport"),
    /// The thin terminal layer: init/teardown, keys, colours, flushing the grid, signals, main loop.
    .target(
      name: "ChecklistsTerminal",
      dependencies: ["ChecklistsCore", "ChecklistsUI", "CNcursesw", "CTerminalSupport"]
    ),
    /// The scripting commands (`lists`, `add`, `due`, …) on the same store; `keys` prints the
    /// UI's key table.
    .target(name: "ChecklistsCLI", dependencies: ["ChecklistsCore", "ChecklistsUI"]),
    /// Linked with the Swift runtime and Foundation built in (`-static-stdlib`): it starts in
    /// about 3 ms instead of 8 and keeps 6 MiB less resident (docs/performance.md).
    .executableTarget(
      name: "checklists",
      dependencies: ["ChecklistsCore", "ChecklistsCLI", "ChecklistsTerminal"],
      swiftSettings: [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux]))],
      linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux]))]
    ),
    .executableTarget(
      name: "checklists-bench",
      dependencies: ["ChecklistsCore", "ChecklistsUI"]
    ),
    /// What the test targets share: the process runner, the built-binary locator, the seeded
    /// generator, tmpfs mounts, tmux sessions (like swift-argument-parser's test helpers).
    .target(
      name: "ChecklistsTestSupport", dependencies: ["ChecklistsCore"],
      path: "Tests/ChecklistsTestSupport"),
    .testTarget(
      name: "ChecklistsCoreTests", dependencies: ["ChecklistsCore", "ChecklistsTestSupport"]),
    .testTarget(
      name: "ChecklistsUITests",
      dependencies: ["ChecklistsUI", "ChecklistsCore", "ChecklistsTestSupport"]),
    /// The input decoder and other pure pieces of the terminal layer, without a terminal.
    .testTarget(
      name: "ChecklistsTerminalTests", dependencies: ["ChecklistsTerminal", "ChecklistsUI"]),
    /// The scripting commands run in-process, their output captured.
    .testTarget(
      name: "ChecklistsCLITests",
      dependencies: ["ChecklistsCLI", "ChecklistsCore", "ChecklistsTestSupport"]),
    /// The built binary in tmux and as a process: terminal, signals, locks, crashes.
    .testTarget(
      name: "EndToEndTests",
      dependencies: ["ChecklistsCore", "ChecklistsTerminal", "ChecklistsTestSupport"]),
  ],
  swiftLanguageModes: [.v6]
)
