import Foundation
import Testing

@testable import ChecklistsCore

#if canImport(Glibc)
  import Glibc
#endif

/// `HugePages` marks the middle of big buffers for 2 MB pages (`MADV_HUGEPAGE`), which the
/// kernel shows as the `hg` flag of the mapping in `/proc/self/smaps`.
@Suite("Speed: big buffers ask for 2 MB pages")
struct SpeedHugePagesTests {
  /// The `VmFlags` of the mapping of this process that holds `address`, or nil.
  static func flags(at address: UnsafeRawPointer) -> [String]? {
    guard let file = fopen("/proc/self/smaps", "r") else { return nil }
    defer { fclose(file) }
    let target = UInt(bitPattern: address)
    var inside = false
    var line: UnsafeMutablePointer<CChar>?
    var size = 0
    defer { free(line) }
    while getline(&line, &size, file) > 0, let line {
      let text = String(cString: line)
      if text.hasPrefix("VmFlags:") {
        if inside { return text.dropFirst(8).split { $0 == " " || $0 == "\n" }.map(String.init) }
        continue
      }
      // A mapping's first line starts with its range, "start-end ", in hexadecimal.
      guard let dash = text.firstIndex(of: "-"), let space = text.firstIndex(of: " "),
        dash < space, let low = UInt(text[..<dash], radix: 16),
        let high = UInt(text[text.index(after: dash)..<space], radix: 16)
      else { continue }
      inside = low <= target && target < high
    }
    return nil
  }

  @Test("an array's reserved room is marked before it is filled")
  func reservedRoomOfAnArray() throws {
    // Only where the kernel has transparent huge pages at all.
    guard FileManager.default.fileExists(atPath: "/sys/kernel/mm/transparent_hugepage/enabled")
    else { return }
    // 64 MB: past malloc's largest threshold, so the room is a fresh mapping of its own that
    // no earlier buffer can have marked.
    var big: [UInt32] = []
    big.reserveCapacity(16 << 20)
    let base = try #require(big.withUnsafeBufferPointer { $0.baseAddress })
    let middle = UnsafeRawPointer(base).advanced(by: 32 << 20)
    #expect(Self.flags(at: middle)?.contains("hg") == false)
    HugePages.prefer(reservedOf: &big)
    #expect(Self.flags(at: middle)?.contains("hg") == true)
    big.append(contentsOf: repeatElement(7, count: 1 << 20))
    #expect(big.count == 1 << 20 && big.allSatisfy { $0 == 7 })
  }
}
