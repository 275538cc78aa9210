import ChecklistsCLI
import ChecklistsCore
import ChecklistsImages
import ChecklistsTestSupport
import ChecklistsUI
import Foundation
import Testing

@Suite("CLI: photo, add --photo, show --json with photos", .serialized)
struct CLIPhotoTests {
  /// The app tells of a bad CHECKLISTS_IMAGES on its status line, and uses auto.
  @Test func aBadImagesSettingIsTold() {
    let shown = AppPhotos.display(environment: ["CHECKLISTS_IMAGES": "svg"], config: ConfigFile())
    #expect(shown.problem?.hasPrefix("CHECKLISTS_IMAGES=svg is not one of auto, kitty") == true)
    #expect(shown.setting == .auto)
    #expect(AppPhotos.display(environment: [:], config: ConfigFile()).problem == nil)
  }

  /// An 8×4 PNG: left half red, right half blue.
  static func png() throws -> Data {
    let image = RGBAImage(width: 8, height: 4) { x, _ in
      (x < 4 ? RGBColor(255, 0, 0) : RGBColor(0, 0, 255), 255)
    }
    return Data(try ImageDecoder.encodePNG(image))
  }

  /// A sandbox with "Groceries" (Milk, Eggs) and `pic.png` beside the data folder.
  func sandbox() throws -> (CLITestSandbox, String) {
    let sandbox = CLITestSandbox()
    try sandbox.writeData([
      Checklist(
        name: "Groceries",
        items: [ChecklistItem(text: "Milk", itemID: 1), ChecklistItem(text: "Eggs", itemID: 2)])
    ])
    let picture = sandbox.root + "/pic.png"
    try Self.png().write(to: URL(fileURLWithPath: picture))
    return (sandbox, picture)
  }

  func photosFolder(_ sandbox: CLITestSandbox) -> String {
    (sandbox.dataFile as NSString).deletingLastPathComponent + "/Photos"
  }

  func photoFiles(_ sandbox: CLITestSandbox) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: photosFolder(sandbox))) ?? []
    return names.filter { $0.hasPrefix("Photo-") }.sorted()
  }

  @Test func attachShowAndRemove() throws {
    let (sandbox, picture) = try sandbox()
    defer { sandbox.remove() }
    let attached = sandbox.call("photo", "Groceries", "Milk", picture)
    #expect(attached.status == 0, "\(attached.stderr)")
    #expect(attached.stdout == "Attached a photo to \"Milk\" in Groceries: [photo 8×4 PNG].\n")
    let files = photoFiles(sandbox)
    #expect(files.count == 1 && files[0].hasSuffix(".png"))
    let path = photosFolder(sandbox) + "/" + files[0]
    #expect(FileManager.default.contents(atPath: path) == (try Self.png()))
    #expect(try sandbox.lists()[0].items[0].photo?.fileName == files[0])

    let shown = sandbox.call("photo", "Groceries", "1")
    #expect(shown.status == 0)
    #expect(shown.stdout == "\(path)\n[photo 8×4 PNG]\n")
    let json = sandbox.call("show", "Groceries", "--json")
    #expect(json.stdout.contains("\"photo\" : \"\(path)\""))
    #expect(json.stdout.components(separatedBy: "\"photo\"").count == 2)
    #expect(
      sandbox.call("show", "Groceries").stdout.contains("1. [ ] Milk  [photo]\n2. [ ] Eggs\n"))
    #expect(sandbox.call("export").stdout.contains("\"photo\" : \"\(path)\""))

    let removed = sandbox.call("photo", "Groceries", "Milk", "--remove")
    #expect(removed.status == 0)
    #expect(removed.stdout == "Removed the photo of \"Milk\" in Groceries.\n")
    #expect(try sandbox.lists()[0].items[0].photo == nil)
    // The previous version (.bak) still has it; the next save replaces the .bak and the copy
    // goes.
    #expect(photoFiles(sandbox) == files)
    #expect(sandbox.call("check", "Groceries", "Eggs").status == 0)
    #expect(photoFiles(sandbox).isEmpty)
    let again = sandbox.call("photo", "Groceries", "Milk", "--remove")
    #expect(again.status == 0 && again.stdout == "\"Milk\" in Groceries has no photo.\n")
    let none = sandbox.call("photo", "Groceries", "Milk")
    #expect(none.status == 1 && none.stderr == "checklists: \"Milk\" in Groceries has no photo\n")
  }

  /// An export imported again (into the same file, or another) keeps its photos: JSON gives
  /// each photo's path, a plist its name in the Photos folder beside it (or this file's own).
  /// A photo that cannot be read is left out of its item, and said. Before, JSON imports
  /// dropped every photo and plist imports kept names no file answered to.
  @Test func anImportedExportKeepsItsPhotos() throws {
    let (sandbox, picture) = try sandbox()
    defer { sandbox.remove() }
    #expect(sandbox.call("photo", "Groceries", "Milk", picture).status == 0)
    let json = sandbox.root + "/export.json"
    let exported = sandbox.call("export")
    try Data(exported.stdout.utf8).write(to: URL(fileURLWithPath: json))
    let again = sandbox.call("import", json, "--duplicate")
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stderr.isEmpty)
    let lists = try sandbox.lists()
    #expect(lists.count == 2 && lists.allSatisfy { $0.items[0].photo != nil })
    let other = sandbox.root + "/Other.plist"
    let elsewhere = sandbox.call("--file", other, "import", json)
    #expect(elsewhere.status == 0, "\(elsewhere.stderr)")
    let shown = sandbox.call("--file", other, "photo", "Groceries", "Milk")
    #expect(shown.status == 0, "\(shown.stderr)")
    #expect(shown.stdout.hasSuffix("[photo 8×4 PNG]\n"))
    #expect(shown.stdout.hasPrefix(sandbox.root + "/Photos/Photo-"))

    let plist = sandbox.root + "/export.plist"
    try Data(sandbox.call("export", "--format", "plist").stdout.utf8).write(
      to: URL(fileURLWithPath: plist))
    let fromPlist = sandbox.call("import", plist, "--duplicate")
    #expect(fromPlist.status == 0 && fromPlist.stderr.isEmpty, "\(fromPlist.stderr)")
    #expect(try sandbox.lists().filter { $0.items.first?.photo != nil }.count == 4)

    // The photo is gone: the item comes in without it, and the import says so.
    let gone = json.replacingOccurrences(of: "export.json", with: "gone.json")
    let text = exported.stdout.replacingOccurrences(of: photosFolder(sandbox), with: "/nowhere")
    try Data(text.utf8).write(to: URL(fileURLWithPath: gone))
    let missing = sandbox.call("--file", sandbox.root + "/third.plist", "import", gone)
    #expect(missing.status == 0)
    #expect(missing.stderr.hasPrefix("checklists: list 1, item 1: imported without its photo: "))
    let third = sandbox.call("--file", sandbox.root + "/third.plist", "show", "Groceries")
    #expect(third.stdout.contains("1. [ ] Milk\n"))
  }

  @Test func replaceAndAddWithAPhoto() throws {
    let (sandbox, picture) = try sandbox()
    defer { sandbox.remove() }
    #expect(sandbox.call("photo", "Groceries", "Milk", picture).status == 0)
    let first = photoFiles(sandbox)
    let replaced = sandbox.call("photo", "Groceries", "Milk", picture)
    #expect(replaced.stdout == "Replaced the photo of \"Milk\" in Groceries: [photo 8×4 PNG].\n")
    let second = try #require(try sandbox.lists()[0].items[0].photo)
    #expect(!first.contains(second.fileName))
    let added = sandbox.call("add", "Groceries", "Bread", "--photo", picture)
    #expect(added.status == 0, "\(added.stderr)")
    #expect(
      added.stdout == "Added \"Bread\" to Groceries as item 3, with a photo [photo 8×4 PNG].\n")
    let items = try sandbox.lists()[0].items
    #expect(items[2].photo != nil && items[2].photo != second)
    // Deleting items: their copies go once no version of the file has them.
    #expect(sandbox.call("rm", "Groceries", "Bread").status == 0)
    #expect(sandbox.call("rm", "Groceries", "Milk").status == 0)
    #expect(sandbox.call("new-list", "Other").status == 0)
    #expect(photoFiles(sandbox).isEmpty)
  }

  @Test func refusals() throws {
    let (sandbox, picture) = try sandbox()
    defer { sandbox.remove() }
    let text = sandbox.root + "/notes.txt"
    try Data("hello".utf8).write(to: URL(fileURLWithPath: text))
    let notImage = sandbox.call("photo", "Groceries", "Milk", text)
    #expect(notImage.status == 1)
    #expect(notImage.stderr == "checklists: \(text) is not a JPEG, PNG, WebP or GIF image\n")
    let missing = sandbox.call("photo", "Groceries", "Milk", sandbox.root + "/none.png")
    #expect(missing.status == 1 && missing.stderr.contains("No such file or directory"))
    // A header that claims 20000×20000 pixels.
    var huge = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13])
    huge +=
      Data("IHDR".utf8) + Data([0, 0, 0x4E, 0x20, 0, 0, 0x4E, 0x20, 8, 2, 0, 0, 0, 0, 0, 0, 0])
    let hugePath = sandbox.root + "/huge.png"
    try huge.write(to: URL(fileURLWithPath: hugePath))
    let tooLarge = sandbox.call("photo", "Groceries", "Milk", hugePath)
    #expect(tooLarge.status == 1)
    #expect(tooLarge.stderr.contains("too large to show (20000×20000, over 100 megapixels)"))
    // Cut short: the library's own words after "cannot read this image".
    let cut = sandbox.root + "/cut.png"
    try Data(try Self.png().prefix(40)).write(to: URL(fileURLWithPath: cut))
    let damaged = sandbox.call("photo", "Groceries", "Milk", cut)
    #expect(damaged.status == 1 && damaged.stderr.contains(": cannot read this image: "))
    // A whole file whose image data is damaged (its header is fine): refused too.
    var png = try Self.png()
    let data = try #require(png.range(of: Data("IDAT".utf8))).upperBound
    png[data + 4] ^= 0xFF
    let bad = sandbox.root + "/bad-data.png"
    try png.write(to: URL(fileURLWithPath: bad))
    let badData = sandbox.call("photo", "Groceries", "Milk", bad)
    #expect(badData.status == 1, "\(badData.stdout)")
    #expect(badData.stderr.contains(": cannot read this image: "), "\(badData.stderr)")
    let both = sandbox.call("photo", "Groceries", "Milk", picture, "--remove")
    #expect(both.status == 2 && both.stderr.contains("give FILE or --remove, not both"))
    let extra = sandbox.call("photo", "Groceries", "Milk", picture, "more")
    #expect(extra.status == 2)
    #expect(sandbox.call("photo", "Groceries", "Tea", picture).status == 1)
    #expect(photoFiles(sandbox).isEmpty)
    #expect(try sandbox.lists()[0].items.allSatisfy { $0.photo == nil })
    // The app's item form refuses it the same way, and keeps no copy.
    let session = PhotoSession(library: PhotoLibrary(dataFile: sandbox.dataFile))
    let access = AppPhotos.access(session: session, environment: [:])
    guard case .failure(let refused) = access.store(bad) else {
      Issue.record("a damaged image was stored")
      return
    }
    #expect(refused.message.contains(": cannot read this image: "))
    #expect(access.check(bad)?.message.contains(": cannot read this image: ") == true)
    #expect(access.check(picture) == nil)
    guard case .success = access.store(picture) else {
      Issue.record("a good image was refused")
      return
    }
    #expect(photoFiles(sandbox).count == 1)
  }

  @Test func aMissingOrLinkedCopyIsReported() throws {
    let (sandbox, picture) = try sandbox()
    defer { sandbox.remove() }
    #expect(sandbox.call("photo", "Groceries", "Milk", picture).status == 0)
    let path = photosFolder(sandbox) + "/" + photoFiles(sandbox)[0]
    try FileManager.default.removeItem(atPath: path)
    try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: picture)
    let linked = sandbox.call("photo", "Groceries", "Milk")
    #expect(linked.status == 1 && linked.stderr.contains("is a symbolic link"))
    try FileManager.default.removeItem(atPath: path)
    let missing = sandbox.call("photo", "Groceries", "Milk")
    #expect(missing.status == 1 && missing.stderr == "checklists: \(path) is missing\n")
  }
}
