import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The rules of one time zone: its offset from UTC at any instant, and the instants that show
/// a wall-clock time. Read from the system's zone files (TZif) or a POSIX `TZ` rule by our own
/// code, so dates do not depend on ICU.
///
/// `current` follows `TZ` as glibc does (see `resolve(environment:)`).
public struct ZoneRules: Equatable, Sendable, CustomStringConvertible {
  /// The zone's name for display and for iCalendar `TZID`s: "Europe/Berlin", a POSIX rule as
  /// written ("EST5EDT,M3.2.0,M11.1.0"), "localtime" for an unnamed `/etc/localtime`, "UTC".
  public let identifier: String
  /// The name of the zone in the time zone database ("Europe/Berlin") when the rules came from
  /// it, which other programs know too; nil for a POSIX rule, another file, or built-in UTC.
  public let databaseName: String?
  /// Transition instants (seconds since 1970 UTC), ascending.
  private let transitions: [Int64]
  /// The offset that starts at each transition.
  private let transitionOffsets: [Int32]
  /// The offset before the first transition (and always, without transitions and footer).
  private let initialOffset: Int32
  /// The rule after the last transition.
  private let rule: PosixZoneRule?

  private init(
    identifier: String, databaseName: String?, transitions: [Int64], transitionOffsets: [Int32],
    initialOffset: Int32, rule: PosixZoneRule?
  ) {
    self.identifier = identifier
    self.databaseName = databaseName
    self.transitions = transitions
    self.transitionOffsets = transitionOffsets
    self.initialOffset = initialOffset
    self.rule = rule
  }

  /// Coordinated Universal Time, built in.
  public static let utc = ZoneRules(
    identifier: "UTC", databaseName: nil, transitions: [], transitionOffsets: [],
    initialOffset: 0, rule: nil)

  /// Rules from a POSIX `TZ` string such as `EST5EDT,M3.2.0,M11.1.0` or `<+0545>-5:45`.
  public init(posixRule text: String) throws(ZoneRulesError) {
    let rule = try PosixZoneRule(parsing: text)
    self.init(
      identifier: text, databaseName: nil, transitions: [], transitionOffsets: [],
      initialOffset: Int32(rule.standardOffset), rule: rule)
  }

  /// Rules from the bytes of a TZif file (RFC 8536), named `identifier`.
  public init(tzif bytes: [UInt8], identifier: String, databaseName: String? = nil)
    throws(ZoneRulesError)
  {
    let contents = try TZifReader.read(bytes, path: identifier)
    // Indexes were checked by the reader.
    let offsets = contents.transitionTypes.map { contents.offsets[Int($0)] }
    self.init(
      identifier: identifier, databaseName: databaseName, transitions: contents.transitions,
      transitionOffsets: offsets, initialOffset: contents.offsets[0], rule: contents.footer)
  }

  /// Rules from transitions (each an instant and the offset that starts there, ascending),
  /// the offset before the first, and a rule after the last: a zone defined elsewhere than in
  /// the database, such as an iCalendar `VTIMEZONE`.
  init(
    identifier: String, transitions: [(at: Int64, offset: Int32)], initialOffset: Int32,
    rule: PosixZoneRule?
  ) {
    self.init(
      identifier: identifier, databaseName: nil, transitions: transitions.map(\.at),
      transitionOffsets: transitions.map(\.offset), initialOffset: initialOffset, rule: rule)
  }

  /// The identifier.
  public var description: String { identifier }

  // MARK: - Offsets

  /// The offset from UTC in seconds (east positive) at `instant` (seconds since 1970 UTC).
  public func secondsFromGMT(at instant: Int64) -> Int {
    guard let last = transitions.last else {
      return rule?.offset(at: instant) ?? Int(initialOffset)
    }
    if instant < transitions[0] { return Int(initialOffset) }
    if instant >= last {
      if let rule { return rule.offset(at: instant) }
      return Int(transitionOffsets[transitionOffsets.count - 1])
    }
    // The last transition at or before `instant`.
    var low = 0
    var high = transitions.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if transitions[middle] <= instant { low = middle } else { high = middle - 1 }
    }
    return Int(transitionOffsets[low])
  }

  /// The offset from UTC in seconds (east positive) at `date`.
  public func secondsFromGMT(for date: Date) -> Int {
    secondsFromGMT(atSeconds: date.timeIntervalSince1970)
  }

  /// The offset at an instant given in (possibly fractional) seconds since 1970.
  func secondsFromGMT(atSeconds seconds: Double) -> Int {
    guard seconds.isFinite else { return Int(initialOffset) }
    let clamped = min(max(seconds.rounded(.down), -1e17), 1e17)
    return secondsFromGMT(at: Int64(clamped))
  }

  /// Every instant whose wall clock shows `wallSeconds` (seconds since 1970-01-01 00:00 on the
  /// wall), earliest first: one normally, none in a gap (clocks going forward), two in an
  /// overlap (clocks going back). The offsets in force a day either side are the candidates.
  public func instants(showing wallSeconds: Double) -> [Date] {
    let offsets = candidateOffsets(wallSeconds: wallSeconds)
    return offsets.filter { secondsFromGMT(atSeconds: wallSeconds - Double($0)) == $0 }
      .map { wallSeconds - Double($0) }
      .sorted()
      .map { Date(timeIntervalSince1970: $0) }
  }

  /// The offsets from GMT in force within a day either side of `wallSeconds`.
  func candidateOffsets(wallSeconds wall: Double) -> Set<Int> {
    Set([
      secondsFromGMT(atSeconds: wall - 86_400), secondsFromGMT(atSeconds: wall),
      secondsFromGMT(atSeconds: wall + 86_400),
    ])
  }
}
