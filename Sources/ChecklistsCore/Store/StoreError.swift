import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Why the store could not open, load or save a file, with a message for the user.
public struct StoreError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What went wrong.
  public enum Kind: Equatable, Sendable {
    /// The path cannot name a data file.
    case invalidPath
    /// The path names a folder, a FIFO, a device… instead of a regular file.
    case notRegularFile
    /// The file is larger than the store reads.
    case tooLarge
    /// The file could not be read (`cause` tells why).
    case unreadable
    /// The file's content is not a checklists file (`formatError` tells where).
    case invalidContent
    /// Another checklists held the file's lock for longer than a save waits.
    case locked(pid: Int32?)
    /// The lock file could not be opened or locked.
    case lockFailed
    /// Writing the file failed; the previous file is intact unless `step` is `.syncingFolder`.
    case saveFailed(step: SaveStep)
    /// The model could not be encoded.
    case encodingFailed
    /// No rescue copy could be written anywhere.
    case rescueFailed
  }

  /// What went wrong.
  public var kind: Kind
  /// The file concerned, absolute.
  public var path: String
  /// The path as shown in messages (`~/…`), or the file name for content errors.
  public var shownPath: String
  /// The failed system call, when there is one.
  public var cause: SystemCallError?
  /// The codec's error, for `.invalidContent` and `.encodingFailed`.
  public var formatError: FileFormatError?
  /// Extra words for the message, e.g. "is a FIFO".
  public var detail: String?

  /// Creates an error.
  public init(
    _ kind: Kind, path: String, shownPath: String? = nil, cause: SystemCallError? = nil,
    formatError: FileFormatError? = nil, detail: String? = nil
  ) {
    self.kind = kind
    self.path = path
    self.shownPath = shownPath ?? path
    self.cause = cause
    self.formatError = formatError
    self.detail = detail
  }

  /// For a damaged data file with a `.bak` beside it: a second line saying where the previous
  /// version is and how to bring it back; nil otherwise.
  public var restoreHint: String? {
    guard case .invalidContent = kind else { return nil }
    let backup = path + ".bak"
    let hasBackup = FileManager.default.fileExists(atPath: backup)
    // A conflict copy newer than the backup holds what was saved after the file went bad.
    if let copy = Self.newestConflictCopy(besides: path, newerThan: hasBackup ? backup : nil) {
      return "the lists as saved while it could not be read are in \(copy); to go back to them "
        + "(after keeping a copy of the damaged file if you want one): cp '\(copy)' '\(path)'"
        + (hasBackup ? " (the version before the last good save is in \(backup))" : "")
    }
    guard hasBackup else { return nil }
    return "the version before the last save is in \(backup); to go back to it (after keeping "
      + "a copy of the damaged file if you want one): cp '\(backup)' '\(path)'"
  }

  /// The newest `<stem>.conflict-<stamp>.<ext>` beside `path` (modified after `reference`,
  /// when given).
  private static func newestConflictCopy(besides path: String, newerThan reference: String?)
    -> String?
  {
    let folder = PathText.folder(of: path)
    let name = PathText.name(of: path)
    let prefix = PathText.stem(of: name) + ".conflict-"
    let ext = PathText.fileExtension(of: name)
    let files = FileManager.default
    guard let names = try? files.contentsOfDirectory(atPath: folder) else { return nil }
    var since = Date.distantPast
    if let reference {
      guard let date = (try? files.attributesOfItem(atPath: reference))?[.modificationDate] as? Date
      else { return nil }
      since = date
    }
    let copies = names.filter { $0.hasPrefix(prefix) && (ext.isEmpty || $0.hasSuffix("." + ext)) }
      .map { folder + "/" + $0 }
      .compactMap { copy -> (String, Date)? in
        guard let date = (try? files.attributesOfItem(atPath: copy))?[.modificationDate] as? Date,
          date > since
        else { return nil }
        return (copy, date)
      }
    return copies.max { $0.1 < $1.1 }?.0
  }

  /// The message for the user, e.g. `Checklists.plist: list 2 ("Groceries"), item 3: …`.
  public var message: String {
    let reason = cause?.reason ?? "unknown error"
    switch kind {
    case .invalidPath:
      return "\(shownPath) cannot be a data file: \(detail ?? "invalid path")"
    case .notRegularFile:
      return "\(shownPath) is not a regular file: it is \(detail ?? "something else")"
    case .tooLarge:
      return "\(shownPath) is too large to be a checklists file (\(detail ?? "over the limit"))"
    case .unreadable:
      return "Could not read \(shownPath): \(reason)"
    case .invalidContent:
      if let formatError { return formatError.shown(in: shownPath) }
      return "\(shownPath): \(detail ?? "not a checklists file")"
    case .locked(let pid):
      let owner = pid.map { "pid \($0)" } ?? "pid unknown"
      return "\(shownPath) is being saved by another checklists (\(owner)) that does not finish;"
        + " try again"
    case .lockFailed:
      return "Could not lock \(shownPath): \(reason)"
    case .saveFailed(let step):
      return "Could not save \(shownPath): \(reason) (\(step.description))"
    case .encodingFailed:
      return "Could not save \(shownPath): \(formatError?.message ?? "cannot encode")"
    case .rescueFailed:
      return "Could not write a rescue copy of \(shownPath): \(reason)"
    }
  }

  /// The message.
  public var description: String { message }

  /// Why the file cannot be merged with, in the words of a conflict copy's message.
  var reasonForCopy: String {
    switch kind {
    case .invalidContent: return formatError?.message ?? detail ?? "not a checklists file"
    default: return message
    }
  }
}

/// The steps of a save, named in error messages.
public enum SaveStep: String, CaseIterable, Equatable, Sendable, CustomStringConvertible {
  /// Creating the folder that holds the file.
  case creatingFolder
  /// Creating the temporary file next to the file.
  case creatingTemporaryFile
  /// Giving the temporary file the old file's permissions.
  case settingPermissions
  /// Writing the bytes.
  case writingTemporaryFile
  /// Flushing the temporary file to the disk.
  case syncingTemporaryFile
  /// Closing the temporary file.
  case closingTemporaryFile
  /// Keeping the previous file as `<file>.bak`.
  case keepingBackup
  /// Putting the temporary file in place of the file.
  case replacingFile
  /// Flushing the folder so that the rename survives a crash (the new file is in place).
  case syncingFolder

  /// The words shown in brackets after the reason.
  public var description: String {
    switch self {
    case .creatingFolder: return "creating the folder"
    case .creatingTemporaryFile: return "creating the temporary file"
    case .settingPermissions: return "setting the permissions"
    case .writingTemporaryFile: return "writing the temporary file"
    case .syncingTemporaryFile: return "flushing the temporary file to disk"
    case .closingTemporaryFile: return "closing the temporary file"
    case .keepingBackup: return "keeping the previous version as .bak"
    case .replacingFile: return "replacing the file"
    case .syncingFolder: return "flushing the folder to disk"
    }
  }
}
