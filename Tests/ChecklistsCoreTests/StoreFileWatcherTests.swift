import Foundation
import Testing

@testable import ChecklistsCore

#if canImport(Glibc)
  import Glibc
#endif

/// `FileWatcher` tells of changes to the data file's name and to watched folders, and of
/// nothing once it is stopped. inotify queues an event before the call that caused it returns,
/// so each `drain()` below sees exactly what came before it.
@Suite("Store: the file watcher")
struct StoreFileWatcherTests {
  /// Writes `name` in `folder` as the store does: a temporary file renamed onto it.
  static func replace(_ name: String, in folder: String) {
    let temporary = folder + "/." + name + ".tmp-test"
    #expect(FileManager.default.createFile(atPath: temporary, contents: Data("x".utf8)))
    #expect(rename(temporary, folder + "/" + name) == 0)
  }

  @Test("a file renamed onto the data file's name is told; other names are not")
  func tellsOfTheFile() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    let watcher = try #require(FileWatcher.open(path: folder.path + "/Checklists.plist"))
    #expect(!watcher.drain())
    Self.replace("Other.plist", in: folder.path)
    #expect(!watcher.drain())
    Self.replace("Checklists.plist", in: folder.path)
    #expect(watcher.drain())
    // Drained: nothing more until the next change.
    #expect(!watcher.drain())
    #expect(unlink(folder.path + "/Checklists.plist") == 0)
    #expect(watcher.drain())
  }

  @Test("a watched folder tells of any entry but dot-files and .tmp files")
  func tellsOfWatchedFolders() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    let vdir = folder.path + "/vdir"
    try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
    let watcher = try #require(FileWatcher.open(path: folder.path + "/Checklists.plist"))
    watcher.watch(folders: [vdir, folder.path + "/missing"])
    #expect(FileManager.default.createFile(atPath: vdir + "/.hidden", contents: Data()))
    #expect(FileManager.default.createFile(atPath: vdir + "/task.ics.tmp", contents: Data()))
    #expect(!watcher.drain())
    #expect(FileManager.default.createFile(atPath: vdir + "/task.ics", contents: Data()))
    #expect(watcher.drain())
  }

  @Test("a stopped watcher tells of nothing and watches no new folders")
  func stoppedWatcherIsSilent() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    let vdir = folder.path + "/vdir"
    try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
    let watcher = try #require(FileWatcher.open(path: folder.path + "/Checklists.plist"))
    watcher.watch(folders: [vdir])
    watcher.stopWatching()
    watcher.stopWatching()
    Self.replace("Checklists.plist", in: folder.path)
    #expect(FileManager.default.createFile(atPath: vdir + "/task.ics", contents: Data()))
    watcher.watch(folders: [vdir])
    #expect(FileManager.default.createFile(atPath: vdir + "/other.ics", contents: Data()))
    #expect(!watcher.drain())
    // The watches are gone from the kernel too: once the events of their removal are read,
    // the descriptor gets no new ones.
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while read(watcher.descriptor, &buffer, buffer.count) > 0 {}
    var descriptor = pollfd(fd: watcher.descriptor, events: Int16(POLLIN), revents: 0)
    #expect(poll(&descriptor, 1, 0) == 0)
    Self.replace("Checklists.plist", in: folder.path)
    #expect(poll(&descriptor, 1, 0) == 0)
    watcher.closeInBackground()
    #expect(!watcher.drain())
  }

  @Test("an unwatched watcher is still stopped by closing it in the background")
  func closingStops() throws {
    let folder = StoreTestFolder()
    defer { folder.remove() }
    let watcher = try #require(FileWatcher.open(path: folder.path + "/Checklists.plist"))
    watcher.closeInBackground()
    watcher.closeInBackground()
    Self.replace("Checklists.plist", in: folder.path)
    #expect(!watcher.drain())
  }
}
