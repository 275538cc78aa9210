import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// `sync`: one two-way pass between the data file and a vdir.
enum SyncCommand {
  static let sync = CommandSpec(
    name: "sync", positionals: [], valueOptions: [(.vdir, "DIR")],
    flags: [.initialize, .dryRun, .json, .forceDelete],
    summary: "Sync the lists both ways with a vdir (vdirsyncer's folder of task lists).",
    details: """
      The vdir is --vdir DIR, else $CHECKLISTS_VDIR, else `set vdir = PATH` in
      $XDG_CONFIG_HOME/checklists/config. Each list is a folder, each item an .ics file
      (a VTODO); vdirsyncer moves them to a CalDAV server (docs/sync.md). A vdir that does
      not exist is refused (exit 2), wherever it was named: a mistyped path is not filled
      with your lists.
        --init          make the vdir's folder if it does not exist (the first sync)
        --dry-run       say what would be done; change nothing
        --json          print the report as JSON
        --force-delete  sync even when the vdir suddenly holds no items (deleting them here)
      Exit status: 0 done, 1 something needs you (conflicts kept your version and are in the
      conflict log, files skipped, or deletions refused), 2 usage or no vdir, 3 the sync failed.
      """,
    failureStatus: 3
  ) { arguments, context throws(CLIError) in
    let vdir = try vdirPath(arguments, context)
    let options = SyncOptions(
      forceDelete: arguments.has(.forceDelete), timeZone: context.timeZone,
      now: context.now, createsVdir: arguments.has(.initialize))
    let dryRun = arguments.has(.dryRun)
    let outcome: SyncOutcome
    do throws(SyncError) {
      outcome = try VdirSync.run(
        location: context.location, vdir: vdir, options: options, dryRun: dryRun)
    } catch {
      if error.kind == .missingVdir { throw CLIError(message: error.message, status: 2) }
      throw .failure("sync with \(context.location.display(vdir)): \(error.message)")
    }
    for warning in outcome.warnings { context.output.error("warning: \(warning)") }
    let report = outcome.report
    if arguments.has(.json) {
      context.output.write(try JSONOutput.encode(SyncJSON(report, dryRun: dryRun)))
    } else {
      for problem in report.problems { context.output.error(problem) }
      if let save = outcome.save, case .merged = save.outcome {
        context.output.error(save.statusLine)
      }
      if let save = outcome.save, case .conflictCopy = save.outcome {
        context.output.error(save.exitNotice ?? save.statusLine)
      }
      for conflict in report.merge.conflicts {
        context.output.error(
          "conflict: \(conflict.place), \(conflict.field): kept \(conflict.kept) here, the "
            + "vdir had \(conflict.other) (in \(context.location.fileName).conflicts.log)")
      }
      for conflict in report.settledByVdirsyncer {
        context.output.error(
          "conflict: \(conflict.place), \(conflict.field): kept \(conflict.kept) from the vdir, "
            + "the server had \(conflict.other) (merged by sync-merge when vdirsyncer met it; in "
            + "\(context.location.fileName).conflicts.log)")
      }
      if report.refused != nil {
        context.output.error(report.summary)
      } else {
        context.output.line((dryRun ? "would sync: " : "") + report.summary)
      }
    }
    if let save = outcome.save, case .conflictCopy = save.outcome { return 1 }
    return report.needsUser ? 1 : 0
  }
}

extension SyncCommand {
  /// The vdir `sync` and `sync-merge` work on: `--vdir DIR`, else `$CHECKLISTS_VDIR`, else the
  /// config file's `set vdir`; none of them is a usage error that says how to give one.
  static func vdirPath(_ arguments: ParsedArguments, _ context: CommandContext) throws(CLIError)
    -> String
  {
    let configPath = ConfigFile.defaultPath(environment: context.environment)
    guard
      let vdir = VdirSync.vdirPath(
        option: arguments.value(.vdir), environment: context.environment,
        config: ConfigFile.load(path: configPath))
    else {
      throw .usage(
        "no vdir: give --vdir DIR, set CHECKLISTS_VDIR, or add `set vdir = PATH` to " + configPath)
    }
    return vdir
  }
}

extension SyncCommand {
  /// `sync-merge A B`: vdirsyncer's conflict command for the task pair.
  static let merge = CommandSpec(
    name: "sync-merge", positionals: ["A", "B"], valueOptions: [(.vdir, "DIR")],
    summary: "Merge two versions of a task for vdirsyncer (its conflict_resolution command).",
    details: """
      vdirsyncer calls it with the two versions of a task changed on both sides since it last
      ran: conflict_resolution = ["command", "checklists", "sync-merge"] in the task pair
      (docs/sync.md). Field by field against what the last `checklists sync` recorded: a field
      changed on one side takes that side's value; one changed on both sides keeps the vdir's,
      and the other value goes to the conflict log and stderr. Every property checklists does
      not map stays as the server has it. The merged task is written to both files.
      The vdir is found as for `sync`: --vdir DIR, $CHECKLISTS_VDIR or `set vdir`.
      Exit status: 0 merged (conflicts included), 1 not merged (a task `checklists sync` has
      not synced, two different tasks, a file that is not a task: vdirsyncer then leaves both
      sides as they are), 2 usage.
      """
  ) { arguments, context throws(CLIError) in
    let vdir = try vdirPath(arguments, context)
    let outcome: ConflictResolution.Outcome
    do throws(ConflictMergeError) {
      outcome = try ConflictResolution.resolve(
        first: arguments.positionals[0], second: arguments.positionals[1],
        location: context.location, vdir: vdir, now: context.now, timeZone: context.timeZone)
    } catch {
      throw .failure("sync-merge: \(error)")
    }
    for conflict in outcome.merge.conflicts {
      context.output.error(
        "conflict: \(conflict.place), \(conflict.field): kept \(conflict.kept) from the vdir, "
          + "the server had \(conflict.other) (in \(context.location.fileName).conflicts.log)")
    }
    return 0
  }
}

/// `sync --json`'s report.
private struct SyncJSON: Encodable {
  struct Conflict: Encodable {
    var place: String
    var field: String
    var kept: String
    var other: String
  }
  var dryRun: Bool
  var summary: String
  var newFromVdir: Int
  var changedFromVdir: Int
  var deletedFromVdir: Int
  var deletedListsFromVdir: [String]
  var newListsFromVdir: Int
  var newHere: Int
  var changedHere: Int
  var deletedHere: Int
  var newListsHere: Int
  var conflicts: [Conflict]
  var settledByVdirsyncer: [Conflict]
  var problems: [String]
  var refused: String?

  init(_ report: SyncReport, dryRun: Bool) {
    self.dryRun = dryRun
    summary = report.summary
    newFromVdir = report.newFromVdir
    changedFromVdir = report.changedFromVdir
    deletedFromVdir = report.deletedFromVdir
    deletedListsFromVdir = report.deletedListsFromVdir
    newListsFromVdir = report.newListsFromVdir
    newHere = report.newHere
    changedHere = report.changedHere
    deletedHere = report.deletedHere
    newListsHere = report.newListsHere
    conflicts = report.merge.conflicts.map {
      Conflict(place: $0.place, field: $0.field, kept: $0.kept, other: $0.other)
    }
    settledByVdirsyncer = report.settledByVdirsyncer.map {
      Conflict(place: $0.place, field: $0.field, kept: $0.kept, other: $0.other)
    }
    problems = report.problems
    refused = report.refused
  }
}
