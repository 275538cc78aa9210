import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// A hand-written, byte-level reader for XML property lists (`<plist version="1.0">`).
///
/// Comments, processing instructions and the DOCTYPE are skipped; entity and numeric
/// character references and CDATA sections are understood. Errors name the line.
struct XMLPlistReader {
  /// The document; valid only during `parse`.
  private let bytes: UnsafeBufferPointer<UInt8>
  /// Whether dictionaries three levels down (the items of a checklists file) are tried as
  /// checklist items first.
  private let decodesItems: Bool
  private var position = 0
  /// The second thread's share of a big document, until this reader reaches it.
  private var split: Split?
  /// The second thread's levels not yet joined in: 1 (the list's entries), then 0 (the lists).
  private var grafting: (continuation: Continuation, level: Int)?
  /// The kinds of the open containers at depths 0 and 1 (where `split` may be joined).
  private var depthZeroIsArray = false
  private var depthOneIsDict = false
  /// Whether the second thread's levels were all joined in.
  private var joined = false
  /// Where this reader gives bytes back as it leaves them behind: from `next` on, never at
  /// `limit` or after (the second thread's share), `second` for the second thread's reader.
  private var release: (shared: ReadBytesRelease, next: Int, limit: Int, second: Bool)?

  /// Parses the whole document into a tree; with `decodingItems`, item dictionaries of the
  /// usual form come back already decoded (`PlistTree.item`).
  static func parse(_ data: Data, decodingItems: Bool = false) throws(PlistError) -> PlistTree {
    let result = data.withUnsafeBytes { raw -> Result<PlistTree, PlistError> in
      Result { () throws(PlistError) -> PlistTree in
        try parse(raw, decodingItems: decodingItems)
      }
    }
    return try result.get()
  }

  /// `parse` of the bytes in `raw`, which must stay valid during the call.
  static func parse(
    _ raw: UnsafeRawBufferPointer, decodingItems: Bool = false, release: ReadBytesRelease? = nil
  ) throws(PlistError) -> PlistTree {
    try parseReportingSplit(raw, decodingItems: decodingItems, release: release).tree
  }

  /// `parse`, and whether the second thread's half was used; `splitting: false` reads in
  /// order on this thread (for tests that compare the two). With `release`, a UTF-8 document
  /// of checklists gives its bytes back as they are left behind (see `ReadBytesRelease`).
  static func parseReportingSplit(
    _ raw: UnsafeRawBufferPointer, decodingItems: Bool, splitting: Bool = true,
    release: ReadBytesRelease? = nil
  ) throws(PlistError) -> (tree: PlistTree, split: Bool) {
    let (encoding, bomLength) = try XMLTextEncoding.detect(raw)
    if encoding == .utf8 {
      return try document(
        of: raw.bindMemory(to: UInt8.self), decodingItems: decodingItems, splitting: splitting,
        release: decodingItems && raw.count >= ReadBytesRelease.minimumBytes ? release : nil)
    }
    let utf8 = try XMLTextEncoding.utf8(
      UnsafeRawBufferPointer(rebasing: raw[bomLength...]), encoding: encoding)
    let result = utf8.withUnsafeBufferPointer { buffer in
      Result { () throws(PlistError) -> (tree: PlistTree, split: Bool) in
        try document(of: buffer, decodingItems: decodingItems, splitting: splitting)
      }
    }
    return try result.get()
  }

  /// Documents at least this big (about 3,500 items) are read on two cores.
  static var minimumSplitBytes: Int { 1 << 20 }

  /// The document in `bytes`; a big checklists file is read on two threads (`Split`).
  private static func document(
    of bytes: UnsafeBufferPointer<UInt8>, decodingItems: Bool, splitting: Bool,
    release: ReadBytesRelease? = nil
  ) throws(PlistError) -> (tree: PlistTree, split: Bool) {
    var reader = XMLPlistReader(bytes: bytes, decodesItems: decodingItems)
    guard splitting, decodingItems, bytes.count >= minimumSplitBytes, ItemSlices.threads > 1,
      let position = splitPosition(in: bytes)
    else {
      reader.release = release.map { ($0, 0, bytes.count, false) }
      return (try reader.document(), false)
    }
    reader.release = release.map { ($0, 0, position, false) }
    // The second half is read from `position` while this thread reads from the start; the
    // bytes must outlive it, so it is always waited for before returning.
    let shared = DocumentBytes(borrowing: bytes)
    let second = ThreadedWork { () -> Continuation? in
      var tail = XMLPlistReader(bytes: shared.buffer, decodesItems: true)
      tail.position = position
      tail.release = release.map { ($0, position, shared.count, true) }
      return try? tail.continuation()
    }
    defer { _ = second.result() }
    reader.split = Split(position: position, second: second)
    let tree = try reader.document()
    let used = reader.split == nil && reader.joined
    // Read here instead, the second half may have been given back: not to be trusted.
    if !used, let release, release.secondReaderReleased {
      throw PlistError("the second half was given back before it was read here")
    }
    return (tree, used)
  }

  /// Where an item dictionary starts near the middle, as Apple's writer and ours lay one out
  /// (a line of three tabs and `<dict>`), or nil. Only a guess: the reader takes the second
  /// thread's work only if it reaches exactly this place as the start of an element of an array
  /// three levels down.
  static func splitPosition(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    let pattern: [UInt8] = Array("\n\t\t\t<dict>\n".utf8)
    let end = min(bytes.count - pattern.count, bytes.count / 2 + (1 << 20))
    var index = bytes.count / 2
    while index < end {
      if bytes[index] == 0x0A, bytes[index + 4] == UInt8(ascii: "<") {
        var matches = true
        for offset in 1..<pattern.count where bytes[index + offset] != pattern[offset] {
          matches = false
          break
        }
        if matches { return index + 4 }
      }
      index += 1
    }
    return nil
  }

  /// The second thread's share: where it started, and its work.
  private struct Split {
    var position: Int
    var second: ThreadedWork<Continuation?>
  }

  /// What the second thread read from an element of an array at depth 2 (the items of a list)
  /// to the end of the array at depth 0 (the lists), level by level: the rest of the items,
  /// the rest of the list's entries, the rest of the lists, each with the position after its
  /// closing tag.
  private struct Continuation {
    var items: Elements
    var itemsEnd: Int
    var entries: [(key: String, value: PlistTree)]
    var entriesEnd: Int
    var lists: Elements
    var end: Int
  }

  /// An array's elements as they are read: while every one is an item read in the usual form
  /// (a list's items), one array of items, which the model then takes as it is; from the first
  /// other element on, trees.
  private struct Elements {
    private var items: [ChecklistItem] = []
    private var trees: [PlistTree] = []
    /// Whether every element so far was an item (all in `items`; otherwise all in `trees`).
    private var allItems = true

    /// Appends an item read in the usual form.
    mutating func append(item: ChecklistItem) {
      if allItems { items.append(item) } else { trees.append(PlistTree(item: item)) }
    }

    /// Appends any element (an item node as its item).
    mutating func append(_ tree: PlistTree) {
      if let item = tree.item {
        append(item: item)
        return
      }
      makeTrees()
      trees.append(tree)
    }

    /// Appends the elements the second thread read.
    mutating func append(contentsOf other: Elements) {
      if allItems && other.allItems {
        items += other.items
        return
      }
      makeTrees()
      trees += other.allItems ? other.items.map { PlistTree(item: $0) } : other.trees
    }

    /// Turns the items so far into trees, before the first element that is not an item.
    private mutating func makeTrees() {
      guard allItems else { return }
      trees = items.map { PlistTree(item: $0) }
      items = []
      allItems = false
    }

    /// The array node.
    var tree: PlistTree {
      allItems && !items.isEmpty ? PlistTree(items: items) : PlistTree(shape: .array(trees))
    }
  }

  /// Reads from an element of an array at depth 2 inside a dictionary at depth 1 inside an
  /// array at depth 0, to the end of that array: exactly what the reader from the start would
  /// read there, as nothing it reads depends on more than the depth.
  private mutating func continuation() throws(PlistError) -> Continuation {
    var items = Elements()
    try arrayElements(depth: 2, into: &items)
    let itemsEnd = position
    var entries: [(key: String, value: PlistTree)] = []
    try dictEntries(depth: 1, into: &entries)
    let entriesEnd = position
    var lists = Elements()
    try arrayElements(depth: 0, into: &lists)
    return Continuation(
      items: items, itemsEnd: itemsEnd, entries: entries, entriesEnd: entriesEnd,
      lists: lists, end: position)
  }

  private init(bytes: UnsafeBufferPointer<UInt8>, decodesItems: Bool) {
    self.bytes = bytes
    self.decodesItems = decodesItems
  }

  /// Character data as read: a range of the document, or a copy when references or CDATA
  /// had to be resolved.
  private enum RawText {
    case range(Range<Int>)
    case copy([UInt8])
  }

  /// Runs `body` on the bytes of `raw`.
  private func withBytes<Result>(
    _ raw: RawText, _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result {
    switch raw {
    case .range(let range): return body(UnsafeBufferPointer(rebasing: bytes[range]))
    case .copy(let copy): return copy.withUnsafeBufferPointer(body)
    }
  }

  // MARK: - Errors

  /// An error at the reading position, or at `offset` (where the tag it is about starts).
  private func error(_ message: String, at offset: Int? = nil) -> PlistError {
    PlistError(xml: message, at: .of(offset: offset ?? position, in: bytes))
  }

  // MARK: - Low-level scanning

  private func peek(_ literal: StaticString) -> Bool {
    let count = literal.utf8CodeUnitCount
    guard position + count <= bytes.count else { return false }
    let base = literal.utf8Start
    for index in 0..<count where bytes[position + index] != base[index] { return false }
    return true
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  private mutating func skipSpace() {
    while position < bytes.count, Self.isSpace(bytes[position]) { position += 1 }
  }

  /// Moves past `terminator`, or fails with `message` at the end of the input.
  private mutating func skip(past terminator: StaticString, _ message: String)
    throws(PlistError)
  {
    while position < bytes.count {
      if peek(terminator) {
        position += terminator.utf8CodeUnitCount
        return
      }
      position += 1
    }
    throw error(message)
  }

  /// Skips white space, comments and processing instructions.
  private mutating func skipMisc() throws(PlistError) {
    while true {
      skipSpace()
      if peek("<!--") {
        try skip(past: "-->", "unterminated comment")
      } else if peek("<?") {
        try skip(past: "?>", "unterminated processing instruction")
      } else {
        return
      }
    }
  }

  private mutating func skipDoctype() throws(PlistError) {
    var inSubset = false
    while position < bytes.count {
      let byte = bytes[position]
      position += 1
      if byte == UInt8(ascii: "[") { inSubset = true }
      if byte == UInt8(ascii: "]") { inSubset = false }
      if byte == UInt8(ascii: ">") && !inSubset { return }
    }
    throw error("unterminated DOCTYPE")
  }

  private static func isNameByte(_ byte: UInt8) -> Bool {
    (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A)
      || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x5F || byte == 0x3A
      || byte == 0x2E || byte >= 0x80
  }

  /// A start tag: where its name is in the input and whether it is empty (`<x/>`).
  private struct StartTag {
    var nameStart: Int
    var nameEnd: Int
    var empty: Bool
  }

  /// Whether the tag's name is `name`.
  private func tag(_ tag: StartTag, is name: StaticString) -> Bool {
    let count = name.utf8CodeUnitCount
    guard tag.nameEnd - tag.nameStart == count else { return false }
    let base = name.utf8Start
    for index in 0..<count where bytes[tag.nameStart + index] != base[index] { return false }
    return true
  }

  /// The tag's name, for messages.
  private func name(of tag: StartTag) -> String {
    String(decoding: bytes[tag.nameStart..<tag.nameEnd], as: UTF8.self)
  }

  /// Reads a start tag after its `<`.
  private mutating func startTag() throws(PlistError) -> StartTag {
    let nameStart = position
    while position < bytes.count, Self.isNameByte(bytes[position]) { position += 1 }
    guard position > nameStart else { throw error("expected a tag name after <") }
    let nameEnd = position
    // The common case: `<name>` with nothing else.
    if position < bytes.count, bytes[position] == UInt8(ascii: ">") {
      position += 1
      return StartTag(nameStart: nameStart, nameEnd: nameEnd, empty: false)
    }
    // Attributes: white space, a name, `=`, a quoted value; then `>` or `/>`.
    let tagName = String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self)
    while true {
      let spaceStart = position
      skipSpace()
      guard position < bytes.count else { throw error("unterminated tag <\(tagName)>") }
      if bytes[position] == UInt8(ascii: ">") {
        position += 1
        return StartTag(nameStart: nameStart, nameEnd: nameEnd, empty: false)
      }
      if bytes[position] == UInt8(ascii: "/") {
        guard position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: ">") else {
          throw error("expected > after / in <\(tagName)>")
        }
        position += 2
        return StartTag(nameStart: nameStart, nameEnd: nameEnd, empty: true)
      }
      let attributeStart = position
      while position < bytes.count, Self.isNameByte(bytes[position]) { position += 1 }
      guard position > attributeStart, attributeStart > spaceStart else {
        throw error("malformed attribute in <\(tagName)> (expected a name after a space)")
      }
      skipSpace()
      guard position < bytes.count, bytes[position] == UInt8(ascii: "=") else {
        throw error("malformed attribute in <\(tagName)> (expected = after its name)")
      }
      position += 1
      skipSpace()
      guard position < bytes.count,
        bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'")
      else {
        throw error("malformed attribute in <\(tagName)> (expected a quoted value)")
      }
      let quote = bytes[position]
      position += 1
      while position < bytes.count, bytes[position] != quote {
        if bytes[position] == UInt8(ascii: "<") {
          throw error("malformed attribute in <\(tagName)> (< in a value)")
        }
        position += 1
      }
      guard position < bytes.count else { throw error("unterminated tag <\(tagName)>") }
      position += 1
    }
  }

  /// Reads `</name>` at the current position.
  private mutating func endTag(_ name: StaticString) throws(PlistError) {
    guard peek("</") else { throw error("expected </\(name)>") }
    position += 2
    let nameStart = position
    while position < bytes.count, Self.isNameByte(bytes[position]) { position += 1 }
    let nameEnd = position
    let matches = tag(StartTag(nameStart: nameStart, nameEnd: nameEnd, empty: false), is: name)
    skipSpace()
    guard matches, position < bytes.count, bytes[position] == UInt8(ascii: ">") else {
      let found = String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self)
      // A file cut short inside the right tag said "expected </date> but found </date>".
      if position >= bytes.count { throw error("the file ends inside </\(name)> (cut short?)") }
      if matches { throw error("expected > to end </\(name)") }
      throw error("expected </\(name)> but found </\(found)>", at: nameStart - 2)
    }
    position += 1
  }

  // MARK: - Document

  private mutating func document() throws(PlistError) -> PlistTree {
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
    while true {
      try skipMisc()
      if peek("<!DOCTYPE") {
        try skipDoctype()
      } else {
        break
      }
    }
    guard position < bytes.count else { throw error("no property list element") }
    guard bytes[position] == UInt8(ascii: "<") else { throw error("expected <plist>") }
    let saved = position
    position += 1
    let start = try startTag()
    let tree: PlistTree
    if tag(start, is: "plist") {
      guard !start.empty else { throw error("<plist> is empty") }
      tree = try value(depth: 0)
      try skipMisc()
      try endTag("plist")
    } else {
      position = saved
      tree = try value(depth: 0)
    }
    try skipMisc()
    guard position == bytes.count else { throw error("content after the end of the property list") }
    return tree
  }

  // MARK: - Values

  /// The value at the current position. Containers and scalars are read apart, so that a
  /// deep nesting's frames hold only what a container needs (a debug build's frame for all
  /// kinds at once took 14 KB, and 512 levels nearly 8 MB of stack).
  private mutating func value(depth: Int) throws(PlistError) -> PlistTree {
    try skipMisc()
    guard position < bytes.count else { throw error("unexpected end of file") }
    guard bytes[position] == UInt8(ascii: "<"), !peek("</") else {
      throw error(peek("</") ? "expected a value" : "unexpected text")
    }
    position += 1
    let start = try startTag()
    if tag(start, is: "dict") { return try dictionary(start, depth: depth) }
    if tag(start, is: "array") { return try array(start, depth: depth) }
    return try scalar(start)
  }

  /// A `<dict>` after its start tag: an item already decoded where one is expected, a UID, or
  /// the dictionary.
  @inline(never)
  private mutating func dictionary(_ start: StartTag, depth: Int, itemTried: Bool = false)
    throws(PlistError) -> PlistTree
  {
    guard depth < PlistLimits.maximumDepth else { throw PlistError(PlistLimits.depthMessage) }
    var entries: [(key: String, value: PlistTree)] = []
    if start.empty { return PlistTree(shape: .dictionary(entries)) }
    if decodesItems && depth == 3 && !itemTried,
      let item = itemInWriterLayout() ?? itemInUsualForm()
    {
      return PlistTree(item: item)
    }
    if depth == 0 { depthZeroIsArray = false } else if depth == 1 { depthOneIsDict = true }
    entries.reserveCapacity(8)
    try dictEntries(depth: depth, into: &entries)
    if let uid = Self.uid(entries) { return scalar(.uid(uid)) }
    return PlistTree(shape: .dictionary(entries))
  }

  /// An `<array>` after its start tag.
  @inline(never)
  private mutating func array(_ start: StartTag, depth: Int) throws(PlistError) -> PlistTree {
    guard depth < PlistLimits.maximumDepth else { throw PlistError(PlistLimits.depthMessage) }
    if start.empty { return PlistTree(shape: .array([])) }
    if depth == 0 { depthZeroIsArray = true } else if depth == 1 { depthOneIsDict = false }
    var elements = Elements()
    try arrayElements(depth: depth, into: &elements)
    return elements.tree
  }

  /// Any value but a container, after its start tag.
  @inline(never)
  private mutating func scalar(_ start: StartTag) throws(PlistError) -> PlistTree {
    if tag(start, is: "string") {
      return scalar(.string(start.empty ? "" : try text(closing: "string")))
    } else if tag(start, is: "true") {
      if !start.empty { try endTag("true") }
      return scalar(.bool(true))
    } else if tag(start, is: "false") {
      if !start.empty { try endTag("false") }
      return scalar(.bool(false))
    } else if tag(start, is: "integer") {
      let raw = start.empty ? .copy([]) : try rawText(closing: "integer")
      if let small = withBytes(raw, Self.plainDecimal) { return scalar(.integer(small)) }
      return scalar(try integer(withBytes(raw) { String(decoding: $0, as: UTF8.self) }))
    } else if tag(start, is: "real") {
      let text = start.empty ? "" : try text(closing: "real")
      return scalar(.real(try real(text)))
    } else if tag(start, is: "date") {
      let raw = start.empty ? .copy([]) : try rawText(closing: "date")
      guard let seconds = withBytes(raw, { PlistDateFormat.parse(bytes: $0) }) else {
        throw error("\"\(withBytes(raw) { String(decoding: $0, as: UTF8.self) })\" is not a date")
      }
      return scalar(.date(Date(timeIntervalSinceReferenceDate: seconds)))
    } else if tag(start, is: "data") {
      let text = start.empty ? "" : try text(closing: "data")
      guard let data = Base64.decode(text) else { throw error("<data> is not valid base64") }
      return scalar(.data(data))
    } else if tag(start, is: "key") {
      throw error("<key> outside a <dict>")
    }
    throw error("unknown element <\(name(of: start))>", at: start.nameStart - 1)
  }

  private func scalar(_ value: PlistValue) -> PlistTree { PlistTree(shape: .scalar(value)) }

  /// Reads a dictionary's entries (after `<dict>`) up to and including `</dict>`.
  private mutating func dictEntries(
    depth: Int, into entries: inout [(key: String, value: PlistTree)]
  ) throws(PlistError) {
    while true {
      try skipMisc()
      if peek("</") {
        try endTag("dict")
        return
      }
      guard peek("<key") else { throw error("expected <key> in <dict>") }
      position += 1
      let keyTag = try startTag()
      guard tag(keyTag, is: "key") else { throw error("expected <key> in <dict>") }
      let key = keyTag.empty ? "" : try text(closing: "key")
      try skipMisc()
      if peek("</") { throw error("<key>\(key)</key> has no value") }
      entries.append((key, try value(depth: depth + 1)))
      if depth == 1, let joined = grafting, joined.level == 1 {
        // The second thread read the rest of this list.
        entries += joined.continuation.entries
        position = joined.continuation.entriesEnd
        grafting = (joined.continuation, 0)
        return
      }
    }
  }

  /// Reads an array's elements (after `<array>`) up to and including `</array>`.
  private mutating func arrayElements(depth: Int, into elements: inout Elements)
    throws(PlistError)
  {
    while true {
      try skipMisc()
      if peek("</") {
        try endTag("array")
        return
      }
      if depth == 2 { releaseBehind() }
      if depth == 2, let split, position == split.position, depthOneIsDict, depthZeroIsArray {
        self.split = nil
        if let continuation = split.second.result() {
          // The second thread read from here to the end of the lists.
          elements.append(contentsOf: continuation.items)
          position = continuation.itemsEnd
          grafting = (continuation, 1)
          return
        }
      }
      if depth == 2, decodesItems, try appendDictionary(to: &elements) { continue }
      elements.append(try value(depth: depth + 1))
      if depth == 0, let joined = grafting, joined.level == 0 {
        elements.append(contentsOf: joined.continuation.lists)
        position = joined.continuation.end
        grafting = nil
        self.joined = true
        return
      }
    }
  }

  /// Gives back the bytes wholly behind the item about to be read, once there are two pieces
  /// of them (see `ReadBytesRelease`): nothing before it is read again.
  @inline(__always)
  private mutating func releaseBehind() {
    guard let current = release,
      min(position, current.limit) - current.next >= 2 * ReadBytesRelease.pieceBytes
    else { return }
    release?.next = current.shared.release(
      bytes, from: current.next, to: min(position, current.limit), second: current.second)
  }

  /// The UID a dictionary of the one key `CF$UID` with a non-negative integer stands for, as
  /// Foundation reads it (and writes a UID in XML); nil for any other dictionary.
  private static func uid(_ entries: [(key: String, value: PlistTree)]) -> UInt64? {
    guard entries.count == 1, PlistKey(entries[0].key) == XMLPlistWriter.uidKey,
      case .scalar(let value) = entries[0].value.shape
    else { return nil }
    switch value {
    case .integer(let integer) where integer >= 0: return UInt64(integer)
    case .unsignedInteger(let integer): return integer
    default: return nil
    }
  }

  // MARK: - Checklist items

  /// The known keys of an item.
  ///
  /// Besides the app's five: ours (`hasDueDate`) and the outline's (`parentItemID`,
  /// `priority`, `tags`), so that files with subtasks, priorities and tags keep their lists'
  /// items in the usual form.
  private enum ItemKey: UInt16 {
    case text = 1
    case checked = 2
    case dueDate = 4
    case shouldRemind = 8
    case itemID = 16
    case hasDueDate = 32
    case parentItemID = 64
    case priority = 128
    case tags = 256
  }

  /// Reads a `<dict>` element of a list's items and appends it to `elements`: the usual item
  /// as an item, anything else as `dictionary` reads it, without trying the item forms again
  /// (an item with a key of our own, such as `hasDueDate`, was tried twice). False, not
  /// moving, when the element is not a plain `<dict>`. (Apart from `arrayElements`, so that the
  /// item is not in every frame of a deep nesting.)
  @inline(never)
  private mutating func appendDictionary(to elements: inout Elements) throws(PlistError) -> Bool {
    guard peek("<dict>") else { return false }
    let start = position
    position += 6
    if let item = itemInWriterLayout() ?? itemInUsualForm() {
      elements.append(item: item)
    } else {
      let tag = StartTag(nameStart: start + 1, nameEnd: start + 5, empty: false)
      elements.append(try dictionary(tag, depth: 3, itemTried: true))
    }
    return true
  }

  /// Reads an item dictionary (after `<dict>`) holding exactly the five item keys with values
  /// of the right types; anything else rewinds and returns nil so the general path reads it
  /// (and reports any problem).
  private mutating func itemInUsualForm() -> ChecklistItem? {
    let start = position
    do throws(PlistError) {
      if let item = try readItem() { return item }
    } catch {}
    position = start
    return nil
  }

  /// The usual item laid out byte for byte as Apple's writer and ours write it (after
  /// `<dict>`): fixed text compared in place, the five values read between; any difference, a
  /// reference or CDATA in the text, returns nil without moving, for the general reading.
  private mutating func itemInWriterLayout() -> ChecklistItem? {
    var at = position
    let count = bytes.count
    func literal(_ text: StaticString) -> Bool {
      let length = text.utf8CodeUnitCount
      guard at + length <= count,
        memcmp(bytes.baseAddress.unsafelyUnwrapped + at, text.utf8Start, length) == 0
      else { return false }
      at += length
      return true
    }
    func bool() -> Bool? {
      if literal("true/>") { return true }
      if literal("false/>") { return false }
      return nil
    }
    /// The bytes up to the next `<`, or nil at `&` or a control character XML refuses.
    func run() -> Range<Int>? {
      let start = at
      while at < count {
        let byte = bytes[at]
        if byte == UInt8(ascii: "<") { return start..<at }
        if byte == UInt8(ascii: "&") { return nil }
        if byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D { return nil }
        at += 1
      }
      return nil
    }
    /// The date as our writer and Apple's write it, 20 bytes before `<`, read in place; else
    /// the text up to `<` in any form XML allows.
    func date() -> Double? {
      if at + 20 < count, bytes[at + 20] == UInt8(ascii: "<"),
        let seconds = PlistDateFormat.parseWritten(
          UnsafeBufferPointer(rebasing: bytes[at..<(at + 20)]))
      {
        at += 20
        return seconds
      }
      guard let date = run() else { return nil }
      return PlistDateFormat.parse(bytes: UnsafeBufferPointer(rebasing: bytes[date]))
    }
    guard literal("\n\t\t\t\t<key>checked</key>\n\t\t\t\t<"), let checked = bool(),
      literal("\n\t\t\t\t<key>dueDate</key>\n\t\t\t\t<date>"), let seconds = date(),
      literal("</date>\n\t\t\t\t<key>itemID</key>\n\t\t\t\t<integer>"), let digits = run(),
      let itemID = Self.plainDecimal(UnsafeBufferPointer(rebasing: bytes[digits])),
      literal("</integer>\n\t\t\t\t<key>shouldRemind</key>\n\t\t\t\t<"),
      let shouldRemind = bool(),
      literal("\n\t\t\t\t<key>text</key>\n\t\t\t\t<string>"),
      let text = Self.textRun(bytes, from: &at),
      literal("</string>\n\t\t\t</dict>")
    else { return nil }
    let span = UnsafeBufferPointer(rebasing: bytes[text.range])
    guard let string = text.ascii ? UTF8Text.string(ascii: span) : UTF8Text.string(span) else {
      return nil
    }
    position = at
    return ChecklistItem(
      text: string, checked: checked, dueDate: Date(timeIntervalSinceReferenceDate: seconds),
      shouldRemind: shouldRemind, itemID: Int(itemID))
  }

  /// The character data from `at` up to the next `<` (`at` left there), eight bytes at a time,
  /// and whether it is all ASCII; nil at `&`, at a control character XML refuses or at the
  /// end.
  static func textRun(_ bytes: UnsafeBufferPointer<UInt8>, from at: inout Int)
    -> (range: Range<Int>, ascii: Bool)?
  {
    let start = at
    let count = bytes.count
    var ascii = true
    guard let base = bytes.baseAddress else { return nil }
    let raw = UnsafeRawPointer(base)
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    while true {
      if at + 8 <= count {
        // Whether any byte is `<`, `&` or below 0x20 (each test exact as a whole: a byte
        // beyond ASCII never counts), the usual way without a loop over the bytes.
        let word = raw.loadUnaligned(fromByteOffset: at, as: UInt64.self)
        let lessThan = word ^ (ones &* 0x3C)
        let ampersand = word ^ (ones &* 0x26)
        let marks =
          ((lessThan &- ones) & ~lessThan) | ((ampersand &- ones) & ~ampersand)
          | ((word &- ones &* 0x20) & ~word)
        if marks & highs == 0 {
          if word & highs != 0 { ascii = false }
          at += 8
          continue
        }
      }
      // Byte by byte through the word that holds a mark (or the last bytes).
      let end = min(at + 8, count)
      guard at < end else { return nil }
      while at < end {
        let byte = bytes[at]
        if byte == UInt8(ascii: "<") { return (start..<at, ascii) }
        if byte == UInt8(ascii: "&") { return nil }
        if byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D { return nil }
        if byte >= 0x80 { ascii = false }
        at += 1
      }
    }
  }

  private mutating func readItem() throws(PlistError) -> ChecklistItem? {
    var text: String?
    var checked: Bool?
    var dueDate: Date?
    var shouldRemind: Bool?
    var hasDueDate = false
    var itemID: Int?
    var extras: [PlistKey: PlistValue] = [:]
    var seen: UInt16 = 0
    while true {
      try skipMisc()
      if peek("</") {
        try endTag("dict")
        break
      }
      guard peek("<key>") else { return nil }
      position += 5
      guard case .range(let keyRange) = try rawText(closing: "key"),
        let key = itemKey(keyRange), seen & key.rawValue == 0
      else { return nil }
      seen |= key.rawValue
      try skipMisc()
      guard peek("<") else { return nil }
      position += 1
      let tag = try startTag()
      switch key {
      case .text:
        guard self.tag(tag, is: "string") else { return nil }
        text = tag.empty ? "" : try self.text(closing: "string")
      case .checked, .shouldRemind, .hasDueDate:
        let value: Bool
        if self.tag(tag, is: "true") {
          value = true
          if !tag.empty { try endTag("true") }
        } else if self.tag(tag, is: "false") {
          value = false
          if !tag.empty { try endTag("false") }
        } else {
          return nil
        }
        switch key {
        case .checked: checked = value
        case .shouldRemind: shouldRemind = value
        default: hasDueDate = value
        }
      case .dueDate:
        guard self.tag(tag, is: "date"), !tag.empty else { return nil }
        let raw = try rawText(closing: "date")
        guard let seconds = withBytes(raw, { PlistDateFormat.parse(bytes: $0) }) else {
          return nil
        }
        dueDate = Date(timeIntervalSinceReferenceDate: seconds)
      case .itemID:
        guard self.tag(tag, is: "integer"), !tag.empty else { return nil }
        guard let value = withBytes(try rawText(closing: "integer"), Self.plainDecimal) else {
          return nil
        }
        itemID = Int(value)
      case .parentItemID, .priority:
        guard self.tag(tag, is: "integer"), !tag.empty else { return nil }
        guard let value = withBytes(try rawText(closing: "integer"), Self.plainDecimal) else {
          return nil
        }
        extras[key == .priority ? .priority : .parentItemID] = .integer(value)
      case .tags:
        guard self.tag(tag, is: "array") else { return nil }
        if tag.empty {
          extras[.tags] = .array([])
        } else {
          guard let names = try tagNames() else { return nil }
          extras[.tags] = .array(names)
        }
      }
    }
    guard let text, let checked, let dueDate, let shouldRemind, let itemID else { return nil }
    return ChecklistItem(
      text: text, checked: checked, dueDate: dueDate, shouldRemind: shouldRemind,
      hasDueDate: hasDueDate, itemID: itemID, unknownFields: extras)
  }

  /// The elements of a `tags` array (after `<array>`, up to and with `</array>`) when every
  /// one is a string; nil for anything else, which the general path reads.
  private mutating func tagNames() throws(PlistError) -> [PlistValue]? {
    var names: [PlistValue] = []
    while true {
      try skipMisc()
      if peek("</") {
        try endTag("array")
        return names
      }
      guard peek("<") else { return nil }
      position += 1
      let tag = try startTag()
      guard self.tag(tag, is: "string") else { return nil }
      names.append(.string(tag.empty ? "" : try text(closing: "string")))
    }
  }

  private func itemKey(_ range: Range<Int>) -> ItemKey? {
    let tag = StartTag(nameStart: range.lowerBound, nameEnd: range.upperBound, empty: false)
    if self.tag(tag, is: "text") { return .text }
    if self.tag(tag, is: "checked") { return .checked }
    if self.tag(tag, is: "dueDate") { return .dueDate }
    if self.tag(tag, is: "shouldRemind") { return .shouldRemind }
    if self.tag(tag, is: "itemID") { return .itemID }
    if self.tag(tag, is: "hasDueDate") { return .hasDueDate }
    if self.tag(tag, is: "parentItemID") { return .parentItemID }
    if self.tag(tag, is: "priority") { return .priority }
    if self.tag(tag, is: "tags") { return .tags }
    return nil
  }

  /// Reads character data up to `</name>` as a string.
  private mutating func text(closing name: StaticString) throws(PlistError) -> String {
    let raw = try rawText(closing: name)
    guard let string = withBytes(raw, UTF8Text.string) else {
      throw error("invalid UTF-8 in <\(name)>")
    }
    return string
  }

  /// Reads character data up to `</name>`, resolving references and CDATA; the bytes are a
  /// slice of the input when there was nothing to resolve.
  private mutating func rawText(closing name: StaticString) throws(PlistError) -> RawText {
    var buffer: [UInt8] = []
    var buffered = false
    var runStart = position
    while true {
      guard position < bytes.count else { throw error("unterminated <\(name)>") }
      let byte = bytes[position]
      if byte == UInt8(ascii: "<") {
        if peek("</") {
          let runEnd = position
          try endTag(name)
          if !buffered { return .range(runStart..<runEnd) }
          buffer.append(contentsOf: bytes[runStart..<runEnd])
          return .copy(buffer)
        }
        buffer.append(contentsOf: bytes[runStart..<position])
        buffered = true
        if peek("<![CDATA[") {
          position += 9
          let start = position
          try skip(past: "]]>", "unterminated CDATA section")
          let end = position - 3
          try checkCharacters(start, end)
          buffer.append(contentsOf: bytes[start..<end])
        } else if peek("<!--") {
          try skip(past: "-->", "unterminated comment")
        } else {
          throw error("unexpected element inside <\(name)>")
        }
        runStart = position
      } else if byte == UInt8(ascii: "&") {
        buffer.append(contentsOf: bytes[runStart..<position])
        buffered = true
        try reference(into: &buffer)
        runStart = position
      } else {
        if byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D {
          throw error("control character \(Self.hex(UInt32(byte))) is not allowed in XML")
        }
        position += 1
      }
    }
  }

  private func checkCharacters(_ start: Int, _ end: Int) throws(PlistError) {
    for index in start..<end {
      let byte = bytes[index]
      if byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D {
        throw error("control character \(Self.hex(UInt32(byte))) is not allowed in XML")
      }
    }
  }

  private static func hex(_ value: UInt32) -> String {
    "U+" + TextMatching.zeroPadded(String(value, radix: 16, uppercase: true), to: 4)
  }

  /// Resolves `&…;` at the current position.
  private mutating func reference(into buffer: inout [UInt8]) throws(PlistError) {
    let start = position + 1
    var end = start
    while end < bytes.count, end - start < 12, bytes[end] != UInt8(ascii: ";") { end += 1 }
    guard end < bytes.count, bytes[end] == UInt8(ascii: ";") else {
      throw error("unterminated character reference")
    }
    let name = String(decoding: bytes[start..<end], as: UTF8.self)
    position = end + 1
    switch name {
    case "amp": buffer.append(UInt8(ascii: "&"))
    case "lt": buffer.append(UInt8(ascii: "<"))
    case "gt": buffer.append(UInt8(ascii: ">"))
    case "quot": buffer.append(UInt8(ascii: "\""))
    case "apos": buffer.append(UInt8(ascii: "'"))
    default:
      var code: UInt32?
      if name.hasPrefix("#x") {
        code = UInt32(name.dropFirst(2), radix: 16)
      } else if name.hasPrefix("#") {
        code = UInt32(name.dropFirst(), radix: 10)
      } else {
        throw error("unknown entity &\(name);")
      }
      // XML 1.0's Char: tab, LF, CR, U+0020–U+D7FF, U+E000–U+FFFD, U+10000–U+10FFFF.
      guard let code, code == 0x9 || code == 0xA || code == 0xD || code >= 0x20,
        code != 0xFFFE, code != 0xFFFF, let scalar = Unicode.Scalar(code)
      else {
        throw error("&\(name); is not a character XML allows")
      }
      buffer.append(contentsOf: String(Character(scalar)).utf8)
    }
  }

  /// The value of up to 18 plain decimal digits (the common case), or nil for anything else.
  private static func plainDecimal(_ raw: UnsafeBufferPointer<UInt8>) -> Int64? {
    guard !raw.isEmpty, raw.count <= 18 else { return nil }
    var value: Int64 = 0
    for byte in raw {
      guard byte >= 0x30, byte <= 0x39 else { return nil }
      value = value * 10 + Int64(byte - 0x30)
    }
    return value
  }

  private func integer(_ text: String) throws(PlistError) -> PlistValue {
    var digits = Substring(text.trimmingXMLSpace())
    var negative = false
    if digits.first == "-" {
      negative = true
      digits = digits.dropFirst()
    } else if digits.first == "+" {
      digits = digits.dropFirst()
    }
    var radix = 10
    if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
      radix = 16
      digits = digits.dropFirst(2)
    }
    guard !digits.isEmpty, let magnitude = UInt64(digits, radix: radix) else {
      throw error("\"\(text)\" is not an integer")
    }
    if negative {
      guard magnitude <= UInt64(Int64.max) + 1 else {
        throw error("integer \(text) is out of range")
      }
      return .integer(magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude))
    }
    return magnitude <= UInt64(Int64.max) ? .integer(Int64(magnitude)) : .unsignedInteger(magnitude)
  }

  /// A real: decimal (`-1.5`, `2e10`, `.5`), `nan`, `inf`/`infinity` with an optional sign.
  ///
  /// Hexadecimal (`0x1p-2`) and `nan(…)`, which `Double(String)` would take, are refused:
  /// neither Foundation nor plistlib reads them.
  private func real(_ text: String) throws(PlistError) -> Double {
    let trimmed = text.trimmingXMLSpace()
    switch trimmed.lowercased() {
    case "nan": return .nan
    case "+infinity", "infinity", "inf", "+inf": return .infinity
    case "-infinity", "-inf": return -.infinity
    default:
      guard Self.isDecimal(trimmed), let value = Double(trimmed) else {
        throw error("\"\(text)\" is not a real number (a plist real is decimal)")
      }
      return value
    }
  }

  /// Whether `text` is `[+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?`.
  private static func isDecimal(_ text: String) -> Bool {
    var bytes = Substring(text).utf8[...]
    func digits() -> Int {
      var count = 0
      while let byte = bytes.first, byte >= 0x30, byte <= 0x39 {
        bytes = bytes.dropFirst()
        count += 1
      }
      return count
    }
    if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") {
      bytes = bytes.dropFirst()
    }
    var mantissa = digits()
    if bytes.first == UInt8(ascii: ".") {
      bytes = bytes.dropFirst()
      mantissa += digits()
    }
    guard mantissa > 0 else { return false }
    if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
      bytes = bytes.dropFirst()
      if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") {
        bytes = bytes.dropFirst()
      }
      guard digits() > 0 else { return false }
    }
    return bytes.isEmpty
  }
}

extension String {
  /// The string without leading and trailing XML white space.
  fileprivate func trimmingXMLSpace() -> String {
    let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    let bytes = Array(utf8)
    guard let first = bytes.firstIndex(where: { !isSpace($0) }),
      let last = bytes.lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(decoding: bytes[first...last], as: UTF8.self)
  }
}
