import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

extension KeyTable {
  /// The ways the table can be printed.
  public enum Format: String, CaseIterable, Sendable {
    /// Aligned columns per screen, for a terminal (`checklists keys`).
    case text
    /// One JSON object per row (`checklists keys --json`).
    case json
    /// A Markdown table (the README's key section).
    case markdown
    /// roff for the man page's KEYS section.
    case man
  }

  /// The table in `format`, ending in a newline.
  public func rendered(as format: Format) -> String {
    switch format {
    case .text: return textTable()
    case .json: return jsonRows()
    case .markdown: return markdownTable()
    case .man: return manSection()
    }
  }

  /// The rows that have keys, screen by screen in `KeyScreen` order, then in table order.
  var shownRows: [Row] {
    KeyScreen.allCases.flatMap { rows(of: $0) }
  }

  private func textTable() -> String {
    let keyWidth = shownRows.map { notationList($0.keys).count }.max() ?? 0
    let actionWidth = shownRows.map(\.action.rawValue.count).max() ?? 0
    var out = ""
    for screen in KeyScreen.allCases {
      let own = rows(of: screen)
      let unbound = (self.unbound[screen] ?? []).sorted { notation($0) < notation($1) }
      guard !own.isEmpty || !unbound.isEmpty else { continue }
      if !out.isEmpty { out += "\n" }
      out += "\(screen.rawValue): \(screen.summary)\n"
      for row in own {
        let keys = TextMatching.padded(notationList(row.keys), to: keyWidth)
        let action = TextMatching.padded(row.action.rawValue, to: actionWidth)
        out += "  \(keys)  \(action)  \(row.action.summary)\n"
      }
      for key in unbound {
        let keys = TextMatching.padded(notation(key), to: keyWidth)
        out += "  \(keys)  \(TextMatching.padded("none", to: actionWidth))"
        out += "  unbound here\n"
      }
    }
    return out
  }

  private struct JSONRow: Encodable {
    var screen: String
    var action: String
    var keys: [String]
    var label: String
    var summary: String
  }

  private func jsonRows() -> String {
    var rows = shownRows.map {
      JSONRow(
        screen: $0.screen.rawValue, action: $0.action.rawValue, keys: $0.keys.map(notation),
        label: $0.action.label, summary: $0.action.summary)
    }
    for screen in KeyScreen.allCases {
      let keys = (unbound[screen] ?? []).map(notation).sorted()
      if !keys.isEmpty {
        rows.append(
          JSONRow(
            screen: screen.rawValue, action: "none", keys: keys, label: "",
            summary: "unbound here"))
      }
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let data = (try? encoder.encode(rows)) ?? Data("[]".utf8)
    return String(decoding: data, as: UTF8.self) + "\n"
  }

  private func markdownTable() -> String {
    var out = "| Screen | Keys | Action | Does |\n| --- | --- | --- | --- |\n"
    for screen in KeyScreen.allCases {
      for (number, row) in rows(of: screen).enumerated() {
        let place = number == 0 ? "`\(screen.rawValue)`" : ""
        let keys = row.keys.map { "`\(markdownCode(notation($0)))`" }.joined(separator: " ")
        out += "| \(place) | \(keys) | `\(row.action.rawValue)` | \(row.action.summary) |\n"
      }
    }
    return out
  }

  private func manSection() -> String {
    var out = ""
    for screen in KeyScreen.allCases {
      let own = rows(of: screen)
      guard !own.isEmpty else { continue }
      out += ".SS \(roff(screen.rawValue)) \\(em \(roff(screen.summary))\n"
      for row in own {
        out += ".TP\n.B \"\(roff(notationList(row.keys)))\"\n"
        out += "\\fB\(roff(row.action.rawValue))\\fR: \(roff(row.action.summary))\n"
      }
    }
    return out
  }

  private func notation(_ key: Key) -> String { KeyNotation.notation(key) }

  private func notationList(_ keys: [Key]) -> String {
    keys.map(notation).joined(separator: " ")
  }

  /// Text for roff: backslashes and hyphens escaped, quotes doubled inside a quoted argument.
  private func roff(_ text: String) -> String {
    let escaped = TextMatching.replacing("\\", with: "\\e", in: text)
    let hyphens = TextMatching.replacing("-", with: "\\-", in: escaped)
    return TextMatching.replacing("\"", with: "\"\"", in: hyphens)
  }

  /// Text inside a Markdown code span in a table: the pipe escaped.
  private func markdownCode(_ text: String) -> String {
    TextMatching.replacing("|", with: "\\|", in: text)
  }
}
