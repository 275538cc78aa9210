/// Reads TZif files (RFC 8536), the compiled zones of `/usr/share/zoneinfo`.
///
/// Versions 1 to 4 are read; with version 2 or later the 64-bit section and the POSIX `TZ`
/// footer (the rule for instants after the table) are used and the 32-bit section is skipped.
/// Leap second records are skipped: instants are POSIX seconds, as everywhere else here.
/// Every count and index is checked against the data, and absurd counts are refused.
enum TZifReader {
  /// The largest file read: real zones are a few kilobytes.
  static let maximumFileSize = 1 << 20
  static let maximumTransitions = 50_000
  static let maximumTypes = 256
  static let maximumCharacters = 256 * 8
  static let maximumLeapRecords = 10_000

  /// The table and footer of a TZif file.
  struct Contents: Equatable, Sendable {
    /// Transition instants (seconds since 1970 UTC), strictly ascending.
    var transitions: [Int64]
    /// For each transition, the index in `offsets` of the time type that starts then.
    var transitionTypes: [UInt8]
    /// Each time type's offset from UTC in seconds, east positive.
    var offsets: [Int32]
    /// The rule after the last transition (from the footer of version 2 and later).
    var footer: PosixZoneRule?
  }

  /// The six counts of a header.
  private struct Counts {
    var isUTCCount: Int
    var isStandardCount: Int
    var leapCount: Int
    var timeCount: Int
    var typeCount: Int
    var characterCount: Int

    /// The size of the data block that follows, with `timeSize`-byte times.
    func dataSize(timeSize: Int) -> Int {
      timeCount * timeSize + timeCount + typeCount * 6 + characterCount
        + leapCount * (timeSize + 4) + isStandardCount + isUTCCount
    }
  }

  /// Parses the bytes of a TZif file; `path` names it in errors.
  static func read(_ bytes: [UInt8], path: String) throws(ZoneRulesError) -> Contents {
    func fail(_ reason: String) -> ZoneRulesError { .invalidFile(path, reason: reason) }
    guard bytes.count <= maximumFileSize else { throw .tooLarge(path, bytes: bytes.count) }
    guard bytes.count >= 44, bytes[0] == 0x54, bytes[1] == 0x5A, bytes[2] == 0x69,
      bytes[3] == 0x66
    else { throw fail("it does not start with \"TZif\"") }
    let version = bytes[4]
    guard version == 0 || (version >= UInt8(ascii: "2") && version <= UInt8(ascii: "9")) else {
      throw fail("unknown version byte \(version)")
    }
    // The 32-bit section of a version 2+ file may be empty (zic -b slim): only its size counts.
    let first = try counts(bytes, at: 0, needsTypes: version == 0, fail: fail)
    if version == 0 {
      return try block(bytes, at: 44, counts: first, timeSize: 4, fail: fail)
    }
    let secondHeader = 44 + first.dataSize(timeSize: 4)
    guard secondHeader + 44 <= bytes.count, bytes[secondHeader] == 0x54,
      bytes[secondHeader + 1] == 0x5A, bytes[secondHeader + 2] == 0x69,
      bytes[secondHeader + 3] == 0x66
    else { throw fail("the 64-bit header is missing") }
    let second = try counts(bytes, at: secondHeader, needsTypes: true, fail: fail)
    let dataStart = secondHeader + 44
    var contents = try block(bytes, at: dataStart, counts: second, timeSize: 8, fail: fail)
    let footerStart = dataStart + second.dataSize(timeSize: 8)
    guard footerStart < bytes.count, bytes[footerStart] == 0x0A else {
      throw fail("the footer (a POSIX TZ rule between newlines) is missing")
    }
    guard let footerEnd = bytes[(footerStart + 1)...].firstIndex(of: 0x0A) else {
      throw fail("the footer does not end with a newline")
    }
    if footerEnd > footerStart + 1 {
      let text = String(decoding: bytes[(footerStart + 1)..<footerEnd], as: UTF8.self)
      do {
        contents.footer = try PosixZoneRule(parsing: text)
      } catch {
        throw fail("its footer: \(error)")
      }
    }
    return contents
  }

  private static func counts(
    _ bytes: [UInt8], at start: Int, needsTypes: Bool, fail: (String) -> ZoneRulesError
  ) throws(ZoneRulesError) -> Counts {
    func count(_ index: Int) -> Int { Int(uint32(bytes, at: start + 20 + 4 * index)) }
    let counts = Counts(
      isUTCCount: count(0), isStandardCount: count(1), leapCount: count(2),
      timeCount: count(3), typeCount: count(4), characterCount: count(5))
    guard counts.typeCount >= (needsTypes ? 1 : 0), counts.typeCount <= maximumTypes else {
      throw fail("\(counts.typeCount) time types (1 to \(maximumTypes) allowed)")
    }
    guard counts.timeCount <= maximumTransitions else {
      throw fail("\(counts.timeCount) transitions (at most \(maximumTransitions) allowed)")
    }
    guard counts.characterCount <= maximumCharacters, counts.leapCount <= maximumLeapRecords
    else { throw fail("absurd counts of designation characters or leap seconds") }
    guard counts.isUTCCount == 0 || counts.isUTCCount == counts.typeCount,
      counts.isStandardCount == 0 || counts.isStandardCount == counts.typeCount
    else { throw fail("the UT/local and standard/wall indicator counts do not match the types") }
    return counts
  }

  private static func block(
    _ bytes: [UInt8], at start: Int, counts: Counts, timeSize: Int,
    fail: (String) -> ZoneRulesError
  ) throws(ZoneRulesError) -> Contents {
    guard start + counts.dataSize(timeSize: timeSize) <= bytes.count else {
      throw fail("the data is truncated")
    }
    var position = start
    var transitions: [Int64] = []
    transitions.reserveCapacity(counts.timeCount)
    for _ in 0..<counts.timeCount {
      let time =
        timeSize == 8
        ? Int64(bitPattern: uint64(bytes, at: position))
        : Int64(Int32(bitPattern: uint32(bytes, at: position)))
      if let last = transitions.last, time <= last {
        throw fail("the transition times are not in ascending order")
      }
      transitions.append(time)
      position += timeSize
    }
    var types: [UInt8] = []
    types.reserveCapacity(counts.timeCount)
    for _ in 0..<counts.timeCount {
      let type = bytes[position]
      guard Int(type) < counts.typeCount else {
        throw fail("a transition names time type \(type) of \(counts.typeCount)")
      }
      types.append(type)
      position += 1
    }
    var offsets: [Int32] = []
    for _ in 0..<counts.typeCount {
      let offset = Int32(bitPattern: uint32(bytes, at: position))
      guard offset > -26 * 3600, offset < 26 * 3600 else {
        throw fail("a time type's offset of \(offset) seconds is out of range")
      }
      guard bytes[position + 4] <= 1 else { throw fail("a time type's DST flag is not 0 or 1") }
      guard Int(bytes[position + 5]) < max(counts.characterCount, 1) else {
        throw fail("a time type's designation index is past the designations")
      }
      offsets.append(offset)
      position += 6
    }
    return Contents(transitions: transitions, transitionTypes: types, offsets: offsets, footer: nil)
  }

  private static func uint32(_ bytes: [UInt8], at index: Int) -> UInt32 {
    UInt32(bytes[index]) << 24 | UInt32(bytes[index + 1]) << 16 | UInt32(bytes[index + 2]) << 8
      | UInt32(bytes[index + 3])
  }

  private static func uint64(_ bytes: [UInt8], at index: Int) -> UInt64 {
    UInt64(uint32(bytes, at: index)) << 32 | UInt64(uint32(bytes, at: index + 4))
  }
}
