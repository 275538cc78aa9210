import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The XML date form `YYYY-MM-DDTHH:MM:SSZ` (UTC, whole seconds), without `DateFormatter`.
enum PlistDateFormat {
  /// Seconds from 1970-01-01 to 2001-01-01.
  private static let referenceOffset: Int64 = 978_307_200

  /// Seconds since 2001-01-01 for a date string, or nil when it is not one (fractions are read).
  static func parse(_ text: String) -> Double? { parse(bytes: Array(text.utf8)) }

  /// `parse` of exactly `YYYY-MM-DDTHH:MM:SSZ` with a real day and time, as the writers write
  /// every date, read at fixed places; nil for anything else, which `parse` then reads.
  static func parseWritten(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    guard bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
      bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
      bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "Z")
    else { return nil }
    func digits(_ at: Int, _ width: Int) -> Int64? {
      var value: Int64 = 0
      for offset in at..<(at + width) {
        let digit = bytes[offset] &- 0x30
        guard digit <= 9 else { return nil }
        value = value * 10 + Int64(digit)
      }
      return value
    }
    guard let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2),
      let hour = digits(11, 2), let minute = digits(14, 2), let second = digits(17, 2),
      (1...12).contains(month), day >= 1, day <= daysInMonth(year, month), hour <= 23,
      minute <= 59, second <= 59
    else { return nil }
    let unix = daysFromCivil(year, month, day) * 86_400 + hour * 3_600 + minute * 60 + second
    return Double(unix - referenceOffset)
  }

  /// Seconds since 2001-01-01 for the UTF-8 bytes of a date, white space around ignored.
  static func parse<Bytes: RandomAccessCollection>(bytes: Bytes) -> Double?
  where Bytes.Element == UInt8, Bytes.Index == Int {
    func isSpace(_ byte: UInt8) -> Bool {
      byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
    var index = bytes.startIndex
    var end = bytes.endIndex
    while end > index, isSpace(bytes[end - 1]) { end -= 1 }
    while index < end, isSpace(bytes[index]) { index += 1 }
    func number(_ width: Int) -> Int64? {
      guard index + width <= end else { return nil }
      var value: Int64 = 0
      for offset in 0..<width {
        let byte = bytes[index + offset]
        guard byte >= 0x30, byte <= 0x39 else { return nil }
        value = value * 10 + Int64(byte - 0x30)
      }
      index += width
      return value
    }
    func expect(_ character: UInt8) -> Bool {
      guard index < end, bytes[index] == character else { return false }
      index += 1
      return true
    }
    let negative = expect(UInt8(ascii: "-"))
    guard var year = number(4) else { return nil }
    if negative { year = -year }
    guard expect(UInt8(ascii: "-")), let month = number(2), expect(UInt8(ascii: "-")),
      let day = number(2), expect(UInt8(ascii: "T")), let hour = number(2),
      expect(UInt8(ascii: ":")), let minute = number(2), expect(UInt8(ascii: ":")),
      let second = number(2)
    else { return nil }
    var fraction = 0.0
    if expect(UInt8(ascii: ".")) {
      var scale = 0.1
      let start = index
      while index < end, bytes[index] >= 0x30, bytes[index] <= 0x39 {
        fraction += Double(bytes[index] - 0x30) * scale
        scale /= 10
        index += 1
      }
      guard index > start else { return nil }
    }
    guard expect(UInt8(ascii: "Z")), index == end else { return nil }
    // Day 32 of a 31-day month is the next month's first day: Apple's XML encoder wrote such
    // dates in 2024, and Foundation reads them by rolling over. Other impossible days are refused.
    let monthLength = (1...12).contains(month) ? daysInMonth(year, month) : 0
    guard (1...12).contains(month), day >= 1,
      day <= monthLength || (monthLength == 31 && day == 32), hour <= 23, minute <= 59,
      second <= 60
    else { return nil }
    let days = daysFromCivil(year, month, day)
    let unix = days * 86_400 + hour * 3_600 + minute * 60 + second
    return Double(unix - referenceOffset) + fraction
  }

  /// The string for seconds since 2001-01-01, rounded down to a whole second; nil when the
  /// date is not finite or outside the years 1–9999.
  static func format(_ seconds: Double) -> String? {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: textLength) { out in
      guard let base = out.baseAddress, write(seconds, into: base) else { return nil }
      return String(decoding: out, as: UTF8.self)
    }
  }

  /// The length of a date's text, `YYYY-MM-DDTHH:MM:SSZ`.
  static let textLength = 20

  /// Writes the `textLength` bytes of `format(seconds)` at `out`; false (nothing written) when
  /// there is no such text.
  static func write(_ seconds: Double, into out: UnsafeMutablePointer<UInt8>) -> Bool {
    guard seconds.isFinite else { return false }
    let floored = seconds.rounded(.down)
    guard floored >= -63_113_904_000, floored < 252_423_993_600 else { return false }
    let unix = Int64(floored) + referenceOffset
    let days = unix >= 0 ? unix / 86_400 : (unix - 86_399) / 86_400
    let secondOfDay = unix - days * 86_400
    let (year, month, day) = civilFromDays(days)
    guard (1...9999).contains(year) else { return false }
    func two(_ value: Int64, at offset: Int, then separator: UInt8) {
      out[offset] = UInt8(truncatingIfNeeded: 0x30 + value / 10)
      out[offset + 1] = UInt8(truncatingIfNeeded: 0x30 + value % 10)
      out[offset + 2] = separator
    }
    two(year / 100, at: 0, then: 0)
    two(year % 100, at: 2, then: UInt8(ascii: "-"))
    two(month, at: 5, then: UInt8(ascii: "-"))
    two(day, at: 8, then: UInt8(ascii: "T"))
    two(secondOfDay / 3_600, at: 11, then: UInt8(ascii: ":"))
    two(secondOfDay / 60 % 60, at: 14, then: UInt8(ascii: ":"))
    two(secondOfDay % 60, at: 17, then: UInt8(ascii: "Z"))
    return true
  }

  private static func isLeap(_ year: Int64) -> Bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
  }

  private static func daysInMonth(_ year: Int64, _ month: Int64) -> Int64 {
    switch month {
    case 2: return isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days since 1970-01-01 in the proleptic Gregorian calendar.
  private static func daysFromCivil(_ year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
    let shiftedYear = month <= 2 ? year - 1 : year
    let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
    let yearOfEra = shiftedYear - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The civil date of a day count since 1970-01-01.
  private static func civilFromDays(_ days: Int64) -> (Int64, Int64, Int64) {
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    return (year, month, day)
  }
}

/// Base64 as XML property lists use it (white space between characters is ignored).
enum Base64 {
  private static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// The bytes of base64 text, or nil when it is not base64.
  static func decode(_ text: String) -> Data? {
    var out: [UInt8] = []
    var accumulator: UInt32 = 0
    var bits = 0
    var padding = 0
    for byte in text.utf8 {
      let value: UInt8
      switch byte {
      case 0x41...0x5A: value = byte - 0x41
      case 0x61...0x7A: value = byte - 0x61 + 26
      case 0x30...0x39: value = byte - 0x30 + 52
      case UInt8(ascii: "+"): value = 62
      case UInt8(ascii: "/"): value = 63
      case UInt8(ascii: "="):
        padding += 1
        continue
      case 0x20, 0x09, 0x0A, 0x0D: continue
      default: return nil
      }
      guard padding == 0 else { return nil }
      accumulator = accumulator << 6 | UInt32(value)
      bits += 6
      if bits >= 8 {
        bits -= 8
        out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
      }
    }
    guard padding <= 2, bits < 6 else { return nil }
    return Data(out)
  }

  /// Base64 text in lines of at most `lineLength` characters.
  static func encodeLines(_ data: Data, lineLength: Int) -> [String] {
    var lines: [String] = []
    var line: [UInt8] = []
    line.reserveCapacity(lineLength)
    func emit(_ byte: UInt8) {
      line.append(byte)
      if line.count == lineLength {
        lines.append(String(decoding: line, as: UTF8.self))
        line.removeAll(keepingCapacity: true)
      }
    }
    let bytes = [UInt8](data)
    var index = 0
    while index < bytes.count {
      let count = min(3, bytes.count - index)
      let b0 = UInt32(bytes[index])
      let b1 = count > 1 ? UInt32(bytes[index + 1]) : 0
      let b2 = count > 2 ? UInt32(bytes[index + 2]) : 0
      let group = b0 << 16 | b1 << 8 | b2
      emit(alphabet[Int(group >> 18 & 63)])
      emit(alphabet[Int(group >> 12 & 63)])
      emit(count > 1 ? alphabet[Int(group >> 6 & 63)] : UInt8(ascii: "="))
      emit(count > 2 ? alphabet[Int(group & 63)] : UInt8(ascii: "="))
      index += 3
    }
    if !line.isEmpty { lines.append(String(decoding: line, as: UTF8.self)) }
    return lines
  }
}
