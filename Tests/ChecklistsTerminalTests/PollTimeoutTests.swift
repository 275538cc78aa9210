import Testing

@testable import ChecklistsTerminal

/// The wait before the next wake-up is a number poll takes however far away the wake-up is
/// (a reminder's due date from a damaged file can be any finite number).
@Suite struct PollTimeoutTests {
  @Test func millisecondsAreRoundedUpAndStayWithinInt32() {
    #expect(PollTimeout.milliseconds(0.0101) == 11)
    #expect(PollTimeout.milliseconds(0) == 0)
    #expect(PollTimeout.milliseconds(-0.5) == -500)
    #expect(PollTimeout.milliseconds(1e300) == Int32.max)
    #expect(PollTimeout.milliseconds(-1e300) == Int32.min)
    #expect(PollTimeout.milliseconds(.infinity) == Int32.max)
    #expect(PollTimeout.milliseconds(.nan) == 0)
  }
}
