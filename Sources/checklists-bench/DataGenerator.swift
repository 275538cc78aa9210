import ChecklistsCore
import Foundation

/// Makes realistic checklists of any size: mixed-script text, emoji, a quarter checked, some
/// with reminders; deterministic for a given seed.
enum DataGenerator {
  private static let words = [
    "milk", "eggs", "bread", "call", "grandma", "passport", "renew", "tickets", "pay", "rent",
    "Käse", "Brötchen", "café", "crème", "naïve", "jalapeño", "smörgåsbord", "über",
    "牛乳", "パン", "東京", "買い物", "検査", "привет", "молоко", "γάλα", "ψωμί", "שלום",
    "🍎", "🛒", "✈️", "🎂", "📅", "🧹", "☕", "👍🏽", "🇯🇵",
  ]
  private static let listNames = [
    "Groceries", "Trips", "Chores", "Birthdays", "Work", "Books", "Garden", "Gifts", "Inbox",
    "Einkauf", "旅行", "Дом",
  ]

  /// `listCount` lists of `itemsPerList` items each.
  static func model(lists listCount: Int, itemsPerList: Int, seed: UInt64 = 42) -> DataModel {
    var random = SplitMix(seed: seed)
    let base = Date(timeIntervalSince1970: 1_790_000_000)
    let icons = IconName.allCases.map(\.rawValue)
    var lists: [Checklist] = []
    lists.reserveCapacity(listCount)
    var itemID = 0
    for listIndex in 0..<listCount {
      var items: [ChecklistItem] = []
      items.reserveCapacity(itemsPerList)
      for _ in 0..<itemsPerList {
        let wordCount = 2 + Int(random.next() % 5)
        var text = ""
        for index in 0..<wordCount {
          if index > 0 { text += " " }
          text += words[Int(random.next() % UInt64(words.count))]
        }
        let due = base.addingTimeInterval(Double(random.next() % 10_000_000) + 0.25)
        items.append(
          ChecklistItem(
            text: text, checked: random.next() % 4 == 0, dueDate: due,
            shouldRemind: random.next() % 8 == 0, itemID: itemID))
        itemID += 1
      }
      let name = "\(listNames[listIndex % listNames.count]) \(listIndex + 1)"
      lists.append(
        Checklist(name: name, iconName: icons[listIndex % icons.count], items: items))
    }
    return DataModel(lists: lists, nextItemID: itemID)
  }
}

/// SplitMix64: a small deterministic generator.
struct SplitMix: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var value = state
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    return value ^ (value >> 31)
  }
}
