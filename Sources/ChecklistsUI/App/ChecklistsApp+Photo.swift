import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The item form's Photo row and its file picker: choosing, replacing and removing the photo,
/// a pasted or dropped path, and what Done stores.
extension ChecklistsApp {
  // MARK: - The Photo row

  /// The photo access, or a status line saying photos are not available here.
  mutating func photoAccess() -> PhotoAccess? {
    if let access = options.photos { return access }
    status = StatusMessage(text: "Photos are not available here", isError: true)
    return nil
  }

  /// `choose-photo` and `remove-photo` on the Photo row.
  mutating func performOnPhotoRow(_ action: KeyAction, form: inout ItemFormScreen) {
    guard form.focus == .photo else { return }
    switch action {
    case .choosePhoto:
      guard let access = photoAccess() else { return }
      var folder = access.startFolder()
      if case .attach(let path, _) = form.photo { folder = Self.parentFolder(of: path) }
      var picker = PhotoPicker(folder: folder)
      openFolder(folder, in: &picker, access: access)
      if case .attach(let path, _) = form.photo {
        select(name: Self.lastComponent(of: path), in: &picker, access: access)
      }
      stack.push(PhotoPickerScreen(picker: picker))
    case .removePhoto:
      if case .attach = form.photo {
        form.photo = form.original?.photo == nil ? .keep : .remove
      } else if form.original?.photo != nil {
        form.photo = .remove
      } else {
        status = StatusMessage(text: "The item has no photo", isError: false)
        return
      }
      status = StatusMessage(
        text: form.original?.photo != nil && form.photo == .remove
          ? "The photo goes when you save the item" : "No photo", isError: false)
    default: break
    }
  }

  /// Attaches a file: its caption is read now (refused with a message when it is no image);
  /// all of it is read on a worker thread (`photoChecked` takes it back if it is damaged), so
  /// that a big image does not hold up the keys.
  mutating func attachPhoto(_ path: String, form: inout ItemFormScreen) -> Bool {
    guard let access = photoAccess() else { return false }
    switch access.fileCaption(path) {
    case .success(let caption):
      form.photoBeforeAttach = form.photo
      form.photo = .attach(path: path, caption: caption)
      let check = access.check
      queuedEffects.append(
        .work(
          BackgroundWork(name: "check " + path) {
            .photoChecked(path: path, problem: check(path)?.message)
          }))
      status = StatusMessage(
        text: "Photo \(Self.lastComponent(of: path)): \(caption) (saved with the item)",
        isError: false)
      return true
    case .failure(let error):
      status = StatusMessage(text: error.message, isError: true)
      return false
    }
  }

  /// A chosen file was read whole: one found damaged is taken off the form again (if it is
  /// still the one chosen), and the status line says why.
  mutating func photoChecked(_ path: String, problem: String?) {
    guard let problem, case .attach(let chosen, _)? = itemForm?.photo, chosen == path
    else { return }
    stack.update(ItemFormScreen.self) { $0.photo = $0.photoBeforeAttach }
    status = StatusMessage(text: "Can't attach the photo: \(problem)", isError: true)
  }

  /// What the Photo row shows: "None", the photo's caption, or the file to attach.
  func photoRowText(_ form: ItemFormScreen) -> (text: String, attached: Bool) {
    switch form.photo {
    case .remove: return ("None (removed when you save)", false)
    case .attach(let path, let caption): return ("\(caption) \(Self.lastComponent(of: path))", true)
    case .keep:
      guard let name = form.original?.photo else { return ("None", false) }
      return (form.photoCaption ?? options.photos?.caption(name) ?? name.fileName, true)
    }
  }

  /// Done: the photo the item gets (the chosen file copied into the Photos folder), or the
  /// error that keeps the form open.
  func storedPhoto(_ form: ItemFormScreen) -> Result<PhotoName?, PhotoAccessError> {
    switch form.photo {
    case .keep: return .success(form.original?.photo)
    case .remove: return .success(nil)
    case .attach(let path, _):
      guard let access = options.photos else {
        return .failure(PhotoAccessError(message: "Photos are not available here"))
      }
      return access.store(path).map { Optional($0) }
    }
  }

  /// The part of an edit message about the photo: "photo added", "photo replaced", "photo
  /// removed".
  static func photoChange(from old: ChecklistItem, to new: ChecklistItem) -> String? {
    guard old.photo != new.photo else { return nil }
    if old.photo == nil { return "photo added" }
    return new.photo == nil ? "photo removed" : "photo replaced"
  }

  // MARK: - Paste and drop

  /// A pasted or dropped file's path while the item form is open on a row that takes no text
  /// (Photo, Remind Me, Repeat): attaches the file when the text is one path to an image
  /// (quoted, `file://`, with backslash escapes); false when the text is something else, or
  /// the row takes text (Text, Notes, Due Date get the path as text, with a hint).
  mutating func pastePhotoPath(_ text: String, form: inout ItemFormScreen) -> Bool {
    guard let access = options.photos,
      let path = Self.pastedPath(text, home: access.home),
      PictureFolder.isImageName(path) || form.focus == .photo,
      case .success = access.fileCaption(path)
    else { return false }
    switch form.focus {
    case .text, .note, .due, .tags:
      status = StatusMessage(
        text: "Pasted as text; pasted or dropped on the Photo row, an image's path attaches it",
        isError: false)
      return false
    case .remind, .repeat, .priority, .photo:
      break
    }
    form.focus = .photo
    return attachPhoto(path, form: &form)
  }

  /// The path in a paste, when it is one: `'/a b.jpg'`, `"/a b.jpg"`, `/a\ b.jpg`,
  /// `file:///a%20b.jpg`, `~/x.png`; nil for text that is not one absolute path.
  static func pastedPath(_ text: String, home: String?) -> String? {
    var value = text.trimmingWhitespace()
    guard !value.isEmpty, !value.utf8.contains(UInt8(ascii: "\n")) else { return nil }
    if value.count >= 2, let first = value.first, first == "'" || first == "\"",
      value.last == first
    {
      value = String(value.dropFirst().dropLast())
    } else if value.hasPrefix("file://") {
      var rest = value.dropFirst("file://".count)
      if rest.hasPrefix("localhost/") { rest = rest.dropFirst("localhost".count) }
      guard rest.hasPrefix("/"), let decoded = TextMatching.removingPercentEncoding(String(rest))
      else {
        return nil
      }
      value = decoded
    } else {
      var unescaped = ""
      var escaping = false
      for character in value {
        if escaping {
          unescaped.append(character)
          escaping = false
        } else if character == "\\" {
          escaping = true
        } else {
          unescaped.append(character)
        }
      }
      value = unescaped
    }
    if value == "~" || value.hasPrefix("~/") {
      guard let home else { return nil }
      value = home + value.dropFirst()
    }
    guard value.hasPrefix("/"), !value.utf8.contains(0) else { return nil }
    return value
  }

  // MARK: - The picker

  /// Closes the photo picker, if open (focus lost, suspend): no folder's names stay on screen.
  mutating func closePhotoPicker() {
    stack.remove(PhotoPickerScreen.self)
  }

  /// Keys on the picker: pick, back, parent folder, complete, motions.
  mutating func performInPhotoPicker(_ action: KeyAction, picker: inout PhotoPicker)
    -> PhotoPickerOutcome
  {
    guard let access = options.photos else { return .stay }
    if let motion = action.motion {
      picker.selected = motion.target(
        from: picker.selected, count: picker.rows.count, page: photoPickerRows)
      updatePreview(&picker, access: access)
      return .stay
    }
    switch action {
    case .closePicker:
      return .close
    case .parentFolder:
      guard picker.filter.text.isEmpty else { return .typing }
      goToParent(&picker, access: access)
    case .completePath:
      completePath(&picker, access: access)
    case .pick:
      let typed = picker.filter.text
      if typed.utf8.contains(UInt8(ascii: "/")) || typed.hasPrefix("~") {
        let path = Self.resolve(typed, in: picker.folder, home: access.home)
        if PictureFolder.isFolder(path) {
          openFolder(path, in: &picker, access: access)
          return .stay
        }
        if case .success = access.fileCaption(path) { return .attach(path) }
      }
      guard picker.rows.indices.contains(picker.selected) else {
        status = StatusMessage(text: "Nothing to pick here", isError: false)
        return .stay
      }
      let entry = picker.entries[picker.rows[picker.selected]]
      let path = Self.join(picker.folder, entry.name)
      if entry.isFolder {
        openFolder(path, in: &picker, access: access)
      } else {
        return .attach(path)
      }
    default: break
    }
    return .stay
  }

  /// Typing in the picker's filter: the rows follow.
  func typeInPhotoPicker(_ key: Key, picker: inout PhotoPicker) {
    guard let access = options.photos else { return }
    let before = picker.filter.text
    _ = picker.filter.handle(key)
    if picker.filter.text != before { refilter(&picker, access: access) }
  }

  /// A paste into the picker's filter (a path to complete or open).
  func pasteInPhotoPicker(_ text: String, picker: inout PhotoPicker) {
    guard let access = options.photos else { return }
    picker.filter.insert(text.trimmingLineBreaks())
    refilter(&picker, access: access)
  }

  /// Lists a folder (once: typing filters the list in memory).
  func openFolder(_ path: String, in picker: inout PhotoPicker, access: PhotoAccess) {
    picker.folder = Self.normalized(path)
    picker.filter = TextField()
    picker.selected = 0
    switch access.list(picker.folder) {
    case .success(let entries):
      picker.entries = entries
      picker.error = nil
    case .failure(let error):
      picker.entries = []
      picker.error = error.message
    }
    picker.folded = picker.entries.map { $0.name.lowercased() }
    picker.rows = []
    refilter(&picker, access: access)
  }

  /// The rows that match the filter (the part after its last `/`), case-insensitively.
  func refilter(_ picker: inout PhotoPicker, access: PhotoAccess) {
    let typed = picker.filter.text
    let start = typed.lastIndex(of: "/").map { typed.index(after: $0) } ?? typed.startIndex
    let needle = typed[start...].lowercased()
    let selectedName =
      picker.rows.indices.contains(picker.selected)
      ? picker.entries[picker.rows[picker.selected]].name : nil
    if needle.isEmpty {
      picker.rows = Array(picker.entries.indices)
    } else {
      // Folded as search folds: "cafe" and "café" find a name spelled either way, composed
      // or not (as macOS writes names).
      var matcher = FoldedMatcher(needle)
      picker.rows = picker.folded.indices.filter { matcher.matches(picker.folded[$0]) }
      // Names that start with what was typed come first.
      let starting = picker.rows.filter { picker.folded[$0].hasPrefix(needle) }
      if !starting.isEmpty, starting.count < picker.rows.count {
        let rest = picker.rows.filter { !picker.folded[$0].hasPrefix(needle) }
        picker.rows = starting + rest
      }
    }
    picker.selected =
      selectedName.flatMap { name in picker.rows.firstIndex { picker.entries[$0].name == name } }
      ?? 0
    if !needle.isEmpty { picker.selected = 0 }
    updatePreview(&picker, access: access)
  }

  /// Reads the caption of the highlighted image (once per highlight).
  func updatePreview(_ picker: inout PhotoPicker, access: PhotoAccess) {
    guard picker.rows.indices.contains(picker.selected) else {
      picker.previewPath = nil
      picker.previewCaption = nil
      return
    }
    let entry = picker.entries[picker.rows[picker.selected]]
    guard !entry.isFolder else {
      picker.previewPath = nil
      picker.previewCaption = nil
      return
    }
    let path = Self.join(picker.folder, entry.name)
    guard path != picker.previewPath else { return }
    picker.previewPath = path
    switch access.fileCaption(path) {
    case .success(let caption): picker.previewCaption = caption
    case .failure(let error): picker.previewCaption = error.message
    }
  }

  /// Backspace or Left with an empty filter: the parent folder, its child highlighted.
  func goToParent(_ picker: inout PhotoPicker, access: PhotoAccess) {
    guard picker.folder != "/" else { return }
    let child = Self.lastComponent(of: picker.folder)
    openFolder(Self.parentFolder(of: picker.folder), in: &picker, access: access)
    select(name: child, in: &picker, access: access)
  }

  /// Highlights the entry called `name`, when it shows.
  func select(name: String, in picker: inout PhotoPicker, access: PhotoAccess) {
    if let row = picker.rows.firstIndex(where: { picker.entries[$0].name == name }) {
      picker.selected = row
      updatePreview(&picker, access: access)
    }
  }

  /// Tab: completes the typed path like a shell. A folder part (`../x/`, `~/`, `/tmp/`) opens
  /// that folder; then the name is completed as far as the matching entries agree: one folder
  /// opens, one image is highlighted, several extend the text to their common start.
  mutating func completePath(_ picker: inout PhotoPicker, access: PhotoAccess) {
    var typed = picker.filter.text
    if typed == "~" { typed = "~/" }
    if let slash = typed.lastIndex(of: "/") {
      let folderPart = String(typed[...slash])
      let rest = String(typed[typed.index(after: slash)...])
      let folder = Self.resolve(folderPart, in: picker.folder, home: access.home)
      guard PictureFolder.isFolder(folder) else {
        status = StatusMessage(text: "No folder \(folderPart)", isError: true)
        return
      }
      if folder != picker.folder { openFolder(folder, in: &picker, access: access) }
      typed = rest
    }
    let matching = picker.entries.indices.filter { picker.entries[$0].name.hasPrefix(typed) }
    let matches =
      matching.isEmpty
      ? picker.entries.indices.filter { picker.folded[$0].hasPrefix(typed.lowercased()) }
      : matching
    guard !matches.isEmpty else {
      picker.filter = TextField(typed)
      refilter(&picker, access: access)
      status = StatusMessage(text: "Nothing starts with \(quoted(typed))", isError: false)
      return
    }
    if matches.count == 1 {
      let entry = picker.entries[matches[0]]
      if entry.isFolder {
        openFolder(Self.join(picker.folder, entry.name), in: &picker, access: access)
      } else {
        picker.filter = TextField(entry.name)
        refilter(&picker, access: access)
        select(name: entry.name, in: &picker, access: access)
      }
      return
    }
    var common = picker.entries[matches[0]].name
    for index in matches.dropFirst() {
      common = TextMatching.commonPrefix(common, picker.entries[index].name)
    }
    picker.filter = TextField(common.count >= typed.count ? common : typed)
    refilter(&picker, access: access)
    status = StatusMessage(text: "\(matches.count) names start so", isError: false)
  }

  /// How many entries the picker shows at once.
  var photoPickerRows: Int { max(height - 4, 1) }

  // MARK: - Paths

  /// `name` in `folder`.
  static func join(_ folder: String, _ name: String) -> String {
    folder == "/" ? "/" + name : folder + "/" + name
  }

  /// The folder a path is in (`/` for `/x`).
  static func parentFolder(of path: String) -> String {
    let trimmed = normalized(path)
    guard let slash = trimmed.lastIndex(of: "/"), slash != trimmed.startIndex else { return "/" }
    return String(trimmed[..<slash])
  }

  /// A path's last part.
  static func lastComponent(of path: String) -> String {
    let trimmed = normalized(path)
    guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
    return String(trimmed[trimmed.index(after: slash)...])
  }

  /// A typed path made absolute: `~` is the home folder, a relative path is in `folder`.
  static func resolve(_ typed: String, in folder: String, home: String?) -> String {
    if typed == "~" || typed.hasPrefix("~/"), let home {
      return normalized(home + typed.dropFirst())
    }
    return normalized(typed.hasPrefix("/") ? typed : join(folder, typed))
  }

  /// `.` and `..` taken out, doubled and trailing slashes too (no symbolic link is resolved).
  static func normalized(_ path: String) -> String {
    var parts: [Substring] = []
    for part in path.split(separator: "/") {
      if part == "." { continue }
      if part == ".." {
        _ = parts.popLast()
        continue
      }
      parts.append(part)
    }
    return "/" + parts.joined(separator: "/")
  }
}

extension ChecklistsApp {
  /// What the help says about the Photo row and the picker besides their keys.
  static func photoNotes(_ screen: KeyScreen) -> [(keys: String, what: String)] {
    switch screen {
    case .photo:
      return [
        (
          "Photo",
          "a JPEG, PNG, WebP or GIF image; pasting or dropping an image file's path onto the "
            + "form attaches it too; the copy is made when you save the item (cancel leaves "
            + "nothing behind) and undo brings the old photo back"
        )
      ]
    case .photoPicker:
      return [
        (
          "typing",
          "filters the names; a path (~/, ../, /tmp/) with Tab completes like a shell; Enter "
            + "on a typed path opens or picks it"
        )
      ]
    default: return []
    }
  }

  /// The status-line hints on the Photo row.
  func photoHints(_ form: ItemFormScreen) -> [Hint] {
    func hint(_ action: KeyAction, _ label: String, _ rank: Int) -> Hint {
      Hint(actions: [action], label: label, dropRank: rank)
    }
    var hints = [hint(.choosePhoto, photoRowText(form).attached ? "replace" : "choose", 0)]
    if photoRowText(form).attached { hints.append(hint(.removePhoto, "remove", 1)) }
    hints += [
      hint(.cancel, "cancel", 0), hint(.nextField, "next field", 3), hint(.help, "help", 2),
    ]
    return hints
  }
}
