import ChecklistsCore
import Foundation

/// `due`: the unchecked reminders that are due.
enum DueCommand {
  static let due = CommandSpec(
    name: "due", positionals: [], valueOptions: [("--within", "DURATION")], flags: ["--json"],
    summary: "Show unchecked reminders due now (or within DURATION), oldest first.",
    details: "DURATION is a number with m, h, d or w (30m, 2h, 3d, 1w). "
      + "Exits 0 when something is due, 1 when nothing is."
  ) { arguments, context throws(CLIError) in
    var window: TimeInterval = 0
    if let text = arguments.options["--within"] {
      guard let parsed = Duration.seconds(text) else {
        throw .usage("--within takes a duration like 30m, 2h, 3d, 1w, not \"\(text)\"")
      }
      window = parsed
    }
    let (_, load) = try context.open()
    let limit = context.now.addingTimeInterval(window)
    var found: [(list: Checklist, item: ChecklistItem)] = []
    for list in load.model.lists {
      for item in list.items where !item.checked && item.shouldRemind && item.dueDate <= limit {
        found.append((list, item))
      }
    }
    found.sort { $0.item.dueDate < $1.item.dueDate }
    if arguments.flags.contains("--json") {
      struct Row: Codable {
        var list: String
        var text: String
        var dueDate: Date
        var itemID: Int
        var overdue: Bool
      }
      let rows = found.map {
        Row(
          list: $0.list.name, text: $0.item.text, dueDate: $0.item.dueDate, itemID: $0.item.itemID,
          overdue: $0.item.dueDate < context.now)
      }
      context.output.write(try JSONOutput.encode(rows))
    } else {
      let output = context.output
      for (list, item) in found {
        output.line(
          "\(PlainDate.string(item.dueDate))  \(output.shown(list.name))  \(output.shown(item.text))"
        )
      }
    }
    return found.isEmpty ? 1 : 0
  }

  /// Reads "30m", "2h", "3d", "1w" as seconds.
  enum Duration {
    static func seconds(_ text: String) -> TimeInterval? {
      let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
      guard let unit = trimmed.last, let number = Int(trimmed.dropLast()), number >= 0,
        trimmed.dropLast().allSatisfy(\.isASCII)
      else { return nil }
      let scale: TimeInterval
      switch unit {
      case "m": scale = 60
      case "h": scale = 3600
      case "d": scale = 86_400
      case "w": scale = 604_800
      default: return nil
      }
      return TimeInterval(number) * scale
    }
  }
}
