import ChecklistsCore
import ChecklistsTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

extension ServerAndCLIProcesses {
  /// The CLI against power loss (system call order), concurrent writers and hostile files.
  @Suite("Durability: the CLI's save order, races and hostile files", .serialized)
  struct DurabilityCLITests {
    /// Starts `/bin/sh -c script` with `arguments` as `$0 $1 …`, its output discarded.
    static func shell(_ script: String, _ arguments: [String], environment: [String: String])
      throws -> Process
    {
      try startProcess(
        "/bin/sh", ["-c", script] + arguments, environment: environment, discardingOutput: true)
    }

    // MARK: - Power loss: the order of system calls

    @Test func aSaveSyncsTheTemporaryFileBeforeTheRenameAndTheFolderAfterIt() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData([Checklist(name: "L")])
      guard let strace = installedTool("strace") else {
        Issue.record("strace not installed: add it to the CI's apt packages")
        return
      }
      let log = sandbox.root + "/strace.log"
      let traced = try runProcess(
        strace,
        [
          "-f", "-s", "4096", "-e",
          "trace=openat,write,fsync,fdatasync,rename,renameat,renameat2,link,linkat", "-o", log,
          BuiltBinary.path(), "add", "L", "x",
        ], environment: sandbox.environment)
      #expect(traced.status == 0, "\(traced.stderr)")
      #expect(try sandbox.lists().first?.items.map(\.text) == ["x"])
      let text = try String(contentsOfFile: log, encoding: .utf8)
      let calls = StraceLog(text).calls
      let folder = (sandbox.dataFile as NSString).deletingLastPathComponent
      let file = sandbox.dataFile
      let temporaryPrefix = folder + "/.Checklists.plist.tmp-"

      // write temp → fsync(temp) → link + rename for .bak → rename(temp, file) → fsync(folder)
      let created = try #require(
        calls.firstIndex {
          $0.name == "openat" && $0.strings.first?.hasPrefix(temporaryPrefix) == true
            && $0.arguments.contains("O_CREAT")
        }, "no temporary file was created:\n\(text)")
      let temporary = calls[created].strings[0]
      let fd = calls[created].result
      // The descriptor's number is reused after its close (not traced) by the next open.
      let reopened =
        calls.indices.first { $0 > created && calls[$0].name == "openat" && calls[$0].result == fd }
        ?? calls.count
      let writes = calls.indices.filter {
        $0 > created && $0 < reopened && calls[$0].name == "write" && calls[$0].firstArgument == fd
      }
      #expect(!writes.isEmpty, "nothing written to the temporary file")
      let synced = try #require(
        calls.indices.first {
          $0 > created && $0 < reopened && ["fsync", "fdatasync"].contains(calls[$0].name)
            && calls[$0].firstArgument == fd
        }, "the temporary file was never synced:\n\(text)")
      #expect(writes.allSatisfy { $0 < synced }, "a write came after the fsync")
      let isRename = { (call: StraceLog.Call) in call.name.hasPrefix("rename") }
      let replaced = try #require(
        calls.firstIndex { isRename($0) && $0.strings == [temporary, file] },
        "no rename of the temporary file over the file:\n\(text)")
      #expect(synced < replaced, "fsync(temp) must come before the rename")
      let backedUp = try #require(
        calls.firstIndex { isRename($0) && $0.strings.last == file + ".bak" },
        "no .bak was put in place:\n\(text)")
      let linked = try #require(
        calls.firstIndex { $0.name.hasPrefix("link") && $0.strings.first == file },
        "the old file was not linked as the backup:\n\(text)")
      #expect(linked < backedUp && backedUp < replaced)
      let linkedName = calls[linked].strings.last
      #expect(calls[backedUp].strings.first == linkedName)
      let folderSynced = calls.indices.contains { index in
        guard index > replaced, ["fsync", "fdatasync"].contains(calls[index].name) else {
          return false
        }
        // The descriptor was opened on the folder, after the rename or before it.
        return calls[..<index].last {
          $0.name == "openat" && $0.result == calls[index].firstArgument
        }.map { $0.strings.first == folder && $0.arguments.contains("O_DIRECTORY") } ?? false
      }
      #expect(folderSynced, "no fsync of the folder after the rename:\n\(text)")
    }

    // MARK: - Two writers

    @Test func twoCLILoopsAddingAtOnceLoseAndDuplicateNothing() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      try sandbox.writeData([Checklist(name: "L")])
      let script = """
        for i in $(seq 1 100); do
          "$0" add L "$1-$i" >/dev/null 2>"$2.err.$i"; echo "$1-$i $?" >>"$2.status"
        done
        """
      let loops = try ["a", "b"].map { prefix in
        try Self.shell(
          script, [BuiltBinary.path(), prefix, sandbox.root + "/" + prefix],
          environment: sandbox.environment)
      }
      for loop in loops { loop.waitUntilExit() }
      // Every add merges with the other loop's: all 200 succeed, once each.
      var expected: [String] = []
      for prefix in ["a", "b"] {
        let base = sandbox.root + "/" + prefix
        let lines = try String(contentsOfFile: base + ".status", encoding: .utf8)
          .split(separator: "\n")
        #expect(lines.count == 100)
        for line in lines {
          let parts = line.split(separator: " ")
          let text = String(parts[0])
          let number = String(text.dropFirst(2))
          let errors = (try? String(contentsOfFile: base + ".err.\(number)", encoding: .utf8)) ?? ""
          #expect(parts.last == "0", "\(text) ended with status \(parts.last ?? ""): \(errors)")
          expected.append(text)
        }
      }
      let texts = try #require(try sandbox.lists().first { $0.name == "L" }).items.map(\.text)
      #expect(texts.sorted() == expected.sorted())
      #expect(Set(texts).count == texts.count, "duplicates")
    }

    // MARK: - Hostile files

    /// Runs `checklists --file path add L x` and checks the refusal and that the folder holds
    /// nothing new but the lock file.
    static func expectRefusal(
      _ sandbox: CLITestSandbox, path: String, mentioning words: String
    ) throws {
      let folder = (path as NSString).deletingLastPathComponent
      let before = Set((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
      let start = Date()
      let run = try sandbox.run("--file", path, "add", "L", "x")
      #expect(Date().timeIntervalSince(start) < 30, "the refusal took too long")
      #expect(run.status == 1)
      #expect(run.stderr.hasPrefix("checklists: "), "\(run.stderr)")
      #expect(run.stderr.contains(words), "\(run.stderr)")
      #expect(run.stdout.isEmpty)
      let after = Set((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
      let added = after.subtracting(before).filter { !$0.hasSuffix(".lock") }
      #expect(added.isEmpty, "written: \(added.sorted())")
    }

    @Test func aFIFOIsRefusedWithoutWaitingOrWriting() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      let path = sandbox.root + "/Checklists.plist"
      #expect(mkfifo(path, 0o600) == 0)
      try Self.expectRefusal(sandbox, path: path, mentioning: "FIFO")
      var status = stat()
      #expect(lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFIFO)
    }

    @Test func aLinkToDevZeroIsRefusedAndNothingIsWrittenInDev() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      let path = sandbox.root + "/Checklists.plist"
      try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/zero")
      let lockExisted = FileManager.default.fileExists(atPath: "/dev/zero.lock")
      try Self.expectRefusal(sandbox, path: path, mentioning: "character device")
      let lockCreated = !lockExisted && FileManager.default.fileExists(atPath: "/dev/zero.lock")
      if lockCreated { try? FileManager.default.removeItem(atPath: "/dev/zero.lock") }
      #expect(!lockCreated, "/dev/zero.lock was created")
      #expect(
        (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) == "/dev/zero")
    }

    @Test func aFolderIsRefused() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      let path = sandbox.root + "/Checklists.plist"
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
      try Self.expectRefusal(sandbox, path: path, mentioning: "folder")
      #expect((try? FileManager.default.contentsOfDirectory(atPath: path)) == [])
    }

    @Test func aSparse2GBFileIsRefusedBeforeReading() throws {
      let sandbox = CLITestSandbox()
      defer { sandbox.remove() }
      let path = sandbox.root + "/Checklists.plist"
      #expect(FileManager.default.createFile(atPath: path, contents: nil))
      #expect(truncate(path, 2 << 30) == 0)
      try Self.expectRefusal(sandbox, path: path, mentioning: "too large")
      var status = stat()
      #expect(stat(path, &status) == 0)
      #expect(status.st_size == 2 << 30)
      #expect(status.st_blocks == 0, "something was written into the file")
    }
  }
}

/// The calls in an `strace -f` log, with split (`unfinished` / `resumed`) calls joined.
struct StraceLog {
  struct Call {
    var name: String
    /// The raw argument text.
    var arguments: String
    /// The quoted strings among the arguments (paths), in order.
    var strings: [String]
    /// The first argument (a descriptor for fsync and write).
    var firstArgument: String
    /// The return value, e.g. "5" or "-1".
    var result: String
  }

  var calls: [Call] = []

  init(_ text: String) {
    var unfinished: [String: String] = [:]
    for rawLine in text.split(separator: "\n") {
      var line = String(rawLine)
      // "PID rest"
      guard let space = line.firstIndex(of: " ") else { continue }
      let pid = String(line[..<space])
      line = String(line[line.index(after: space)...].drop { $0 == " " })
      if line.hasSuffix("<unfinished ...>") {
        unfinished[pid] = String(line.dropLast("<unfinished ...>".count))
        continue
      }
      if line.hasPrefix("<... "), let end = line.range(of: "resumed>") {
        line = (unfinished.removeValue(forKey: pid) ?? "") + line[end.upperBound...]
      }
      // "name(arguments)   = result …" (strace pads before the "=")
      guard let open = line.firstIndex(of: "("),
        let equals = line.range(of: " = ", options: .backwards),
        let close = line[..<equals.lowerBound].lastIndex(of: ")"), open < close
      else { continue }
      let name = String(line[..<open])
      let arguments = String(line[line.index(after: open)..<close])
      let result = String(
        line[equals.upperBound...].prefix { $0 != " " })
      calls.append(
        Call(
          name: name, arguments: arguments, strings: Self.quotedStrings(arguments),
          firstArgument: String(arguments.prefix { $0 != "," && $0 != "<" }), result: result))
    }
  }

  static func quotedStrings(_ text: String) -> [String] {
    var strings: [String] = []
    var current: String?
    var escaped = false
    for character in text {
      if var string = current {
        if escaped {
          string.append(character)
          escaped = false
        } else if character == "\\" {
          escaped = true
        } else if character == "\"" {
          strings.append(string)
          current = nil
          continue
        } else {
          string.append(character)
        }
        current = string
      } else if character == "\"" {
        current = ""
      }
    }
    return strings
  }
}
