import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The few photos drawn lately, by photo and box size: a redraw never decodes again.
struct PhotoPictureCache: Equatable {
  /// How many pictures are kept (the form's, the picker's preview, the list's pane).
  static let capacity = 8
  private var pictures: [PhotoRequest: PhotoPicture] = [:]
  private var order: [PhotoRequest] = []

  subscript(request: PhotoRequest) -> PhotoPicture? { pictures[request] }

  /// Keeps a picture, forgetting the oldest beyond `capacity`.
  mutating func insert(_ picture: PhotoPicture, for request: PhotoRequest) {
    if pictures.updateValue(picture, forKey: request) == nil { order.append(request) }
    while order.count > Self.capacity { pictures[order.removeFirst()] = nil }
  }
}

/// Where a photo is drawn: its box on screen and what fills it.
struct PhotoBox: Equatable {
  var request: PhotoRequest
  var row: Int
  var column: Int
  /// The caption to show where the picture is not drawn (text mode).
  var caption: String
}

extension ChecklistsApp {
  /// The columns of a photo box beside the item form's fields (wide terminals).
  static func besidePhotoColumns(width: Int) -> Int? {
    width >= 100 ? min(width / 3, 48) : nil
  }

  /// The photo the item form shows: the chosen file, else the item's photo; nil for none.
  func formPhoto(_ form: ItemFormScreen) -> (PhotoReference, String)? {
    switch form.photo {
    case .remove: return nil
    case .attach(let path, let caption): return (.file(path), caption)
    case .keep:
      guard let name = form.original?.photo else { return nil }
      return (.stored(name), photoRowText(form).text)
    }
  }

  /// The width of the item form's fields: narrower on a wide terminal when a photo shows
  /// beside them.
  func itemFieldWidth(_ form: ItemFormScreen, width: Int) -> Int {
    let full = Self.formFieldWidth(width: width)
    guard options.photoColors != nil, formPhoto(form) != nil,
      let columns = Self.besidePhotoColumns(width: width)
    else { return full }
    return max(full - columns - 2, 10)
  }

  /// The item form's photo box: beside the fields on wide terminals, else under them when
  /// there are rows to spare; nil without a photo or room.
  func itemPhotoBox(_ form: ItemFormScreen, layout: ItemFormLayout, width: Int) -> PhotoBox? {
    guard let (photo, caption) = formPhoto(form), options.photoColors != nil else { return nil }
    let visible = layout.bottom - layout.top + 1
    if let columns = Self.besidePhotoColumns(width: width) {
      let rows = min(visible, max(columns / 2, 1))
      return PhotoBox(
        request: PhotoRequest(photo: photo, columns: columns, rows: rows), row: layout.top,
        column: width - columns - 1, caption: caption)
    }
    guard let place = layout.places[.photo] else { return nil }
    let first = place.row + 2
    let rows = min(layout.bottom - first + 1, Self.formFieldWidth(width: width) / 2)
    guard rows >= 3 else { return nil }
    return PhotoBox(
      request: PhotoRequest(
        photo: photo, columns: Self.formFieldWidth(width: width), rows: rows),
      row: first, column: Self.labelWidth, caption: caption)
  }

  /// The photo picker's preview box (under the caption in its right pane).
  func pickerPhotoBox(_ picker: PhotoPicker) -> PhotoBox? {
    guard options.photoColors != nil, let path = picker.previewPath,
      let caption = picker.previewCaption, caption.hasPrefix("[photo"),
      let previewWidth = Self.pickerPreviewWidth(width: width)
    else { return nil }
    let rows = min(height - 6, previewWidth / 2)
    guard rows >= 3 else { return nil }
    return PhotoBox(
      request: PhotoRequest(photo: .file(path), columns: previewWidth - 1, rows: rows), row: 5,
      column: width - previewWidth, caption: caption)
  }

  /// The picker's preview pane's width; nil on narrow terminals.
  static func pickerPreviewWidth(width: Int) -> Int? {
    width >= 60 ? min(width / 3, 40) : nil
  }

  /// The boxes on screen now, each wanting its picture.
  var shownPhotoBoxes: [PhotoBox] {
    guard !stack.hidesPhotos, !photosHidden else { return [] }
    for screen in stack.screens.reversed() {
      if let boxes = screen.photoBoxes(in: self) { return boxes }
      if screen.drawsContent { return [] }
    }
    return []
  }

  /// Asks for the pictures of the boxes on screen that are neither drawn nor being decoded.
  mutating func photoLoads() -> [Effect] {
    guard options.photoColors != nil else { return [] }
    var effects: [Effect] = []
    for box in shownPhotoBoxes
    where session.photoPictures[box.request] == nil
      && !session.photosRequested.contains(box.request)
    {
      session.photosRequested.insert(box.request)
      effects.append(.loadPhoto(box.request))
    }
    return effects
  }

  /// Draws a photo box: the picture centred in it with its caption under it, "loading…" while
  /// it is decoded, or the reason it cannot be shown.
  func drawPhoto(_ box: PhotoBox, into grid: inout CellGrid) {
    let request = box.request
    if photosHidden {
      grid.draw(
        "(hidden while in the background)", row: box.row, column: box.column,
        width: request.columns, style: CellStyle(color: .dim))
      return
    }
    guard let picture = session.photoPictures[request] else {
      grid.draw(
        "loading…", row: box.row + request.rows / 2, column: box.column + request.columns / 2 - 4,
        width: 8, style: CellStyle(color: .dim))
      return
    }
    if let image = picture.image {
      let rows = min(picture.rows, request.rows - 1, grid.height - 1 - box.row)
      let left = box.column + max((request.columns - picture.columns) / 2, 0)
      let columns = min(picture.columns, grid.width - left)
      guard rows > 0, columns > 0 else { return }
      for y in 0..<rows {
        grid.fill(row: box.row + y, column: left, width: columns, style: .plain)
      }
      grid.images.append(
        GridImage(image: image, row: box.row, column: left, columns: columns, rows: rows))
      let captionRow = box.row + rows
      if captionRow < grid.height - 1 {
        let width = min(DisplayWidth.of(picture.caption), request.columns)
        grid.draw(
          picture.caption, row: captionRow, column: box.column + (request.columns - width) / 2,
          width: request.columns, style: CellStyle(color: .dim))
      }
      return
    }
    if picture.isError || picture.cells.isEmpty {
      grid.drawWrappedField(
        TextField(picture.caption, multiline: true), row: box.row, column: box.column,
        width: request.columns, maxLines: request.rows,
        style: CellStyle(color: picture.isError ? .error : .dim), focused: false, fromTop: true)
      return
    }
    let rows = min(picture.rows, request.rows - 1, grid.height - 1 - box.row)
    let left = box.column + max((request.columns - picture.columns) / 2, 0)
    for y in 0..<max(rows, 0) {
      for x in 0..<min(picture.columns, grid.width - left) {
        grid[box.row + y, left + x] = picture.cells[y * picture.columns + x]
      }
    }
    let captionRow = box.row + max(rows, 0)
    if captionRow < grid.height - 1 {
      let width = min(DisplayWidth.of(picture.caption), request.columns)
      grid.draw(
        picture.caption, row: captionRow, column: box.column + (request.columns - width) / 2,
        width: request.columns, style: CellStyle(color: .dim))
    }
  }
}

extension ChecklistsApp {
  /// The width of a Checklist's preview pane: on terminals of 120 columns or more once the
  /// session has seen a photo (the list keeps its width as the selection moves); nil otherwise.
  var previewPaneWidth: Int? {
    guard width >= 120, session.hasPhotos, options.photoColors != nil else { return nil }
    return min(width / 3, 48)
  }

  /// The selected item's photo box in the preview pane.
  func previewPaneBox(_ state: OpenList, paneWidth: Int) -> (item: ChecklistItem?, box: PhotoBox?) {
    guard let list = dataModel.list(withID: state.listID),
      let index = state.browser.index(ofRow: state.browser.selected), index < list.items.count
    else { return (nil, nil) }
    let item = list.items[index]
    guard let name = item.photo else { return (item, nil) }
    let columns = paneWidth - 2
    let rows = min(height - 5, columns / 2)
    guard rows >= 3 else { return (item, nil) }
    // The caption comes with the picture (no file is read while drawing).
    let caption = name.fileName
    return (
      item,
      PhotoBox(
        request: PhotoRequest(photo: .stored(name), columns: columns, rows: rows), row: 3,
        column: width - paneWidth + 1, caption: caption)
    )
  }

  /// A Checklist on a wide terminal: the rows in the left part, the selected item's photo in
  /// a pane at the right.
  func renderChecklistWithPane(
    _ state: OpenList, paneWidth: Int, into grid: inout CellGrid, now: Date
  ) {
    let listWidth = grid.width - paneWidth - 1
    var left = CellGrid(width: listWidth, height: grid.height)
    renderChecklist(state, into: &left, now: now)
    for row in 0..<grid.height {
      for column in 0..<listWidth { grid[row, column] = left[row, column] }
    }
    let titleStyle = CellStyle(color: .title, attributes: [.bold])
    grid.fill(row: 0, column: listWidth, width: grid.width - listWidth, style: titleStyle)
    let dim = CellStyle(color: .dim)
    for row in 1..<(grid.height - 1) {
      grid.draw(glyphs.ascii ? "|" : "│", row: row, column: listWidth, width: 1, style: dim)
    }
    let (item, box) = previewPaneBox(state, paneWidth: paneWidth)
    let column = listWidth + 2
    if let item {
      grid.draw(
        item.text, row: 1, column: column, width: paneWidth - 2,
        style: CellStyle(color: .normal, attributes: [.bold]))
    }
    if let box {
      drawPhoto(box, into: &grid)
    } else if item != nil {
      grid.draw("No photo", row: 3, column: column, width: paneWidth - 2, style: dim)
    }
  }
}
