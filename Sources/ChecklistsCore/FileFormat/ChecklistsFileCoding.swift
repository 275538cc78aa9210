import Foundation

/// A decoded `Checklists.plist`: the lists and the format the file was in.
public struct ChecklistsDocument: Equatable, Sendable {
  /// The lists, in file order.
  public var lists: [Checklist]
  /// The format the bytes were in.
  public var format: PlistFormat

  /// Creates a document.
  public init(lists: [Checklist], format: PlistFormat) {
    self.lists = lists
    self.format = format
  }
}

/// The bytes of a `Checklists.plist`, and the format actually used.
public struct EncodedChecklists: Sendable {
  /// The file's bytes.
  public var data: Data
  /// The format written; binary when XML was asked for but the text cannot be XML.
  public var format: PlistFormat
  /// Why the format differs from the one asked for, to tell the user; nil when it does not.
  public var formatNote: String?
}

/// What is wrong with a file's content, with the key path ("list 2 ("Groceries"), item 3: …").
public struct FileFormatError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The human-readable reason, without the file name.
  public var message: String

  /// Creates an error with its message.
  public init(_ message: String) { self.message = message }

  /// The message.
  public var description: String { message }
}

/// Reads and writes the iPhone app's `Checklists.plist` (a top-level array of checklists).
public enum ChecklistsFileCoding {
  /// Decodes a file's bytes, binary or XML.
  public static func decode(_ data: Data) throws(FileFormatError) -> ChecklistsDocument {
    // Placeholder built on Foundation; the fast codec replaces it.
    var format = PropertyListSerialization.PropertyListFormat.xml
    let object: Any
    do {
      object = try PropertyListSerialization.propertyList(from: data, format: &format)
    } catch {
      throw FileFormatError("not a property list")
    }
    guard let array = object as? [Any] else {
      throw FileFormatError("the top level should be an array of checklists")
    }
    var lists: [Checklist] = []
    for (listIndex, element) in array.enumerated() {
      guard let dict = element as? [String: Any], let name = dict["name"] as? String,
        let iconName = dict["iconName"] as? String, let itemArray = dict["items"] as? [Any]
      else {
        throw FileFormatError("list \(listIndex + 1): not a checklist")
      }
      var items: [ChecklistItem] = []
      for (itemIndex, itemElement) in itemArray.enumerated() {
        guard let item = itemElement as? [String: Any], let text = item["text"] as? String,
          let checked = item["checked"] as? Bool, let due = item["dueDate"] as? Date,
          let remind = item["shouldRemind"] as? Bool, let id = item["itemID"] as? Int
        else {
          throw FileFormatError(
            "list \(listIndex + 1) (\"\(name)\"), item \(itemIndex + 1): bad item")
        }
        items.append(
          ChecklistItem(
            text: text, checked: checked, dueDate: due, shouldRemind: remind, itemID: id))
      }
      lists.append(Checklist(name: name, iconName: iconName, items: items))
    }
    return ChecklistsDocument(lists: lists, format: format == .binary ? .binary : .xml)
  }

  /// Encodes lists in `format` (binary instead when the text cannot be XML 1.0).
  public static func encode(_ lists: [Checklist], format: PlistFormat) throws(FileFormatError)
    -> EncodedChecklists
  {
    let encoder = PropertyListEncoder()
    encoder.outputFormat = format == .binary ? .binary : .xml
    do {
      return EncodedChecklists(data: try encoder.encode(lists), format: format, formatNote: nil)
    } catch {
      throw FileFormatError("cannot encode: \(error)")
    }
  }
}
