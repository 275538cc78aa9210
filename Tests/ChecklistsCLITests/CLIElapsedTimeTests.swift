import ChecklistsCore
import Foundation
import Testing

@testable import ChecklistsCLI

/// `due` and `today` say how far a date is to the nearest hour or day, as list rows round
/// minutes, and a date from a damaged file however far does not crash them.
@Suite struct CLIElapsedTimeTests {
  let now = Date(timeIntervalSince1970: 1_796_130_000)
  let formatter = DueDateFormatter(timeZone: .utc)

  func phrase(_ seconds: Double) -> String {
    ElapsedTime.phrase(now.addingTimeInterval(seconds), now: now, formatter: formatter)
  }

  @Test func roundsToTheNearestHourOrDay() {
    #expect(phrase(7199) == "in 2 h")  // "+2h" typed a second before
    #expect(phrase(5400) == "in 2 h")
    #expect(phrase(4799) == "in 1 h")
    #expect(phrase(-5400) == "2 h ago")
    #expect(phrase(47 * 3600) == "in 47 h")
    #expect(phrase(47.6 * 3600) == "in 2 d")
    #expect(phrase(3.6 * 86_400) == "in 4 d")
    #expect(phrase(600) == "in 10 min")
  }

  @Test func aDateAsFarAsAFileCanHoldIsNoCrash() {
    let far = ElapsedTime.phrase(
      Date(timeIntervalSinceReferenceDate: 1e300), now: now, formatter: formatter)
    #expect(far.hasPrefix("in ") && far.hasSuffix(" d"))
    let past = ElapsedTime.phrase(
      Date(timeIntervalSinceReferenceDate: -1e300), now: now, formatter: formatter)
    #expect(past.hasSuffix(" d ago"))
  }
}
