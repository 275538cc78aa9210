import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// What the app asks when quitting could not save: retry, save elsewhere, or quit with a rescue
/// copy (like vim's `:w` failing before `:q`: nothing is thrown away without a word).
struct QuitPrompt: Equatable {
  /// Why the save failed, as the store said it.
  var reason: String
  /// The path being typed for "save elsewhere", nil until `w`.
  var path: TextField?
}
