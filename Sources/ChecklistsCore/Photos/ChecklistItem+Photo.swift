import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

extension PlistKey {
  /// The item's photo: the file name of its copy in the Photos folder beside the data file
  /// (`Photo-<id>.<ext>`, see `PhotoName`).
  public static let photo: PlistKey = "photo"
}

extension ChecklistItem {
  /// The item's photo, or nil.
  ///
  /// Like the note, it is an extra key the iPhone app ignores. A `photo` value that is not a
  /// photo name of the exact shape (a newer version's, or a damaged one) reads as nil and is kept
  /// until a photo is set or removed. Setting nil removes the key.
  public var photo: PhotoName? {
    get {
      // Most items have no extra keys: no lookup for them.
      guard !unknownFields.isEmpty else { return nil }
      if case .string(let text)? = unknownFields[.photo] { return PhotoName(fileName: text) }
      return nil
    }
    set {
      unknownFields[.photo] = newValue.map { .string($0.fileName) }
    }
  }
}

extension DataModel {
  /// The photos the items of every list refer to.
  public var photoNames: Set<PhotoName> { Self.photoNames(in: lists) }

  /// Whether any item has a photo: stops at the first one, making no set.
  public var hasPhotos: Bool {
    lists.contains { list in
      list.items.withUnsafeBufferPointer { items in
        items.indices.contains { items[$0].photo != nil }
      }
    }
  }

  /// The photos the items of `lists` refer to.
  public static func photoNames(in lists: [Checklist]) -> Set<PhotoName> {
    var names = Set<PhotoName>()
    for list in lists {
      // Read in place: a copy of each item would retain and release all its texts.
      list.items.withUnsafeBufferPointer { items in
        for index in items.indices {
          if let photo = items[index].photo { names.insert(photo) }
        }
      }
    }
    return names
  }
}
