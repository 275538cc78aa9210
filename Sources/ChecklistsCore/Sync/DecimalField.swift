/// Reads a decimal integer field of the sync's text files straight from their bytes.
enum DecimalField {
  /// The `Int64` that `range` of `bytes` spells (an optional leading `-`), or nil when it is
  /// empty, holds anything else, or overflows.
  static func int64<Bytes: RandomAccessCollection<UInt8>>(
    _ bytes: Bytes, _ range: Range<Int>
  ) -> Int64? where Bytes.Index == Int {
    guard !range.isEmpty else { return nil }
    var result: Int64 = 0
    var negative = false
    for position in range {
      let byte = bytes[position]
      if position == range.lowerBound && byte == UInt8(ascii: "-") {
        negative = true
        continue
      }
      guard byte >= 48 && byte <= 57 else { return nil }
      let (times, overflow1) = result.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = times.addingReportingOverflow(Int64(byte - 48))
      guard !overflow1 && !overflow2 else { return nil }
      result = sum
    }
    if negative && range.count == 1 { return nil }
    return negative ? -result : result
  }
}
