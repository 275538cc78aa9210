// swift-tools-version: 6.0
import Foundation
import PackageDescription

/// The include folders of chafa and GLib, whose headers `CImageCodecs` compiles against. Only
/// headers: the libraries are loaded with dlopen when a photo is first shown. (A `systemLibrary`
/// target with `pkgConfig` would also link them, which costs every start-up, see
/// docs/architecture.md.) The arch-specific folder is Debian's multiarch one, else lib64/lib.
let imageLibraryHeaders: [String] = {
  let candidates = [
    "/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib",
  ]
  let libraries =
    candidates.first {
      FileManager.default.fileExists(atPath: $0 + "/glib-2.0/include/glibconfig.h")
    } ?? "/usr/lib"
  return [
    "-I/usr/include/chafa", "-I\(libraries)/chafa/include", "-I/usr/include/glib-2.0",
    "-I\(libraries)/glib-2.0/include",
  ]
}()

/// The include folders of libdbus-1 (Debian's libdbus-1-dev), whose headers `CDesktopBus`
/// compiles against; the library itself is loaded with dlopen when the reminder service starts.
let busLibraryHeaders: [String] = {
  let candidates = [
    "/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib",
  ]
  let libraries =
    candidates.first {
      FileManager.default.fileExists(atPath: $0 + "/dbus-1.0/include/dbus/dbus-arch-deps.h")
    } ?? "/usr/lib"
  return ["-I/usr/include/dbus-1.0", "-I\(libraries)/dbus-1.0/include"]
}()

/// Whether the C library loads packed relative relocations (`DT_RELR`, glibc 2.36): lld marks
/// a binary that has them as needing it, so an older glibc could not start the program.
let libraryLoadsPackedRelocations: Bool = {
  #if canImport(Glibc)
    // "glibc 2.36"
    var buffer = [CChar](repeating: 0, count: 64)
    guard confstr(Int32(_CS_GNU_LIBC_VERSION), &buffer, buffer.count) > 0 else { return false }
    let text = String(
      decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let version = text.split(separator: " ").last ?? ""
    let parts = version.split(separator: ".").compactMap { Int($0) }
    return parts.count >= 2 && (parts[0], parts[1]) >= (2, 36)
  #else
    return false
  #endif
}()

/// Whether GCC's static libstdc++ is installed (Debian's libstdc++-N-dev has it; Fedora keeps it
/// in libstdc++-static, often missing).
let staticLibstdcxxInstalled: Bool = {
  let files = FileManager.default
  let root = "/usr/lib/gcc"
  for triple in (try? files.contentsOfDirectory(atPath: root)) ?? [] {
    for version in (try? files.contentsOfDirectory(atPath: root + "/" + triple)) ?? []
    where files.fileExists(atPath: "\(root)/\(triple)/\(version)/libstdc++.a") {
      return true
    }
  }
  return false
}()

/// Whether ncursesw and its terminfo library are installed as static libraries too (Debian's
/// libncurses-dev has both; a build that keeps terminfo inside ncursesw has no libtinfo.a and
/// links the shared library).
let staticNcurseswInstalled: Bool = {
  let candidates = [
    "/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib",
  ]
  return candidates.contains { folder in
    ["libncursesw.a", "libtinfo.a"].allSatisfy {
      FileManager.default.fileExists(atPath: folder + "/" + $0)
    }
  }
}()

/// The release link of `checklists` (docs/architecture.md, "The release link"): relative
/// relocations packed, the functions a session runs laid out together
/// (`Sources/checklists/Linking/hot-functions.order`, made by `scripts/update-hot-functions`),
/// libstdc++, ncursesw and libgcc linked statically, and no symbol table. A 1,000-item session then keeps about
/// 3.5 MB of code resident instead of 8. `CHECKLISTS_KEEP_SYMBOLS=1` keeps the symbols, for
/// profiling and for making the order file.
let releaseLinkFlags: [String] = {
  let order = Context.packageDirectory + "/Sources/checklists/Linking/hot-functions.order"
  var flags = [
    "-Xlinker", "--symbol-ordering-file=" + order, "-Xlinker", "--no-warn-symbol-ordering",
    // The toolchain's static link arguments export every symbol (`-export-dynamic`); ours
    // need none.
    "-Xlinker", "--no-export-dynamic",
  ]
  if libraryLoadsPackedRelocations {
    flags += ["-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"]
  }
  if staticLibstdcxxInstalled {
    // `-lstdc++` finds this folder's linker script first, which takes the static library.
    flags.append("-L" + Context.packageDirectory + "/Sources/checklists/Linking/static-libstdc++")
  }
  if staticNcurseswInstalled {
    // `-lncursesw` (the module map's link) finds this folder's linker script first, which
    // takes ncursesw and libtinfo from their static libraries: two shared libraries fewer for
    // the loader at every start.
    flags.append("-L" + Context.packageDirectory + "/Sources/checklists/Linking/static-ncursesw")
  }
  // The unwinder from libgcc_eh.a instead of libgcc_s.so: one shared library fewer again.
  flags += ["-Xclang-linker", "-static-libgcc"]
  if Context.environment["CHECKLISTS_KEEP_SYMBOLS"] != "1" {
    flags += ["-Xlinker", "--strip-all"]
  }
  return flags
}()

/// Each function of our modules in a section of its own in release builds, so that the link can
/// place the ones a session runs together (the toolchain's static libraries are built so).
let functionSections: SwiftSetting = .unsafeFlags(
  ["-Xfrontend", "-function-sections"], .when(platforms: [.linux], configuration: .release))

let package = Package(
  name: "checklists",
  // Linux only: the code uses glibc's pipe2, stat's st_mtim and inotify, and ncursesw. SwiftPM's `platforms` names only Apple platforms (with minimum versions), so it
  // is left out rather than claim a macOS build that does not exist.
  products: [
    .executable(name: "checklists", targets: ["checklists"]),
    .executable(name: "checklists-bench", targets: ["checklists-bench"]),
  ],
  targets: [
    /// Model, file format, store, state and dates: Foundation only, no terminal.
    .target(name: "ChecklistsCore", swiftSettings: [functionSections]),
    /// The UI as a pure state machine plus views drawing into a cell grid: no terminal.
    /// Its Program folder holds the app's photo access and drawing (`AppPhotos`), on the images.
    .target(
      name: "ChecklistsUI", dependencies: ["ChecklistsCore", "ChecklistsImages"],
      swiftSettings: [functionSections]),
    /// ncursesw, wide-character API, through the system library.
    /// ncursesw, linked by its module map (Debian's libncursesw.so brings libtinfo). No
    /// `pkgConfig`: its only flags are `-D_DEFAULT_SOURCE -D_XOPEN_SOURCE=600`, which SwiftPM
    /// refuses with a warning on every build; the shim defines `NCURSES_WIDECHAR` itself.
    .systemLibrary(name: "CNcursesw"),
    /// Async-signal-safe C pieces: the signal pipe and the crash handler that restores the tty.
    .target(name: "CTerminalSupport"),
    /// The thin terminal layer: init/teardown, keys, colours, flushing the grid, signals, main loop.
    .target(
      name: "ChecklistsTerminal",
      dependencies: ["ChecklistsCore", "ChecklistsUI", "CNcursesw", "CTerminalSupport"],
      swiftSettings: [functionSections]
    ),
    /// The image libraries (libjpeg-turbo, libpng, libwebp, giflib, chafa) behind a small C API,
    /// loaded with dlopen on first use: nothing is linked, so a run without photos pays nothing.
    .target(
      name: "CImageCodecs",
      cSettings: [.unsafeFlags(imageLibraryHeaders)],
      linkerSettings: [.linkedLibrary("dl")]
    ),
    /// Photos for the screen: decoding at the needed size, EXIF orientation, half blocks, kitty,
    /// sixel and iTerm2 bytes, the terminal's capabilities. ChecklistsCore does not depend on it.
    .target(
      name: "ChecklistsImages", dependencies: ["ChecklistsCore", "CImageCodecs"],
      swiftSettings: [functionSections]),
    /// The session bus (libdbus-1, loaded with dlopen when the reminder service first connects)
    /// and a wall-clock timer (timerfd), behind a small C API.
    .target(
      name: "CDesktopBus",
      cSettings: [.unsafeFlags(busLibraryHeaders)],
      linkerSettings: [.linkedLibrary("dl")]
    ),
    /// The desktop session for the reminder service: notifications with actions over the
    /// session bus, and a timer that wakes at a wall-clock time.
    .target(
      name: "ChecklistsDesktop", dependencies: ["CDesktopBus"], swiftSettings: [functionSections]
    ),
    /// The scripting commands (`lists`, `add`, `due`, …) on the same store; `keys` prints the
    /// UI's key table, which the program hands over (`AppKeyTable`: the CLI does not import the
    /// UI); `reminders`, the reminder service.
    .target(
      name: "ChecklistsCLI",
      dependencies: ["ChecklistsCore", "ChecklistsImages", "ChecklistsDesktop"],
      swiftSettings: [functionSections]),
    /// Linked with the Swift runtime and FoundationEssentials built in (`-static-stdlib`; no
    /// target imports all of Foundation, so ICU is not linked): it starts in about 3 ms instead
    /// of 8 and keeps 6 MiB less resident. A release build leaves out the symbol table and
    /// debug information (`--strip-all`): 32 MB → 17 MB (docs/performance.md); see
    /// `releaseLinkFlags` for the rest of its release link.
    .executableTarget(
      name: "checklists",
      dependencies: [
        "ChecklistsCore", "ChecklistsCLI", "ChecklistsUI", "ChecklistsTerminal", "ChecklistsImages",
      ],
      exclude: ["Linking"],
      swiftSettings: [
        .unsafeFlags(["-static-stdlib"], .when(platforms: [.linux])), functionSections,
      ],
      linkerSettings: [
        // lld in every build: it reads the symbol order file, and it does not repeat glibc's
        // link-time warning about `mktemp`, which FoundationEssentials' static library uses.
        .unsafeFlags(["-static-stdlib", "-use-ld=lld"], .when(platforms: [.linux])),
        .unsafeFlags(releaseLinkFlags, .when(platforms: [.linux], configuration: .release)),
      ]
    ),
    .executableTarget(
      name: "checklists-bench",
      dependencies: ["ChecklistsCore", "ChecklistsUI", "ChecklistsImages", "ChecklistsCLI"]
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
    /// Photo decoding, rendering and terminal detection, on images the tests make.
    .testTarget(
      name: "ChecklistsImagesTests",
      dependencies: ["ChecklistsImages", "ChecklistsCore", "ChecklistsTestSupport"]),
    /// The scripting commands run in-process, their output captured.
    .testTarget(
      name: "ChecklistsCLITests",
      dependencies: [
        "ChecklistsCLI", "ChecklistsCore", "ChecklistsImages", "ChecklistsUI",
        "ChecklistsTestSupport",
      ]),
    /// The built binary in tmux and as a process: terminal, signals, locks, crashes.
    .testTarget(
      name: "EndToEndTests",
      dependencies: ["ChecklistsCore", "ChecklistsTerminal", "ChecklistsTestSupport"]),
  ],
  swiftLanguageModes: [.v6]
)
