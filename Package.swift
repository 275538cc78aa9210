// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "checklists",
  platforms: [.macOS(.v13)],
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
    .testTarget(name: "ChecklistsCoreTests", dependencies: ["ChecklistsCore"]),
    .testTarget(name: "ChecklistsUITests", dependencies: ["ChecklistsUI", "ChecklistsCore"]),
    .testTarget(name: "EndToEndTests", dependencies: ["ChecklistsCore", "ChecklistsTerminal"]),
  ],
  swiftLanguageModes: [.v6]
)
