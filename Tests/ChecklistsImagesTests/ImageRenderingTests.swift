import ChecklistsCore
import ChecklistsTestSupport
import Foundation
import Testing

@testable import ChecklistsImages

@Suite("Images: half blocks, kitty, sixel, iTerm2 and text")
struct ImageRenderingTests {
  /// Left half pure red, right half pure blue.
  func redBlue(width: Int = 16, height: Int = 16) -> RGBAImage {
    RGBAImage(width: width, height: height) { x, _ in (x < width / 2 ? red : blue, 255) }
  }

  @Test func halfBlocksRedLeftBlueRight() {
    let picture = HalfBlocks.render(redBlue(), box: CellBox(columns: 8, rows: 4))
    #expect(picture.columns == 8 && picture.rows == 4)
    for row in 0..<4 {
      for column in 0..<8 {
        let cell = picture.cell(column, row)
        let expected = column < 4 ? red : blue
        #expect(cell.foreground == expected && cell.background == expected)
        #expect(cell.glyph == " ")
      }
    }
  }

  @Test func halfBlocksIn256Colours() {
    let picture = HalfBlocks.render(redBlue(), box: CellBox(columns: 8, rows: 4)).indexed()
    #expect(picture.cell(0, 0).background == 196)
    #expect(picture.cell(7, 3).background == 21)
    #expect(XTerm256.color(196) == red && XTerm256.color(21) == blue)
  }

  @Test func upperAndLowerHalvesTakeTheirOwnColours() {
    let image = RGBAImage(width: 2, height: 2) { _, y in (y == 0 ? red : blue, 255) }
    let picture = HalfBlocks.render(image, box: CellBox(columns: 2, rows: 1))
    #expect(
      picture.cells
        == Array(repeating: BlockCell(glyph: "▀", foreground: red, background: blue), count: 2))
  }

  @Test func keepsTheAspectRatioInCellsTwiceAsHighAsWide() {
    // 4:1 in a 40×20-cell box (40×40 pixels): 40 columns, 10 pixel rows, 5 cell rows.
    let wide = HalfBlocks.render(
      redBlue(width: 400, height: 100), box: CellBox(columns: 40, rows: 20))
    #expect(wide.columns == 40 && wide.rows == 5)
    // 1:2 in the same box: 20 columns, 40 pixel rows, all 20 cell rows.
    let tall = HalfBlocks.render(
      redBlue(width: 100, height: 200), box: CellBox(columns: 40, rows: 20))
    #expect(tall.columns == 20 && tall.rows == 20)
  }

  @Test func transparentPixelsShowTheBackground() {
    let image = RGBAImage(width: 2, height: 2) { x, _ in (red, x == 0 ? 0 : 255) }
    let picture = HalfBlocks.render(image, box: CellBox(columns: 2, rows: 1), background: white)
    #expect(picture.cell(0, 0).background == white)
    #expect(picture.cell(1, 0).background == red)
  }

  @Test func xterm256MapsCubeAndGreysExactly() {
    for index in UInt8(16)...UInt8(255) {
      #expect(XTerm256.index(XTerm256.color(index)) == index || index == 16 || index == 231)
    }
    #expect(XTerm256.index(RGBColor(0, 0, 0)) == 16)
    #expect(XTerm256.index(RGBColor(255, 255, 255)) == 231)
    #expect(XTerm256.index(RGBColor(128, 128, 128)) == 244)
  }

  @Test func kittyBytesAreChunkedBase64WithAnID() throws {
    let image = redBlue(width: 64, height: 48)
    let bytes = KittyGraphics.transmit(image, id: 7, box: CellBox(columns: 6, rows: 3))
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(text.hasPrefix("\u{1B}_Ga=T,f=32,s=64,v=48,i=7,c=6,r=3,C=1,q=2,m=1;"))
    let chunks = text.split(separator: "\u{1B}\\").map { String($0) }
    #expect(chunks.count == (64 * 48 * 4 * 4 / 3 + 4095) / 4096)
    var payload = ""
    for (index, chunk) in chunks.enumerated() {
      #expect(chunk.hasPrefix("\u{1B}_G"))
      let parts = chunk.dropFirst(3).split(separator: ";", maxSplits: 1)
      #expect(parts[0].hasSuffix(index == chunks.count - 1 ? "m=0" : "m=1"))
      if index > 0 { #expect(parts[0] == "m=0" || parts[0] == "m=1") }
      #expect(parts[1].count <= 4096)
      payload += parts[1]
    }
    #expect(Data(base64Encoded: payload) == Data(image.pixels))
    #expect(
      String(decoding: KittyGraphics.delete(id: 7), as: UTF8.self)
        == "\u{1B}_Ga=d,d=I,i=7,q=2\u{1B}\\")
  }

  @Test func sixelBytes() throws {
    let bytes = try ChafaGraphics.sixel(
      redBlue(width: 40, height: 40), box: CellBox(columns: 4, rows: 2), cell: .typical)
    let text = String(decoding: bytes, as: UTF8.self)
    // DCS P1;P2;P3 q … ST, with colour registers for red and blue (in percent).
    #expect(text.hasPrefix("\u{1B}P"))
    #expect(text.contains("q"))
    #expect(text.hasSuffix("\u{1B}\\"))
    #expect(text.contains(";2;100;0;0") && text.contains(";2;0;0;100"))
  }

  @Test func iterm2Bytes() throws {
    let bytes = try ChafaGraphics.iterm2(
      redBlue(width: 40, height: 40), box: CellBox(columns: 4, rows: 2), cell: .typical)
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(text.hasPrefix("\u{1B}]1337;File="))
    #expect(text.contains("inline=1"))
    #expect(text.hasSuffix("\u{07}") || text.hasSuffix("\u{1B}\\"))
  }

  @Test func photoViewPicksTheOutputOfEachMode() throws {
    let decoded = DecodedImage(
      info: ImageInfo(format: .jpeg, storedWidth: 4032, storedHeight: 3024, orientation: .up),
      image: redBlue(width: 80, height: 60))
    let box = CellBox(columns: 20, rows: 10)
    #expect(try PhotoView.render(decoded, mode: .text, box: box) == .text("[photo 4032×3024 JPEG]"))
    guard
      case .cells(let cells) = try PhotoView.render(decoded, mode: .blocks(.trueColor), box: box)
    else { throw Failure("not cells") }
    #expect(cells.cell(0, 0).background == red && cells.cell(19, 0).background == blue)
    guard case .paletteCells = try PhotoView.render(decoded, mode: .blocks(.palette256), box: box)
    else { throw Failure("not palette cells") }
    guard
      case .escape(let bytes, let columns, let rows) = try PhotoView.render(
        decoded, mode: .kitty, box: box, cell: CellPixelSize(width: 8, height: 16), imageID: 3)
    else { throw Failure("not bytes") }
    // 80×60 fits 160×160 pixels as 160×120: 20 columns of 8, 8 rows of 16 (rounded up).
    #expect(columns == 20 && rows == 8)
    #expect(String(decoding: bytes.prefix(40), as: UTF8.self).contains("s=160,v=120,i=3,c=20,r=8"))
    #expect(PhotoView.pixelSize(mode: .blocks(.trueColor), box: box, cell: .typical)! == (20, 20))
    #expect(PhotoView.pixelSize(mode: .sixel, box: box, cell: .typical)! == (200, 200))
    #expect(PhotoView.pixelSize(mode: .text, box: box, cell: .typical) == nil)
  }

  @Test func cellPixelSizeFromTheWindowSize() {
    #expect(
      CellPixelSize.from(columns: 80, rows: 24, pixelWidth: 800, pixelHeight: 480)
        == CellPixelSize(width: 10, height: 20))
    #expect(CellPixelSize.from(columns: 80, rows: 24, pixelWidth: 0, pixelHeight: 0) == .typical)
  }

  struct Failure: Error {
    var message: String
    init(_ message: String) { self.message = message }
  }
}

@Suite("Images: what the terminal can show")
struct TerminalGraphicsTests {
  @Test func kittyOKAndSixelFromTheReplies() {
    let input = Array("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;4;22cj".utf8)
    let replies = TerminalGraphicsQuery.parse(input)
    #expect(replies.kitty && replies.sixel && replies.complete)
    // The key typed after the answers is left for the key reader.
    #expect(replies.consumed == input.count - 1)
  }

  @Test func deviceAttributesWithoutSixel() {
    let replies = TerminalGraphicsQuery.parse(Array("\u{1B}[?1;2c".utf8))
    #expect(!replies.kitty && !replies.sixel && replies.complete)
    // The first number is the terminal class, not a feature: 4 there is not sixel.
    #expect(!TerminalGraphicsQuery.parse(Array("\u{1B}[?4;6c".utf8)).sixel)
  }

  @Test func kittyErrorAndPartialAnswers() {
    let error = TerminalGraphicsQuery.parse(Array("\u{1B}_Gi=31;ENOTSUPPORTED:x\u{1B}\\".utf8))
    #expect(!error.kitty && !error.complete && error.consumed > 0)
    let partial = TerminalGraphicsQuery.parse(Array("\u{1B}[?62;4".utf8))
    #expect(!partial.complete && partial.consumed == 0)
    let keys = TerminalGraphicsQuery.parse(Array("q\u{1B}[?62;4c".utf8))
    #expect(keys.consumed == 0 && !keys.complete)
  }

  @Test func theQueryAsksKittyThenDeviceAttributes() {
    let text = String(decoding: TerminalGraphicsQuery.bytes, as: UTF8.self)
    #expect(text == "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\\u{1B}[c")
  }

  @Test func modeFromSettingEnvironmentAndReplies() {
    let xterm = ["TERM": "xterm-256color"]
    let trueColor = ["TERM": "xterm-256color", "COLORTERM": "truecolor"]
    let kitty = TerminalGraphicsReplies(kitty: true, sixel: true, complete: true)
    let sixel = TerminalGraphicsReplies(sixel: true, complete: true)
    #expect(GraphicsDetection.mode(setting: .auto, environment: xterm, replies: kitty) == .kitty)
    #expect(GraphicsDetection.mode(setting: .auto, environment: xterm, replies: sixel) == .sixel)
    #expect(
      GraphicsDetection.mode(setting: .auto, environment: xterm, replies: nil)
        == .blocks(.palette256))
    #expect(
      GraphicsDetection.mode(setting: .auto, environment: trueColor, replies: nil)
        == .blocks(.trueColor))
    #expect(
      GraphicsDetection.mode(
        setting: .auto, environment: ["TERM": "xterm", "COLORTERM": "24bit"], replies: nil)
        == .blocks(.trueColor))
    #expect(
      GraphicsDetection.mode(
        setting: .auto, environment: ["TERM": "xterm", "LC_TERMINAL": "iTerm2"], replies: nil)
        == .iterm2)
    for text in [["TERM": "vt100"], ["TERM": "dumb"], [:], ["TERM": "xterm", "NO_COLOR": "1"]] {
      #expect(GraphicsDetection.mode(setting: .auto, environment: text, replies: kitty) == .text)
      #expect(!GraphicsDetection.needsQuery(setting: .auto, environment: text))
    }
    // A setting other than auto is used as it is.
    #expect(GraphicsDetection.mode(setting: .sixel, environment: xterm, replies: nil) == .sixel)
    #expect(GraphicsDetection.mode(setting: .text, environment: trueColor, replies: kitty) == .text)
    #expect(
      GraphicsDetection.mode(setting: .blocks, environment: trueColor, replies: kitty)
        == .blocks(.trueColor))
    #expect(GraphicsDetection.needsQuery(setting: .auto, environment: xterm))
    #expect(!GraphicsDetection.needsQuery(setting: .blocks, environment: xterm))
    // tmux and screen are asked the device attributes only (kitty's query would rename the
    // pane); a terminal outside them gets both.
    #expect(
      GraphicsDetection.query(setting: .auto, environment: xterm) == TerminalGraphicsQuery.bytes)
    for inside in [
      ["TMUX": "/tmp/tmux-0/default,1,0"], ["STY": "1.pts-0"], ["TERM": "tmux-256color"],
      ["TERM": "screen"],
    ] {
      let environment = xterm.merging(inside) { $1 }
      #expect(
        GraphicsDetection.query(setting: .auto, environment: environment)
          == TerminalGraphicsQuery.deviceAttributes)
    }
    #expect(GraphicsDetection.query(setting: .sixel, environment: xterm) == nil)
    // The Linux console shows no images and is not asked.
    #expect(!GraphicsDetection.needsQuery(setting: .auto, environment: ["TERM": "linux"]))
  }

  @Test func settingFromEnvironmentThenConfig() {
    let config = ConfigFile.parse("set images = blocks\n")
    #expect(config.problems.isEmpty)
    #expect(GraphicsSetting.chosen(environment: [:], config: config) == (.blocks, nil))
    #expect(
      GraphicsSetting.chosen(environment: ["CHECKLISTS_IMAGES": "Kitty"], config: config)
        == (.kitty, nil))
    #expect(GraphicsSetting.chosen(environment: [:], config: nil) == (.auto, nil))
    let wrong = GraphicsSetting.chosen(environment: ["CHECKLISTS_IMAGES": "svg"], config: nil)
    #expect(wrong.setting == .auto)
    #expect(wrong.problem?.contains("CHECKLISTS_IMAGES=svg is not one of auto, kitty") == true)
    // A value that is not a setting is the config file's problem (config --check names it),
    // and auto is used.
    let badConfig = ConfigFile.parse("\nset images = png")
    #expect(
      badConfig.problems.map(\.description) == [
        "config line 2: images is one of auto, kitty, sixel, iterm, blocks, text, not 'png'"
      ])
    #expect(GraphicsSetting.chosen(environment: [:], config: badConfig) == (.auto, nil))
    // The config file knows the same values as the images.
    #expect(ConfigSetting.images.values == GraphicsSetting.allCases.map(\.rawValue))
  }
}

@Suite("Images: the thumbnail cache")
struct ThumbnailCacheTests {
  @Test func aSecondLoadComesFromTheCache() throws {
    let root = FileManager.default.temporaryDirectory
      .appendingPathComponent("checklists-thumbs-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: root) }
    let library = PhotoLibrary(dataFile: root + "/data/Checklists.plist")
    let hold = try PhotoHold.acquire(library)
    defer { hold.release() }
    let source = try PhotoLibrary.readSource(TestImages.path("orientation-6.jpg"))
    let name = try library.store(source, hold: hold)
    let cache = ThumbnailCache(environment: ["XDG_CACHE_HOME": root + "/cache"])
    #expect(cache.folder == root + "/cache/checklists/thumbnails")
    let box = CellBox(columns: 16, rows: 8)
    let first = try PhotoView.load(
      name, library: library, cache: cache, mode: .blocks(.trueColor), box: box)
    let entries = try FileManager.default.contentsOfDirectory(atPath: cache.folder)
    #expect(entries.count == 1 && entries[0].hasPrefix("\(name.id)-16x16-"))
    #expect(entries[0].hasSuffix(".thumb"))
    // The photo itself gone, the cache still answers for the same file status.
    let second = try PhotoView.load(
      name, library: library, cache: cache, mode: .blocks(.trueColor), box: box)
    #expect(second == first)
    #expect(first.info.caption == "[photo 64×32 JPEG]")
    #expect(first.image.width == 16 && first.image.height == 8)
    cache.prune(keeping: [])
    #expect(try FileManager.default.contentsOfDirectory(atPath: cache.folder).isEmpty)
  }
}
