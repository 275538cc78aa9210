import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// `undo`: takes back the last change a command made to the file.
enum UndoCommand {
  static let undo = CommandSpec(
    name: "undo", positionals: [],
    summary: "Take back the last change a command made to this file.",
    details: """
      Commands that change lists keep their last 50 changes to a file in a log beside your
      state file (yours only); undo takes back the newest, and again the one before it, and
      so on. Changes made elsewhere since (in the app, on the phone, by a sync) stay. When
      something the change made was changed elsewhere since (an item edited, moved or
      deleted, a list renamed), nothing is taken back: undo exits 1 saying what, and the
      change stays in the log. The app's own undo (u) is separate; undo itself cannot be
      undone (do the command again).
      """
  ) { _, context throws(CLIError) in
    let (store, load) = try context.open()
    guard let change = store.lastCommandChange() else {
      throw .failure("nothing to undo: no command has changed \(context.location.displayPath) yet")
    }
    let model: DataModel
    do throws(CommandChange.Refusal) {
      model = try change.undone(in: load.model)
    } catch {
      throw .failure(
        "could not undo `\(change.summary)`: \(error.reason); nothing changed")
    }
    // A rename taken back takes back what the app remembers by the name (as edit-list did).
    let status = try context.save(model, store: store, state: load.state, recordsUndo: false) {
      state in
      for edit in change.editedLists where edit.before.name != edit.after.name {
        if state.checklistName == edit.after.name { state.checklistName = edit.before.name }
        state.sortByDue = state.sortByDue.map { $0 == edit.after.name ? edit.before.name : $0 }
      }
    }
    if status == 0 {
      do throws(StoreError) {
        try store.forgetCommandChange(change)
      } catch {
        context.output.error("warning: \(error.message)")
      }
      context.output.line("Undid `\(context.output.shown(change.summary))`.")
    }
    return status
  }
}
