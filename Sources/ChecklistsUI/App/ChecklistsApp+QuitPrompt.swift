import ChecklistsCore
import Foundation

/// What the app asks when quitting could not save: retry, save elsewhere, or quit with a rescue
/// copy (like vim's `:w` failing before `:q`: nothing is thrown away without a word).
struct QuitPrompt: Equatable {
  /// Why the save failed, as the store said it.
  var reason: String
  /// The path being typed for "save elsewhere", nil until `w`.
  var path: TextField?

  /// The status line's words (the reason shows on the row above).
  var prompt: String {
    if path != nil { return "Save the lists to: " }
    return "Not saved: r retry · w save elsewhere · q quit with a rescue copy · Esc stay"
  }
}

extension ChecklistsApp {
  /// Keys while the quit prompt shows.
  mutating func handleQuitPromptKey(_ key: Key) -> [Effect] {
    guard var prompt = quitPrompt else { return [] }
    if var field = prompt.path {
      switch key {
      case .escape:
        prompt.path = nil
      case .enter:
        let path = field.text.trimmingCharacters(in: .whitespaces)
        guard !path.isEmpty else { return [] }
        quitPrompt = nil
        return [.saveCopyAndQuit(path: path)]
      case .control("c"):
        quitPrompt = nil
        return [.quitWithRescueCopy]
      default:
        _ = field.handle(key)
        prompt.path = field
      }
      quitPrompt = prompt
      return []
    }
    switch key {
    case .character("r"), .character("R"):
      quitPrompt = nil
      return [.quit]
    case .character("w"), .character("W"):
      prompt.path = TextField()
      quitPrompt = prompt
    case .character("q"), .character("Q"), .control("c"):
      quitPrompt = nil
      return [.quitWithRescueCopy]
    case .escape:
      quitPrompt = nil
      status = StatusMessage(
        text: "Not quitting: your changes are not saved yet (Ctrl-S tries again)", isError: true)
    default:
      break
    }
    return []
  }
}
