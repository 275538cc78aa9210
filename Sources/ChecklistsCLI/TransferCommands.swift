import ChecklistsCore
import Foundation

/// `export` and `import`.
enum TransferCommands {
  static let export = CommandSpec(
    name: "export", positionals: [], valueOptions: [("--format", "json|plist")],
    summary: "Print all lists as JSON (default) or as an XML plist.",
    details: "The JSON has the plist's keys (name, iconName, items; text, checked, dueDate, "
      + "shouldRemind, itemID) with ISO 8601 dates."
  ) { arguments, context throws(CLIError) in
    let format = arguments.options["--format"] ?? "json"
    guard format == "json" || format == "plist" else {
      throw .usage("--format is json or plist, not \"\(format)\"")
    }
    let (_, load) = try context.openToShow()
    if format == "json" {
      context.output.write(try JSONOutput.encode(load.model.lists.map(JSONOutput.List.init)))
    } else {
      do throws(FileFormatError) {
        context.output.write(try ChecklistsFileCoding.encode(load.model.lists, format: .xml).data)
      } catch {
        throw .failure("could not export: \(error.message)")
      }
    }
    return 0
  }

  static let importFile = CommandSpec(
    name: "import", positionals: ["FILE"],
    summary: "Add the lists of a JSON or plist file (as `export` writes) to yours.",
    details: "Items get new item IDs. A file with any error is rejected whole; nothing changes."
  ) { arguments, context throws(CLIError) in
    let path = arguments.positionals[0]
    let name = (path as NSString).lastPathComponent
    // Only regular files of sane size: a FIFO or a device would block or never end.
    guard let fileStatus = try? SystemFileSystem().stat(path) else {
      throw .failure("could not read \(path): no such file")
    }
    guard fileStatus.kind == .regular, fileStatus.size <= ChecklistsStore.sizeLimit else {
      throw .failure("\(path) is not a regular file of at most 1 GiB")
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw .failure("could not read \(path)")
    }
    let lists: [Checklist]
    do throws(FileFormatError) {
      lists = try ImportedLists.decode(data)
    } catch {
      throw .failure("\(name): \(error.message)")
    }
    let (store, load) = try context.open()
    var model = load.model
    var itemCount = 0
    for imported in lists {
      var list = model.makeList(name: imported.name, iconName: imported.iconName)
      list.unknownFields = imported.unknownFields
      for item in imported.items {
        var fresh = model.makeItem(
          text: item.text, checked: item.checked, dueDate: item.dueDate,
          shouldRemind: item.shouldRemind)
        fresh.unknownFields = item.unknownFields
        list.insertItem(fresh)
        itemCount += 1
      }
      model.apply(model.insertList(list))
    }
    guard !lists.isEmpty else {
      context.output.line("\(context.output.shown(name)) has no lists; nothing imported.")
      return 0
    }
    let status = try context.save(model, store: store, state: load.state)
    if status == 0 {
      context.output.line(
        "Imported \(lists.count) list\(lists.count == 1 ? "" : "s") (\(itemCount) item"
          + "\(itemCount == 1 ? "" : "s")) from \(context.output.shown(name)).")
    }
    return status
  }
}

/// Reads lists to import from JSON (the `export` shape) or a plist, with key-path errors.
enum ImportedLists {
  static func decode(_ data: Data) throws(FileFormatError) -> [Checklist] {
    let first = data.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
    guard first == UInt8(ascii: "[") || first == UInt8(ascii: "{") else {
      return try ChecklistsFileCoding.decode(data).lists
    }
    let object: Any
    do {
      object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    } catch {
      throw FileFormatError("not valid JSON")
    }
    guard let array = object as? [Any] else {
      throw FileFormatError("the top level should be an array of checklists but is \(kind(object))")
    }
    var lists: [Checklist] = []
    for (listOffset, element) in array.enumerated() {
      let listPath = "list \(listOffset + 1)"
      guard let dictionary = element as? [String: Any] else {
        throw FileFormatError("\(listPath): should be a dictionary but is \(kind(element))")
      }
      let name: String = try field(dictionary, "name", listPath, required: true) ?? ""
      let namedPath = "\(listPath) (\"\(name)\")"
      let iconName: String =
        try field(dictionary, "iconName", namedPath) ?? IconName.noIcon.rawValue
      guard let rawItems = dictionary["items"] else {
        throw FileFormatError("\(namedPath): \"items\" is missing")
      }
      guard let itemArray = rawItems as? [Any] else {
        throw FileFormatError("\(namedPath): \"items\" should be an array but is \(kind(rawItems))")
      }
      var list = Checklist(name: name, iconName: iconName)
      for (itemOffset, itemElement) in itemArray.enumerated() {
        let itemPath = "\(namedPath), item \(itemOffset + 1)"
        guard let item = itemElement as? [String: Any] else {
          throw FileFormatError("\(itemPath): should be a dictionary but is \(kind(itemElement))")
        }
        let text: String = try field(item, "text", itemPath, required: true) ?? ""
        let checked: Bool = try field(item, "checked", itemPath) ?? false
        let remind: Bool = try field(item, "shouldRemind", itemPath) ?? false
        var due = Date()
        if let rawDue = item["dueDate"] {
          guard let dueText = rawDue as? String, let parsed = parseISODate(dueText) else {
            throw FileFormatError(
              "\(itemPath): \"dueDate\" should be an ISO 8601 date but is \(kind(rawDue))")
          }
          due = parsed
        }
        list.insertItem(
          ChecklistItem(text: text, checked: checked, dueDate: due, shouldRemind: remind, itemID: 0)
        )
      }
      lists.append(list)
    }
    return lists
  }

  private static func field<T>(
    _ dictionary: [String: Any], _ key: String, _ path: String, required: Bool = false
  ) throws(FileFormatError) -> T? {
    guard let value = dictionary[key] else {
      if required { throw FileFormatError("\(path): \"\(key)\" is missing") }
      return nil
    }
    if T.self == Bool.self {
      if let number = value as? NSNumber, isBoolean(number) { return number.boolValue as? T }
      throw FileFormatError("\(path): \"\(key)\" should be true/false but is \(kind(value))")
    }
    if T.self == String.self, let string = value as? String { return string as? T }
    throw FileFormatError("\(path): \"\(key)\" should be a string but is \(kind(value))")
  }

  private static func isBoolean(_ number: NSNumber) -> Bool {
    String(cString: number.objCType) == "c" || type(of: number) == type(of: NSNumber(value: true))
  }

  private static func kind(_ value: Any) -> String {
    switch value {
    case is String: return "a string"
    case let number as NSNumber: return isBoolean(number) ? "a boolean" : "a number"
    case is [Any]: return "an array"
    case is [String: Any]: return "a dictionary"
    case is NSNull: return "null"
    default: return "something else"
    }
  }

  static func parseISODate(_ text: String) -> Date? {
    let formatter = ISO8601DateFormatter()
    if let date = formatter.date(from: text) { return date }
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.date(from: text)
  }
}
