import ChecklistsTestSupport
import Foundation
import Testing

extension EndToEndProcesses {
  /// Photos in the real app in tmux: attaching through the picker and through a pasted path,
  /// the copy in the Photos folder, undo, and the sweep at exit.
  @Suite(.serialized) struct PhotoFlowTests {
    /// A shell whose `$HOME/Pictures` holds the generated test images.
    func photoShell(logOutput: Bool = false) throws -> AppFlowShell {
      try AppFlowShell(logOutput: logOutput) { data in
        let home = data.deletingLastPathComponent().deletingLastPathComponent()
        let pictures = home.appendingPathComponent("Pictures").path
        let script = BuiltBinary.repositoryRoot + "/Tests/Fixtures/images/make-test-images.py"
        let result = try runProcess("/usr/bin/python3", [script, pictures])
        guard result.status == 0 else {
          throw TmuxError(description: "make-test-images.py failed: \(result.stderr)")
        }
      }
    }

    func photosFolder(_ shell: AppFlowShell) -> String {
      shell.dataFile.deletingLastPathComponent().appendingPathComponent("Photos").path
    }

    func storedPhotos(_ shell: AppFlowShell) -> [String] {
      ((try? FileManager.default.contentsOfDirectory(atPath: photosFolder(shell))) ?? [])
        .filter { $0.hasPrefix("Photo-") }.sorted()
    }

    @Test func attachThroughThePickerThenReplaceByPasteAndUndo() throws {
      let shell = try photoShell()
      defer { shell.close() }
      let session = shell.session
      try shell.cli("add", "List", "Parking spot")
      try shell.launch(waitingFor: "Parking spot")
      try session.sendKeys("Enter", "BTab")
      try session.waitFor(text: "Photo     None")
      try session.sendKeys("Enter")
      try session.waitFor(text: "Choose a Photo")
      try session.type("red-blue.j")
      try session.sendKeys("Tab")
      try session.waitFor(text: "[photo 80×40 JPEG]")
      try session.sendKeys("Enter")
      try session.waitFor(text: "Photo     [photo 80×40 JPEG] red-blue.jpg")
      #expect(storedPhotos(shell).isEmpty)
      try session.sendKeys("Tab", "Enter")
      try session.waitFor(text: "\"Parking spot\": photo added")
      try session.waitFor(text: "📷")
      let first = storedPhotos(shell)
      #expect(first.count == 1 && first.first?.hasSuffix(".jpg") == true)

      // A dropped file: its quoted path arrives as a bracketed paste.
      let png = shell.session.directory.appendingPathComponent("Pictures/red-blue.png").path
      try session.sendKeys("Enter")
      try session.waitFor(text: "Edit Item")
      // On the Photo row (Shift-Tab from Text): a path pasted into Text is text.
      try session.sendKeys("BTab")
      try session.waitFor(text: "Enter replace")
      try session.paste("'\(png)'")
      try session.waitFor(text: "[photo 80×40 PNG] red-blue.png")
      try session.sendKeys("Tab", "Enter")
      try session.waitFor(text: "\"Parking spot\": photo replaced")
      // Undo brings the first photo back; its copy is still there.
      try session.sendKeys("u")
      try session.waitFor(text: "Undid: edit \"Parking spot\"")
      #expect(storedPhotos(shell).count == 2)
      #expect(try shell.quit() == "0")
      // Saved with the first photo; the sweep at exit removed the copy nothing uses.
      let item = try #require(try shell.items(of: "List").first)
      #expect(item["photo"] as? String == first.first)
      #expect(storedPhotos(shell) == first)
      let shown = try shell.cli("show", "List", "--json")
      #expect(shown.stdout.contains(first.first ?? "?"))
    }

    /// A file whose header is sound but whose image data is cut short: attached at once, then
    /// taken off the form when the worker has read it whole, with the reason.
    @Test func aDamagedImageIsTakenBackWhenReadWhole() throws {
      let shell = try photoShell()
      defer { shell.close() }
      let session = shell.session
      let pictures = shell.session.directory.appendingPathComponent("Pictures")
      let whole = try Data(contentsOf: pictures.appendingPathComponent("red-blue.png"))
      let cut = pictures.appendingPathComponent("cut.png")
      try whole.prefix(60).write(to: cut)
      try shell.cli("add", "List", "Receipt")
      try shell.launch(waitingFor: "Receipt")
      try session.sendKeys("Enter", "BTab")
      try session.waitFor(text: "Enter choose")
      try session.paste("'\(cut.path)'")
      try session.waitFor(text: "Can't attach the photo: \(cut.path)")
      try session.waitFor(text: "Photo     None")
      try session.sendKeys("Tab", "Enter")
      try session.waitFor(text: "Receipt")
      #expect(try shell.quit() == "0")
      #expect(storedPhotos(shell).isEmpty)
      #expect(try shell.items(of: "List").first?["photo"] == nil)
    }

    @Test func cancelLeavesNothingBehind() throws {
      let shell = try photoShell()
      defer { shell.close() }
      let session = shell.session
      try shell.cli("add", "List", "Receipt")
      try shell.launch(waitingFor: "Receipt")
      try session.sendKeys("Enter", "BTab")
      try session.waitFor(text: "Enter choose")
      let gif = shell.session.directory.appendingPathComponent("Pictures/red-blue.gif").path
      try session.paste("file://" + gif)
      try session.waitFor(text: "[photo 80×40 GIF] red-blue.gif")
      try session.sendKeys("Escape")
      try session.waitFor(text: "Cancelled")
      #expect(try shell.quit() == "0")
      #expect(storedPhotos(shell).isEmpty)
      #expect(try shell.items(of: "List").first?["photo"] == nil)
    }

    @Test func halfBlocksInColourBesideTheFieldsAndGoneAfterSuspendAndQuit() throws {
      let shell = try photoShell()
      defer { shell.close() }
      let session = shell.session
      let png = session.directory.appendingPathComponent("Pictures/red-blue.png").path
      try shell.cli("add", "List", "Parking spot", "--photo", png)
      try session.type("export COLORTERM=truecolor")
      try session.sendKeys("Enter")
      try shell.launch(waitingFor: "Parking spot")
      try session.waitFor(text: "📷")
      try session.sendKeys("Enter")
      // Decoded on a worker, then drawn: red cells on the left, blue on the right.
      try session.waitUntil("the photo in 24-bit colour") {
        let screen = try session.capture(escapes: true)
        return screen.contains("48;2;255;0;0") && screen.contains("48;2;0;0;255")
      }
      let rows = try session.capture(escapes: true).split(separator: "\n")
      let row = try #require(rows.first { $0.contains("48;2;255;0;0") })
      let red = try #require(row.range(of: "48;2;255;0;0"))
      let blue = try #require(row.range(of: "48;2;0;0;255"))
      #expect(red.lowerBound < blue.lowerBound)
      try session.waitFor(text: "[photo 80×40 PNG]")

      // Suspended: the shell's screen, with no picture left on it.
      try session.sendKeys("C-z")
      try session.waitFor(text: "READY$")
      #expect(try !session.capture(escapes: true).contains("48;2;"))
      // The shell went on with `echo $? > status` when the app stopped: write it again at exit.
      try FileManager.default.removeItem(at: session.directory.appendingPathComponent("status"))
      try session.type("fg; echo $? > status")
      try session.sendKeys("Enter")
      try session.waitUntil("the photo again after fg") {
        try session.capture(escapes: true).contains("48;2;255;0;0")
      }
      try session.sendKeys("Escape")
      try session.waitFor(text: "Cancelled")
      #expect(try shell.quit() == "0")
      #expect(try !session.capture(escapes: true).contains("48;2;"))
    }

    @Test func noColorShowsTheCaptionOnly() throws {
      let shell = try photoShell()
      defer { shell.close() }
      let session = shell.session
      let jpeg = session.directory.appendingPathComponent("Pictures/red-blue.jpg").path
      try shell.cli("add", "List", "Receipt", "--photo", jpeg)
      try session.type("export NO_COLOR=1")
      try session.sendKeys("Enter")
      try shell.launch(waitingFor: "Receipt")
      try session.sendKeys("Enter")
      try session.waitFor(text: "Photo     [photo 80×40 JPEG]")
      #expect(try !session.capture(escapes: true).contains("48;"))
      try session.sendKeys("Escape")
      try session.waitFor(text: "Cancelled")
      #expect(try shell.quit() == "0")
    }

    /// Where `needle` occurs in `log`, from `start`.
    func offsets(of needle: String, in log: Data, from start: Int = 0) -> [Int] {
      var found: [Int] = []
      var from = log.startIndex + start
      while let range = log.range(of: Data(needle.utf8), in: from..<log.endIndex) {
        found.append(range.lowerBound - log.startIndex)
        from = range.upperBound
      }
      return found
    }

    @Test func kittyImagesAreWrittenAndDeletedOnSuspendAndQuit() throws {
      let shell = try photoShell(logOutput: true)
      defer { shell.close() }
      let session = shell.session
      let png = session.directory.appendingPathComponent("Pictures/red-blue.png").path
      try shell.cli("add", "List", "Parking spot", "--photo", png)
      try session.type("export CHECKLISTS_IMAGES=kitty")
      try session.sendKeys("Enter")
      try shell.launch(waitingFor: "Parking spot")
      try session.sendKeys("Enter")
      try session.waitFor(text: "[photo 80×40 PNG]")
      try session.waitUntil("kitty's transmit in the output") {
        !offsets(of: "\u{1B}_Ga=T,f=32,", in: session.loggedOutput()).isEmpty
      }
      let shown = session.loggedOutput().count
      try session.sendKeys("C-z")
      try session.waitFor(text: "READY$")
      try session.waitUntil("a kitty delete after Ctrl-Z") {
        !offsets(of: "\u{1B}_Ga=d,d=I,", in: session.loggedOutput(), from: shown).isEmpty
      }
      try FileManager.default.removeItem(at: session.directory.appendingPathComponent("status"))
      try session.type("fg; echo $? > status")
      // Measured before the key: the app may send the image again before the key returns.
      let resumed = session.loggedOutput().count
      try session.sendKeys("Enter")
      try session.waitUntil("the image sent again after fg") {
        !offsets(of: "\u{1B}_Ga=T,f=32,", in: session.loggedOutput(), from: resumed).isEmpty
      }
      let again = session.loggedOutput().count
      try session.sendKeys("Escape")
      try session.waitFor(text: "Cancelled")
      // Leaving the form deletes the image.
      try session.waitUntil("a kitty delete when the form closes") {
        !offsets(of: "\u{1B}_Ga=d,d=I,", in: session.loggedOutput(), from: again).isEmpty
      }
      #expect(try shell.quit() == "0")
      // Every image sent was deleted after it; none is left behind.
      try session.waitUntil("a delete after the last image") {
        let log = session.loggedOutput()
        let sent = offsets(of: "\u{1B}_Ga=T", in: log)
        let deleted = offsets(of: "\u{1B}_Ga=d,d=I,", in: log)
        return sent.count == 2 && (deleted.last ?? 0) > (sent.last ?? 0)
      }
      #expect(try !session.capture().contains("Ga=T"))
    }

    @Test func sixelsAreWrittenWhenForced() throws {
      let shell = try photoShell(logOutput: true)
      defer { shell.close() }
      let session = shell.session
      let png = session.directory.appendingPathComponent("Pictures/red-blue.png").path
      try shell.cli("add", "List", "Parking spot", "--photo", png)
      try session.type("export CHECKLISTS_IMAGES=sixel")
      try session.sendKeys("Enter")
      try shell.launch(waitingFor: "Parking spot")
      try session.sendKeys("Enter")
      try session.waitFor(text: "[photo 80×40 PNG]")
      try session.waitUntil("a sixel image in the output") {
        let log = session.loggedOutput()
        return offsets(of: "\u{1B}P", in: log).contains { start in
          let tail = log[(log.startIndex + start)...].prefix(32)
          return tail.contains(UInt8(ascii: "q"))
        }
      }
      try session.sendKeys("Escape")
      try session.waitFor(text: "Cancelled")
      #expect(try shell.quit() == "0")
      #expect(try !session.capture(escapes: true).contains("48;2;"))
    }
  }
}
