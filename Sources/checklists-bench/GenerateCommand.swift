import ChecklistsCore
import Foundation

/// `generate ITEMS FILE [--lists N] [--format xml|binary]`: writes a generated Checklists.plist.
///
/// Items are spread over lists of 100 unless `--lists` says otherwise (`--lists 1` makes one big
/// list, for scrolling a 100,000-item list).
enum GenerateCommand {
  static func run(_ arguments: [String]) -> Int32 {
    var positional: [String] = []
    var lists: Int?
    var format = PlistFormat.binary
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      if argument == "--lists", index + 1 < arguments.count, let value = Int(arguments[index + 1]) {
        lists = max(value, 1)
        index += 2
      } else if argument == "--format", index + 1 < arguments.count,
        let value = PlistFormat(rawValue: arguments[index + 1])
      {
        format = value
        index += 2
      } else {
        positional.append(argument)
        index += 1
      }
    }
    guard positional.count == 2, let items = Int(positional[0]), items >= 0 else {
      FileHandle.standardError.write(
        Data("usage: checklists-bench generate ITEMS FILE [--lists N] [--format xml|binary]\n".utf8)
      )
      return 2
    }
    let listCount = lists ?? max(items / 100, 1)
    let model = DataGenerator.model(
      lists: listCount, itemsPerList: (items + listCount - 1) / listCount)
    do {
      let data = try ChecklistsFileCoding.encode(model.lists, format: format).data
      try data.write(to: URL(fileURLWithPath: positional[1]))
      print("wrote \(model.itemCount) items in \(listCount) lists to \(positional[1])")
      return 0
    } catch {
      FileHandle.standardError.write(Data("generate: \(error)\n".utf8))
      return 1
    }
  }
}
