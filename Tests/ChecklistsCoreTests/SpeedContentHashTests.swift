import Foundation
import Synchronization
import Testing

@testable import ChecklistsCore

/// `ContentHash`, which tells a rewritten file of unchanged size from the one last saved.
@Suite struct SpeedContentHashTests {
  /// `count` bytes of a fixed pattern that differs from byte to byte.
  private func pattern(_ count: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
  }

  private func hash(_ bytes: [UInt8]) -> UInt64 {
    bytes.withUnsafeBytes { ContentHash.of($0) }
  }

  /// A big file's hash is taken on a thread of its own; a failed save or an unreadable file
  /// drops it unasked. Its owner still joins that thread when dropping it (the thread, left
  /// the last holder, could not join itself and would never be joined).
  @Test func workDroppedUnaskedIsJoinedByItsOwner() {
    let go = DispatchSemaphore(value: 0)
    let finished = Atomic(false)
    do {
      let work = ThreadedWork { () -> UInt64 in
        _ = go.wait(timeout: .now() + 30)
        finished.store(true, ordering: .sequentiallyConsistent)
        return 1
      }
      withExtendedLifetime(work) { DispatchQueue.global().async { go.signal() } }
      // `work` is dropped here without `result()`: that waits for its thread.
    }
    let joined = finished.load(ordering: .sequentiallyConsistent)
    #expect(joined)
  }

  @Test func fixedInputsKeepTheirValues() {
    // Saved fingerprints are compared within one run only, but a change of these values
    // means the function changed: it must still mix every byte.
    #expect(hash([]) == 0x9090_306C_6E91_ED59)
    #expect(hash(Array("a".utf8)) == 0x796B_C972_FBCE_7664)
    #expect(hash(Array("Checklists".utf8)) == 0xCE63_BB54_E16B_2FEC)
    #expect(hash(pattern(32)) == 0x4B1E_7736_27C7_74B7)
    #expect(hash(pattern(63)) == 0xB407_4EB4_7C8A_5CFE)
    #expect(hash(pattern(1 << 20)) == 0xFED4_B406_ED10_85DB)
  }

  @Test func dataAndBufferGiveTheSameHash() {
    for count in [0, 1, 7, 8, 31, 32, 33, 100, 4_099] {
      let bytes = pattern(count)
      #expect(ContentHash.of(Data(bytes)) == hash(bytes), "length \(count)")
    }
  }

  @Test func everyLengthUpTo64DiffersFromTheOthers() {
    var seen: [UInt64: Int] = [:]
    for count in 0...64 {
      let value = hash(pattern(count))
      #expect(seen[value] == nil, "length \(count) hashes like length \(seen[value] ?? -1)")
      seen[value] = count
      // Zeros of different lengths, too: the length is part of the hash.
      let zeros = hash([UInt8](repeating: 0, count: count))
      #expect(count == 0 || zeros != hash([UInt8](repeating: 0, count: count - 1)))
    }
  }

  @Test func aChangeOfOneByteChangesTheHashAtEveryLengthAndPosition() {
    for count in 1...64 {
      let original = pattern(count)
      let expected = hash(original)
      for position in 0..<count {
        for flip: UInt8 in [0x01, 0x80, 0xFF] {
          var changed = original
          changed[position] ^= flip
          #expect(hash(changed) != expected, "length \(count), byte \(position), xor \(flip)")
        }
      }
    }
  }

  @Test func aChangeOfOneByteInAMultiMegabyteBufferChangesTheHash() {
    // Odd length: the 32-byte lanes, the 8-byte words and the single bytes all take part.
    let count = 3 * (1 << 20) + 45
    var bytes = pattern(count)
    let expected = hash(bytes)
    #expect(hash(bytes) == expected, "the hash is a function of the bytes")
    var positions = [0, 1, 8, 31, 32, count / 2, count - 46, count - 45, count - 13]
    positions += Array((count - 12)..<count)
    for position in positions {
      bytes[position] ^= 0x01
      #expect(hash(bytes) != expected, "byte \(position)")
      bytes[position] ^= 0x01
    }
    // Swapping two words keeps the bytes' multiset but must change the hash.
    bytes.swapAt(0, 8)
    bytes.swapAt(100, 1_000_000)
    #expect(hash(bytes) != expected)
  }
}
