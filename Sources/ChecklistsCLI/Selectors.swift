import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Finds the list a LIST argument means: a 1-based number or a name (any case). A number in
/// range always means the list at that number, as it does for items, so that a script passing
/// numbers from `checklists lists` never gets a list named like a number instead.
enum ListSelector {
  static func find(_ selector: String, in model: DataModel) throws(CLIError) -> Checklist {
    if let number = Int(selector), selector.allSatisfy(\.isASCII), number >= 1,
      number <= model.lists.count
    {
      return model.lists[number - 1]
    }
    let lowered = selector.lowercased()
    let named = model.lists.filter { $0.name.lowercased() == lowered }
    if named.count == 1 { return named[0] }
    if named.count > 1 {
      let exact = named.filter { $0.name == selector }
      if exact.count == 1 { return exact[0] }
      throw .failure(
        "several lists are named \"\(selector)\"; use its number from `checklists lists`")
    }
    throw .failure("no list \"\(selector)\" (see `checklists lists`)")
  }
}

/// Finds the item an ITEM argument means: a 1-based number or its text (exactly, else in any
/// case when only one item matches so).
enum ItemSelector {
  static func find(_ selector: String, in list: Checklist) throws(CLIError) -> Int {
    if let number = Int(selector), selector.allSatisfy(\.isASCII), number >= 1,
      number <= list.items.count
    {
      return number - 1
    }
    let matches = list.items.indices.filter { list.items[$0].text == selector }
    if matches.count == 1 { return matches[0] }
    if matches.count > 1 {
      throw .failure(
        "several items in \"\(list.name)\" read \"\(selector)\"; use its number from `checklists show`"
      )
    }
    let lowered = selector.lowercased()
    let loose = list.items.indices.filter { list.items[$0].text.lowercased() == lowered }
    if loose.count == 1 { return loose[0] }
    if loose.count > 1 {
      let numbers = loose.prefix(5).map { String($0 + 1) }.joined(separator: ", ")
      throw .failure(
        "several items in \"\(list.name)\" read \"\(selector)\" in some case (items \(numbers)); "
          + "give the exact text or the number")
    }
    throw .failure("no item \"\(selector)\" in \"\(list.name)\" (see `checklists show`)")
  }
}
