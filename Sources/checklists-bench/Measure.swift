import Foundation

/// Timing helpers: monotonic clock, median of runs with min and max.
enum Measure {
  /// Monotonic time in seconds.
  static func now() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
  }

  /// Runs `body` `runs` times and returns the durations in milliseconds.
  static func milliseconds(runs: Int, _ body: () throws -> Void) rethrows -> Summary {
    var samples: [Double] = []
    for _ in 0..<runs {
      let start = now()
      try body()
      samples.append((now() - start) * 1000)
    }
    return Summary(samples)
  }

  /// Peak resident set size of this process in MB (VmHWM).
  static func peakRSSMegabytes() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
      return 0
    }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
      let digits = line.filter(\.isNumber)
      return (Double(digits) ?? 0) / 1024
    }
    return 0
  }
}

/// Median, min and max of a set of samples.
struct Summary {
  let median: Double
  let min: Double
  let max: Double

  init(_ samples: [Double]) {
    let sorted = samples.sorted()
    median = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    min = sorted.first ?? 0
    max = sorted.last ?? 0
  }

  /// "12.3 (11.9–13.0)".
  var text: String {
    String(format: "%.2f (%.2f–%.2f)", median, min, max)
  }
}
