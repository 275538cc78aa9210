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

extension DataGenerator {
  /// `model(lists:itemsPerList:)` with subtasks, priorities and tags: `childShare` of each
  /// list's items (a fifth by default) are subtasks, placed at random after the first item —
  /// three in four a sibling of the subtask above them, one in four a level deeper (at most
  /// three) — every 7th item has a priority and every 9th a tag or two.
  static func outlineModel(
    lists listCount: Int, itemsPerList: Int, childShare: Double = 0.2, seed: UInt64 = 34
  ) -> DataModel {
    let plain = model(lists: listCount, itemsPerList: itemsPerList, seed: seed)
    var random = SplitMix(seed: seed &+ 1)
    let levels: [PriorityLevel] = [.low, .medium, .high]
    let tagNames = ["work", "home", "errands", "東京", "urgent"]
    var lists: [Checklist] = []
    lists.reserveCapacity(plain.lists.count)
    for list in plain.lists {
      var items = list.items
      let count = items.count
      let childCount = min(Int((Double(count) * childShare).rounded()), max(count - 1, 0))
      // Which items are subtasks: a shuffle of 1..<count, the first childCount of it.
      var candidates = Array(1..<max(count, 1))
      for position in candidates.indices.reversed() where position > 0 {
        candidates.swapAt(position, Int(random.next() % UInt64(position + 1)))
      }
      var isChild = [Bool](repeating: false, count: count)
      for index in candidates.prefix(childCount) { isChild[index] = true }
      var parents = [Int?](repeating: nil, count: count)
      var depths = [Int](repeating: 0, count: count)
      for index in 0..<count {
        if isChild[index] {
          let above = index - 1
          let deeper = depths[above] < 3 && (parents[above] == nil || random.next() % 4 == 0)
          let parent = deeper ? above : parents[above]
          if let parent {
            parents[index] = parent
            depths[index] = depths[parent] + 1
            items[index].parentItemID = items[parent].itemID
          }
        }
        if index % 7 == 3 { items[index].priorityLevel = levels[index % 3] }
        if index % 9 == 4 {
          items[index].tags = [tagNames[index % 5], tagNames[(index / 9) % 5]]
        }
      }
      lists.append(Checklist(name: list.name, iconName: list.iconName, items: items))
    }
    return DataModel(lists: lists, nextItemID: plain.nextItemID)
  }
}
