import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// `export` and `import`.
enum TransferCommands {
  /// The bytes of a file to import: only a regular file of sane size (a FIFO or a device
  /// would block or never end; `-` reads a pipe).
  static func readImportFile(_ path: String) throws(CLIError) -> Data {
    guard let fileStatus = try? SystemFileSystem().stat(path) else {
      throw .failure("could not read \(path): no such file")
    }
    guard fileStatus.kind == .regular, fileStatus.size <= ChecklistsStore.sizeLimit else {
      throw .failure("\(path) is not a regular file of at most 1 GiB (- reads standard input)")
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw .failure("could not read \(path)")
    }
    return data
  }

  /// Standard input to its end (`import -`: `export | ssh host checklists import -`), at most
  /// as much as a data file may hold.
  static func readStandardInput() throws(CLIError) -> Data {
    guard let input = ReadOnlyFile(path: "/dev/stdin"),
      let bytes = input.readToEnd(limit: Int(ChecklistsStore.sizeLimit))
    else {
      throw .failure("could not read standard input: \(String(cString: strerror(errno)))")
    }
    guard bytes.count <= ChecklistsStore.sizeLimit else {
      throw .failure("standard input holds more than 1 GiB")
    }
    return Data(bytes)
  }

  static let export = CommandSpec(
    name: "export", positionals: [], valueOptions: [(.format, "json|plist")],
    summary: "Print all lists as JSON (default) or as an XML plist (binary, with a note, when "
      + "XML cannot hold them).",
    details: "The JSON has the plist's keys (name, iconName, items; text, checked, dueDate, "
      + "shouldRemind, itemID) with ISO 8601 dates, hasDueDate: whether the item has a due "
      + "date (one was given, or it reminds), and note, repeat, repeatDay, repeatMinute, "
      + "remindBefore (the early reminder's lead time: 15m, 1h, 1d), parentItemID (the "
      + "itemID of the item it is a subtask of), priority (1-4 high, 5 medium, 6-9 low), tags "
      + "(an array of names) and photo (the absolute path of its copy) when the item has them. A binary plist is not written "
      + "to a terminal."
  ) { arguments, context throws(CLIError) in
    let format = arguments.value(.format) ?? "json"
    guard format == "json" || format == "plist" else {
      throw .usage("--format is json or plist, not \"\(format)\"")
    }
    let (store, load) = try context.openToShow()
    if format == "json" {
      let photos = PhotoLibrary(dataFile: store.resolvedPath)
      context.output.write(
        try JSONOutput.encode(load.model.lists.map { JSONOutput.List($0, photos: photos) }))
    } else {
      let encoded: EncodedChecklists
      do throws(FileFormatError) {
        encoded = try ChecklistsFileCoding.encode(load.model.lists, format: .xml)
      } catch {
        throw .failure("could not export: \(error.message)")
      }
      if encoded.format != .xml {
        let because = "saved as a binary property list because "
        let note = encoded.formatNote ?? because + "XML cannot store them"
        let reason = note.hasPrefix(because) ? String(note.dropFirst(because.count)) : note
        // As gzip does: binary bytes would only garble the terminal.
        if context.output.stdoutIsTerminal {
          throw .failure(
            "these lists need a binary plist (\(reason)), which is not written to a terminal: "
              + "send it to a file, e.g. checklists export --format plist > lists.plist")
        }
        // Said on stderr, as a save says it: stdout holds only the file.
        context.output.error("exported as a binary property list because " + reason)
      }
      context.output.write(encoded.data)
    }
    return 0
  }

  static let importFile = CommandSpec(
    name: "import", positionals: ["FILE"], flags: [.duplicate],
    summary: "Add the lists of a JSON or plist file (as `export` writes; - reads standard "
      + "input) to yours.",
    details: """
      Items get new item IDs. A file with any error is rejected whole; nothing changes (a
      repeat without a due date is an error, as in add). An item with a dueDate and no
      hasDueDate has that due date. An empty list name or item text, which new-list and add
      refuse, is imported as the file has it (export writes them), and said.
      Photos are copied
      in as the photo command does: from the JSON's photo path (relative to the file's
      folder), or for a plist from the Photos folder beside it (or this file's own); an item
      whose image cannot be read is imported without it, and said.
      A list that is already in your file (same name, same items) is skipped and named;
      --duplicate imports it again anyway. Importing into a file that does not exist yet
      creates it with just the imported lists.
      """
  ) { arguments, context throws(CLIError) in
    let path = arguments.positionals[0]
    let name = path == "-" ? "standard input" : PathText.name(of: path)
    let data = try path == "-" ? readStandardInput() : readImportFile(path)
    let lists: [Checklist]
    let photoPaths: [[String?]]
    do throws(FileFormatError) {
      (lists, photoPaths) = try ImportedLists.decode(data, from: path)
    } catch {
      throw .failure(error.shown(in: name))
    }
    let output = context.output
    guard !lists.isEmpty else {
      output.line("\(output.shown(name)) has no lists; nothing imported.")
      return 0
    }
    let (store, load) = try context.open()
    // A file that does not exist yet gets the imported lists only, not the first run's "List".
    var model = load.isFirstRun ? DataModel(nextItemID: load.model.nextItemID) : load.model
    let existing = model.lists
    var skipped: [String] = []
    var imported = 0
    var itemCount = 0
    // The lists taken as they came, for what is said about blank names and texts.
    var taken: [Checklist] = []
    for (listOffset, incoming) in lists.enumerated() {
      if !arguments.has(.duplicate),
        existing.contains(where: { ImportedLists.sameContent($0, incoming) })
      {
        skipped.append(incoming.name)
        continue
      }
      var list = model.makeList(name: incoming.name, iconName: incoming.iconName)
      list.unknownFields = incoming.unknownFields
      // The file's item IDs, each the ID its item gets here: a child follows its parent, so
      // its parent is renumbered before it.
      var newIDs: [Int: Int] = [:]
      for (itemOffset, item) in incoming.items.enumerated() {
        var fresh = model.makeItem(
          text: item.text, checked: item.checked, dueDate: item.dueDate,
          shouldRemind: item.shouldRemind, hasDueDate: item.hasDueDate)
        fresh.unknownFields = item.unknownFields
        if newIDs[item.itemID] == nil { newIDs[item.itemID] = fresh.itemID }
        if let parentID = item.parentItemID { fresh.parentItemID = newIDs[parentID] }
        if var source = photoPaths[listOffset][itemOffset] {
          // A plist exported from this very file: its photos are in this file's folder.
          if let name = item.photo, !FileManager.default.fileExists(atPath: source) {
            let own = PhotoLibrary(dataFile: store.resolvedPath).path(of: name)
            if FileManager.default.fileExists(atPath: own) { source = own }
          }
          // The photo is copied in as `photo FILE` would; one that cannot be read is left
          // out, and said.
          let place = "list \(listOffset + 1), item \(itemOffset + 1)"
          fresh.photo = nil
          do throws(CLIError) {
            let photo = try PhotoCommands.readPhoto(source, context: context)
            fresh.photo = try context.photos.attach(photo.source)
          } catch {
            output.error("\(place): imported without its photo: \(error.message)")
          }
        }
        list.insertItem(fresh)
        itemCount += 1
      }
      list.repairOutline()
      model.apply(model.insertList(list))
      imported += 1
      taken.append(incoming)
    }
    if let note = ImportedLists.blankNote(taken) { output.error(note) }
    if !skipped.isEmpty {
      // Ten names at most: a thousand made one line of 14 KB.
      var names = skipped.prefix(10).map { "\"\(output.shown($0))\"" }.joined(separator: ", ")
      if skipped.count > 10 { names += " and \(skipped.count - 10) more" }
      let count = skipped.count
      output.line(
        "Skipped \(count) list\(count == 1 ? "" : "s") already in your file (same name and "
          + "items): \(names); --duplicate imports \(count == 1 ? "it" : "them") anyway.")
    }
    guard imported > 0 else {
      output.line("Nothing imported from \(output.shown(name)).")
      return 0
    }
    let status = try context.save(model, store: store, state: load.state)
    if status == 0 {
      output.line(
        "Imported \(imported) list\(imported == 1 ? "" : "s") (\(itemCount) item"
          + "\(itemCount == 1 ? "" : "s")) from \(output.shown(name)).")
    }
    return status
  }
}

/// Reads lists to import from JSON (the `export` shape) or a plist, with key-path errors.
enum ImportedLists {
  /// The lists of the file at `path` (its bytes `data`), and for each item the path of the
  /// image to attach: the JSON's `photo` (relative to the file's folder when not absolute),
  /// or for a plist the photo of that name in the Photos folder beside the file. Names and
  /// texts that show nothing are kept (see `blankNote`).
  static func decode(_ data: Data, from path: String) throws(FileFormatError) -> (
    lists: [Checklist], photos: [[String?]]
  ) {
    let first = data.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
    let lists: [Checklist]
    var photos: [[String?]]
    let file = PathText.absolute(path, base: FileManager.default.currentDirectoryPath)
    if first == UInt8(ascii: "[") || first == UInt8(ascii: "{") {
      (lists, photos) = try decodeJSON(data)
      let folder = PathText.folder(of: file)
      photos = photos.map { row in
        row.map { photo in photo.map { PathText.absolute($0, base: folder) } }
      }
    } else {
      lists = try ChecklistsFileCoding.decode(data).lists
      let beside = PhotoLibrary(dataFile: file)
      photos = lists.map { list in list.items.map { $0.photo.map { beside.path(of: $0) } } }
    }
    return (lists, photos)
  }

  /// What `import` says about names and texts that show nothing (empty, or only spaces or
  /// invisible characters): `new-list` and `add` refuse them, but the file can hold them (the
  /// iPhone app takes a text of spaces) and `export` writes them, so a backup brings them
  /// back as they were; nil when there are none.
  static func blankNote(_ lists: [Checklist]) -> String? {
    let names = lists.count { $0.name.showsNothing }
    let texts = lists.reduce(0) { $0 + $1.items.count { $0.text.showsNothing } }
    var parts: [String] = []
    if names > 0 { parts.append("\(names) list\(names == 1 ? "" : "s") without a name") }
    if texts > 0 { parts.append("\(texts) item\(texts == 1 ? "" : "s") without text") }
    guard !parts.isEmpty else { return nil }
    return parts.joined(separator: " and ") + " imported as the file has them"
  }

  /// The lists of an `export` JSON, and each item's `photo` as written.
  private static func decodeJSON(_ data: Data) throws(FileFormatError) -> (
    lists: [Checklist], photos: [[String?]]
  ) {
    let object: JSONValue
    do {
      object = try JSONDecoder().decode(JSONValue.self, from: data)
    } catch {
      // Only now, once: where the text breaks the grammar, and what was expected there.
      guard let syntax = JSONSyntaxCheck.firstError(in: data) else {
        throw FileFormatError("not valid JSON")
      }
      throw FileFormatError(
        "not valid JSON at line \(syntax.position.line): \(syntax.reason)", reason: syntax.reason,
        at: syntax.position)
    }
    guard case .array(let array) = object else {
      throw FileFormatError("the top level should be an array of checklists but is \(kind(object))")
    }
    var lists: [Checklist] = []
    var photos: [[String?]] = []
    for (listOffset, element) in array.enumerated() {
      let listPath = "list \(listOffset + 1)"
      guard case .object(let dictionary) = element else {
        throw FileFormatError("\(listPath): should be a dictionary but is \(kind(element))")
      }
      let name: String = try field(dictionary, "name", listPath, required: true) ?? ""
      let namedPath = "\(listPath) (\"\(name)\")"
      let iconName: String =
        try field(dictionary, "iconName", namedPath) ?? IconName.noIcon.rawValue
      guard let rawItems = dictionary["items"] else {
        throw FileFormatError("\(namedPath): \"items\" is missing")
      }
      guard case .array(let itemArray) = rawItems else {
        throw FileFormatError("\(namedPath): \"items\" should be an array but is \(kind(rawItems))")
      }
      var list = Checklist(name: name, iconName: iconName)
      var listPhotos: [String?] = []
      for (itemOffset, itemElement) in itemArray.enumerated() {
        let itemPath = "\(namedPath), item \(itemOffset + 1)"
        guard case .object(let item) = itemElement else {
          throw FileFormatError("\(itemPath): should be a dictionary but is \(kind(itemElement))")
        }
        let text: String = try field(item, "text", itemPath, required: true) ?? ""
        let checked: Bool = try field(item, "checked", itemPath) ?? false
        let remind: Bool = try field(item, "shouldRemind", itemPath) ?? false
        // A hand-written item with a "dueDate" has that due date unless it says otherwise.
        let dated: Bool = try field(item, "hasDueDate", itemPath) ?? (item["dueDate"] != nil)
        if dated && item["dueDate"] == nil {
          throw FileFormatError("\(itemPath): \"hasDueDate\" is true but there is no \"dueDate\"")
        }
        var due = Date()
        if let rawDue = item["dueDate"] {
          guard case .string(let dueText) = rawDue, let parsed = parseISODate(dueText) else {
            throw FileFormatError(
              "\(itemPath): \"dueDate\" should be an ISO 8601 date but is \(kind(rawDue))")
          }
          due = parsed
        }
        // The file's itemID only links children to their parents (`import` gives new IDs).
        let itemID =
          try wholeNumber(item, "itemID", itemPath) ?? Int.min + list.items.count
        var imported = ChecklistItem(
          text: text, checked: checked, dueDate: due, shouldRemind: remind, hasDueDate: dated,
          itemID: itemID)
        imported.parentItemID = try wholeNumber(item, "parentItemID", itemPath)
        if let priority = try integer(item, "priority", itemPath, in: 0...9) {
          imported.priority = priority
        }
        imported.tags = try tagNames(item, itemPath)
        imported.note = try field(item, "note", itemPath) ?? ""
        if let ruleText: String = try field(item, "repeat", itemPath) {
          guard let rule = RepeatRule(parsing: ruleText) else {
            throw FileFormatError(
              "\(itemPath): \"repeat\" should be a rule such as \"weekly\" or \"every 2 weeks\" "
                + "but is \"\(ruleText)\"")
          }
          imported.repeatRule = rule
          // The day and time the series keeps; without them a monthly item on the 31st that
          // is now on the 28th would stay on the 28th.
          imported.repeatAnchorDay = try integer(item, "repeatDay", itemPath, in: 1...31)
          imported.repeatAnchorMinute = try integer(item, "repeatMinute", itemPath, in: 0...1439)
        }
        let leadText: String? = try field(item, "remindBefore", itemPath)
        if let leadText {
          guard let lead = ReminderLead(parsing: leadText) else {
            throw FileFormatError(
              "\(itemPath): \"remindBefore\" should be a lead time such as \"15m\", \"1h\" or "
                + "\"1d\" but is \"\(leadText)\"")
          }
          imported.reminderLead = lead
        }
        let validity = ItemValidity(
          hasDueDate: imported.showsDueDate, repeats: imported.repeatRule != nil,
          lead: leadText != nil)
        if let problem = validity.problem {
          throw FileFormatError(problem.message(for: .importedItem(path: itemPath)))
        }
        listPhotos.append(try field(item, "photo", itemPath))
        list.insertItem(imported)
      }
      lists.append(list)
      photos.append(listPhotos)
    }
    return (lists, photos)
  }

  /// Whether two lists hold the same: name, and items with the same text, check mark,
  /// reminder, note, repeat rule and due date (to the second, as the JSON export keeps it; only when it counts).
  static func sameContent(_ lhs: Checklist, _ rhs: Checklist) -> Bool {
    guard lhs.name == rhs.name, lhs.items.count == rhs.items.count,
      lhs.depths() == rhs.depths()
    else { return false }
    for (left, right) in zip(lhs.items, rhs.items) {
      guard left.text == right.text, left.checked == right.checked,
        left.shouldRemind == right.shouldRemind, left.showsDueDate == right.showsDueDate,
        left.note == right.note, left.repeatRule == right.repeatRule,
        left.reminderLead == right.reminderLead, left.priority == right.priority,
        left.tags == right.tags
      else { return false }
      if left.showsDueDate && wholeSeconds(left.dueDate) != wholeSeconds(right.dueDate) {
        return false
      }
    }
    return true
  }

  private static func wholeSeconds(_ date: Date) -> Double {
    date.timeIntervalSinceReferenceDate.rounded(.down)
  }

  private static func field<T>(
    _ dictionary: [String: JSONValue], _ key: String, _ path: String, required: Bool = false
  ) throws(FileFormatError) -> T? {
    guard let value = dictionary[key] else {
      if required { throw FileFormatError("\(path): \"\(key)\" is missing") }
      return nil
    }
    if T.self == Bool.self {
      if case .bool(let flag) = value { return flag as? T }
      throw FileFormatError("\(path): \"\(key)\" should be true/false but is \(kind(value))")
    }
    if T.self == String.self, case .string(let string) = value { return string as? T }
    throw FileFormatError("\(path): \"\(key)\" should be a string but is \(kind(value))")
  }

  private static func integer(
    _ dictionary: [String: JSONValue], _ key: String, _ path: String, in range: ClosedRange<Int>
  ) throws(FileFormatError) -> Int? {
    guard let value = dictionary[key] else { return nil }
    guard case .number(let number) = value, let whole = Int(exactly: number),
      range.contains(whole)
    else {
      var found = kind(value)
      if case .number(let number) = value {
        found = number.rounded() == number && abs(number) < 1e15 ? "\(Int(number))" : "\(number)"
      }
      throw FileFormatError(
        "\(path): \"\(key)\" should be a whole number from \(range.lowerBound) to "
          + "\(range.upperBound) but is \(found)")
    }
    return whole
  }

  /// A whole number of any size (an item ID), or nil when the key is absent.
  private static func wholeNumber(
    _ dictionary: [String: JSONValue], _ key: String, _ path: String
  ) throws(FileFormatError) -> Int? {
    guard let value = dictionary[key] else { return nil }
    guard case .number(let number) = value, let whole = Int(exactly: number) else {
      throw FileFormatError("\(path): \"\(key)\" should be a whole number but is \(kind(value))")
    }
    return whole
  }

  /// The `tags` array of an item: strings, none empty.
  private static func tagNames(_ dictionary: [String: JSONValue], _ path: String)
    throws(FileFormatError) -> [String]
  {
    guard let value = dictionary["tags"] else { return [] }
    guard case .array(let elements) = value else {
      throw FileFormatError("\(path): \"tags\" should be an array of strings but is \(kind(value))")
    }
    var names: [String] = []
    for (offset, element) in elements.enumerated() {
      guard case .string(let name) = element, !name.isEmpty else {
        let found = element.isEmptyString ? "an empty string" : kind(element)
        throw FileFormatError(
          "\(path): \"tags\" item \(offset + 1) should be a tag name but is \(found)")
      }
      names.append(name)
    }
    return names
  }

  private static func kind(_ value: JSONValue) -> String {
    switch value {
    case .string: return "a string"
    case .bool: return "a boolean"
    case .number: return "a number"
    case .array: return "an array"
    case .object: return "a dictionary"
    case .null: return "null"
    }
  }

  static func parseISODate(_ text: String) -> Date? {
    InternetDateTime.parse(text)
  }
}

/// A JSON value as it was read, for errors that name what was found.
enum JSONValue: Decodable {
  case string(String)
  case number(Double)
  case bool(Bool)
  case array([JSONValue])
  case object([String: JSONValue])
  case null

  /// Whether this is the string "".
  var isEmptyString: Bool {
    if case .string(let text) = self { return text.isEmpty }
    return false
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let flag = try? container.decode(Bool.self) {
      self = .bool(flag)
    } else if let number = try? container.decode(Double.self) {
      self = .number(number)
    } else if let text = try? container.decode(String.self) {
      self = .string(text)
    } else if let array = try? container.decode([JSONValue].self) {
      self = .array(array)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }
}
