import ChecklistsCLI
import ChecklistsCore
import Foundation

if let status = CommandLineInterface.run(
  Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
{
  exit(status)
}
print("checklists")
