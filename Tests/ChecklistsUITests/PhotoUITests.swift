import ChecklistsCore
import Foundation
import Testing

@testable import ChecklistsUI

/// A temporary folder of pictures and a data file's Photos folder, with the access the app uses.
final class PhotoRig: @unchecked Sendable {
  let root: String
  let pictures: String
  let session: PhotoSession

  /// The first bytes of a PNG file: enough for the photo library, which sniffs the format.
  static let png: [UInt8] =
    [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 40)

  init() throws {
    root = NSTemporaryDirectory() + "photo-ui-\(UUID().uuidString)"
    pictures = root + "/Pictures"
    let manager = FileManager.default
    for folder in ["Pictures/Trips", "Pictures/Trains", "Pictures/.hidden", "data"] {
      try manager.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
    }
    for name in ["beach.png", "Bike 2.PNG", "tram.png", "notes.txt", ".secret.png"] {
      try Data(Self.png).write(to: URL(fileURLWithPath: pictures + "/" + name))
    }
    try Data(Self.png).write(to: URL(fileURLWithPath: pictures + "/Trips/rome.png"))
    try Data("not an image".utf8).write(to: URL(fileURLWithPath: pictures + "/broken.png"))
    session = PhotoSession(library: PhotoLibrary(dataFile: root + "/data/Checklists.plist"))
  }

  deinit {
    session.end(sweep: false, knownReferences: [])
    try? FileManager.default.removeItem(atPath: root)
  }

  /// The access: captions from the format the bytes start with.
  var access: PhotoAccess {
    let session = session
    return PhotoAccess(
      caption: { name in "[photo \(name.format.displayName)]" },
      fileCaption: { path in
        do throws(PhotoError) {
          let source = try PhotoLibrary.readSource(path)
          return .success("[photo 4×2 \(source.format.displayName)]")
        } catch {
          return .failure(PhotoAccessError(message: error.message))
        }
      },
      store: { path in
        do throws(PhotoError) {
          return .success(try session.store(path))
        } catch {
          return .failure(PhotoAccessError(message: error.message))
        }
      },
      // damaged.png stands for an image whose data is damaged past its header.
      check: { path in
        path.hasSuffix("/damaged.png")
          ? PhotoAccessError(message: "\(path): cannot read this image: damaged") : nil
      },
      startFolder: { [pictures] in pictures }, home: root)
  }

  /// The copies in the Photos folder.
  var storedPhotos: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: root + "/data/Photos")) ?? [])
      .filter { $0.hasPrefix("Photo-") }.sorted()
  }

  /// The app on Groceries (the second list in All Lists order), its first item "Milk".
  func app(
    _ model: DataModel = sampleModel(), list: Int = 1, width: Int = 60, height: Int = 15,
    ascii: Bool = false
  ) -> ChecklistsApp {
    ChecklistsApp(
      model: model, checklistIndex: list,
      options: AppOptions(asciiGlyphs: ascii, timeZone: .utc, photos: access),
      size: (width, height), now: testNow)
  }
}

@Suite struct PhotoUITests {
  func itemForm(_ app: ChecklistsApp) -> ItemFormScreen? {
    if let form = app.itemForm { return form }
    return nil
  }

  func picker(_ app: ChecklistsApp) -> PhotoPicker? { app.photoPicker?.picker }

  func names(_ app: ChecklistsApp) -> [String] {
    guard let picker = picker(app) else { return [] }
    return picker.rows.map { picker.entries[$0].name }
  }

  /// Opens the first item's form and goes to its Photo row.
  func photoRow(_ app: inout ChecklistsApp) {
    app.press(.enter, .backTab)
  }

  @Test func rowsOfItemsWithAPhotoShowTheMark() throws {
    var milk = item("Milk", id: 1)
    milk.photo = PhotoName(fileName: "Photo-0123456789abcdef.jpg")
    var rent = item("Pay rent", dueInMinutes: 30, remind: true, id: 3)
    rent.photo = PhotoName(fileName: "Photo-fedcba9876543210.png")
    let model = DataModel(lists: [
      Checklist(
        name: "Groceries", iconName: "Groceries",
        items: [milk, item("Bread", checked: true, id: 2), rent])
    ])
    let rig = try PhotoRig()
    let app = rig.app(model, list: 0)
    let rows = app.screen().split(separator: "\n").map(String.init)
    #expect(rows[1] == " ·  Milk                                                 📷")
    #expect(rows[3] == " ·  Pay rent                                   📷 in 30 min")
    #expect(!rows[2].contains("📷"))
    let ascii = rig.app(model, list: 0, ascii: true).screen().split(separator: "\n").map(
      String.init)
    #expect(ascii[1] == "[ ] Milk                                                [p]")
    // The planner's rows too (Scheduled: the item with a due date).
    var planner = rig.app(model, list: 0)
    planner.press(.escape, .character("g"), .down, .enter)
    #expect(planner.planner != nil)
    #expect(planner.screen().contains("Pay rent"))
    let line = planner.screen().split(separator: "\n").first { $0.contains("Pay rent") }
    #expect(line?.contains("📷") == true)
  }

  @Test func thePhotoRowChoosesFromAPickerAndDoneStoresTheCopy() throws {
    let rig = try PhotoRig()
    var app = rig.app()
    photoRow(&app)
    #expect(app.keyScreen == .photo)
    #expect(app.screen().contains(" Photo     None"))
    #expect(app.screen().contains("Enter choose"))
    app.press(.enter)
    #expect(app.keyScreen == .photoPicker)
    // Folders first, then images by extension; no hidden entries, no other files.
    #expect(names(app) == ["Trains", "Trips", "beach.png", "Bike 2.PNG", "broken.png", "tram.png"])
    #expect(app.screen().contains("Choose a Photo"))
    #expect(app.screen().contains("📁 Trains/"))
    app.press(.down, .down)
    #expect(picker(app)?.previewCaption == "[photo 4×2 PNG]")
    #expect(app.screen().contains("[photo 4×2 PNG]"))
    app.press(.enter)
    #expect(app.keyScreen == .photo)
    #expect(app.screen().contains("[photo 4×2 PNG] beach.png"))
    #expect(app.shownHints.map(\.text).prefix(2) == ["Enter replace", "d remove"])
    // Nothing is copied before Done.
    #expect(rig.storedPhotos.isEmpty)
    app.press(.escape)
    #expect(rig.storedPhotos.isEmpty)
    #expect(app.openList?.items[0].photo == nil)
    // Again, and Done this time.
    photoRow(&app)
    app.press(.enter, .down, .down, .enter)
    app.press(.tab, .enter)
    let photo = try #require(app.openList?.items[0].photo)
    #expect(rig.storedPhotos == [photo.fileName])
    #expect(rig.session.heldNames.contains(photo))
    #expect(app.statusMessage == "\"Milk\": photo added")
    #expect(app.screen().contains("Milk") && app.screen().contains("📷"))
    // Undo takes it off the item; the copy stays for redo (held until the app ends).
    app.press(.character("u"))
    #expect(app.openList?.items[0].photo == nil)
    #expect(rig.storedPhotos == [photo.fileName])
    app.press(.control("r"))
    #expect(app.openList?.items[0].photo == photo)
  }

  @Test func removeAndReplaceAreUndoable() throws {
    let rig = try PhotoRig()
    var app = rig.app()
    photoRow(&app)
    app.press(.enter, .down, .down, .enter, .tab, .enter)
    let first = try #require(app.openList?.items[0].photo)
    // Replace.
    photoRow(&app)
    #expect(app.screen().contains("[photo PNG]"))
    app.press(.enter, .end)
    app.type("tram")
    app.press(.enter, .tab, .enter)
    let second = try #require(app.openList?.items[0].photo)
    #expect(second != first)
    #expect(app.statusMessage == "\"Milk\": photo replaced")
    // Remove.
    photoRow(&app)
    app.press(.character("d"))
    #expect(app.screen().contains("None (removed when you save)"))
    app.press(.tab, .enter)
    #expect(app.openList?.items[0].photo == nil)
    #expect(app.statusMessage == "\"Milk\": photo removed")
    app.press(.character("u"))
    #expect(app.openList?.items[0].photo == second)
    app.press(.character("u"))
    #expect(app.openList?.items[0].photo == first)
  }

  @Test func typingFiltersAndBackspaceGoesUpOnlyWhenNothingIsTyped() throws {
    let rig = try PhotoRig()
    var app = rig.app()
    photoRow(&app)
    app.press(.enter)
    app.type("TR")
    #expect(names(app) == ["Trains", "Trips", "tram.png"])
    app.type("x")
    #expect(names(app).isEmpty)
    #expect(app.screen().contains("Nothing matches \"trx\"") || app.screen().contains("TRx"))
    app.press(.backspace, .backspace, .backspace)
    #expect(picker(app)?.filter.text == "")
    #expect(picker(app)?.folder == rig.pictures)
    app.press(.down, .enter)
    #expect(picker(app)?.folder == rig.pictures + "/Trips")
    #expect(names(app) == ["rome.png"])
    app.press(.backspace)
    #expect(picker(app)?.folder == rig.pictures)
    // The folder it came from is highlighted.
    #expect(names(app)[picker(app)?.selected ?? 0] == "Trips")
    app.press(.left)
    #expect(picker(app)?.folder == rig.root)
    // Esc closes the picker without choosing.
    app.press(.escape)
    #expect(app.keyScreen == .photo)
    #expect(itemForm(app)?.photo == .keep)
  }

  @Test func tabCompletesLikeAShell() throws {
    let rig = try PhotoRig()
    var app = rig.app()
    photoRow(&app)
    app.press(.enter)
    app.type("Tr")
    app.press(.tab)
    // Two folders start so: the common start.
    #expect(picker(app)?.filter.text == "Tr")
    app.type("ip")
    app.press(.tab)
    #expect(picker(app)?.folder == rig.pictures + "/Trips")
    #expect(picker(app)?.filter.text == "")
    app.type("../b")
    app.press(.tab)
    #expect(picker(app)?.folder == rig.pictures)
    // beach.png, broken.png (and "Bike 2.PNG" only when no exact-case name starts so).
    #expect(picker(app)?.filter.text == "b")
    app.type("e")
    app.press(.tab)
    #expect(picker(app)?.filter.text == "beach.png")
    app.press(.enter)
    #expect(
      itemForm(app)?.photo == .attach(path: rig.pictures + "/beach.png", caption: "[photo 4×2 PNG]")
    )
    // A path from home: ~/Pictures/Trips/ro + Tab.
    app.press(.enter)
    app.press(.control("u"))
    app.type("~/Pictures/Trips/ro")
    app.press(.tab)
    #expect(picker(app)?.folder == rig.pictures + "/Trips")
    #expect(picker(app)?.filter.text == "rome.png")
    app.press(.enter)
    #expect(
      itemForm(app)?.photo
        == .attach(path: rig.pictures + "/Trips/rome.png", caption: "[photo 4×2 PNG]"))
  }

  @Test func aBrokenFileIsRefusedWithItsReason() throws {
    let rig = try PhotoRig()
    var app = rig.app()
    photoRow(&app)
    app.press(.enter)
    app.type("broken")
    #expect(picker(app)?.previewCaption?.contains("is not a JPEG, PNG, WebP or GIF image") == true)
    app.press(.enter)
    #expect(itemForm(app)?.photo == .keep)
    #expect(app.statusMessage?.contains("broken.png is not a JPEG, PNG, WebP or GIF image") == true)
  }

  /// An image whose data is damaged past its header is refused when chosen, not at Done: it
  /// is read whole on a worker thread (`Effect.work`), and its answer takes it off the form
  /// (back to what the form had: here the removal of the item's photo). The answer for a file
  /// no longer chosen changes nothing.
  @Test func aDamagedImageIsRefusedWhenChosen() throws {
    let rig = try PhotoRig()
    let damaged = rig.pictures + "/Trains/damaged.png"
    try Data(PhotoRig.png).write(to: URL(fileURLWithPath: damaged))
    let stored = try rig.session.store(rig.pictures + "/Bike 2.PNG")
    var milk = item("Milk", id: 1)
    milk.photo = stored
    let lists = [Checklist(name: "Groceries", iconName: "Groceries", items: [milk])]
    var app = rig.app(DataModel(lists: lists), list: 0)
    app.press(.enter, .backTab)
    #expect(itemForm(app)?.focus == .photo)
    _ = app.handle(.paste("'\(rig.pictures)/Bike 2.PNG'"), now: testNow)
    app.press(.character("d"))
    #expect(itemForm(app)?.photo == .remove)
    let effects = app.handle(.paste("'\(damaged)'"), now: testNow)
    #expect(itemForm(app)?.photo == .attach(path: damaged, caption: "[photo 4×2 PNG]"))
    let works = effects.compactMap { effect -> BackgroundWork? in
      if case .work(let work) = effect { return work }
      return nil
    }
    #expect(works.map(\.name) == ["check " + damaged])
    for work in works { _ = app.handle(work.run(), now: testNow) }
    #expect(itemForm(app)?.photo == .remove)
    #expect(
      app.statusMessage == "Can't attach the photo: \(damaged): cannot read this image: damaged")
    #expect(rig.storedPhotos.count == 1)
    // Chosen, then another file chosen before its answer came: the answer is for a file the
    // form no longer has.
    _ = app.handle(.paste("'\(damaged)'"), now: testNow)
    _ = app.handle(.paste("'\(rig.pictures)/Bike 2.PNG'"), now: testNow)
    _ = app.handle(.photoChecked(path: damaged, problem: "damaged"), now: testNow)
    #expect(
      itemForm(app)?.photo
        == .attach(path: rig.pictures + "/Bike 2.PNG", caption: "[photo 4×2 PNG]"))
    // A good file chosen, then a damaged one: the good one is what the form goes back to.
    _ = app.handle(.paste("'\(damaged)'"), now: testNow)
    _ = app.handle(.photoChecked(path: damaged, problem: "damaged"), now: testNow)
    #expect(
      itemForm(app)?.photo
        == .attach(path: rig.pictures + "/Bike 2.PNG", caption: "[photo 4×2 PNG]"))
  }

  /// On the Photo row a pasted or dropped path attaches the image; in a field that takes text
  /// it is text, with a hint (it attached the image and moved the focus).
  @Test func aPastedOrDroppedPathAttachesTheFileOnThePhotoRow() throws {
    let rig = try PhotoRig()
    var app = rig.app()
    app.press(.enter)
    _ = app.handle(.paste(" '\(rig.pictures)/Bike 2.PNG'"), now: testNow)
    #expect(itemForm(app)?.focus == .text)
    #expect(itemForm(app)?.photo == .keep)
    #expect(itemForm(app)?.text.text == "Milk '\(rig.pictures)/Bike 2.PNG'")
    #expect(
      app.statusMessage
        == "Pasted as text; pasted or dropped on the Photo row, an image's path attaches it")
    app.press(.control("u"))
    app.type("Milk")
    // Dropped files arrive quoted, escaped or as file:// URLs.
    app.press(.tab, .tab, .tab, .tab, .tab, .tab, .tab)
    #expect(itemForm(app)?.focus == .photo)
    _ = app.handle(.paste("'\(rig.pictures)/Bike 2.PNG'"), now: testNow)
    #expect(
      itemForm(app)?.photo
        == .attach(path: rig.pictures + "/Bike 2.PNG", caption: "[photo 4×2 PNG]"))
    _ = app.handle(.paste("file://\(rig.pictures)/Trips/rome.png\n"), now: testNow)
    #expect(
      itemForm(app)?.photo
        == .attach(path: rig.pictures + "/Trips/rome.png", caption: "[photo 4×2 PNG]"))
    _ = app.handle(
      .paste(rig.pictures.replacingOccurrences(of: " ", with: "\\ ") + "/Bike\\ 2.PNG"),
      now: testNow)
    #expect(
      itemForm(app)?.photo
        == .attach(path: rig.pictures + "/Bike 2.PNG", caption: "[photo 4×2 PNG]"))
    // Other text is typed as before.
    app.press(.backTab, .backTab, .backTab, .backTab, .backTab, .backTab, .backTab)
    #expect(itemForm(app)?.focus == .text)
    _ = app.handle(.paste(" and /not/a/file.png"), now: testNow)
    #expect(itemForm(app)?.text.text == "Milk and /not/a/file.png")
    app.press(.enter)
    #expect(app.openList?.items[0].photo?.format == .png)
    #expect(rig.storedPhotos.count == 1)
  }

  @Test func pastedPathsAreReadLikeAShellWould() {
    let home = "/home/u"
    #expect(ChecklistsApp.pastedPath("'/a b/c.jpg'", home: home) == "/a b/c.jpg")
    #expect(ChecklistsApp.pastedPath("\"/a b/c.jpg\"\n", home: home) == "/a b/c.jpg")
    #expect(ChecklistsApp.pastedPath("/a\\ b/c.jpg", home: home) == "/a b/c.jpg")
    #expect(ChecklistsApp.pastedPath("file:///a%20b/c.jpg", home: home) == "/a b/c.jpg")
    #expect(ChecklistsApp.pastedPath("file://localhost/x.png", home: home) == "/x.png")
    #expect(ChecklistsApp.pastedPath("~/x.png", home: home) == "/home/u/x.png")
    #expect(ChecklistsApp.pastedPath("file://host.example/x.png", home: home) == nil)
    #expect(ChecklistsApp.pastedPath("milk and bread", home: home) == nil)
    #expect(ChecklistsApp.pastedPath("/a.png\n/b.png", home: home) == nil)
    #expect(ChecklistsApp.normalized("/a/./b/../c//") == "/a/c")
    #expect(ChecklistsApp.normalized("/..") == "/")
  }

  @Test func focusLossAndSuspendCloseThePicker() throws {
    let rig = try PhotoRig()
    var app = rig.app()
    photoRow(&app)
    app.press(.enter)
    #expect(picker(app) != nil)
    _ = app.handle(.focusLost, now: testNow)
    #expect(picker(app) == nil)
    #expect(app.hasForm)
    app.press(.enter)
    #expect(app.press(.control("z")) == [.suspend])
    #expect(picker(app) == nil)
  }

  @Test func typingFindsNamesWhateverTheirAccentsAndForm() throws {
    let rig = try PhotoRig()
    // A decomposed é (e and a combining acute), as names copied from macOS have it.
    let decomposed = "cafe\u{301} terrace.png"
    try Data(PhotoRig.png).write(to: URL(fileURLWithPath: rig.pictures + "/" + decomposed))
    var app = rig.app()
    photoRow(&app)
    app.press(.enter)
    app.type("café")
    #expect(names(app) == [decomposed])
    app.press(.backspace, .backspace, .backspace, .backspace)
    app.type("CAFE")
    #expect(names(app) == [decomposed])
  }

  @Test func namesAreDrawnSafely() throws {
    let rig = try PhotoRig()
    let odd = "bell\u{7}日本.png"
    try Data(PhotoRig.png).write(to: URL(fileURLWithPath: rig.pictures + "/" + odd))
    var app = rig.app()
    photoRow(&app)
    app.press(.enter)
    app.type("bell")
    #expect(names(app) == [odd])
    #expect(app.screen().contains("bell␇日本.png"))
  }

  @Test func theMouseMovesHighlightsAndPicksInThePicker() throws {
    let rig = try PhotoRig()
    var app = rig.app()
    photoRow(&app)
    app.press(.enter)
    // Rows start under the filter line: Trains, Trips, beach.png, …
    _ = app.handle(
      .mouse(MouseEvent(kind: .press, position: GridPosition(row: 4, column: 5))), now: testNow)
    #expect(picker(app)?.selected == 2)
    #expect(picker(app)?.previewCaption == "[photo 4×2 PNG]")
    _ = app.handle(
      .mouse(MouseEvent(kind: .wheelDown, position: GridPosition(row: 4, column: 5))), now: testNow)
    #expect(picker(app)?.selected == 5)
    _ = app.handle(
      .mouse(MouseEvent(kind: .press, position: GridPosition(row: 4, column: 5))), now: testNow)
    _ = app.handle(
      .mouse(MouseEvent(kind: .press, position: GridPosition(row: 4, column: 5))), now: testNow)
    #expect(
      itemForm(app)?.photo == .attach(path: rig.pictures + "/beach.png", caption: "[photo 4×2 PNG]")
    )
    #expect(itemForm(app)?.focus == .photo)
  }

  @Test func withoutPhotoAccessTheRowSaysSo() {
    var app = makeApp(checklistIndex: 1)
    app.press(.enter, .backTab, .enter)
    #expect(app.statusMessage == "Photos are not available here")
    #expect(app.photoPicker == nil)
  }

  @Test func helpListsThePhotoKeys() throws {
    let rig = try PhotoRig()
    var app = rig.app(width: 100, height: 60)
    photoRow(&app)
    app.press(.character("?"))
    let screen = app.screen()
    #expect(screen.contains("On the Photo row"))
    app.press(.escape, .enter, .function(1))
    #expect(app.help?.context == .photoPicker)
    #expect(app.screen().contains("Keys: Photo picker"))
  }

  @Test func aFolderOfThousandsListsOnceAndFiltersFast() throws {
    let rig = try PhotoRig()
    let big = rig.root + "/big"
    try FileManager.default.createDirectory(atPath: big, withIntermediateDirectories: true)
    for index in 0..<3000 {
      _ = FileManager.default.createFile(atPath: big + "/IMG_\(index).jpg", contents: Data())
    }
    let listings = Counter()
    var access = rig.access
    let list = access.list
    access.list = { path in
      listings.add()
      return list(path)
    }
    access.startFolder = { big }
    var app = ChecklistsApp(
      model: sampleModel(), checklistIndex: 1,
      options: AppOptions(timeZone: .utc, photos: access), size: (60, 15), now: testNow)
    photoRow(&app)
    app.press(.enter)
    #expect(names(app).count == 3000)
    // Natural order: IMG_2 before IMG_10.
    #expect(names(app).prefix(3) == ["IMG_0.jpg", "IMG_1.jpg", "IMG_2.jpg"])
    app.type("IMG_29")
    app.press(.down, .pageDown, .up)
    #expect(names(app).count == 111)
    #expect(listings.value == 1)
  }
}

/// Counts calls from a Sendable closure.
final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  func add() {
    lock.lock()
    count += 1
    lock.unlock()
  }
  var value: Int {
    lock.lock()
    defer { lock.unlock() }
    return count
  }
}

/// The photo box of the item form: asked for once, "loading…" until the worker's picture
/// comes, then its cells in the grid with their exact colours.
@Suite struct PhotoBoxTests {
  /// Two columns of red, two of blue, two rows.
  func redBlue(columns: Int = 4, rows: Int = 2) -> PhotoPicture {
    var cells: [Cell] = []
    for _ in 0..<rows {
      for column in 0..<columns {
        let color: CellColor = column < columns / 2 ? .rgb(255, 0, 0) : .rgb(0, 0, 255)
        cells.append(Cell(text: " ", style: CellStyle(foreground: color, background: color)))
      }
    }
    return PhotoPicture(columns: columns, rows: rows, cells: cells, caption: "[photo 4×2 PNG]")
  }

  func model(photo: PhotoName?) -> DataModel {
    var milk = item("Milk", id: 1)
    milk.photo = photo
    return DataModel(lists: [Checklist(name: "Groceries", iconName: "Groceries", items: [milk])])
  }

  @Test func theFormAsksOnceShowsLoadingThenThePicture() throws {
    let rig = try PhotoRig()
    let name = try #require(PhotoName(fileName: "Photo-0123456789abcdef.png"))
    var app = ChecklistsApp(
      model: model(photo: name), checklistIndex: 0,
      options: AppOptions(timeZone: .utc, photos: rig.access, photoColors: .trueColor),
      size: (100, 30), now: testNow)
    let effects = app.press(.enter)
    let request = PhotoRequest(photo: .stored(name), columns: 33, rows: 16)
    #expect(effects == [.loadPhoto(request)])
    #expect(app.screen().contains("loading…"))
    // Keys meanwhile do not ask again.
    #expect(app.press(.tab) == [])
    _ = app.handle(.photoLoaded(request, redBlue()), now: testNow)
    let grid = app.grid()
    // Beside the fields: the box starts at column 100 - 33 - 1, the picture centred in it.
    let left = 66 + (33 - 4) / 2
    #expect(grid[2, left].style.background == .rgb(255, 0, 0))
    #expect(grid[2, left + 3].style.background == .rgb(0, 0, 255))
    #expect(grid[3, left + 1].style.background == .rgb(255, 0, 0))
    #expect(grid[4, left].style.background == nil)
    #expect(app.screen().contains("[photo 4×2 PNG]"))
    #expect(!app.screen().contains("loading…"))
    // The fields got narrower to leave room for it.
    #expect(app.itemFieldWidth(try #require(itemForm(app)), width: 100) == 100 - 13 - 35)
    // Closing and opening again draws from the cache: nothing is decoded again.
    app.press(.escape)
    #expect(app.press(.enter) == [])
    #expect(app.grid()[2, left].style.background == .rgb(255, 0, 0))
  }

  @Test func aNarrowFormShowsThePhotoUnderTheFields() throws {
    let rig = try PhotoRig()
    let name = try #require(PhotoName(fileName: "Photo-0123456789abcdef.png"))
    var app = ChecklistsApp(
      model: model(photo: name), checklistIndex: 0,
      options: AppOptions(timeZone: .utc, photos: rig.access, photoColors: .palette256),
      size: (60, 30), now: testNow)
    let effects = app.press(.enter)
    guard case .loadPhoto(let request)? = effects.first else {
      Issue.record("no photo asked for")
      return
    }
    #expect(request.columns == 47)
    _ = app.handle(.photoLoaded(request, redBlue(columns: 4, rows: 2)), now: testNow)
    // The Photo row is on row 17 (after Priority and Tags); the box starts two rows under it.
    let row = app.screen().split(separator: "\n", omittingEmptySubsequences: false)[17]
    #expect(row.hasPrefix(" Photo     [photo PNG]"))
    #expect(app.grid()[19, 11 + (47 - 4) / 2].style.background == .rgb(255, 0, 0))
  }

  @Test func focusLossHidesThePhotoUntilFocusComesBack() throws {
    let rig = try PhotoRig()
    let name = try #require(PhotoName(fileName: "Photo-0123456789abcdef.png"))
    var app = ChecklistsApp(
      model: model(photo: name), checklistIndex: 0,
      options: AppOptions(timeZone: .utc, photos: rig.access, photoColors: .trueColor),
      size: (100, 30), now: testNow)
    guard case .loadPhoto(let request)? = app.press(.enter).first else {
      Issue.record("no photo asked for")
      return
    }
    _ = app.handle(.photoLoaded(request, redBlue()), now: testNow)
    let left = 66 + (33 - 4) / 2
    #expect(app.grid()[2, left].style.background == .rgb(255, 0, 0))
    _ = app.handle(.focusLost, now: testNow)
    #expect(!app.grid().cells.contains { $0.style.hasExactColors })
    #expect(app.screen().contains("(hidden while in the background)"))
    _ = app.handle(.focusGained, now: testNow)
    #expect(app.grid()[2, left].style.background == .rgb(255, 0, 0))
  }

  @Test func aTerminalImageIsPlacedOnTheGrid() throws {
    let rig = try PhotoRig()
    let name = try #require(PhotoName(fileName: "Photo-0123456789abcdef.png"))
    var app = ChecklistsApp(
      model: model(photo: name), checklistIndex: 0,
      options: AppOptions(timeZone: .utc, photos: rig.access, photoColors: .trueColor),
      size: (100, 30), now: testNow)
    guard case .loadPhoto(let request)? = app.press(.enter).first else {
      Issue.record("no photo asked for")
      return
    }
    let image = TerminalImage(bytes: Array("\u{1B}_Ga=T;AAAA\u{1B}\\".utf8), removal: .overdraw)
    _ = app.handle(
      .photoLoaded(request, .image(image, columns: 10, rows: 5, caption: "[photo 4×2 PNG]")),
      now: testNow)
    let grid = app.grid()
    #expect(
      grid.images == [
        GridImage(image: image, row: 2, column: 66 + (33 - 10) / 2, columns: 10, rows: 5)
      ])
    #expect(app.screen().contains("[photo 4×2 PNG]"))
    app.press(.escape)
    #expect(app.grid().images.isEmpty)
  }

  @Test func anErrorIsShownInTheBox() throws {
    let rig = try PhotoRig()
    let name = try #require(PhotoName(fileName: "Photo-0123456789abcdef.png"))
    var app = ChecklistsApp(
      model: model(photo: name), checklistIndex: 0,
      options: AppOptions(timeZone: .utc, photos: rig.access, photoColors: .trueColor),
      size: (100, 30), now: testNow)
    guard case .loadPhoto(let request)? = app.press(.enter).first else {
      Issue.record("no photo asked for")
      return
    }
    _ = app.handle(
      .photoLoaded(request, .text("cannot read this image: the file ends early", isError: true)),
      now: testNow)
    // Wrapped in the box.
    #expect(app.screen().contains("cannot read this image: the file"))
    #expect(app.screen().contains("ends early"))
  }

  @Test func withoutColoursNothingIsDecoded() throws {
    let rig = try PhotoRig()
    let name = try #require(PhotoName(fileName: "Photo-0123456789abcdef.png"))
    var app = ChecklistsApp(
      model: model(photo: name), checklistIndex: 0,
      options: AppOptions(timeZone: .utc, photos: rig.access), size: (100, 30), now: testNow)
    #expect(app.press(.enter) == [])
    #expect(app.screen().contains("Photo     [photo PNG]"))
  }

  func itemForm(_ app: ChecklistsApp) -> ItemFormScreen? {
    if let form = app.itemForm { return form }
    return nil
  }

  @Test func wideChecklistsShowTheSelectedItemsPhotoInAPane() throws {
    let rig = try PhotoRig()
    let name = try #require(PhotoName(fileName: "Photo-0123456789abcdef.png"))
    var milk = item("Milk", id: 1)
    milk.photo = name
    let model = DataModel(lists: [
      Checklist(name: "Groceries", iconName: "Groceries", items: [milk, item("Bread", id: 2)])
    ])
    var app = ChecklistsApp(
      model: model, checklistIndex: 0,
      options: AppOptions(timeZone: .utc, photos: rig.access, photoColors: .trueColor),
      size: (120, 30), now: testNow)
    let effects = app.handle(.resize(width: 120, height: 30), now: testNow)
    let request = PhotoRequest(photo: .stored(name), columns: 38, rows: 19)
    #expect(effects == [.loadPhoto(request)])
    _ = app.handle(.photoLoaded(request, redBlue()), now: testNow)
    let rows = app.screen().split(separator: "\n").map(String.init)
    #expect(rows[1].hasPrefix(" ·  Milk"))
    #expect(rows[1].contains("│ Milk"))
    #expect(app.grid()[3, 120 - 40 + 1 + (38 - 4) / 2].style.background == .rgb(255, 0, 0))
    // Bread has none.
    app.press(.down)
    #expect(app.screen().contains("No photo"))
    // Narrower: no pane.
    _ = app.handle(.resize(width: 119, height: 30), now: testNow)
    #expect(!app.screen().contains("│"))
    // Without a photo in the session, no pane either.
    let plain = ChecklistsApp(
      model: sampleModel(), checklistIndex: 1,
      options: AppOptions(timeZone: .utc, photos: rig.access, photoColors: .trueColor),
      size: (120, 30), now: testNow)
    #expect(!plain.screen().contains("│"))
  }
}

/// Where the picker opens.
@Suite struct PictureFolderTests {
  @Test func userDirsThenTheVariableThenPicturesThenTheCurrentFolder() throws {
    let rig = try PhotoRig()
    let config = rig.root + "/config"
    let shots = rig.root + "/Shots"
    try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)
    try Data("# made by xdg-user-dirs-update\nXDG_PICTURES_DIR=\"$HOME/Shots\"\n".utf8).write(
      to: URL(fileURLWithPath: config + "/user-dirs.dirs"))
    var environment = ["HOME": rig.root, "XDG_CONFIG_HOME": config]
    #expect(PictureFolder.start(environment: environment, current: "/") == shots)
    environment["XDG_CONFIG_HOME"] = rig.root + "/nowhere"
    environment["XDG_PICTURES_DIR"] = rig.pictures + "/Trips"
    #expect(PictureFolder.start(environment: environment, current: "/") == rig.pictures + "/Trips")
    environment["XDG_PICTURES_DIR"] = nil
    #expect(PictureFolder.start(environment: environment, current: "/") == rig.pictures)
    #expect(PictureFolder.start(environment: ["HOME": rig.root + "/none"], current: "/x") == "/x")
    #expect(PictureFolder.isImageName("A.JPEG") && !PictureFolder.isImageName(".png"))
  }
}
