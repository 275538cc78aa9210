import Dispatch
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The items of several lists cut into contiguous, nearly equal slices: how the codec spreads
/// the items of a big file over the cores (one slice per core, or several, each taken by
/// whichever thread is free).
struct ItemSlices: @unchecked Sendable {
  /// One list's part of a slice: the list's index and the range of its items.
  struct Piece {
    var list: Int
    var items: Range<Int>
  }

  /// The number of slices.
  let count: Int
  /// The lists' item counts.
  private let itemCounts: [Int]
  private let total: Int

  /// The cores used: all of them, at most eight. Asked once per process: the count reads the
  /// cgroup's CPU quota files each time (two opens and reads).
  static let threads = min(ProcessInfo.processInfo.activeProcessorCount, 8)

  /// Slices of the items of lists with `itemCounts`; nil when there is one core.
  init?(itemCounts: [Int]) {
    guard Self.threads > 1 else { return nil }
    self.init(itemCounts: itemCounts, count: Self.threads)
  }

  /// `count` slices of the items of lists with `itemCounts`, whatever the cores.
  init(itemCounts: [Int], count: Int) {
    self.count = count
    self.itemCounts = itemCounts
    total = itemCounts.reduce(0, +)
  }

  /// The pieces of slice `slice`, in list order; lists with none of its items are left out.
  func pieces(of slice: Int) -> [Piece] {
    let start = total * slice / count
    let end = total * (slice + 1) / count
    var pieces: [Piece] = []
    var listStart = 0
    for (list, itemCount) in itemCounts.enumerated() {
      let listEnd = listStart + itemCount
      let from = max(start, listStart)
      let to = min(end, listEnd)
      if from < to {
        pieces.append(Piece(list: list, items: (from - listStart)..<(to - listStart)))
      }
      if listEnd >= end { break }
      listStart = listEnd
    }
    return pieces
  }

  /// `work(slice)` for every slice, spread over the cores (each thread takes the next slice
  /// left); the results in slice order.
  ///
  /// `work` may only read what it shares with the other slices.
  func map<Result>(_ work: (Int) -> Result) -> [Result] { Self.map(count, work) }

  /// `work(run)` for runs 0 to `count` - 1 on at most `threads` threads, each taking the next
  /// run left (a single run stays on this thread: no pool of threads is started for it); the
  /// results in run order.
  ///
  /// `work` may only read what it shares with the other runs, and write what is its run's own.
  static func map<Result>(_ count: Int, _ work: (Int) -> Result) -> [Result] {
    if count == 1 { return [work(0)] }
    let results = UnsafeMutableBufferPointer<Result?>.allocate(capacity: count)
    results.initialize(repeating: nil)
    defer {
      _ = results.deinitialize()
      results.deallocate()
    }
    withoutActuallyEscaping(work) { work in
      let shared = SharedSlots(work: work, results: results)
      // As many workers as cores we use, never more (Dispatch would start one per CPU it sees,
      // which a container's CPU quota does not limit). Runs no more numerous than those are
      // handed out by Dispatch, one each: when this thread took the next run left itself, it
      // often did both of the graph proof's two runs while the second thread was starting (the
      // first frame at 100,000 items 7 ms later in alternating runs).
      if count <= threads {
        DispatchQueue.concurrentPerform(iterations: count) { run in shared.run(run) }
      } else {
        DispatchQueue.concurrentPerform(iterations: max(threads, 1)) { _ in
          shared.runUntilDone()
        }
      }
    }
    return results.compactMap { $0 }
  }

  /// What the threads share: the work, the next run to take, and one result slot per run, each
  /// written by the thread that took it only.
  private final class SharedSlots<Result>: @unchecked Sendable {
    let work: (Int) -> Result
    let results: UnsafeMutableBufferPointer<Result?>
    private let lock = ThreadLock()
    private var next = 0

    init(work: @escaping (Int) -> Result, results: UnsafeMutableBufferPointer<Result?>) {
      self.work = work
      self.results = results
    }

    /// Runs `run`, for callers that hand out the runs themselves.
    func run(_ run: Int) { results[run] = work(run) }

    /// Takes runs until none is left.
    func runUntilDone() {
      while let run = take() { results[run] = work(run) }
    }

    private func take() -> Int? {
      lock.lock()
      defer { lock.unlock() }
      guard next < results.count else { return nil }
      next += 1
      return next - 1
    }
  }
}
