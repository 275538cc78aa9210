import Foundation

/// Builds a `bplist00` file: objects are added top-down, scalars are stored once and shared.
///
/// The same calls in the same order always give the same bytes.
struct BinaryPlistWriter {
  /// A scalar, compared by exact content so that uniquing never merges distinct values.
  private enum Scalar: Hashable {
    case string(ExactString)
    case integer(Int64)
    case unsignedInteger(UInt64)
    case real(UInt64)
    case date(UInt64)
    case bool(Bool)
    case data(Data)
  }

  /// A string compared by its UTF-8 bytes (Swift's `==` merges canonically equal strings).
  private struct ExactString: Hashable {
    let string: String

    static func == (lhs: ExactString, rhs: ExactString) -> Bool {
      var left = lhs.string
      var right = rhs.string
      return left.withUTF8 { leftBytes in
        right.withUTF8 { rightBytes in leftBytes.elementsEqual(rightBytes) }
      }
    }

    func hash(into hasher: inout Hasher) {
      var copy = string
      copy.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
  }

  private enum Object {
    case scalar(Scalar)
    case array([Int])
    case dictionary(keys: [Int], values: [Int])
  }

  private var objects: [Object] = []
  // One table per kind, so that numbers hash as numbers.
  private var strings: [ExactString: Int] = [:]
  private var integers: [Int64: Int] = [:]
  private var bitPatterns: [UInt64: Int] = [:]
  private var others: [Scalar: Int] = [:]
  private var trueIndex: Int?
  private var falseIndex: Int?

  /// Creates a writer with room for about `capacity` objects.
  init(capacity: Int = 0) {
    objects.reserveCapacity(capacity)
    strings.reserveCapacity(capacity / 3)
    integers.reserveCapacity(capacity / 4)
    bitPatterns.reserveCapacity(capacity / 4)
  }

  /// Adds a string (shared with equal strings) and returns its object index.
  mutating func string(_ value: String) -> Int { add(.string(ExactString(string: value))) }

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
    objects.append(.array([]))
    return objects.count - 1
  }

  /// Fills a reserved slot with an array of object indexes.
  mutating func setArray(_ index: Int, _ elements: [Int]) { objects[index] = .array(elements) }

  /// Fills a reserved slot with a dictionary.
  mutating func setDictionary(_ index: Int, keys: [Int], values: [Int]) {
    objects[index] = .dictionary(keys: keys, values: values)
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
      for key in keys { keyRefs.append(string(key)) }
      for key in keys {
        if let element = dictionary[key] { valueRefs.append(self.value(element)) }
      }
      setDictionary(index, keys: keyRefs, values: valueRefs)
      return index
    }
  }

  private mutating func add(_ scalar: Scalar) -> Int {
    let next = objects.count
    let index: Int
    // One hash per value: the `default:` subscript inserts `next` when the value is new.
    switch scalar {
    case .string(let string): index = Self.intern(string, next, &strings)
    case .integer(let integer): index = Self.intern(integer, next, &integers)
    case .date(let bits): index = Self.intern(bits, next, &bitPatterns)
    case .bool(let bool):
      if let known = bool ? trueIndex : falseIndex { return known }
      if bool { trueIndex = next } else { falseIndex = next }
      index = next
    default: index = Self.intern(scalar, next, &others)
    }
    guard index == next else { return index }
    objects.append(.scalar(scalar))
    return next
  }

  /// The index stored for `key`, storing `next` when there is none.
  private static func intern<Key: Hashable>(_ key: Key, _ next: Int, _ table: inout [Key: Int])
    -> Int
  {
    func read(_ slot: inout Int) -> Int { slot }
    return read(&table[key, default: next])
  }

  /// The file's bytes, with `top` as the top object.
  func finish(top: Int) -> Data {
    var out: [UInt8] = Array("bplist00".utf8)
    out.reserveCapacity(objects.count * 12 + 64)
    let refSize = Self.byteCount(for: UInt64(max(objects.count - 1, 0)))
    var offsets: [Int] = []
    offsets.reserveCapacity(objects.count)
    for object in objects {
      offsets.append(out.count)
      switch object {
      case .scalar(let scalar): Self.write(scalar, to: &out)
      case .array(let refs):
        Self.writeMarker(0xA, count: refs.count, to: &out)
        for ref in refs { Self.appendUInt(UInt64(ref), size: refSize, to: &out) }
      case .dictionary(let keys, let values):
        Self.writeMarker(0xD, count: keys.count, to: &out)
        for ref in keys { Self.appendUInt(UInt64(ref), size: refSize, to: &out) }
        for ref in values { Self.appendUInt(UInt64(ref), size: refSize, to: &out) }
      }
    }
    let tableOffset = out.count
    let offsetSize = Self.byteCount(for: UInt64(offsets.last ?? 0))
    for offset in offsets { Self.appendUInt(UInt64(offset), size: offsetSize, to: &out) }
    out.append(contentsOf: [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(refSize)])
    Self.appendUInt(UInt64(objects.count), size: 8, to: &out)
    Self.appendUInt(UInt64(top), size: 8, to: &out)
    Self.appendUInt(UInt64(tableOffset), size: 8, to: &out)
    return Data(out)
  }

  /// The fewest of 1, 2, 4 or 8 bytes that hold `value`.
  private static func byteCount(for value: UInt64) -> Int {
    if value <= 0xFF { return 1 }
    if value <= 0xFFFF { return 2 }
    if value <= 0xFFFF_FFFF { return 4 }
    return 8
  }

  private static func appendUInt(_ value: UInt64, size: Int, to out: inout [UInt8]) {
    switch size {
    case 1:
      out.append(UInt8(truncatingIfNeeded: value))
      return
    case 2:
      out.append(UInt8(truncatingIfNeeded: value >> 8))
      out.append(UInt8(truncatingIfNeeded: value))
      return
    case 4:
      let bigEndian = UInt32(truncatingIfNeeded: value).bigEndian
      withUnsafeBytes(of: bigEndian) { out.append(contentsOf: $0) }
      return
    case 8:
      let bigEndian = value.bigEndian
      withUnsafeBytes(of: bigEndian) { out.append(contentsOf: $0) }
      return
    default: break
    }
    var shift = (size - 1) * 8
    while shift >= 0 {
      out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
      shift -= 8
    }
  }

  private static func writeMarker(_ type: UInt8, count: Int, to out: inout [UInt8]) {
    if count < 15 {
      out.append(type << 4 | UInt8(count))
    } else {
      out.append(type << 4 | 0xF)
      writeInteger(Int64(count), to: &out)
    }
  }

  private static func writeInteger(_ value: Int64, to out: inout [UInt8]) {
    if value < 0 {
      out.append(0x13)
      appendUInt(UInt64(bitPattern: value), size: 8, to: &out)
      return
    }
    let size = byteCount(for: UInt64(value))
    let exponent: UInt8 = size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : 3
    out.append(0x10 | exponent)
    appendUInt(UInt64(value), size: size, to: &out)
  }

  private static func write(_ scalar: Scalar, to out: inout [UInt8]) {
    switch scalar {
    case .string(let exact):
      let string = exact.string
      if string.utf8.allSatisfy({ $0 < 0x80 }) {
        writeMarker(0x5, count: string.utf8.count, to: &out)
        out.append(contentsOf: string.utf8)
      } else {
        var units = 0
        for scalar in string.unicodeScalars { units += scalar.value > 0xFFFF ? 2 : 1 }
        writeMarker(0x6, count: units, to: &out)
        for scalar in string.unicodeScalars {
          let value = scalar.value
          if value > 0xFFFF {
            let high = 0xD800 + ((value - 0x10000) >> 10)
            let low = 0xDC00 + ((value - 0x10000) & 0x3FF)
            out.append(UInt8(high >> 8))
            out.append(UInt8(high & 0xFF))
            out.append(UInt8(low >> 8))
            out.append(UInt8(low & 0xFF))
          } else {
            out.append(UInt8(value >> 8))
            out.append(UInt8(value & 0xFF))
          }
        }
      }
    case .integer(let value):
      writeInteger(value, to: &out)
    case .unsignedInteger(let value):
      out.append(0x14)
      appendUInt(0, size: 8, to: &out)
      appendUInt(value, size: 8, to: &out)
    case .real(let bits):
      out.append(0x23)
      appendUInt(bits, size: 8, to: &out)
    case .date(let bits):
      out.append(0x33)
      appendUInt(bits, size: 8, to: &out)
    case .bool(let value):
      out.append(value ? 0x09 : 0x08)
    case .data(let data):
      writeMarker(0x4, count: data.count, to: &out)
      out.append(contentsOf: data)
    }
  }
}

/// The order keys are written in: by UTF-16 code units, as Apple's writer sorts them.
enum PlistKeyOrder {
  /// Whether `lhs` sorts before `rhs`.
  static func precedes(_ lhs: String, _ rhs: String) -> Bool {
    lhs.utf16.lexicographicallyPrecedes(rhs.utf16)
  }

  /// The keys in writing order.
  static func sorted(_ keys: [String]) -> [String] { keys.sorted(by: precedes) }
}
