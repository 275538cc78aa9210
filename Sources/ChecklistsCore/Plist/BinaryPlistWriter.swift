import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Builds a `bplist00` file: objects are added top-down; keys, names and numbers are stored
/// once and shared, while values that are almost always unique (item texts, dates) are not
/// looked up.
///
/// Scalars are encoded straight into the file's buffer as they are added (the offset table
/// lets objects lie in any order), and collections keep their references in one shared pool;
/// `finish` appends the collections, the offset table and the trailer to the same buffer and
/// hands it to a `Data` without a copy. The same calls in the same order give the same bytes.
struct BinaryPlistWriter {
  /// A scalar before it is encoded.
  private enum Scalar {
    case string(String)
    case integer(Int64)
    case unsignedInteger(UInt64)
    case real(UInt64)
    case date(UInt64)
    case bool(Bool)
    case data(Data)
    case uid(UInt64)
  }

  typealias Object = ObjectPosition

  /// Where one object's content is: scalar bytes in `scalarBytes`, or references in `refs`.
  ///
  /// 8 bytes an object: the position in 32 bits, the count in 30 bits and the kind in 2 (4
  /// billion objects, or a 1 GiB collection, would take far more memory than any file the
  /// store accepts).
  struct ObjectPosition {
    private var storedStart: UInt32
    /// The count in the low 30 bits; the kind in the high 2 (0 scalar, 1 array, 2 dictionary).
    private var storedCount: UInt32

    init(kind: UInt8, start: Int, count: Int) {
      storedStart = UInt32(truncatingIfNeeded: start)
      let tag: UInt32 = kind == 0xA ? 1 : kind == 0xD ? 2 : 0
      storedCount = tag << 30 | UInt32(truncatingIfNeeded: count) & 0x3FFF_FFFF
    }

    /// A scalar's position in the file, or the first reference in `refs`.
    var start: Int { Int(storedStart) }

    /// The byte count of a scalar, or the element (array) or entry (dictionary) count.
    var count: Int { Int(storedCount & 0x3FFF_FFFF) }

    /// 0 for a scalar, else the collection marker type (0xA array, 0xD dictionary).
    var kind: UInt8 {
      switch storedCount >> 30 {
      case 1: return 0xA
      case 2: return 0xD
      default: return 0
      }
    }
  }

  private var objects: [ObjectPosition] = []
  /// The file so far: the header, then the encoded bytes of every scalar in the order added.
  private var scalarBytes: OutputBuffer
  /// The references of every collection (a dictionary's keys, then its values).
  private var refs: [UInt32] = []
  /// Scalars already added, by their encoded bytes (see `add`).
  private var uniques = ScalarTable()
  private var trueIndex: Int?
  private var falseIndex: Int?
  /// Object index + 1 of small non-negative integers (item IDs), by value; 0 when not added.
  private var smallIntegers: [UInt32]

  /// Creates a writer with room for about `capacity` objects, `scalarByteCapacity` bytes of
  /// encoded scalars and `refCapacity` collection references.
  init(capacity: Int = 0, scalarByteCapacity: Int? = nil, refCapacity: Int? = nil) {
    let refRoom = refCapacity ?? capacity * 2
    objects.reserveCapacity(capacity)
    scalarBytes = OutputBuffer(
      capacity: Self.fileRoom(
        objects: capacity, refs: refRoom, scalarBytes: scalarByteCapacity ?? capacity * 16))
    scalarBytes.append(contentsOf: Array("bplist00".utf8))
    refs.reserveCapacity(refRoom)
    // Megabytes each at 100,000 items, filled from start to end.
    HugePages.prefer(reservedOf: &objects)
    HugePages.prefer(reservedOf: &refs)
    // Only shared values go in the table: keys, names, unknown fields.
    uniques = ScalarTable(capacity: min(capacity, 1 << 12))
    smallIntegers = [UInt32](repeating: 0, count: max(capacity / 4, 256))
  }

  /// Adds a string (shared with equal strings) and returns its object index.
  mutating func string(_ value: String) -> Int { add(.string(value)) }

  /// Adds a string without looking for an equal one (for values that are almost always
  /// unique, such as item texts).
  mutating func uniqueString(_ value: String) -> Int { append(.string(value)) }

  /// Adds a string already encoded by `encodeString(_:to:)` (marker and payload) as a new
  /// object, without looking for an equal one.
  mutating func uniqueEncodedString(_ encoded: UnsafeRawBufferPointer) -> Int {
    let start = scalarBytes.count
    scalarBytes.append(encoded)
    objects.append(Object(kind: 0, start: start, count: encoded.count))
    return objects.count - 1
  }

  // MARK: - Objects made on other threads

  /// Reserves `count` objects that `withReserved` fills in later; returns the first index.
  mutating func reserveObjects(_ count: Int) -> Int {
    let first = objects.count
    objects.append(contentsOf: repeatElement(Object(kind: 0, start: 0, count: 0), count: count))
    return first
  }

  /// Reserves `count` reference slots for collections that `withReserved` fills in later;
  /// returns the first slot.
  mutating func reserveRefs(_ count: Int) -> Int {
    let first = refs.count
    refs.append(contentsOf: repeatElement(0, count: count))
    return first
  }

  /// Appends the scalars several parts encoded elsewhere (see `withReserved`), one after the
  /// other, each part copied on its own core (megabytes at 100,000 items); returns where each
  /// part starts.
  mutating func appendScalars(_ parts: [UnsafeRawBufferPointer]) -> [Int] {
    let first = scalarBytes.count
    var starts: [Int] = []
    starts.reserveCapacity(parts.count)
    var end = first
    for part in parts {
      starts.append(end)
      end += part.count
    }
    scalarBytes.append(uninitialized: end - first) { tail in
      _ = ItemSlices.map(parts.count) { index in
        let offset = starts[index] - first
        let part = parts[index]
        UnsafeMutableRawBufferPointer(rebasing: tail[offset..<(offset + part.count)])
          .copyMemory(from: part)
      }
    }
    return starts
  }

  /// Room after the scalars written so far for parts encoded elsewhere, part `k` at most
  /// `bounds[k]` bytes: one region each, in order, for `OutputBuffer(borrowing:)`. Nothing may
  /// be added to the writer until `commitScalars`.
  mutating func scalarRegions(_ bounds: [Int]) -> [UnsafeMutableRawBufferPointer] {
    scalarBytes.regions(bounds)
  }

  /// Counts the parts written into `scalarRegions` as scalars, each moved down to follow the
  /// one before (a move within memory already written, where copying them from buffers of
  /// their own into the file's took 8 MB of fresh memory at 100,000 items); returns where each
  /// part starts. A part that outgrew its region is in memory of its own: then every part is
  /// first copied out and all are appended as `appendScalars` does.
  mutating func commitScalars(_ parts: [OutputBuffer], in regions: [UnsafeMutableRawBufferPointer])
    -> [Int]
  {
    if let starts = scalarBytes.closeUp(parts, in: regions) { return starts }
    let copies = OutputBuffer.copies(of: parts)
    defer { for copy in copies { copy.deallocate() } }
    return appendScalars(copies.map { UnsafeRawBufferPointer($0) })
  }

  /// The reserved objects and references, to be filled on several threads at once (each
  /// thread its own objects and slots).
  struct ReservedStorage: @unchecked Sendable {
    fileprivate let objects: UnsafeMutableBufferPointer<Object>
    fileprivate let refs: UnsafeMutableBufferPointer<UInt32>

    /// Makes object `index` a scalar of `count` bytes at `start` (see `appendScalars`).
    func setScalar(_ index: Int, start: Int, count: Int) {
      objects[index] = Object(kind: 0, start: start, count: count)
    }

    /// Moves scalar `index` by `offset` bytes.
    func moveScalar(_ index: Int, by offset: Int) {
      let object = objects[index]
      objects[index] = Object(kind: 0, start: object.start + offset, count: object.count)
    }

    /// Makes object `index` a dictionary of `count` entries whose keys, then values, are in
    /// the reference slots from `slot`.
    func setDictionary(_ index: Int, slot: Int, count: Int) {
      objects[index] = Object(kind: 0xD, start: slot, count: count)
    }

    /// Sets reference slot `slot` to object `object`.
    func setRef(_ slot: Int, _ object: Int) {
      refs[slot] = UInt32(truncatingIfNeeded: object)
    }
  }

  /// Runs `body` with the reserved objects and references.
  mutating func withReserved<Result>(_ body: (ReservedStorage) -> Result) -> Result {
    objects.withUnsafeMutableBufferPointer { objects in
      refs.withUnsafeMutableBufferPointer { refs in
        body(ReservedStorage(objects: objects, refs: refs))
      }
    }
  }

  /// Appends a date object's bytes (9) to `out`.
  static func encodeDate(_ value: Date, to out: OutputBuffer) {
    write(.date(value.timeIntervalSinceReferenceDate.bitPattern), to: out)
  }

  /// Appends an integer object's bytes to `out`.
  static func encodeInteger(_ value: Int64, to out: OutputBuffer) {
    writeInteger(value, to: out)
  }

  /// Appends `string` to `out` exactly as `uniqueString` would write it (marker and payload),
  /// so that texts can be encoded ahead, on other threads.
  static func encodeString(_ string: String, to out: OutputBuffer) {
    writeString(string, to: out)
  }

  /// Adds a date without looking for an equal one.
  mutating func uniqueDate(_ value: Date) -> Int {
    append(.date(value.timeIntervalSinceReferenceDate.bitPattern))
  }

  /// Adds a signed integer.
  mutating func integer(_ value: Int64) -> Int { add(.integer(value)) }

  /// Adds a boolean.
  mutating func bool(_ value: Bool) -> Int { add(.bool(value)) }

  /// Adds a date (seconds since 2001-01-01, full precision).
  mutating func date(_ value: Date) -> Int {
    add(.date(value.timeIntervalSinceReferenceDate.bitPattern))
  }

  /// Reserves the index of a collection whose children are added next.
  mutating func reserve() -> Int {
    objects.append(Object(kind: 0xA, start: 0, count: 0))
    return objects.count - 1
  }

  /// Fills a reserved slot with an array of the `count` object indexes from `first`, `step`
  /// apart.
  mutating func setArray(_ index: Int, first: Int, count: Int, step: Int) {
    objects[index] = Object(kind: 0xA, start: refs.count, count: count)
    var element = first
    for _ in 0..<count {
      refs.append(UInt32(truncatingIfNeeded: element))
      element += step
    }
  }

  /// Fills a reserved slot with an array of object indexes.
  mutating func setArray(_ index: Int, _ elements: [Int]) {
    objects[index] = Object(kind: 0xA, start: refs.count, count: elements.count)
    for element in elements { refs.append(UInt32(truncatingIfNeeded: element)) }
  }

  /// Fills a reserved slot with a dictionary.
  mutating func setDictionary(_ index: Int, keys: [Int], values: [Int]) {
    objects[index] = Object(kind: 0xD, start: refs.count, count: keys.count)
    for key in keys { refs.append(UInt32(truncatingIfNeeded: key)) }
    for value in values { refs.append(UInt32(truncatingIfNeeded: value)) }
  }

  /// Fills a reserved slot with a dictionary of five entries, without building a values array.
  mutating func setDictionary(_ index: Int, keys: [Int], values: (Int, Int, Int, Int, Int)) {
    objects[index] = Object(kind: 0xD, start: refs.count, count: 5)
    for key in keys { refs.append(UInt32(truncatingIfNeeded: key)) }
    refs.append(UInt32(truncatingIfNeeded: values.0))
    refs.append(UInt32(truncatingIfNeeded: values.1))
    refs.append(UInt32(truncatingIfNeeded: values.2))
    refs.append(UInt32(truncatingIfNeeded: values.3))
    refs.append(UInt32(truncatingIfNeeded: values.4))
  }

  /// Adds any value, dictionary keys in `PlistKeyOrder`, and returns its object index.
  mutating func value(_ value: PlistValue) -> Int {
    switch value {
    case .string(let string): return self.string(string)
    case .integer(let integer): return add(.integer(integer))
    case .unsignedInteger(let integer):
      return integer <= UInt64(Int64.max)
        ? add(.integer(Int64(integer))) : add(.unsignedInteger(integer))
    case .real(let real): return add(.real(real.bitPattern))
    case .bool(let bool): return add(.bool(bool))
    case .date(let date): return self.date(date)
    case .data(let data): return add(.data(data))
    case .uid(let uid): return add(.uid(uid))
    case .array(let elements):
      let index = reserve()
      var refs: [Int] = []
      refs.reserveCapacity(elements.count)
      for element in elements { refs.append(self.value(element)) }
      setArray(index, refs)
      return index
    case .dictionary(let dictionary):
      let index = reserve()
      let keys = PlistKeyOrder.sorted(Array(dictionary.keys))
      var keyRefs: [Int] = []
      var valueRefs: [Int] = []
      keyRefs.reserveCapacity(keys.count)
      valueRefs.reserveCapacity(keys.count)
      for key in keys { keyRefs.append(string(key.string)) }
      for key in keys {
        if let element = dictionary[key] { valueRefs.append(self.value(element)) }
      }
      setDictionary(index, keys: keyRefs, values: valueRefs)
      return index
    }
  }

  /// Adds a scalar unless an equal one is there, and returns its object index.
  ///
  /// Scalars are compared by their encoded bytes: the marker holds the kind, so two scalars
  /// share an object exactly when they are of the same kind with the same content (strings by
  /// their exact UTF-8, numbers and dates by their bits).
  private mutating func add(_ scalar: Scalar) -> Int {
    let next = objects.count
    if case .bool(let bool) = scalar {
      if let known = bool ? trueIndex : falseIndex { return known }
      if bool { trueIndex = next } else { falseIndex = next }
      return append(scalar)
    }
    if case .integer(let value) = scalar, value >= 0, value < smallIntegers.count {
      let known = Int(smallIntegers[Int(value)])
      if known != 0 { return known - 1 }
      smallIntegers[Int(value)] = UInt32(truncatingIfNeeded: next + 1)
      return append(scalar)
    }
    let start = scalarBytes.count
    Self.write(scalar, to: scalarBytes)
    let count = scalarBytes.count - start
    let bytes = scalarBytes.bytes
    let found = uniques.indexOrInsert(
      UnsafeBufferPointer(rebasing: bytes[start..<(start + count)]), next: next,
      objects: objects, scalarBytes: bytes)
    if found != next {
      scalarBytes.removeLast(count)
      return found
    }
    objects.append(Object(kind: 0, start: start, count: count))
    return next
  }

  /// Adds a scalar as a new object, without looking for an equal one.
  private mutating func append(_ scalar: Scalar) -> Int {
    let start = scalarBytes.count
    Self.write(scalar, to: scalarBytes)
    objects.append(Object(kind: 0, start: start, count: scalarBytes.count - start))
    return objects.count - 1
  }

  /// The file's bytes, with `top` as the top object; the writer is spent afterwards.
  ///
  /// The collections and the offset table are written in `parts` contiguous runs of objects,
  /// each on its own thread when there are several; the bytes are the same for any number.
  mutating func finish(top: Int, parts: Int = 1) -> Data {
    // Apple's reader wants references that can count all objects, and offsets that reach
    // the offset table itself.
    let refSize = Self.byteCount(for: UInt64(objects.count))
    // Collections go after the scalars, in object order; sizes first, so that the buffer
    // grows once to the file's exact size, and each run knows where its collections start.
    let scalarEnd = scalarBytes.count
    let objectCount = objects.count
    let runCount = max(min(parts, objectCount), 1)
    let runs = (0..<runCount).map { run in
      (objectCount * run / runCount)..<(objectCount * (run + 1) / runCount)
    }
    var runStarts: [Int] = []
    var tableOffset = scalarEnd
    for run in runs {
      runStarts.append(tableOffset)
      for object in objects[run] where object.kind != 0 {
        tableOffset += Self.size(of: object, refSize: refSize)
      }
    }
    let offsetSize = Self.byteCount(for: UInt64(tableOffset))
    let out = scalarBytes
    let trailerStart = tableOffset + objectCount * offsetSize
    out.reserve(trailerStart + 32)
    out.append(uninitialized: trailerStart - scalarEnd) { tail in
      objects.withUnsafeBufferPointer { objects in
        refs.withUnsafeBufferPointer { refs in
          let layout = CollectionLayout(
            objects: objects, refs: refs, file: tail, fileStart: scalarEnd, refSize: refSize,
            tableOffset: tableOffset, offsetSize: offsetSize)
          _ = ItemSlices.map(runs.count) { run in
            layout.write(runs[run], collectionsAt: runStarts[run])
          }
        }
      }
    }
    out.append(contentsOf: [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(refSize)])
    out.appendUInt(UInt64(objectCount), size: 8)
    out.appendUInt(UInt64(top), size: 8)
    out.appendUInt(UInt64(tableOffset), size: 8)
    objects = []
    refs = []
    return out.takeData()
  }

  /// Where `finish` writes the collections and the offset table: the part of the file after
  /// the scalars, shared by the threads, each writing the bytes of its own run of objects.
  private struct CollectionLayout {
    let objects: UnsafeBufferPointer<Object>
    let refs: UnsafeBufferPointer<UInt32>
    /// The file from `fileStart` (the end of the scalars) to the trailer.
    let file: UnsafeMutableRawBufferPointer
    let fileStart: Int
    let refSize: Int
    let tableOffset: Int
    let offsetSize: Int

    /// Writes the collections of `run` from file position `start` on, and the run's entries of
    /// the offset table.
    func write(_ run: Range<Int>, collectionsAt start: Int) {
      var position = start
      for index in run {
        let object = objects[index]
        let entry = tableOffset + index * offsetSize - fileStart
        if object.kind == 0 {
          store(UInt64(object.start), size: offsetSize, at: entry)
          continue
        }
        store(UInt64(position), size: offsetSize, at: entry)
        var at = position - fileStart
        let count = object.count
        if count < 15 {
          file[at] = object.kind << 4 | UInt8(count)
          at += 1
        } else {
          let size = BinaryPlistWriter.byteCount(for: UInt64(count))
          file[at] = object.kind << 4 | 0xF
          file[at + 1] = 0x10 | (size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : 3)
          store(UInt64(count), size: size, at: at + 2)
          at += 2 + size
        }
        let slots = object.kind == 0xD ? count * 2 : count
        for ref in refs[object.start..<(object.start + slots)] {
          store(UInt64(ref), size: refSize, at: at)
          at += refSize
        }
        position += BinaryPlistWriter.size(of: object, refSize: refSize)
      }
    }

    /// Stores `value` big-endian in `size` bytes (1, 2, 4 or 8) at `at`.
    @inline(__always)
    private func store(_ value: UInt64, size: Int, at: Int) {
      guard let base = file.baseAddress else { return }
      OutputBuffer.storeUInt(value, size: size, to: base, at: at)
    }
  }

  /// Room for a whole file of at most `objects` objects, `refs` references and `scalarBytes`
  /// bytes of scalars, so that `finish` adds the collections and the offset table where the
  /// scalars already are: moving 8 MB of them into a bigger buffer of fresh memory took 5–7 ms
  /// of a 100,000-item save. Room never written is never faulted in.
  static func fileRoom(objects: Int, refs: Int, scalarBytes: Int) -> Int {
    let refSize = byteCount(for: UInt64(objects))
    // A collection's marker takes 1 byte, or up to 10 for 15 elements or more (so at most one
    // such collection per 15 references); every object has an entry in the offset table.
    let beforeTable = 8 + scalarBytes + refs * refSize + objects + refs / 15 * 9
    let offsetSize = byteCount(for: UInt64(beforeTable))
    return beforeTable + objects * offsetSize + 32
  }

  /// The bytes an object takes in the file.
  private static func size(of object: Object, refSize: Int) -> Int {
    if object.kind == 0 { return object.count }
    let slots = object.kind == 0xD ? object.count * 2 : object.count
    return markerSize(count: object.count) + slots * refSize
  }

  /// The bytes of a collection's marker and count.
  private static func markerSize(count: Int) -> Int {
    count < 15 ? 1 : 2 + byteCount(for: UInt64(count))
  }

  /// The fewest of 1, 2, 4 or 8 bytes that hold `value`.
  fileprivate static func byteCount(for value: UInt64) -> Int {
    if value <= 0xFF { return 1 }
    if value <= 0xFFFF { return 2 }
    if value <= 0xFFFF_FFFF { return 4 }
    return 8
  }

  private static func writeMarker(_ type: UInt8, count: Int, to out: OutputBuffer) {
    if count < 15 {
      out.append(type << 4 | UInt8(count))
    } else {
      out.append(type << 4 | 0xF)
      writeInteger(Int64(count), to: out)
    }
  }

  private static func writeInteger(_ value: Int64, to out: OutputBuffer) {
    if value < 0 {
      out.append(0x13)
      out.appendUInt(UInt64(bitPattern: value), size: 8)
      return
    }
    let size = byteCount(for: UInt64(value))
    let exponent: UInt8 = size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : 3
    out.append(0x10 | exponent)
    out.appendUInt(UInt64(value), size: size)
  }

  private static func write(_ scalar: Scalar, to out: OutputBuffer) {
    switch scalar {
    case .string(let string):
      writeString(string, to: out)
    case .integer(let value):
      writeInteger(value, to: out)
    case .unsignedInteger(let value):
      out.append(0x14)
      out.appendUInt(0, size: 8)
      out.appendUInt(value, size: 8)
    case .real(let bits):
      out.append(0x23)
      out.appendUInt(bits, size: 8)
    case .date(let bits):
      out.append(0x33)
      out.appendUInt(bits, size: 8)
    case .bool(let value):
      out.append(value ? 0x09 : 0x08)
    case .data(let data):
      writeMarker(0x4, count: data.count, to: out)
      data.withUnsafeBytes { out.append($0) }
    case .uid(let value):
      // 1, 2, 4 or 8 bytes, marker 0x80 + size - 1.
      let size = byteCount(for: value)
      out.append(0x80 | UInt8(size - 1))
      out.appendUInt(value, size: size)
    }
  }

  /// ASCII as type 0x5, anything else as big-endian UTF-16 (type 0x6).
  private static func writeString(_ string: String, to out: OutputBuffer) {
    var string = string
    string.withUTF8 { utf8 in
      let units = utf16Count(utf8)
      if units < 0 {
        writeMarker(0x5, count: utf8.count, to: out)
        out.append(utf8)
        return
      }
      writeMarker(0x6, count: units, to: out)
      out.append(uninitialized: units * 2) { raw in
        let buffer = raw.bindMemory(to: UInt8.self)
        let source = UnsafeRawBufferPointer(utf8)
        var position = 0
        var index = 0
        while index < utf8.count {
          // Eight ASCII bytes at a time: each becomes a zero byte and itself.
          if index + 8 <= utf8.count {
            let word = source.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            if word & asciiMask == 0 {
              for offset in 0..<8 {
                buffer[position + 2 * offset] = 0
                buffer[position + 2 * offset + 1] = utf8[index + offset]
              }
              index += 8
              position += 16
              continue
            }
          }
          let lead = UInt32(utf8[index])
          var value: UInt32
          if lead < 0x80 {
            value = lead
            index += 1
          } else if lead < 0xE0 {
            value = (lead & 0x1F) << 6 | UInt32(utf8[index + 1] & 0x3F)
            index += 2
          } else if lead < 0xF0 {
            value =
              (lead & 0x0F) << 12 | UInt32(utf8[index + 1] & 0x3F) << 6
              | UInt32(utf8[index + 2] & 0x3F)
            index += 3
          } else {
            value =
              (lead & 0x07) << 18 | UInt32(utf8[index + 1] & 0x3F) << 12
              | UInt32(utf8[index + 2] & 0x3F) << 6 | UInt32(utf8[index + 3] & 0x3F)
            index += 4
          }
          if value > 0xFFFF {
            let high = 0xD800 + ((value - 0x10000) >> 10)
            let low = 0xDC00 + ((value - 0x10000) & 0x3FF)
            buffer[position] = UInt8(high >> 8)
            buffer[position + 1] = UInt8(high & 0xFF)
            buffer[position + 2] = UInt8(low >> 8)
            buffer[position + 3] = UInt8(low & 0xFF)
            position += 4
          } else {
            buffer[position] = UInt8(value >> 8)
            buffer[position + 1] = UInt8(value & 0xFF)
            position += 2
          }
        }
      }
    }
  }
}

/// The high bit of each byte of a word.
private let asciiMask: UInt64 = 0x8080_8080_8080_8080

/// The UTF-16 length of valid UTF-8, or -1 when it is all ASCII; eight bytes at a time. A byte
/// `10xxxxxx` continues a scalar; a lead `11110xxx` starts one that takes two units.
private func utf16Count(_ utf8: UnsafeBufferPointer<UInt8>) -> Int {
  let raw = UnsafeRawBufferPointer(utf8)
  var continuations = 0
  var pairs = 0
  var high: UInt64 = 0
  var index = 0
  while index + 8 <= utf8.count {
    let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
    high |= word
    continuations += (word & ~(word << 1) & asciiMask).nonzeroBitCount
    pairs += (word & (word << 1) & (word << 2) & (word << 3) & asciiMask).nonzeroBitCount
    index += 8
  }
  while index < utf8.count {
    let byte = utf8[index]
    high |= UInt64(byte)
    if byte & 0xC0 == 0x80 { continuations += 1 }
    if byte >= 0xF0 { pairs += 1 }
    index += 1
  }
  if high & asciiMask == 0 { return -1 }
  return utf8.count - continuations + pairs
}

/// An open-addressing hash set of scalar objects, keyed by their encoded bytes.
///
/// 8 bytes a slot (object index + 1, and 32 bits of the hash to skip most byte comparisons),
/// at most 70% full. Object indexes fit in 32 bits: 4 billion objects would take far more
/// memory than any file the store accepts.
private struct ScalarTable {
  /// Per slot: 32 bits of the hash (high) and the object index + 1 (low); 0 is empty.
  private var slots: [UInt64]
  private var used = 0

  init(capacity: Int = 0) {
    var size = 16
    while size < capacity { size <<= 1 }
    slots = [UInt64](repeating: 0, count: size)
  }

  /// The object whose bytes equal `key`, or `next` after remembering `key` as object `next`.
  ///
  /// `objects` and `scalarBytes` locate the bytes of the objects already in the table.
  fileprivate mutating func indexOrInsert(
    _ key: UnsafeBufferPointer<UInt8>, next: Int, objects: [BinaryPlistWriter.ObjectPosition],
    scalarBytes: UnsafeBufferPointer<UInt8>
  ) -> Int {
    if (used + 1) * 10 > slots.count * 7 { grow(objects: objects, scalarBytes: scalarBytes) }
    let hash = Self.hash(key)
    let tag = hash & 0xFFFF_FFFF_0000_0000
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: hash) & mask
    while slots[slot] != 0 {
      if slots[slot] & 0xFFFF_FFFF_0000_0000 == tag {
        let index = Int(slots[slot] & 0xFFFF_FFFF) - 1
        let object = objects[index]
        if object.count == key.count,
          UnsafeBufferPointer(rebasing: scalarBytes[object.start..<(object.start + object.count)])
            .elementsEqual(key)
        {
          return index
        }
      }
      slot = (slot + 1) & mask
    }
    slots[slot] = tag | UInt64(truncatingIfNeeded: next + 1) & 0xFFFF_FFFF
    used += 1
    return next
  }

  /// Doubles the table, hashing the objects' bytes again.
  private mutating func grow(
    objects: [BinaryPlistWriter.ObjectPosition], scalarBytes: UnsafeBufferPointer<UInt8>
  ) {
    let oldSlots = slots
    slots = [UInt64](repeating: 0, count: oldSlots.count * 2)
    let mask = slots.count - 1
    for value in oldSlots where value != 0 {
      let object = objects[Int(value & 0xFFFF_FFFF) - 1]
      let hash = Self.hash(
        UnsafeBufferPointer(rebasing: scalarBytes[object.start..<(object.start + object.count)]))
      var slot = Int(truncatingIfNeeded: hash) & mask
      while slots[slot] != 0 { slot = (slot + 1) & mask }
      slots[slot] = value
    }
  }

  /// A 64-bit hash of a few bytes (multiply-xorshift over 8-byte words).
  private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
    var hash = UInt64(bytes.count) &* 0xC2B2_AE3D_27D4_EB4F
    let raw = UnsafeRawBufferPointer(bytes)
    var offset = 0
    while offset + 8 <= raw.count {
      let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      hash = (hash ^ word) &* multiplier
      hash ^= hash >> 29
      offset += 8
    }
    var tail: UInt64 = 0
    var shift: UInt64 = 0
    while offset < raw.count {
      tail |= UInt64(raw[offset]) << shift
      shift += 8
      offset += 1
    }
    hash = (hash ^ tail) &* multiplier
    hash ^= hash >> 32
    hash &*= 0xD6E8_FEB8_6659_FD93
    hash ^= hash >> 32
    return hash
  }
}

/// The order keys are written in: by UTF-16 code units, as Apple's writer sorts them.
enum PlistKeyOrder {
  /// The keys in writing order (see `PlistKey.<`).
  static func sorted(_ keys: [PlistKey]) -> [PlistKey] { keys.sorted() }
}
