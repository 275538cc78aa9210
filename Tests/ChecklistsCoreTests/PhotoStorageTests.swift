import ChecklistsTestSupport
import Foundation
import Testing

@testable import ChecklistsCore

/// The iPhone app's item, as its source declares it: these keys and no others.
private struct PhoneItem: Codable {
  var text: String
  var checked: Bool
  var dueDate: Date
  var shouldRemind: Bool
  var itemID: Int
}

private struct PhoneChecklist: Codable {
  var name: String
  var iconName: String
  var items: [PhoneItem]
}

/// Bytes that start like a JPEG (the store only looks at the signature).
private let jpegBytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 7, count: 60)

@Suite("Photos: the photo key, the Photos folder, holds and the sweep", .serialized)
struct PhotoStorageTests {
  let due = Date(timeIntervalSinceReferenceDate: 800_000_000)

  // MARK: - Names and the key

  @Test func photoNamesHaveOneExactShape() {
    let name = PhotoName(fileName: "Photo-0123456789abcdef.jpg")
    #expect(name?.id == "0123456789abcdef" && name?.format == .jpeg)
    for bad in [
      "Photo-0123456789ABCDEF.jpg", "Photo-0123456789abcde.jpg", "Photo-0123456789abcdef.jpeg",
      "Photo-0123456789abcdef.jpg/..", "../Photo-0123456789abcdef.jpg",
      "photo-0123456789abcdef.png",
      "Photo-0123456789abcdef.", "Photo-0123456789abcdefg.png", "Photo-0123456789abcdef.svg", "",
    ] {
      #expect(PhotoName(fileName: bad) == nil, "\(bad)")
    }
    var generator = SeededGenerator(seed: 42)
    var seen = Set<PhotoName>()
    for _ in 0..<200 {
      let random = PhotoName.random(format: .webp, using: &generator)
      #expect(PhotoName(fileName: random.fileName) == random)
      seen.insert(random)
    }
    #expect(seen.count == 200)
  }

  @Test func formatsAreSniffedFromTheFirstBytes() {
    #expect(PhotoFormat.sniff(jpegBytes) == .jpeg)
    #expect(PhotoFormat.sniff([0x89] + Array("PNG\r\n\u{1A}\n".utf8)) == .png)
    #expect(PhotoFormat.sniff(Array("GIF89a".utf8)) == .gif)
    #expect(PhotoFormat.sniff(Array("RIFF\0\0\0\0WEBP".utf8)) == .webp)
    #expect(PhotoFormat.sniff(Array("RIFF\0\0\0\0WAVE".utf8)) == nil)
    #expect(PhotoFormat.sniff([]) == nil)
  }

  @Test(arguments: [PlistFormat.binary, .xml])
  func photoKeyRoundTripsAndTheIPhoneDecoderIgnoresIt(format: PlistFormat) throws {
    var item = ChecklistItem(text: "Milk", dueDate: due, itemID: 1)
    item.photo = PhotoName(fileName: "Photo-00000000000000ff.png")
    let lists = [
      Checklist(
        name: "Groceries", items: [item, ChecklistItem(text: "Eggs", dueDate: due, itemID: 2)])
    ]
    let data = try ChecklistsFileCoding.encode(lists, format: format).data
    let decoded = try ChecklistsFileCoding.decode(data).lists
    #expect(decoded == lists)
    #expect(decoded[0].items[0].photo?.fileName == "Photo-00000000000000ff.png")
    #expect(decoded[0].items[1].unknownFields.isEmpty)
    #expect(try ChecklistsFileCoding.encode(decoded, format: format).data == data)
    let phone = try PropertyListDecoder().decode([PhoneChecklist].self, from: data)
    #expect(phone[0].items.map(\.text) == ["Milk", "Eggs"])
    // A value of another shape reads as no photo and is kept until a photo is set.
    var odd = item
    odd.unknownFields[.photo] = .string("../../etc/passwd")
    #expect(odd.photo == nil)
    #expect(odd.unknownFields[.photo] == .string("../../etc/passwd"))
    odd.photo = nil
    #expect(odd.unknownFields[.photo] == nil)
  }

  @Test func mergeTakesThePhotoKeyOnItsOwn() {
    var base = DataModel()
    base.apply(base.insertList(base.makeList(name: "Home")))
    let listID = base.lists[0].id
    if let change = base.insertItem(base.makeItem(text: "Plant"), listID: listID) {
      base.apply(change)
    }
    var ours = base
    var theirs = base
    var withPhoto = ours.lists[0].items[0]
    withPhoto.photo = PhotoName(fileName: "Photo-1111111111111111.jpg")
    if let change = ours.replaceItem(listID: listID, at: 0, with: withPhoto) { ours.apply(change) }
    var withNote = theirs.lists[0].items[0]
    withNote.note = "by the window"
    if let change = theirs.replaceItem(listID: listID, at: 0, with: withNote) {
      theirs.apply(change)
    }
    let merged = ModelMerge.merge(base: base, ours: ours, theirs: theirs.lists).model
    #expect(merged.lists[0].items[0].photo?.id == "1111111111111111")
    #expect(merged.lists[0].items[0].note == "by the window")
    #expect(merged.photoNames.map(\.id) == ["1111111111111111"])
  }

  // MARK: - Reading and storing

  @Test func storesAnAtomicCopyUnderANewName() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    folder.write("pic.jpg", Data(jpegBytes))
    let library = PhotoLibrary(dataFile: folder.path + "/Checklists.plist")
    #expect(library.folder == folder.path + "/Photos")
    let source = try PhotoLibrary.readSource(folder.path + "/pic.jpg")
    #expect(source.format == .jpeg)
    let hold = try PhotoHold.acquire(library)
    defer { hold.release() }
    let first = try library.store(source, hold: hold)
    let second = try library.store(source, hold: hold)
    #expect(first != second && first.format == .jpeg)
    #expect(hold.heldNames == [first, second])
    #expect(try library.read(first) == jpegBytes)
    #expect((try SystemFileSystem().stat(library.path(of: first))).permissions == 0o600)
    let names = try FileManager.default.contentsOfDirectory(atPath: library.folder)
    #expect(
      names.filter { !$0.hasPrefix(".") }.sorted() == [first, second].map(\.fileName).sorted())
  }

  @Test func refusesWhatIsNotAPhoto() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    folder.write("notes.txt", Data("hello".utf8))
    folder.write("empty.jpg", Data())
    #expect(throws: PhotoError(.notAnImage, path: folder.path + "/notes.txt")) {
      try PhotoLibrary.readSource(folder.path + "/notes.txt")
    }
    #expect(throws: PhotoError(.notAnImage, path: folder.path + "/empty.jpg")) {
      try PhotoLibrary.readSource(folder.path + "/empty.jpg")
    }
    #expect(throws: PhotoError(.notRegularFile, path: folder.path)) {
      try PhotoLibrary.readSource(folder.path)
    }
    let missing = folder.path + "/none.jpg"
    #expect(throws: PhotoError.self) { try PhotoLibrary.readSource(missing) }
  }

  @Test func refusesFilesOverAHundredMegabytes() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    let path = folder.path + "/big.jpg"
    folder.write("big.jpg", Data(jpegBytes))
    // Sparse: no 100 MB are written.
    #expect(truncate(path, off_t(PhotoLibrary.maximumFileSize) + 1) == 0)
    #expect(throws: PhotoError(.tooLarge(bytes: PhotoLibrary.maximumFileSize + 1), path: path)) {
      try PhotoLibrary.readSource(path)
    }
    #expect(
      PhotoError(.tooLarge(bytes: 100_000_001), path: "/x/big.jpg").message
        == "/x/big.jpg is too large for a photo (100000001 bytes; the limit is 100 MB)")
    #expect(truncate(path, off_t(PhotoLibrary.maximumFileSize)) == 0)
    #expect(try PhotoLibrary.readSource(path).bytes.count == PhotoLibrary.maximumFileSize)
  }

  @Test func neverReadsOrWritesThroughASymbolicLink() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    let library = PhotoLibrary(dataFile: folder.path + "/Checklists.plist")
    let outside = folder.path + "/outside"
    try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
    #expect(
      FileManager.default.createFile(atPath: outside + "/secret.jpg", contents: Data(jpegBytes)))
    try FileManager.default.createDirectory(
      atPath: library.folder, withIntermediateDirectories: true)
    // A photo that is a link to a file elsewhere.
    let linked = try #require(PhotoName(fileName: "Photo-aaaaaaaaaaaaaaaa.jpg"))
    try FileManager.default.createSymbolicLink(
      atPath: library.path(of: linked), withDestinationPath: outside + "/secret.jpg")
    #expect(throws: PhotoError(.symbolicLink, path: library.path(of: linked))) {
      try library.read(linked)
    }
    #expect(throws: PhotoError(.symbolicLink, path: library.path(of: linked))) {
      try library.status(of: linked)
    }
    // The Photos folder itself a link: nothing is read or stored through it.
    try FileManager.default.removeItem(atPath: library.folder)
    try FileManager.default.createSymbolicLink(atPath: library.folder, withDestinationPath: outside)
    let name = try #require(PhotoName(fileName: "Photo-bbbbbbbbbbbbbbbb.jpg"))
    #expect(
      FileManager.default.createFile(
        atPath: outside + "/" + name.fileName, contents: Data(jpegBytes)))
    #expect(throws: PhotoError(.symbolicLink, path: library.folder)) { try library.read(name) }
    #expect(throws: PhotoError.self) { try PhotoHold.acquire(library) }
    #expect(try library.sweep().removed.isEmpty)
    #expect(FileManager.default.fileExists(atPath: outside + "/" + name.fileName))
  }

  // MARK: - Sweeping

  /// Saves `items` (text → photo) as the data file with `store`, or a fresh one.
  private func save(
    _ photos: [String: PhotoName?], folder: StoreTestFolder
  ) throws -> (ChecklistsStore, DataModel) {
    let (store, load) = try ChecklistsStore.open(location: folder.location())
    var model = load.model
    let listID = model.lists[0].id
    for (text, photo) in photos.sorted(by: { $0.key < $1.key }) {
      var item = model.makeItem(text: text)
      item.photo = photo
      if let change = model.insertItem(item, listID: listID) { model.apply(change) }
    }
    try store.save(model)
    return (store, model)
  }

  private func storePhoto(_ library: PhotoLibrary, hold: PhotoHold) throws -> PhotoName {
    try library.store(PhotoSource(path: "x.jpg", bytes: jpegBytes, format: .jpeg), hold: hold)
  }

  private func exists(_ library: PhotoLibrary, _ name: PhotoName) -> Bool {
    FileManager.default.fileExists(atPath: library.path(of: name))
  }

  @Test func sweepRemovesOnlyWhatNothingUses() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    let library = PhotoLibrary(dataFile: folder.path + "/Checklists.plist")
    let hold = try PhotoHold.acquire(library)
    let used = try storePhoto(library, hold: hold)
    let unused = try storePhoto(library, hold: hold)
    _ = try save(["Milk": used], folder: folder)
    // Held: kept.
    #expect(try library.sweep(knownReferences: [used]).removed.isEmpty)
    hold.release()
    // Known to the caller: kept without reading the data file.
    let quiet = try library.sweep(knownReferences: [used, unused])
    #expect(quiet.removed.isEmpty && !quiet.readDataFile)
    // Not known, not held: the data file decides.
    let swept = try library.sweep()
    #expect(swept.removed == [unused] && swept.readDataFile)
    #expect(exists(library, used) && !exists(library, unused))
    #expect(try library.sweep().removed.isEmpty)
  }

  @Test func thePreviousVersionKeepsItsPhotos() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    let library = PhotoLibrary(dataFile: folder.path + "/Checklists.plist")
    let hold = try PhotoHold.acquire(library)
    let old = try storePhoto(library, hold: hold)
    let (store, model) = try save(["Milk": old], folder: folder)
    var edited = model
    var item = edited.lists[0].items[0]
    item.photo = nil
    if let change = edited.replaceItem(listID: edited.lists[0].id, at: 0, with: item) {
      edited.apply(change)
    }
    try store.save(edited)
    hold.release()
    // The .bak still has it: kept for a restore of the .bak.
    #expect(try library.sweep().removed.isEmpty)
    try store.save(edited.renamedForTest())
    #expect(try library.sweep().removed == [old])
  }

  @Test func aSweepNeverRemovesWhatTheMergedFileStillUses() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    let library = PhotoLibrary(dataFile: folder.path + "/Checklists.plist")
    let setup = try PhotoHold.acquire(library)
    let kept = try storePhoto(library, hold: setup)
    let dropped = try storePhoto(library, hold: setup)
    _ = try save(["Bread": dropped, "Milk": nil], folder: folder)
    setup.release()
    // Two writers loaded the same file. The first attaches `kept` to Milk and saves.
    let (first, firstLoad) = try ChecklistsStore.open(location: folder.location())
    let (second, secondLoad) = try ChecklistsStore.open(location: folder.location())
    var firstModel = firstLoad.model
    let list = firstModel.lists[0].id
    let milk = try #require(firstModel.lists[0].items.firstIndex { $0.text == "Milk" })
    var item = firstModel.lists[0].items[milk]
    item.photo = kept
    if let change = firstModel.replaceItem(listID: list, at: milk, with: item) {
      firstModel.apply(change)
    }
    try first.save(firstModel)
    // The second, which never saw `kept`, deletes Bread (and its photo), saves and sweeps
    // with what it knows.
    var secondModel = secondLoad.model
    let bread = try #require(secondModel.lists[0].items.firstIndex { $0.text == "Bread" })
    if let change = secondModel.deleteItem(listID: secondModel.lists[0].id, at: bread) {
      secondModel.apply(change)
    }
    let result = try second.save(secondModel)
    let known = (result.merged?.model ?? secondModel).photoNames
    #expect(known == [kept])
    #expect(try library.sweep(knownReferences: secondModel.photoNames).removed.isEmpty)
    // Once the .bak (the first writer's version) is replaced too, Bread's photo goes.
    try second.save((result.merged?.model ?? secondModel).renamedForTest())
    #expect(try library.sweep(knownReferences: []).removed == [dropped])
    #expect(exists(library, kept))
  }

  @Test func holdsOfEndedProcessesDoNotCount() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    let library = PhotoLibrary(dataFile: folder.path + "/Checklists.plist")
    let hold = try PhotoHold.acquire(library)
    let name = try storePhoto(library, hold: hold)
    _ = try save([:], folder: folder)
    // A hold file nobody has locked: its process ended without removing it.
    let holds = library.folder + "/.holds"
    #expect(
      FileManager.default.createFile(
        atPath: holds + "/999999-1", contents: Data((name.fileName + "\n*\n").utf8)))
    #expect(FileManager.default.createFile(atPath: holds + "/tmp-999999-2", contents: Data()))
    hold.release()
    #expect(try library.sweep().removed == [name])
    #expect(try FileManager.default.contentsOfDirectory(atPath: holds).isEmpty)
  }

  @Test func aHoldOnEverythingStopsEverySweep() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    let library = PhotoLibrary(dataFile: folder.path + "/Checklists.plist")
    let named = try PhotoHold.acquire(library)
    let name = try storePhoto(library, hold: named)
    named.release()
    _ = try save([:], folder: folder)
    let everything = try PhotoHold.acquire(library, everything: true)
    #expect(try library.sweep().removed.isEmpty)
    everything.release()
    #expect(try library.sweep().removed == [name])
  }

  @Test func aHoldInAnotherProcessIsSeen() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    let library = PhotoLibrary(dataFile: folder.path + "/Checklists.plist")
    let hold = try PhotoHold.acquire(library)
    let name = try storePhoto(library, hold: hold)
    _ = try save([:], folder: folder)
    let holdFile = hold.path
    hold.release()
    // Another process keeps a shared lock on a hold that names the photo while we sweep.
    #expect(
      FileManager.default.createFile(atPath: holdFile, contents: Data((name.fileName + "\n").utf8)))
    // `exec sleep`: the lock's holder is the process killed below, not a child left behind.
    let script = "exec 9<'\(holdFile)'; flock -s 9; echo locked; exec sleep 30"
    let child = try ChildProcess("/bin/sh", ["-c", script])
    defer { child.kill() }
    #expect(child.waitForOutput("locked", deadline: 10))
    #expect(try library.sweep().removed.isEmpty)
    child.kill()
    #expect(try library.sweep().removed == [name])
  }

  @Test func anUnreadableDataFileRemovesNothing() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    let library = PhotoLibrary(dataFile: folder.path + "/Checklists.plist")
    let hold = try PhotoHold.acquire(library)
    let name = try storePhoto(library, hold: hold)
    hold.release()
    folder.write("Checklists.plist", Data("not a plist".utf8))
    #expect(throws: PhotoError.self) { try library.sweep() }
    #expect(exists(library, name))
  }

  @Test func staleTemporaryCopiesAreRemoved() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    let library = PhotoLibrary(dataFile: folder.path + "/Checklists.plist")
    try FileManager.default.createDirectory(
      atPath: library.folder, withIntermediateDirectories: true)
    let stale = library.folder + "/.Photo-0000000000000001.jpg.tmp-999999-3"
    let ours = library.folder + "/.Photo-0000000000000002.jpg.tmp-\(getpid())-3"
    #expect(FileManager.default.createFile(atPath: stale, contents: Data()))
    #expect(FileManager.default.createFile(atPath: ours, contents: Data()))
    _ = try library.sweep()
    #expect(!FileManager.default.fileExists(atPath: stale))
    #expect(FileManager.default.fileExists(atPath: ours))
  }

  @Test func thumbnailCacheEntriesFollowThePhotosFile() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    let cache = ThumbnailCache(environment: ["XDG_CACHE_HOME": folder.path + "/cache"])
    #expect(
      ThumbnailCache(environment: ["HOME": "/home/u"]).folder
        == "/home/u/.cache/checklists/thumbnails")
    let name = try #require(PhotoName(fileName: "Photo-0000000000000abc.png"))
    let old = FileStatus(kind: .regular, permissions: 0o600, size: 10, modificationNanoseconds: 5)
    let new = FileStatus(kind: .regular, permissions: 0o600, size: 12, modificationNanoseconds: 9)
    try cache.store([1, 2, 3], for: name, width: 40, height: 40, source: old)
    #expect(cache.read(for: name, width: 40, height: 40, source: old) == [1, 2, 3])
    #expect(cache.read(for: name, width: 40, height: 40, source: new) == nil)
    #expect(cache.read(for: name, width: 20, height: 40, source: old) == nil)
    try cache.store([4], for: name, width: 40, height: 40, source: new)
    // The entry of the older file is gone.
    #expect(cache.read(for: name, width: 40, height: 40, source: old) == nil)
    #expect(
      cache.path(for: name, width: 40, height: 40, source: new).hasSuffix(
        "/0000000000000abc-40x40-12-9.thumb"))
    cache.remove(photoIDs: [name.id])
    #expect(cache.read(for: name, width: 40, height: 40, source: new) == nil)
  }
}

extension DataModel {
  /// The model with one more list, so that a save writes a new version (and the .bak moves on).
  fileprivate func renamedForTest() -> DataModel {
    var model = self
    model.apply(model.insertList(model.makeList(name: "Another \(model.lists.count)")))
    return model
  }
}
