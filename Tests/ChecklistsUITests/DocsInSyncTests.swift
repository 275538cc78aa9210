import ChecklistsTestSupport
import Foundation
import Testing

@testable import ChecklistsUI

/// The key sections of the README and the man page are the default key table, as
/// `scripts/update-docs` writes them.
@Suite struct DocsInSyncTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The lines between `begin` and `end` in the file at `path` (relative to the package).
  func section(_ path: String, begin: String, end: String) throws -> String {
    let text = try String(
      contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
    let lines = text.components(separatedBy: "\n")
    let first = try #require(lines.firstIndex(of: begin), "\(path) has no \(begin)")
    let last = try #require(
      lines[first...].firstIndex(of: end), "\(path) has no \(end) after \(begin)")
    return lines[(first + 1)..<last].map { $0 + "\n" }.joined()
  }

  @Test func readmeKeysAreTheTable() throws {
    let shown = try section(
      "README.md", begin: "<!-- BEGIN GENERATED keys -->", end: "<!-- END GENERATED keys -->")
    #expect(
      shown == KeyTable.defaults.rendered(as: .markdown),
      "README.md's key table differs from KeyTable.defaults: run scripts/update-docs")
  }

  @Test func manPageKeysAreTheTable() throws {
    let shown = try section(
      "docs/checklists.1", begin: #".\" BEGIN GENERATED keys"#, end: #".\" END GENERATED keys"#)
    #expect(
      shown == KeyTable.defaults.rendered(as: .man),
      "docs/checklists.1's KEYS differ from KeyTable.defaults: run scripts/update-docs")
  }

  @Test func everyActionIsInTheDocs() throws {
    let readme = try String(
      contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
    for action in KeyAction.allCases {
      #expect(readme.contains("`\(action.rawValue)`"), "\(action.rawValue)")
    }
  }
}
