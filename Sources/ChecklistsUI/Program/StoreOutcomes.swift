import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

extension SaveOutcome {
  /// The status line and merged lists for a save the store finished.
  public init(_ result: SaveResult) {
    let merged = result.merged.map { merge in
      MergedLists(
        model: merge.model, renumbered: merge.report.renumberedMap, matchesFile: true)
    }
    self.init(succeeded: true, message: result.statusLine, merged: merged)
  }

  /// The status line for a save that failed: the old file is intact, the lists are unsaved.
  public init(failure error: StoreError) {
    self.init(succeeded: false, message: error.message)
  }
}

extension MergedLists {
  /// Lists the store merged with changes made elsewhere while the app ran.
  public init(_ refresh: RefreshResult) {
    self.init(
      model: refresh.merged.model, renumbered: refresh.merged.report.renumberedMap,
      matchesFile: refresh.matchesFile, report: refresh.merged.report,
      logName: refresh.logName)
  }

  /// The message of `refresh`'s event beside its report, which the app tells itself (adding up
  /// merges not yet read): the store's line when the report has nothing to tell, then `extra`.
  public static func message(for refresh: RefreshResult, extra: String?) -> String {
    let own =
      refresh.merged.report.summary(logName: refresh.logName) == nil
      ? refresh.statusLine : nil
    return [own, extra].compactMap { $0 }.joined(separator: "; ")
  }
}

extension MergeReport {
  /// Ours' renumbered items, old id to new id.
  var renumberedMap: [Int: Int] {
    var map: [Int: Int] = [:]
    for renumbering in renumbered { map[renumbering.oldID] = renumbering.newID }
    return map
  }
}
