import ChecklistsCore
import ChecklistsImages
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// A command's photos: while it runs it holds every photo (so that no sweep elsewhere removes
/// one it may write back), and after its save it sweeps the copies nothing uses.
final class CommandPhotos: @unchecked Sendable {
  private let lock = ThreadLock()
  private var library: PhotoLibrary?
  private var hold: PhotoHold?

  /// The photos of the opened store's data file.
  func opened(store: ChecklistsStore) {
    let library = PhotoLibrary(dataFile: store.resolvedPath)
    lock.lock()
    defer { lock.unlock() }
    self.library = library
    // Without a Photos folder there is no photo anyone could lose.
    if hold == nil, library.folderExists {
      hold = try? PhotoHold.acquire(library, everything: true)
    }
  }

  /// Copies a photo into the Photos folder under the command's hold; returns its name.
  func attach(_ source: PhotoSource) throws(CLIError) -> PhotoName {
    lock.lock()
    defer { lock.unlock() }
    guard let library else { throw .failure("the data file is not open") }
    let current: PhotoHold
    do throws(PhotoError) {
      if let hold {
        current = hold
      } else {
        current = try PhotoHold.acquire(library, everything: true)
        hold = current
      }
      return try library.store(source, hold: current)
    } catch {
      throw .failure(error.message)
    }
  }

  /// After a save of a model using `saved`: ends the hold and removes the copies nothing uses
  /// any more. Cheap when there are none: a listing of the Photos folder (when there is one),
  /// compared with `saved`; the data file is read only when some copy is not in `saved` (one
  /// dropped now, or one the previous version in `.bak` still had at the last sweep). A sweep
  /// that fails is a warning: the save stands.
  func saved(_ saved: Set<PhotoName>, output: CLIOutput) {
    lock.lock()
    hold?.release()
    hold = nil
    let library = self.library
    lock.unlock()
    guard let library, library.folderExists else { return }
    do {
      let result = try library.sweep(knownReferences: saved)
      if !result.removed.isEmpty {
        ThumbnailCache(environment: ProcessInfo.processInfo.environment)
          .remove(photoIDs: Set(result.removed.map(\.id)))
      }
    } catch {
      output.error("warning: \(error.message)")
    }
  }
}

/// `photo`, and the `--photo` option of `add`.
enum PhotoCommands {
  static let photo = CommandSpec(
    name: "photo", positionals: ["LIST", "ITEM"], optionalPositionals: ["FILE"],
    flags: [.remove],
    summary: "Attach a photo to an item, remove it, or show where it is.",
    details: """
      With FILE (a JPEG, PNG, WebP or GIF image of at most 100 MB and 100 megapixels), a
      copy is stored as Photos/Photo-ID.EXT beside the data file and becomes the item's
      photo (replacing any). With --remove the item has no photo any more. With neither,
      prints the path of the item's photo and what it is, e.g. [photo 4032×3024 JPEG].
      A copy no item uses is deleted after the save (a running app keeps the photos of its
      session until it exits, for undo).
      """
  ) { arguments, context throws(CLIError) in
    let file = arguments.positionals.count > 2 ? arguments.positionals[2] : nil
    let remove = arguments.has(.remove)
    if file != nil && remove { throw .usage("give FILE or --remove, not both") }
    let source = try file.map { path throws(CLIError) in try readPhoto(path, context: context) }
    let (store, load) = try file == nil && !remove ? context.openToShow() : context.open()
    var model = load.model
    let list = try ListSelector.find(arguments.positionals[0], in: model)
    let index = try ItemSelector.find(arguments.positionals[1], in: list)
    let old = list.items[index]
    let output = context.output
    let library = PhotoLibrary(dataFile: store.resolvedPath)
    let itemName = "\"\(output.shown(old.text))\" in \(output.shown(list.name))"
    guard let source else {
      if !remove { return try describe(old, itemName: itemName, library: library, output: output) }
      guard old.photo != nil else {
        output.line("\(itemName) has no photo.")
        return 0
      }
      var item = old
      item.photo = nil
      if let change = model.replaceItem(listID: list.id, at: index, with: item) {
        model.apply(change)
      }
      let status = try context.save(model, store: store, state: load.state)
      if status == 0 { output.line("Removed the photo of \(itemName).") }
      return status
    }
    let name = try context.photos.attach(source.source)
    var item = old
    item.photo = name
    if let change = model.replaceItem(listID: list.id, at: index, with: item) {
      model.apply(change)
    }
    let status = try context.save(model, store: store, state: load.state)
    if status == 0 {
      let verb = old.photo == nil ? "Attached" : "Replaced the photo of"
      output.line(
        "\(verb) \(old.photo == nil ? "a photo to " : "")\(itemName): \(source.caption).")
    }
    return status
  }

  /// A photo file read and checked before the data file is opened.
  struct CheckedPhoto {
    var source: PhotoSource
    /// `[photo 4032×3024 JPEG]`, or the format alone when no image library can read it here.
    var caption: String
  }

  /// Reads FILE (`~` is the home folder, relative to the current folder) and checks that it is
  /// an image that can be shown; a missing image library only warns (the photo is stored).
  static func readPhoto(_ path: String, context: CommandContext) throws(CLIError) -> CheckedPhoto {
    let home = context.environment["HOME"] ?? PathText.accountHome()
    let expanded = path == "~" ? home : path.hasPrefix("~/") ? home + path.dropFirst(1) : path
    let full =
      expanded.hasPrefix("/")
      ? expanded : FileManager.default.currentDirectoryPath + "/" + expanded
    let source: PhotoSource
    do {
      source = try PhotoLibrary.readSource(full)
    } catch {
      var error = error
      error.path = path
      throw .failure(error.message)
    }
    do {
      // Decoded whole (small), not only its header: a file whose image data is damaged is
      // refused now rather than attached and then shown as unreadable.
      return CheckedPhoto(source: source, caption: try ImageDecoder.checkedCaption(source.bytes))
    } catch {
      if case .libraryMissing = error.kind {
        context.output.error("warning: \(error.message)")
        return CheckedPhoto(source: source, caption: "[photo \(source.format.displayName)]")
      }
      throw .failure("\(path): \(error.message)")
    }
  }

  /// Prints the photo's path and what it is; fails when it has none or it cannot be read.
  private static func describe(
    _ item: ChecklistItem, itemName: String, library: PhotoLibrary, output: CLIOutput
  ) throws(CLIError) -> Int32 {
    guard let name = item.photo else { throw .failure("\(itemName) has no photo") }
    output.line(output.shown(library.path(of: name)))
    let bytes: [UInt8]
    do {
      bytes = try library.read(name)
    } catch {
      throw .failure(error.message)
    }
    do {
      output.line(try ImageDecoder.probe(bytes).caption)
    } catch {
      throw .failure(error.message)
    }
    return 0
  }
}
