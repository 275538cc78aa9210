import ChecklistsCLI
import ChecklistsTerminal
import ChecklistsUI
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

// Wiring only: a command runs the scripting CLI; no command starts the full-screen app.
FullScreen.prepareProcess()
let arguments = Array(CommandLine.arguments.dropFirst())
let environment = ProcessInfo.processInfo.environment
if let status = CommandLineInterface.run(arguments, environment: environment, keyTable: .ui) {
  exit(status)
}
FullScreenLaunch.run(arguments: arguments, environment: environment)
