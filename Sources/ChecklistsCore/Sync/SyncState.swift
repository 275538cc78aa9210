import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// A file's identity and version as `stat` shows it: inode, size and modification time.
public struct FileFingerprint: Equatable, Hashable, Sendable {
  /// The inode number.
  public var inode: UInt64
  /// The size in bytes.
  public var size: Int64
  /// The modification time in nanoseconds since 1970.
  public var modified: Int64

  /// Creates a fingerprint.
  public init(inode: UInt64, size: Int64, modified: Int64) {
    self.inode = inode
    self.size = size
    self.modified = modified
  }

  /// The fingerprint of a `stat` record.
  init(_ record: stat) {
    inode = UInt64(record.st_ino)
    size = Int64(record.st_size)
    modified = Int64(record.st_mtim.tv_sec) * 1_000_000_000 + Int64(record.st_mtim.tv_nsec)
  }

  /// The fingerprint of the file at `path` (following links); nil when it cannot be read.
  public static func of(_ path: String) -> FileFingerprint? {
    var record = stat()
    guard stat(path, &record) == 0 else { return nil }
    return FileFingerprint(record)
  }
}

/// What the last sync pass left both sides holding: the base of the next three-way merge.
///
/// Kept in `$XDG_STATE_HOME/checklists/sync-<id>.state`, one file per data file and vdir, as
/// tab-separated lines (fast to read at 10,000 items, readable by a person).
public struct SyncState: Equatable, Sendable {
  /// One item as both sides held it after the last pass.
  public struct Item: Equatable, Sendable {
    /// The item as the data file held it.
    public var item: ChecklistItem
    /// Its file's name in the collection's folder.
    public var href: String
    /// Its VTODO's `UID`.
    public var uid: String
    /// The file's fingerprint when last read or written.
    public var fingerprint: FileFingerprint
    /// What the file said then.
    public var fields: TaskFields
    /// Set while a pass is writing the file: the record tells what it is about to write.
    public var pending: Pending?
    /// What the file said before, newest first (at most `historyLength`): the versions this
    /// computer wrote since the file last came from elsewhere (vdirsyncer bringing the
    /// server's), and that one; vdirsyncer's copy on the server is one of them until its next
    /// run. `sync-merge` tells by them which side changed a field when vdirsyncer meets a
    /// conflict (see `ConflictMerge`).
    public var earlier: [TaskFields]
    /// vdirsyncer met a conflict on the task before any pass recorded it: the first recorded
    /// version may hold another program's edit the server never had, so `sync-merge` cannot
    /// tell who changed a field and treats each difference as a conflict (until the file
    /// changes elsewhere again: a merge written back by vdirsyncer).
    public var unsure = false

    /// Creates an item record.
    public init(
      item: ChecklistItem, href: String, uid: String, fingerprint: FileFingerprint,
      fields: TaskFields, pending: Pending? = nil, earlier: [TaskFields] = []
    ) {
      self.item = item
      self.href = href
      self.uid = uid
      self.fingerprint = fingerprint
      self.fields = fields
      self.pending = pending
      self.earlier = earlier
    }

    /// The versions the file held, newest first: `fields`, then `earlier`.
    public var history: [TaskFields] { [fields] + earlier }

    /// How many earlier versions a record keeps.
    public static let historyLength = 3

    /// `earlier` after the file's version became `now`, having been each of `versions`
    /// (newest first) since: those that differ from `now`, then the old ones, each once.
    public func earlier(adding versions: [TaskFields], now: TaskFields) -> [TaskFields] {
      var result: [TaskFields] = []
      for version in versions + earlier where version != now && !result.contains(version) {
        result.append(version)
        if result.count == Self.historyLength { break }
      }
      return result
    }
  }

  /// A write a pass announced before making it (the state is recorded before the vdir is
  /// written, so that a pass killed midway is told apart from changes made elsewhere).
  public enum Pending: Equatable, Sendable {
    /// A new file: if it is not there, the pass did not get to write it.
    case newFile
    /// A rewrite of a file that said `previous`: if it still says so, the pass did not get to it.
    case rewrite(previous: TaskFields)
  }

  /// A file a pass is about to delete (deleted here), while it still has `fingerprint`.
  public struct PendingDeletion: Equatable, Sendable {
    /// The folder.
    public var folder: String
    /// The file's name.
    public var href: String
    /// Its fingerprint when the pass decided.
    public var fingerprint: FileFingerprint

    /// Creates a record.
    public init(folder: String, href: String, fingerprint: FileFingerprint) {
      self.folder = folder
      self.href = href
      self.fingerprint = fingerprint
    }
  }

  /// Fingerprint of a file not written yet (matches no file).
  public static let unwritten = FileFingerprint(inode: 0, size: -1, modified: 0)

  /// One collection (folder) and the checklist it holds.
  public struct Collection: Equatable, Sendable {
    /// The folder's name inside the vdir.
    public var folder: String
    /// The list was deleted here: its folder is kept, emptied, and ignored until items appear.
    public var deleted: Bool
    /// The list's name (the folder's `displayname`).
    public var name: String
    /// The list's icon.
    public var icon: String
    /// The items, in the list's order.
    public var items: [Item]

    /// Creates a collection record.
    public init(folder: String, deleted: Bool, name: String, icon: String, items: [Item]) {
      self.folder = folder
      self.deleted = deleted
      self.name = name
      self.icon = icon
      self.items = items
    }
  }

  /// The data file's fingerprint after the last pass.
  public var dataFile: FileFingerprint?
  /// The collections, in no particular order.
  public var collections: [Collection] = []
  /// Files a pass is about to delete.
  public var pendingDeletions: [PendingDeletion] = []

  /// An empty state (before the first sync).
  public init(
    dataFile: FileFingerprint? = nil, collections: [Collection] = [],
    pendingDeletions: [PendingDeletion] = []
  ) {
    self.dataFile = dataFile
    self.collections = collections
    self.pendingDeletions = pendingDeletions
  }

  /// How many items all collections hold.
  public var itemCount: Int { collections.reduce(0) { $0 + $1.items.count } }

  /// The state file for a data file and a vdir: `DIR/sync-<hash of both paths>.state`.
  public static func path(stateFolder: String, dataFile: String, vdir: String) -> String {
    stateFolder + "/sync-" + PathHash.hex(dataFile + "\u{0}" + vdir) + ".state"
  }

  // MARK: - Text form

  static let magic = "checklists-sync-state 1"

  /// The state as text.
  public func encoded(dataFilePath: String, vdir: String) -> String {
    var lines: [String] = [
      Self.magic, "file\t" + Self.escape(dataFilePath), "vdir\t" + Self.escape(vdir),
    ]
    if let dataFile {
      lines.append("data\t\(dataFile.inode)\t\(dataFile.size)\t\(dataFile.modified)")
    }
    lines.reserveCapacity(itemCount + collections.count + 4)
    for collection in collections {
      lines.append(
        "list\t\(Self.escape(collection.folder))\t\(collection.deleted ? 1 : 0)\t"
          + "\(Self.escape(collection.name))\t\(Self.escape(collection.icon))")
      for entry in collection.items {
        let item = entry.item
        let fields = entry.fields
        var line = "item\t\(item.itemID)\t\(item.checked ? 1 : 0)\t\(item.hasDueDate ? 1 : 0)\t"
        line += "\(item.shouldRemind ? 1 : 0)\t\(item.dueDate.timeIntervalSince1970)\t"
        line += "\(Self.escape(entry.href))\t\(Self.escape(entry.uid))\t"
        line += "\(entry.fingerprint.inode)\t\(entry.fingerprint.size)\t"
        line += "\(entry.fingerprint.modified)\t\(fields.checked ? 1 : 0)\t"
        line += "\(fields.due.map(String.init) ?? "-")\t\(fields.dueIsDay ? 1 : 0)\t"
        line += "\(fields.remind ? 1 : 0)\t\(fields.sortOrder.map(String.init) ?? "-")\t"
        line += "\(fields.itemID.map(String.init) ?? "-")\t\(Self.escape(item.text))\t"
        line += fields.text == item.text ? "=" : "~" + Self.escape(fields.text)
        // The planner's part: the item's note, repeat and kept day; the file's.
        var repeatText = ""
        if case .string(let text)? = item.unknownFields[.repeatRule] { repeatText = text }
        line += "\t\(Self.escape(item.note))\t\(Self.escape(repeatText))\t"
        line += "\(item.repeatAnchorDay.map(String.init) ?? "-")\t"
        line += fields.note == item.note ? "=" : "~" + Self.escape(fields.note)
        line += "\t\(fields.repeatRule?.text ?? "")\t\(fields.repeatDay.map(String.init) ?? "-")"
        // The early reminder's lead time (minutes): the item's, the file's.
        line += "\t\(item.reminderLead.minutes)\t\(fields.lead)"
        // Subtasks, priorities and tags: the item's parent id, priority and tags; the file's
        // parent UID, priority and tags.
        line += "\t\(item.parentItemID.map(String.init) ?? "-")\t\(item.priority)\t"
        line += Self.escape(TaskOutlineProperties.encodeTags(item.tags)) + "\t"
        line += Self.outlineLine(fields)
        lines.append(line)
        switch entry.pending {
        case nil: break
        case .newFile: lines.append("new")
        case .rewrite(let previous): lines.append("prev\t" + Self.fieldsLine(previous))
        }
        for earlier in entry.earlier { lines.append("base\t" + Self.fieldsLine(earlier)) }
        if entry.unsure { lines.append("unsure") }
      }
    }
    for deletion in pendingDeletions {
      let print = deletion.fingerprint
      lines.append(
        "del\t\(Self.escape(deletion.folder))\t\(Self.escape(deletion.href))\t\(print.inode)\t"
          + "\(print.size)\t\(print.modified)")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// A record of fields on one line (after its word): checked, due, day, remind, sort order,
  /// item id, text, note, repeat rule, repeat day, lead, parent UID, priority, tags.
  private static func fieldsLine(_ fields: TaskFields) -> String {
    "\(fields.checked ? 1 : 0)\t\(fields.due.map(String.init) ?? "-")\t"
      + "\(fields.dueIsDay ? 1 : 0)\t\(fields.remind ? 1 : 0)\t"
      + "\(fields.sortOrder.map(String.init) ?? "-")\t"
      + "\(fields.itemID.map(String.init) ?? "-")\t\(Self.escape(fields.text))\t"
      + "\(Self.escape(fields.note))\t\(fields.repeatRule?.text ?? "")\t"
      + "\(fields.repeatDay.map(String.init) ?? "-")\t\(fields.lead)\t" + outlineLine(fields)
  }

  /// The parent UID ("" for none), priority and tags of fields, tab-separated.
  private static func outlineLine(_ fields: TaskFields) -> String {
    "\(escape(fields.parent ?? ""))\t\(fields.priority)\t"
      + escape(TaskOutlineProperties.encodeTags(fields.tags))
  }

  /// Reads the text form; nil when it is not a state file of this version.
  public static func decode(_ data: [UInt8]) -> SyncState? {
    var state = SyncState()
    var lineStart = 0
    var first = true
    var ranges: [Range<Int>] = []
    ranges.reserveCapacity(20)
    // Numbers and flags are read from the bytes; only texts become strings.
    func text(_ index: Int) -> String {
      let string = String(decoding: data[ranges[index]], as: UTF8.self)
      return data[ranges[index]].contains(UInt8(ascii: "\\")) ? unescape(string) : string
    }
    func number(_ index: Int) -> Int64? { DecimalField.int64(data, ranges[index]) }
    func flag(_ index: Int) -> Bool {
      ranges[index].count == 1 && data[ranges[index].lowerBound] == 49
    }
    func word(_ index: Int) -> String { String(decoding: data[ranges[index]], as: UTF8.self) }
    while lineStart < data.count {
      var lineEnd = lineStart
      while lineEnd < data.count && data[lineEnd] != 10 { lineEnd += 1 }
      ranges.removeAll(keepingCapacity: true)
      var fieldStart = lineStart
      for index in lineStart...lineEnd where index == lineEnd || data[index] == 9 {
        ranges.append(fieldStart..<index)
        fieldStart = index + 1
      }
      lineStart = lineEnd + 1
      if first {
        guard word(0) == magic else { return nil }
        first = false
        continue
      }
      switch word(0) {
      case "data":
        guard ranges.count == 4, let inode = number(1), let size = number(2),
          let modified = number(3)
        else { return nil }
        state.dataFile = FileFingerprint(inode: UInt64(inode), size: size, modified: modified)
      case "list":
        guard ranges.count == 5 else { return nil }
        state.collections.append(
          Collection(
            folder: text(1), deleted: flag(2), name: text(3), icon: text(4), items: []))
      case "item":
        // 19 fields before notes and repeats were synced, 25 since, 27 with lead times, 33
        // with subtasks, priorities and tags.
        guard [19, 25, 27, 33].contains(ranges.count),
          !state.collections.isEmpty,
          let itemID = number(1),
          let due = Double(word(5)), let inode = number(8), let size = number(9),
          let modified = number(10)
        else { return nil }
        let itemText = text(17)
        var item = ChecklistItem(
          text: itemText, checked: flag(2), dueDate: Date(timeIntervalSince1970: due),
          shouldRemind: flag(4), hasDueDate: flag(3), itemID: Int(itemID))
        func marked(_ index: Int, same: String) -> String {
          let marker = ranges[index]
          return marker.count == 1 && data[marker.lowerBound] == UInt8(ascii: "=")
            ? same
            : unescape(
              String(decoding: data[(marker.lowerBound + 1)..<marker.upperBound], as: UTF8.self))
        }
        var taskFields = TaskFields(
          text: marked(18, same: itemText), checked: flag(11), due: number(12),
          dueIsDay: flag(13), remind: flag(14), sortOrder: number(15).map { Int($0) },
          itemID: number(16).map { Int($0) })
        var fingerprint = FileFingerprint(inode: UInt64(inode), size: size, modified: modified)
        if ranges.count >= 25 {
          item.note = text(19)
          let repeatText = text(20)
          if !repeatText.isEmpty { item.unknownFields[.repeatRule] = .string(repeatText) }
          item.repeatAnchorDay = number(21).map { Int($0) }
          taskFields.note = marked(22, same: item.note)
          taskFields.repeatRule = RepeatRule(parsing: text(23))
          taskFields.repeatDay = number(24).map { Int($0) }
          if ranges.count >= 27 {
            item.reminderLead = ReminderLead(minutes: Int(clamping: number(25) ?? 0))
            taskFields.lead = Int(clamping: number(26) ?? 0)
          }
          if ranges.count == 33 {
            item.parentItemID = number(27).flatMap { Int(exactly: $0) }
            item.priority = Int(clamping: number(28) ?? 0)
            item.tags = TaskOutlineProperties.decodeTags(text(29))
            let parent = text(30)
            taskFields.parent = parent.isEmpty ? nil : parent
            taskFields.priority = Int(clamping: number(31) ?? 0)
            taskFields.tags = TaskOutlineProperties.decodeTags(text(32))
          } else {
            // Recorded before subtasks, priorities and tags were synced: the file is read
            // again, so that its RELATED-TO, PRIORITY and CATEGORIES are taken in.
            fingerprint = SyncState.unwritten
          }
        } else {
          // Recorded before notes and repeats were synced: the file is read again, so that a
          // DESCRIPTION or RRULE already there is taken in rather than overwritten.
          fingerprint = SyncState.unwritten
        }
        state.collections[state.collections.count - 1].items.append(
          Item(
            item: item, href: text(6), uid: text(7), fingerprint: fingerprint,
            fields: taskFields))
      case "unsure":
        guard let c = state.collections.indices.last, !state.collections[c].items.isEmpty else {
          return nil
        }
        state.collections[c].items[state.collections[c].items.count - 1].unsure = true
      case "new":
        guard let c = state.collections.indices.last, !state.collections[c].items.isEmpty else {
          return nil
        }
        state.collections[c].items[state.collections[c].items.count - 1].pending = .newFile
      case "prev", "base":
        guard [8, 11, 12, 15].contains(ranges.count),
          let c = state.collections.indices.last,
          !state.collections[c].items.isEmpty
        else { return nil }
        var previous = TaskFields(
          text: text(7), checked: flag(1), due: number(2), dueIsDay: flag(3), remind: flag(4),
          sortOrder: number(5).map { Int($0) }, itemID: number(6).map { Int($0) })
        if ranges.count >= 11 {
          previous.note = text(8)
          previous.repeatRule = RepeatRule(parsing: text(9))
          previous.repeatDay = number(10).map { Int($0) }
          if ranges.count >= 12 { previous.lead = Int(clamping: number(11) ?? 0) }
          if ranges.count == 15 {
            let parent = text(12)
            previous.parent = parent.isEmpty ? nil : parent
            previous.priority = Int(clamping: number(13) ?? 0)
            previous.tags = TaskOutlineProperties.decodeTags(text(14))
          }
        }
        let last = state.collections[c].items.count - 1
        if word(0) == "base" {
          state.collections[c].items[last].earlier.append(previous)
        } else {
          state.collections[c].items[last].pending = .rewrite(previous: previous)
        }
      case "del":
        guard ranges.count == 6, let inode = number(3), let size = number(4),
          let modified = number(5)
        else { return nil }
        state.pendingDeletions.append(
          PendingDeletion(
            folder: text(1), href: text(2),
            fingerprint: FileFingerprint(inode: UInt64(inode), size: size, modified: modified)))
      default:
        continue  // file, vdir: for people reading the file
      }
    }
    return first ? nil : state
  }

  static func escape(_ text: String) -> String {
    guard
      text.utf8.contains(where: {
        $0 == UInt8(ascii: "\\") || $0 == 9 || $0 == 10 || $0 == 13
      })
    else { return text }
    var output = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": output += "\\\\"
      case "\t": output += "\\t"
      case "\n": output += "\\n"
      case "\r": output += "\\r"
      default: output.unicodeScalars.append(scalar)
      }
    }
    return output
  }

  static func unescape(_ text: String) -> String {
    guard text.utf8.contains(UInt8(ascii: "\\")) else { return text }
    var output = ""
    var escaping = false
    for scalar in text.unicodeScalars {
      if escaping {
        switch scalar {
        case "t": output += "\t"
        case "n": output += "\n"
        case "r": output += "\r"
        default: output.unicodeScalars.append(scalar)
        }
        escaping = false
      } else if scalar == "\\" {
        escaping = true
      } else {
        output.unicodeScalars.append(scalar)
      }
    }
    return output
  }
}
