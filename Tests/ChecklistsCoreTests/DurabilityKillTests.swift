import ChecklistsTestSupport
import Foundation
import Testing

@testable import ChecklistsCore

/// Runs a built executable to its end; its status and stdout.
func runToEnd(_ executable: String, _ arguments: [String]) throws -> (Int32, String) {
  let result = try runProcess(executable, arguments)
  return (result.status, result.stdout)
}

extension CoreProcesses {
  /// SIGKILL at random moments while a separate process saves a 100,000-item file.
  @Suite("Durability: kills during saves of a large file", .serialized)
  struct DurabilityKillTests {
    static let bench = BuiltBinary.fastestPath("checklists-bench")
    /// 200 kills with the release tool (CI builds it before the tests). A debug tool takes about
    /// 2 s a round at 100,000 items, so with only `swift build --build-tests` behind it (the
    /// README's inner loop) the suite would pass 6 minutes: then 40 rounds, and it says so.
    static let rounds = BuiltBinary.isRelease(bench) ? 200 : 40

    @Test func killsDuringSavesOfA100kItemFileAlwaysLeaveAWholeVersion() throws {
      let folder = StoreTestFolder()
      defer { folder.remove() }
      let location = folder.location()
      let generated = try runToEnd(Self.bench, ["generate", "100000", location.dataFile])
      try #require(generated.0 == 0, "generate failed: \(generated.1)")
      let original = try ChecklistsFileCoding.decode(try #require(folder.bytes("Checklists.plist")))
      #expect(original.lists.reduce(0) { $0 + $1.items.count } == 100_000)

      // One uninterrupted run of two saves gives the duration of a save.
      let calibration = try runToEnd(Self.bench, ["announced-save-loop", location.dataFile, "2"])
      try #require(calibration.0 == 0, "the save loop failed: \(calibration.1)")
      let durations = calibration.1.split(separator: "\n").compactMap { line -> Int? in
        let words = line.split(separator: " ")
        return words.first == "saved" && words.count == 3 ? Int(words[2]) : nil
      }
      let saveMilliseconds = max(durations.max() ?? 0, 1)
      print(
        "one save of 100,000 items takes \(saveMilliseconds) ms; \(Self.rounds) rounds with "
          + (BuiltBinary.isRelease(Self.bench) ? "the release" : "a debug") + " checklists-bench")

      var current = 2
      var verified: [(bytes: Data, count: Int)] = [
        (try #require(folder.bytes("Checklists.plist")), 2)
      ]
      var random = SeededGenerator(seed: 2_026_112_918)
      var killedAfterAWholeSave = 0
      for round in 1...Self.rounds {
        let child = try ChildProcess(
          Self.bench, ["announced-save-loop", location.dataFile, "1000"])
        guard let ready = child.waitForLine(startingWith: "ready", deadline: 60) else {
          child.kill()
          Issue.record("round \(round): the save loop did not start: \(child.errorOutput())")
          return
        }
        #expect(ready == "ready \(current)", "round \(round): the child read another version")
        // The child's open removed what earlier kills left behind.
        let stale = folder.names().filter {
          $0.contains(".tmp-") && !$0.contains(".tmp-\(child.pid)-")
        }
        #expect(stale.isEmpty, "round \(round): stale temporary files \(stale)")
        guard child.waitForLine(startingWith: "saving", deadline: 60) != nil else {
          child.kill()
          Issue.record("round \(round): the save loop did not save: \(child.errorOutput())")
          return
        }
        // Kill within the first save or a little after it (encoding, writing, syncing, renaming).
        let window = UInt32(saveMilliseconds * 1200)
        usleep(UInt32.random(in: 0..<window, using: &random))
        child.kill()
        let announced = Set(
          child.lines.compactMap { line -> Int? in
            line.hasPrefix("saving ") ? Int(line.dropFirst("saving ".count)) : nil
          })
        if child.lines.contains(where: { $0.hasPrefix("saved ") }) { killedAfterAWholeSave += 1 }

        let bytes = try #require(folder.bytes("Checklists.plist"), "round \(round): no file")
        let count: Int
        if let known = verified.first(where: { $0.bytes == bytes }) {
          count = known.count
        } else {
          let document: ChecklistsDocument
          do {
            document = try ChecklistsFileCoding.decode(bytes)
          } catch {
            Issue.record("round \(round): the file does not decode: \(error)")
            return
          }
          count = try Self.checkVersion(document, original: original, round: round)
          verified = [(bytes, count)] + verified.prefix(2)
        }
        #expect(
          count == current || announced.contains(count),
          "round \(round): \(count) items in Loop; the file had \(current), the child announced \(announced.sorted())"
        )
        current = count
        let backup = try #require(folder.bytes("Checklists.plist.bak"), "round \(round): no .bak")
        if !verified.contains(where: { $0.bytes == backup }) {
          do {
            let document = try ChecklistsFileCoding.decode(backup)
            _ = try Self.checkVersion(document, original: original, round: round)
          } catch {
            Issue.record("round \(round): the .bak does not decode: \(error)")
          }
        }
      }
      print(
        "\(Self.rounds) kills; \(killedAfterAWholeSave) after at least one whole save; "
          + "Loop ends with \(current) items")
      #expect(current > 2, "no kill came after a completed save")
      // The next open removes the last kill's temporary file.
      let (store, load) = try ChecklistsStore.open(location: location)
      #expect(!folder.names().contains { $0.contains(".tmp-") }, "\(folder.names())")
      #expect(load.model.lists.first { $0.name == "Loop" }?.items.count == current)
      store.close()
    }

    /// Checks the generated lists are intact and "Loop" holds "item 1" … "item k"; returns k.
    static func checkVersion(
      _ document: ChecklistsDocument, original: ChecklistsDocument, round: Int
    ) throws -> Int {
      let loop = try #require(
        document.lists.first { $0.name == "Loop" }, "round \(round): no list named Loop")
      let others = document.lists.filter { $0.name != "Loop" }
      let intact = others == original.lists
      #expect(intact, "round \(round): the generated lists changed")
      let texts = loop.items.map(\.text)
      let expected = texts == (0..<texts.count).map { "item \($0 + 1)" }
      #expect(expected, "round \(round): Loop is not item 1 … item \(texts.count)")
      return texts.count
    }
  }
}
