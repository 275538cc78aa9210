import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Reads a `bplist00` file object by object.
///
/// `init` checks the trailer, the offset table and every collection reachable from the top
/// (bounds, references, cycles, nesting depth), so walking the file later cannot run away;
/// scalars are checked as they are read.
struct BinaryPlistReader: PlistNodeSource {
  private let bytes: DocumentBytes
  /// Each object's position; 32 bits, as the reader refuses files of 4 GiB or more.
  private let offsets: [UInt32]
  private let refSize: Int
  /// Where object data ends (the offset table starts).
  private let dataEnd: Int
  /// The top object's index.
  let root: Int
  private var budget: ExpansionBudget
  private var keyCache = KeyCache()
  /// Whether the graph was proven sound in one pass (`soundInWriterOrder`), not walked.
  private(set) var provenInWriterOrder = false

  /// The header and payload position of one object.
  private struct Header {
    /// The high nibble of the marker byte.
    var type: UInt8
    /// The low nibble of the marker byte.
    var info: UInt8
    /// The element, byte or character count for sized objects.
    var count: Int
    /// Where the payload starts.
    var start: Int
  }

  /// Parses the trailer and offset table and validates the object graph.
  init(_ data: Data) throws(PlistError) {
    try self.init(DocumentBytes(copying: data))
  }

  /// Parses the trailer and offset table of a copy of `bytes` and validates the object graph
  /// (`walkingOnly` skips the one-pass proof, and `proofRuns` sets its number of runs, for tests
  /// that compare them).
  init(bytes: [UInt8], walkingOnly: Bool = false, proofRuns: Int? = nil) throws(PlistError) {
    try self.init(DocumentBytes(copying: bytes), walkingOnly: walkingOnly, proofRuns: proofRuns)
  }

  /// Parses the trailer and offset table of `bytes` (shared, not copied: borrowed bytes must
  /// outlive the reader and its copies) and validates the object graph.
  init(_ bytes: DocumentBytes, walkingOnly: Bool = false, proofRuns: Int? = nil)
    throws(PlistError)
  {
    self.bytes = bytes
    let truncated = PlistError("binary property list is truncated")
    guard bytes.count >= 8 + 32 + 1 else { throw truncated }
    guard bytes.count < 1 << 32 else {
      throw PlistError("binary property list is too large (4 GiB or more)")
    }
    let trailer = bytes.count - 32
    let offsetSize = Int(bytes[trailer + 6])
    let refSize = Int(bytes[trailer + 7])
    let objectCount = Self.readUInt(bytes, at: trailer + 8, size: 8)
    let top = Self.readUInt(bytes, at: trailer + 16, size: 8)
    let tableOffset = Self.readUInt(bytes, at: trailer + 24, size: 8)
    // Any size from 1 to 8 bytes, as CoreFoundation reads (iOS has written 3-byte references).
    guard (1...8).contains(offsetSize), (1...8).contains(refSize) else {
      throw PlistError(
        "binary property list has a damaged trailer (offset size \(offsetSize), reference "
          + "size \(refSize); each must be 1 to 8 bytes)")
    }
    guard objectCount >= 1, objectCount <= UInt64(trailer), top < objectCount else {
      throw PlistError("binary property list has a damaged trailer")
    }
    guard tableOffset >= 9, tableOffset < UInt64(trailer) else {
      throw PlistError("binary property list has a bad offset table position")
    }
    let count = Int(objectCount)
    let table = Int(tableOffset)
    // Every object takes at least one byte before the table; the table must fit before the
    // trailer.
    guard count <= table - 8, count <= (trailer - table) / offsetSize else {
      throw PlistError(
        "binary property list claims \(count) objects, more than its size allows")
    }
    let (offsets, bad) = Self.offsetTable(bytes, at: table, count: count, size: offsetSize)
    if let bad {
      throw PlistError("binary property list has a bad offset for object \(bad)")
    }
    self.offsets = offsets
    self.refSize = refSize
    self.dataEnd = table
    self.root = Int(top)
    self.budget = ExpansionBudget(limit: count * 16 + 65_536)
    let runs = proofRuns ?? (count >= Self.minimumObjectsForRuns ? ItemSlices.threads : 1)
    if !walkingOnly, soundInWriterOrder(runs: runs) {
      provenInWriterOrder = true
    } else {
      try walkGraph()
    }
  }

  /// The `count` object offsets of the table at `table` (checked to fit before the trailer),
  /// read in one pass with the entry size fixed outside the loop (half a million entries in a
  /// big file); `bad` is the first object whose offset lies outside the objects' data.
  private static func offsetTable(_ bytes: DocumentBytes, at table: Int, count: Int, size: Int)
    -> (offsets: [UInt32], bad: Int?)
  {
    var bad: Int?
    let offsets = [UInt32](unsafeUninitializedCapacity: count) { offsets, initialized in
      bytes.withUnsafeBytes { raw in
        func fill(_ read: (Int) -> UInt64) {
          var position = table
          for index in 0..<count {
            let offset = read(position)
            guard offset >= 8, offset < UInt64(table) else {
              bad = index
              return
            }
            offsets[index] = UInt32(truncatingIfNeeded: offset)
            position += size
          }
        }
        switch size {
        case 1: fill { UInt64(raw[$0]) }
        case 2:
          fill { UInt64(UInt16(bigEndian: raw.loadUnaligned(fromByteOffset: $0, as: UInt16.self))) }
        case 4:
          fill { UInt64(UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: $0, as: UInt32.self))) }
        default: fill { readUInt(raw, at: $0, size: size) }
        }
      }
      // The entries are plain integers: on a bad one, none need to count as set.
      initialized = bad == nil ? count : 0
    }
    return (offsets, bad)
  }

  /// The expansion budget: a file whose lists share items, or item arrays, may not add up to
  /// more items than that (a small file could otherwise unfold into millions).
  var itemLimit: Int? { budget.limit }

  /// A reader of the same validated file with a fresh key cache and expansion budget; the
  /// bytes and offsets are shared, not copied.
  func independentCopy() -> BinaryPlistReader? {
    var copy = self
    copy.keyCache = KeyCache()
    copy.budget = ExpansionBudget(limit: budget.limit)
    return copy
  }

  /// Reads a big-endian unsigned integer; the caller has checked the bounds.
  @inline(__always)
  private static func readUInt(_ bytes: DocumentBytes, at position: Int, size: Int) -> UInt64 {
    precondition(position >= 0 && position + size <= bytes.count)
    return bytes.withUnsafeBytes { readUInt($0, at: position, size: size) }
  }

  /// Reads a big-endian unsigned integer of `size` bytes (1 to 8) from `raw`.
  @inline(__always)
  private static func readUInt(_ raw: UnsafeRawBufferPointer, at position: Int, size: Int)
    -> UInt64
  {
    switch size {
    case 1: return UInt64(raw[position])
    case 2:
      return UInt64(UInt16(bigEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt16.self)))
    case 4:
      return UInt64(UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt32.self)))
    case 8: return UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt64.self))
    default:
      var value: UInt64 = 0
      for index in position..<(position + size) { value = value << 8 | UInt64(raw[index]) }
      return value
    }
  }

  @inline(__always)
  private func readUInt(at position: Int, size: Int) -> UInt64 {
    Self.readUInt(bytes, at: position, size: size)
  }

  /// Parses an object's marker and count and checks that its payload lies before the table.
  private func header(_ object: Int) throws(PlistError) -> Header {
    guard object >= 0, object < offsets.count else {
      throw PlistError("binary property list refers to object \(object), which does not exist")
    }
    let position = Int(offsets[object])
    let marker = bytes[position]
    var header = Header(type: marker >> 4, info: marker & 0x0F, count: 0, start: position + 1)
    var payload = 0
    switch header.type {
    case 0x0:
      guard header.info == 0x8 || header.info == 0x9 else { throw unsupported(marker, object) }
    case 0x1:
      guard header.info <= 4 else { throw unsupported(marker, object) }
      payload = 1 << Int(header.info)
    case 0x2:
      guard header.info == 2 || header.info == 3 else { throw unsupported(marker, object) }
      payload = 1 << Int(header.info)
    case 0x3:
      guard header.info == 3 else { throw unsupported(marker, object) }
      payload = 8
    case 0x8:
      // A keyed archive's UID: 1 to 8 big-endian bytes.
      guard header.info <= 7 else { throw unsupported(marker, object) }
      payload = Int(header.info) + 1
    case 0x4, 0x5, 0x6, 0xA, 0xD:
      if header.info == 0xF {
        guard header.start < dataEnd else { throw PlistError("binary property list is truncated") }
        let intMarker = bytes[header.start]
        guard intMarker >> 4 == 0x1, intMarker & 0x0F <= 3 else {
          throw PlistError("binary property list has a bad count for object \(object)")
        }
        let size = 1 << Int(intMarker & 0x0F)
        guard header.start + 1 + size <= dataEnd else {
          throw PlistError("binary property list is truncated")
        }
        let count = readUInt(at: header.start + 1, size: size)
        guard count <= UInt64(dataEnd) else {
          throw PlistError("binary property list is truncated")
        }
        header.count = Int(count)
        header.start += 1 + size
      } else {
        header.count = Int(header.info)
      }
      switch header.type {
      case 0x6: payload = header.count * 2
      case 0xA: payload = header.count * refSize
      case 0xD: payload = header.count * 2 * refSize
      default: payload = header.count
      }
    default:
      throw unsupported(marker, object)
    }
    guard payload <= dataEnd - header.start else {
      throw PlistError("binary property list is truncated")
    }
    return header
  }

  private func unsupported(_ marker: UInt8, _ object: Int) -> PlistError {
    let hex = String(marker, radix: 16, uppercase: true)
    if marker >> 4 == 0x7 {
      return PlistError(
        "binary property list has object type 0x\(hex) (object \(object)), which bplist00 "
          + "does not define (strings are 0x5n or 0x6n)")
    }
    return PlistError(
      "binary property list has an unsupported object type 0x\(hex) (object \(object))")
  }

  /// The object index stored at reference slot `index` of a collection's payload.
  @inline(__always)
  private func ref(_ header: Header, _ index: Int) throws(PlistError) -> Int {
    let value = readUInt(at: header.start + index * refSize, size: refSize)
    guard value < UInt64(offsets.count) else {
      throw PlistError("binary property list refers to object \(value), which does not exist")
    }
    return Int(value)
  }

  /// One collection on the validation path.
  private struct Frame {
    var object: Int
    var header: Header
    var next: Int
    var slots: Int
    /// The deepest nesting among the children seen so far.
    var deepest: UInt16
  }

  /// Files of fewer objects are proven on one thread: starting threads would cost more.
  static var minimumObjectsForRuns: Int { 1 << 16 }

  /// Writers number a collection before what it holds, so the usual file is proven sound in
  /// one pass from the last object back; only other files are walked (`walkGraph`).
  ///
  /// True when every collection has a sound header, refers only to existing objects, refers to
  /// other collections only after itself (so there is no cycle) and nests less than the limit.
  /// Such a file passes the walk; false says nothing, and the walk gives the verdict.
  ///
  /// With several `runs`, each contiguous run of objects is proven on its own thread, from its
  /// end back; a collection that holds a collection of a later run waits (`WriterOrderProof`),
  /// and the waiting ones get their heights afterwards, from the last back, once every later
  /// height is known.
  private func soundInWriterOrder(runs: Int) -> Bool {
    let count = offsets.count
    // 0 for a scalar or an object not seen yet; a collection's nesting height, from 1.
    var height = [UInt16](repeating: 0, count: count)
    let runCount = max(min(runs, count), 1)
    let bounds = (0...runCount).map { count * $0 / runCount }
    return bytes.withUnsafeBytes { raw in
      offsets.withUnsafeBufferPointer { offsets in
        height.withUnsafeMutableBufferPointer { height in
          let proof = WriterOrderProof(
            reader: self, raw: raw, offsets: offsets, height: height, refSize: refSize)
          let verdicts = ItemSlices.map(runCount) { run in
            proof.prove(bounds[run]..<bounds[run + 1])
          }
          // With one run nothing waits.
          return verdicts.allSatisfy { $0 } && proof.settleWaiting(below: bounds[runCount - 1])
        }
      }
    }
  }

  /// The one-pass proof over the shared buffers (see `soundInWriterOrder`); each thread writes
  /// the heights of its own run only.
  private struct WriterOrderProof {
    /// The height of a collection that holds one of a later run, not known yet.
    static let waiting = UInt16.max
    let reader: BinaryPlistReader
    let raw: UnsafeRawBufferPointer
    let offsets: UnsafeBufferPointer<UInt32>
    let height: UnsafeMutableBufferPointer<UInt16>
    let refSize: Int

    @inline(__always)
    private func isCollection(_ object: Int) -> Bool {
      let type = raw[Int(offsets[object])] >> 4
      return type == 0xA || type == 0xD
    }

    /// Proves the objects of `run`, from its end back; the heights of objects after the run are
    /// not read.
    func prove(_ run: Range<Int>) -> Bool {
      var object = run.upperBound
      while object > run.lowerBound {
        object -= 1
        guard isCollection(object) else { continue }
        guard let found = nestingHeight(object, knownBefore: run.upperBound) else { return false }
        height[object] = found
      }
      return true
    }

    /// Gives the waiting collections before `end` their heights, from the last back: every
    /// height after them is known by then.
    func settleWaiting(below end: Int) -> Bool {
      var object = end
      while object > 0 {
        object -= 1
        guard height[object] == Self.waiting else { continue }
        guard let found = nestingHeight(object, knownBefore: height.count) else { return false }
        height[object] = found
      }
      return true
    }

    /// The nesting height of collection `object`, `waiting` when it holds a collection at
    /// `known` or after (or one that waits), or nil when it is not sound.
    @inline(__always)
    private func nestingHeight(_ object: Int, knownBefore known: Int) -> UInt16? {
      guard let header = try? reader.header(object) else { return nil }
      let count = offsets.count
      let slots = header.type == 0xA ? header.count : header.count * 2
      var deepest: UInt16 = 0
      var waits = false
      var position = header.start
      for _ in 0..<slots {
        let value = BinaryPlistReader.readUInt(raw, at: position, size: refSize)
        position += refSize
        guard value < UInt64(count) else { return nil }
        let child = Int(value)
        if child > object {
          if child >= known {
            if isCollection(child) { waits = true }
          } else if height[child] == Self.waiting {
            waits = true
          } else {
            deepest = max(deepest, height[child])
          }
        } else if isCollection(child) {
          return nil
        }
      }
      if waits { return Self.waiting }
      guard deepest < UInt16(PlistLimits.maximumDepth) else { return nil }
      return deepest + 1
    }
  }

  /// Checks every reachable object and rejects cycles and nesting deeper than the limit, with
  /// exact messages, walking depth first from the top.
  private func walkGraph() throws(PlistError) {
    // 0: not seen, 1: on the current path, 2: done. `height` is the nesting below a done object.
    var state = [UInt8](repeating: 0, count: offsets.count)
    var height = [UInt16](repeating: 0, count: offsets.count)
    var stack: [Frame] = []
    if let frame = try enterFrame(root, &state) {
      state[root] = 1
      stack.append(frame)
    }
    while !stack.isEmpty {
      let top = stack.count - 1
      if stack[top].next == stack[top].slots {
        let frame = stack.removeLast()
        state[frame.object] = 2
        guard Int(frame.deepest) < PlistLimits.maximumDepth else {
          throw PlistError(PlistLimits.depthMessage)
        }
        height[frame.object] = frame.deepest + 1
        if !stack.isEmpty {
          stack[top - 1].deepest = max(stack[top - 1].deepest, frame.deepest + 1)
        }
        continue
      }
      let child = try ref(stack[top].header, stack[top].next)
      stack[top].next += 1
      switch state[child] {
      case 1: throw PlistError("binary property list contains a cycle (object \(child))")
      case 2:
        stack[top].deepest = max(stack[top].deepest, height[child])
        continue
      default: break
      }
      if let frame = try enterFrame(child, &state) {
        guard stack.count < PlistLimits.maximumDepth else {
          throw PlistError(PlistLimits.depthMessage)
        }
        state[child] = 1
        stack.append(frame)
      }
    }
  }

  /// A validation frame for a collection, or nil (and marked done) for a scalar.
  ///
  /// A scalar's header is not parsed here: every read of a scalar parses and checks it, with
  /// the key path in the message.
  private func enterFrame(_ object: Int, _ state: inout [UInt8]) throws(PlistError) -> Frame? {
    let type = bytes[Int(offsets[object])] >> 4
    guard type == 0xA || type == 0xD else {
      state[object] = 2
      return nil
    }
    let header = try header(object)
    switch header.type {
    case 0xA: return Frame(object: object, header: header, next: 0, slots: header.count, deepest: 0)
    case 0xD:
      return Frame(object: object, header: header, next: 0, slots: header.count * 2, deepest: 0)
    default:
      state[object] = 2
      return nil
    }
  }

  func shape(of object: Int) throws(PlistError) -> PlistShape<Int> {
    let header = try header(object)
    switch header.type {
    case 0xA:
      var elements: [Int] = []
      elements.reserveCapacity(header.count)
      for index in 0..<header.count { elements.append(try ref(header, index)) }
      return .array(elements)
    case 0xD:
      var entries: [(key: String, value: Int)] = []
      entries.reserveCapacity(header.count)
      for index in 0..<header.count {
        let keyObject = try ref(header, index)
        let key: String
        if let cached = keyCache.string(for: keyObject) {
          key = cached
        } else {
          guard case .string(let string) = try scalar(keyObject, try self.header(keyObject))
          else {
            throw PlistError("binary property list has a dictionary key that is not a string")
          }
          keyCache.insert(string, for: keyObject)
          key = string
        }
        entries.append((key, try ref(header, header.count + index)))
      }
      return .dictionary(entries)
    default:
      return .scalar(try scalar(object, header))
    }
  }

  /// Reads a non-collection object.
  private func scalar(_ object: Int, _ header: Header) throws(PlistError) -> PlistValue {
    let start = header.start
    switch header.type {
    case 0x0:
      return .bool(header.info == 0x9)
    case 0x1:
      switch header.info {
      case 0, 1, 2: return .integer(Int64(readUInt(at: start, size: 1 << Int(header.info))))
      case 3: return .integer(Int64(bitPattern: readUInt(at: start, size: 8)))
      default:
        let high = readUInt(at: start, size: 8)
        let low = readUInt(at: start + 8, size: 8)
        if high == 0 {
          return low <= UInt64(Int64.max) ? .integer(Int64(low)) : .unsignedInteger(low)
        }
        if high == UInt64.max && low > UInt64(Int64.max) {
          return .integer(Int64(bitPattern: low))
        }
        throw PlistError("binary property list has an integer too large for 64 bits")
      }
    case 0x2:
      if header.info == 2 {
        return .real(Double(Float(bitPattern: UInt32(readUInt(at: start, size: 4)))))
      }
      return .real(Double(bitPattern: readUInt(at: start, size: 8)))
    case 0x3:
      let seconds = Double(bitPattern: readUInt(at: start, size: 8))
      return .date(Date(timeIntervalSinceReferenceDate: seconds))
    case 0x4:
      return .data(Data(bytes[start..<(start + header.count)]))
    case 0x8:
      return .uid(readUInt(at: start, size: Int(header.info) + 1))
    case 0x5:
      guard let string = UTF8Text.string(bytes[start..<(start + header.count)]) else {
        throw PlistError("binary property list has a string that is not valid text")
      }
      return .string(string)
    case 0x6:
      guard let string = utf16String(header) else {
        throw PlistError("binary property list has a string with a broken UTF-16 surrogate")
      }
      return .string(string)
    default:
      throw unsupported(bytes[Int(offsets[object])], object)
    }
  }

  /// A UTF-16 (type 0x6) string's text; nil when a surrogate is unpaired.
  private func utf16String(_ header: Header) -> String? {
    UTF16BigEndianText.string(bytes[header.start..<(header.start + 2 * header.count)])
  }

  /// The text of a string object (ASCII or UTF-16), or nil.
  private func stringValue(_ header: Header) -> String? {
    switch header.type {
    case 0x5: return UTF8Text.string(bytes[header.start..<(header.start + header.count)])
    case 0x6: return utf16String(header)
    default: return nil
    }
  }

  /// Which item field each of a five-key dictionary's keys names, or nil when a key is not
  /// one of them. Files share one object per key, so the answer for the last key objects seen
  /// is remembered.
  private func itemFields(_ header: Header) -> ItemFieldOrder? {
    guard let first = try? ref(header, 0), let second = try? ref(header, 1),
      let third = try? ref(header, 2), let fourth = try? ref(header, 3),
      let fifth = try? ref(header, 4)
    else { return nil }
    let keyObjects = ItemKeyObjects(
      first: first, second: second, third: third, fourth: fourth, fifth: fifth)
    if let known = keyCache.itemFields(for: keyObjects) { return known }
    var fields: [ItemField] = []
    for keyObject in [first, second, third, fourth, fifth] {
      var key = keyCache.string(for: keyObject)
      if key == nil, let keyHeader = try? self.header(keyObject),
        let string = stringValue(keyHeader)
      {
        keyCache.insert(string, for: keyObject)
        key = string
      }
      guard let key, let field = ItemField(rawValue: key) else { return nil }
      fields.append(field)
    }
    let order = ItemFieldOrder(fields)
    keyCache.rememberItemFields(order, for: keyObjects)
    return order
  }

  /// An item dictionary of the usual form (exactly the five keys, values of the right types)
  /// read straight into a `ChecklistItem`; nil sends anything else down the general path.
  ///
  /// An item with our own extra keys (`hasDueDate`, `parentItemID`, `priority`, `tags`) takes
  /// `decodedItemWithExtras`, so that files with subtasks, priorities and tags are read on all
  /// cores too.
  func decodedItem(_ object: Int) -> ChecklistItem? {
    guard let header = try? header(object), header.type == 0xD else { return nil }
    guard header.count == 5 else {
      return (6...9).contains(header.count) ? decodedItemWithExtras(header) : nil
    }
    var text: String?
    var checked: Bool?
    var dueDate: Date?
    var shouldRemind: Bool?
    var itemID: Int?
    guard let fields = itemFields(header) else { return nil }
    for index in 0..<5 {
      guard let valueObject = try? ref(header, 5 + index),
        let value = try? self.header(valueObject)
      else { return nil }
      switch fields[index] {
      case .text:
        guard let string = stringValue(value) else { return nil }
        text = string
      case .checked:
        guard value.type == 0x0 else { return nil }
        checked = value.info == 0x9
      case .shouldRemind:
        guard value.type == 0x0 else { return nil }
        shouldRemind = value.info == 0x9
      case .dueDate:
        guard let date = dateValue(value) else { return nil }
        dueDate = date
      case .itemID:
        guard value.type == 0x1, value.info <= 3 else { return nil }
        let raw = readUInt(at: value.start, size: 1 << Int(value.info))
        itemID = Int(value.info == 3 ? Int64(bitPattern: raw) : Int64(raw))
      }
    }
    guard let text, let checked, let dueDate, let shouldRemind, let itemID else { return nil }
    return ChecklistItem(
      text: text, checked: checked, dueDate: dueDate, shouldRemind: shouldRemind, itemID: itemID)
  }

  /// A date object's value; nil for another type or a date that is not finite.
  private func dateValue(_ value: Header) -> Date? {
    guard value.type == 0x3 else { return nil }
    let seconds = Double(bitPattern: readUInt(at: value.start, size: 8))
    guard seconds.isFinite else { return nil }
    return Date(timeIntervalSinceReferenceDate: seconds)
  }

  /// An item dictionary of the five keys and some of `hasDueDate`, `parentItemID` (an
  /// integer), `priority` (an integer) and `tags` (an array of at most
  /// `ItemDictionaryKey.maximumTags` strings), each key once, read straight into a
  /// `ChecklistItem`: the three outline keys go into `unknownFields` as the general path puts
  /// them there. Nil for anything else (another
  /// key, another type), which the general path reads and keeps as it is.
  private func decodedItemWithExtras(_ header: Header) -> ChecklistItem? {
    var text: String?
    var checked: Bool?
    var dueDate: Date?
    var shouldRemind: Bool?
    var hasDueDate = false
    var itemID: Int?
    var extras: [PlistKey: PlistValue] = [:]
    var seen: UInt16 = 0
    for index in 0..<header.count {
      guard let keyObject = try? ref(header, index), let key = itemKey(keyObject),
        seen & key.bit == 0,
        let valueObject = try? ref(header, header.count + index),
        let value = try? self.header(valueObject)
      else { return nil }
      seen |= key.bit
      switch key {
      case .text:
        guard let string = stringValue(value) else { return nil }
        text = string
      case .checked, .shouldRemind, .hasDueDate:
        guard value.type == 0x0, value.info == 0x8 || value.info == 0x9 else { return nil }
        let flag = value.info == 0x9
        switch key {
        case .checked: checked = flag
        case .shouldRemind: shouldRemind = flag
        default: hasDueDate = flag
        }
      case .dueDate:
        guard let date = dateValue(value) else { return nil }
        dueDate = date
      case .itemID:
        guard let number = integer(value), let int = Int(exactly: number) else { return nil }
        itemID = int
      case .parentItemID:
        guard let number = integer(value) else { return nil }
        extras[.parentItemID] = .integer(number)
      case .priority:
        guard let number = integer(value) else { return nil }
        extras[.priority] = .integer(number)
      case .tags:
        guard value.type == 0xA, value.count <= ItemDictionaryKey.maximumTags else { return nil }
        var names: [PlistValue] = []
        names.reserveCapacity(value.count)
        for element in 0..<value.count {
          guard let nameObject = try? ref(value, element),
            let nameHeader = try? self.header(nameObject),
            let name = stringValue(nameHeader)
          else { return nil }
          names.append(.string(name))
        }
        extras[.tags] = .array(names)
      }
    }
    guard let text, let checked, let dueDate, let shouldRemind, let itemID else { return nil }
    return ChecklistItem(
      text: text, checked: checked, dueDate: dueDate, shouldRemind: shouldRemind,
      hasDueDate: hasDueDate, itemID: itemID, unknownFields: extras)
  }

  /// An integer object of up to eight bytes as the general path reads it, or nil.
  private func integer(_ header: Header) -> Int64? {
    guard header.type == 0x1, header.info <= 3 else { return nil }
    let raw = readUInt(at: header.start, size: 1 << Int(header.info))
    return header.info == 3 ? Int64(bitPattern: raw) : Int64(raw)
  }

  /// The item key a key object names, or nil for any other key (or a key object that is not
  /// a string). Remembered by object, as files share one object per key.
  private func itemKey(_ keyObject: Int) -> ItemDictionaryKey? {
    if let known = keyCache.itemKey(for: keyObject) { return known }
    guard let keyHeader = try? self.header(keyObject), let string = stringValue(keyHeader),
      let key = ItemDictionaryKey(rawValue: string)
    else { return nil }
    keyCache.rememberItemKey(key, for: keyObject)
    return key
  }

  func value(of object: Int) throws(PlistError) -> PlistValue {
    try budget.spend()
    switch try shape(of: object) {
    case .scalar(let value):
      return value
    case .array(let elements):
      var values: [PlistValue] = []
      values.reserveCapacity(elements.count)
      for element in elements { values.append(try value(of: element)) }
      return .array(values)
    case .dictionary(let entries):
      var dictionary: [PlistKey: PlistValue] = [:]
      dictionary.reserveCapacity(entries.count)
      for entry in entries { dictionary[PlistKey(entry.key)] = try value(of: entry.value) }
      return .dictionary(dictionary)
    }
  }
}

/// Counts values built from shared objects, so a file of repeated references cannot expand
/// into an enormous tree.
final class ExpansionBudget {
  /// The number of values allowed in all.
  let limit: Int
  private var remaining: Int

  /// Creates a budget of `limit` values.
  init(limit: Int) {
    self.limit = limit
    remaining = limit
  }

  /// Uses up one value, failing when none are left.
  func spend() throws(PlistError) {
    guard remaining > 0 else {
      throw PlistError("binary property list expands to too many values")
    }
    remaining -= 1
  }
}

/// The five keys of a checklist item.
enum ItemField: String {
  case text, checked, dueDate, shouldRemind, itemID
}

/// Every key an item dictionary read by the fast path may have: the five of the app, ours
/// (`hasDueDate`) and the outline's (`parentItemID`, `priority`, `tags`).
enum ItemDictionaryKey: String, CaseIterable {
  case text, checked, dueDate, shouldRemind, itemID, hasDueDate, parentItemID, priority, tags

  /// More tags than this send the item down the general path, whose values count against the
  /// expansion budget (the fast path's count against nothing).
  static var maximumTags: Int { 64 }

  /// The key's bit in a set of keys seen.
  var bit: UInt16 {
    switch self {
    case .text: 1
    case .checked: 2
    case .dueDate: 4
    case .shouldRemind: 8
    case .itemID: 16
    case .hasDueDate: 32
    case .parentItemID: 64
    case .priority: 128
    case .tags: 256
    }
  }
}

/// The fields of a five-key item dictionary's keys, in order, packed in one word (three bits a
/// field) so that reading them for each item allocates and counts nothing.
struct ItemFieldOrder {
  private static let all: [ItemField] = [.text, .checked, .dueDate, .shouldRemind, .itemID]
  private let packed: UInt16

  /// Packs the first five of `fields`.
  init(_ fields: [ItemField]) {
    var packed: UInt16 = 0
    for (index, field) in fields.prefix(5).enumerated() {
      packed |= UInt16(Self.all.firstIndex(of: field) ?? 0) << (3 * index)
    }
    self.packed = packed
  }

  /// The field of key `index` (0 to 4).
  @inline(__always)
  subscript(index: Int) -> ItemField {
    Self.all[Int((packed >> (3 * index)) & 7)]
  }
}

/// The key objects of a five-key dictionary, in order.
struct ItemKeyObjects: Equatable {
  var first: Int
  var second: Int
  var third: Int
  var fourth: Int
  var fifth: Int
}

/// The last few dictionary keys read, by object index: files share one object per key, so
/// the same handful of keys is looked up for every item.
final class KeyCache {
  private var objects: [Int] = []
  private var strings: [String] = []
  private let capacity = 32

  /// The key stored for `object`, if it was read before.
  func string(for object: Int) -> String? {
    for index in objects.indices where objects[index] == object { return strings[index] }
    return nil
  }

  private var itemKeyObjects: ItemKeyObjects?
  private var itemFieldOrder = ItemFieldOrder([])

  /// The fields of an item whose key objects are `keyObjects`, if they were resolved before.
  func itemFields(for keyObjects: ItemKeyObjects) -> ItemFieldOrder? {
    keyObjects == itemKeyObjects ? itemFieldOrder : nil
  }

  /// Remembers the fields of an item's key objects.
  func rememberItemFields(_ fields: ItemFieldOrder, for keyObjects: ItemKeyObjects) {
    itemKeyObjects = keyObjects
    itemFieldOrder = fields
  }

  private var itemKeyObjectList: [Int] = []
  private var itemKeyList: [ItemDictionaryKey] = []

  /// The item key of key object `object`, if it was resolved before.
  func itemKey(for object: Int) -> ItemDictionaryKey? {
    for index in itemKeyObjectList.indices where itemKeyObjectList[index] == object {
      return itemKeyList[index]
    }
    return nil
  }

  /// Remembers the item key of a key object while there is room.
  func rememberItemKey(_ key: ItemDictionaryKey, for object: Int) {
    guard itemKeyObjectList.count < capacity else { return }
    itemKeyObjectList.append(object)
    itemKeyList.append(key)
  }

  /// Remembers a key while there is room.
  func insert(_ string: String, for object: Int) {
    guard objects.count < capacity else { return }
    objects.append(object)
    strings.append(string)
  }
}

/// UTF-8 bytes to `String`, checked in one pass of our own (eight ASCII bytes at a time, each
/// other sequence against the table of well-formed UTF-8 in the Unicode standard, §3.9), then
/// copied without the standard library's second check: a third of the time of
/// `String(validating:as:)` on mixed text.
enum UTF8Text {
  /// The string, or nil when the bytes are not valid UTF-8.
  static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
    guard let ascii = check(bytes) else { return nil }
    return String(copying: UTF8Span(unchecked: bytes.span, isKnownASCII: ascii))
  }

  /// The string of bytes already known to be ASCII (no check).
  static func string(ascii bytes: UnsafeBufferPointer<UInt8>) -> String {
    String(copying: UTF8Span(unchecked: bytes.span, isKnownASCII: true))
  }

  /// Whether `bytes` are all ASCII, or nil when they are not well-formed UTF-8 (overlong forms,
  /// surrogates, scalars past U+10FFFF and cut sequences are not).
  static func check(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
    let raw = UnsafeRawBufferPointer(bytes)
    let count = bytes.count
    var index = 0
    var ascii = true
    func continues(_ at: Int) -> Bool { at < count && bytes[at] & 0xC0 == 0x80 }
    /// Moves past a sequence of `length` bytes whose second is in `second`, if it is one.
    func sequence(_ length: Int, second: ClosedRange<UInt8>) -> Bool {
      guard index + 1 < count, second.contains(bytes[index + 1]) else { return false }
      for at in (index + 2)..<(index + length) where !continues(at) { return false }
      index += length
      return true
    }
    while index < count {
      if index + 8 <= count,
        raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
      {
        index += 8
        continue
      }
      let lead = bytes[index]
      if lead < 0x80 {
        index += 1
        continue
      }
      ascii = false
      switch lead {
      case 0xC2...0xDF:
        guard continues(index + 1) else { return nil }
        index += 2
      case 0xE0...0xEF:
        let low: UInt8 = lead == 0xE0 ? 0xA0 : 0x80
        guard sequence(3, second: low...(lead == 0xED ? 0x9F : 0xBF)) else { return nil }
      case 0xF0...0xF4:
        let low: UInt8 = lead == 0xF0 ? 0x90 : 0x80
        guard sequence(4, second: low...(lead == 0xF4 ? 0x8F : 0xBF)) else { return nil }
      default:
        return nil
      }
    }
    return ascii
  }
}

/// The bits of four big-endian UTF-16 units (loaded as a little-endian word) that are zero
/// when all four are ASCII.
private let asciiUnits: UInt64 = 0x80FF_80FF_80FF_80FF

/// Big-endian UTF-16 bytes (binary plist strings of type 0x6) to `String`, transcoded to UTF-8
/// in one pass.
enum UTF16BigEndianText {
  /// The string, or nil when a surrogate is unpaired; `bytes.count` is even.
  ///
  /// The UTF-8 is built here, scalar by scalar from checked surrogate pairs, so it is valid by
  /// construction and handed to `String` without a second validation. Each sequence is stored
  /// as one little-endian word (a 3-byte one as 4 bytes, the last overwritten next).
  static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
    let count = bytes.count / 2
    guard count > 0, let source = bytes.baseAddress else { return "" }
    let input = UnsafeRawPointer(source)
    func unit(_ at: Int) -> UInt32 {
      UInt32(UInt16(bigEndian: input.loadUnaligned(fromByteOffset: 2 * at, as: UInt16.self)))
    }
    // A BMP unit takes at most 3 UTF-8 bytes, a surrogate pair 4 for 2 units; one more byte
    // for the word stored for a 3-byte sequence at the very end.
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count * 3 + 1) { out in
      guard let base = out.baseAddress else { return "" }
      let output = UnsafeMutableRawPointer(base)
      var written = 0
      var index = 0
      var ascii = true
      while index < count {
        // Four ASCII units at a time: a zero high byte and a low byte below 0x80 each.
        if index + 4 <= count {
          let word = UInt64(
            littleEndian: input.loadUnaligned(fromByteOffset: 2 * index, as: UInt64.self))
          if word & asciiUnits == 0 {
            let low =
              (word >> 8) & 0xFF | (word >> 16) & 0xFF00 | (word >> 24) & 0xFF_0000
              | (word >> 32) & 0xFF00_0000
            output.storeBytes(
              of: UInt32(truncatingIfNeeded: low).littleEndian, toByteOffset: written,
              as: UInt32.self)
            written += 4
            index += 4
            continue
          }
        }
        var value = unit(index)
        index += 1
        if value < 0x80 {
          output.storeBytes(of: UInt8(value), toByteOffset: written, as: UInt8.self)
          written += 1
          continue
        }
        ascii = false
        if value < 0x800 {
          let pair = (0xC0 | value >> 6) | (0x80 | value & 0x3F) << 8
          output.storeBytes(
            of: UInt16(truncatingIfNeeded: pair).littleEndian, toByteOffset: written,
            as: UInt16.self)
          written += 2
          continue
        }
        if value & 0xF800 != 0xD800 {
          let triple =
            (0xE0 | value >> 12) | (0x80 | (value >> 6) & 0x3F) << 8
            | (0x80 | value & 0x3F) << 16
          output.storeBytes(of: triple.littleEndian, toByteOffset: written, as: UInt32.self)
          written += 3
          continue
        }
        // A high surrogate followed by a low one; anything else is broken.
        guard value < 0xDC00, index < count else { return nil }
        let low = unit(index)
        guard low & 0xFC00 == 0xDC00 else { return nil }
        index += 1
        value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
        let quad =
          (0xF0 | value >> 18) | (0x80 | (value >> 12) & 0x3F) << 8
          | (0x80 | (value >> 6) & 0x3F) << 16 | (0x80 | value & 0x3F) << 24
        output.storeBytes(of: quad.littleEndian, toByteOffset: written, as: UInt32.self)
        written += 4
      }
      let utf8 = UnsafeBufferPointer(rebasing: out[0..<written])
      return String(copying: UTF8Span(unchecked: utf8.span, isKnownASCII: ascii))
    }
  }
}
