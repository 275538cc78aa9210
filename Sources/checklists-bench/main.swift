import ChecklistsCore
import Foundation

/// `checklists-bench SUBCOMMAND …`: hidden tools for tests and (later) benchmarks.
let arguments = Array(CommandLine.arguments.dropFirst())
let subcommands: [String: ([String]) -> Int32] = [
  "save-loop": StoreTools.saveLoop,
  "hold-lock": StoreTools.holdLock,
  "announced-save-loop": DurabilityTools.announcedSaveLoop,
  "files": FileBenchmarks.run,
  "generate": GenerateCommand.run,
  "keys": KeyBenchmarks.run,
  "merge": MergeBenchmarks.run,
  "outline": OutlineBenchmarks.run,
  "photo-form": PhotoFormBenchmarks.run,
  "photos": PhotoBenchmarks.run,
  "planner": PlannerBenchmarks.run,
  "sync": SyncBenchmarks.run,
]

guard let name = arguments.first, let command = subcommands[name] else {
  let known = subcommands.keys.sorted().joined(separator: ", ")
  FileHandle.standardError.write(Data("usage: checklists-bench COMMAND … (\(known))\n".utf8))
  exit(2)
}
exit(command(Array(arguments.dropFirst())))
