import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// How a name or text given on the command line finds what it means, tier by tier: the exact
/// text, else the text folded as search folds it (case, accents and width ignored: "cafe au
/// lait" is "Café au lait"), else a folded prefix ("caf"). The first tier with one match wins;
/// a tier with several is ambiguous and names them.
enum TextSelection {
  /// The result of looking a selector up among texts.
  enum Match: Equatable {
    case one(Int)
    /// Several texts are equal to the selector exactly.
    case sameText([Int])
    /// Several texts fold to the selector, or start with it folded.
    case several([Int])
    case none
  }

  static func match(_ selector: String, in texts: [String]) -> Match {
    let exact = texts.indices.filter { texts[$0] == selector }
    if exact.count == 1 { return .one(exact[0]) }
    if exact.count > 1 { return .sameText(exact) }
    let wanted = SearchFolding.fold(selector)
    guard !wanted.isEmpty else { return .none }
    var folding = SearchFolding()
    let folded = texts.map { text -> [UInt8] in
      var bytes: [UInt8] = []
      folding.fold(text, into: &bytes)
      return bytes
    }
    let equal = folded.indices.filter { folded[$0] == wanted }
    if equal.count == 1 { return .one(equal[0]) }
    if equal.count > 1 { return .several(equal) }
    let prefixed = folded.indices.filter { folded[$0].starts(with: wanted) }
    if prefixed.count == 1 { return .one(prefixed[0]) }
    if prefixed.count > 1 { return .several(prefixed) }
    return .none
  }

  /// Whether two names are one for the CLI (they fold alike, as the matcher compares them).
  static func sameName(_ first: String, _ second: String) -> Bool {
    SearchFolding.fold(first) == SearchFolding.fold(second)
  }

  /// The candidates of an ambiguous selector: `2 "Café au lait", 5 "Cafetière"`, ten at most.
  static func candidates(_ indices: [Int], _ texts: [String]) -> String {
    let shown = indices.prefix(10).map { "\($0 + 1) \"\(texts[$0])\"" }.joined(separator: ", ")
    return indices.count > 10 ? shown + " and \(indices.count - 10) more" : shown
  }
}

/// Finds the list a LIST argument means: a 1-based number or a name (exact, else folded as
/// search folds it, else a unique folded prefix; see `TextSelection`). A number in range always
/// means the list at that number, as it does for items, so that a script passing numbers from
/// `checklists lists` never gets a list named like a number instead.
enum ListSelector {
  static func find(_ selector: String, in model: DataModel) throws(CLIError) -> Checklist {
    if let number = Int(selector), selector.allSatisfy(\.isASCII), number >= 1,
      number <= model.lists.count
    {
      return model.lists[number - 1]
    }
    let names = model.lists.map(\.name)
    switch TextSelection.match(selector, in: names) {
    case .one(let index):
      return model.lists[index]
    case .sameText:
      throw .failure(
        "several lists are named \"\(selector)\"; use its number from `checklists lists`")
    case .several(let indices):
      throw .failure(
        "\"\(selector)\" could be several lists: \(TextSelection.candidates(indices, names)); "
          + "give more of the name or the number")
    case .none:
      throw .failure("no list \"\(selector)\" (see `checklists lists`)")
    }
  }
}

/// Finds the item an ITEM argument means: a 1-based number or its text (exact, else folded as
/// search folds it, else a unique folded prefix; see `TextSelection`).
enum ItemSelector {
  static func find(_ selector: String, in list: Checklist) throws(CLIError) -> Int {
    if let number = Int(selector), selector.allSatisfy(\.isASCII), number >= 1,
      number <= list.items.count
    {
      return number - 1
    }
    let texts = list.items.map(\.text)
    switch TextSelection.match(selector, in: texts) {
    case .one(let index):
      return index
    case .sameText:
      throw .failure(
        "several items in \"\(list.name)\" read \"\(selector)\"; use its number from `checklists show`"
      )
    case .several(let indices):
      throw .failure(
        "\"\(selector)\" could be several items in \"\(list.name)\": "
          + "\(TextSelection.candidates(indices, texts)); give more of the text or the number")
    case .none:
      throw .failure("no item \"\(selector)\" in \"\(list.name)\" (see `checklists show`)")
    }
  }
}
