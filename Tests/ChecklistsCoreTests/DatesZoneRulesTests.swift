import ChecklistsTestSupport
import Foundation
import Testing

@testable import ChecklistsCore

/// Our time zone rules against the system's own readers of the same database: `zdump` (glibc's
/// tz code) for every transition from 1900 to 2100, Python's `zoneinfo` for offsets and wall
/// times on a grid and around each transition, and `date` for how `TZ` is resolved.
@Suite struct DatesZoneRulesTests {
  typealias F = DatesFixture

  static let zones = [
    "Europe/Berlin", "America/New_York", "Australia/Sydney", "Asia/Kathmandu", "Pacific/Apia",
    "UTC",
  ]

  /// Rules that POSIX strings can say, with negative times, times past 24 h, Julian days,
  /// zero-based days, a half-hour daylight shift and daylight time all year.
  static let posixRules = [
    "EST5EDT,M3.2.0,M11.1.0", "<+0545>-5:45", "CET-1CEST,M3.5.0,M10.5.0/3",
    "AEST-10AEDT,M10.1.0,M4.1.0/3", "<-03>3<-02>,M3.5.0/-2,M10.5.0/-1",
    "IST-2IDT,M3.4.4/26,M10.5.0", "XXX3YYY,J60/2,J300/2", "XXX3YYY,59,299",
    "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0", "EST5EDT,0/0,J365/25", "HST10",
  ]

  // MARK: - Against zdump and Python

  @Test(arguments: zones)
  func everyTransitionFrom1900To2100MatchesZdump(name: String) throws {
    let zone = F.zone(name)
    let transitions = try Self.zdumpTransitions(name)
    if name != "UTC" { #expect(transitions.count >= 4, "\(name): zdump listed too few") }
    for (instant, offset) in transitions {
      #expect(zone.secondsFromGMT(at: instant) == offset, "\(name) at \(instant)")
    }
  }

  /// zdump applies a POSIX string from 1970 on (EST before, in its tz code) and ends a daylight
  /// time that lasts all year at the end of its range: compared from 1970 to 2099.
  @Test(arguments: posixRules)
  func posixRulesMatchZdump(text: String) throws {
    let zone = try ZoneRules(posixRule: text)
    let transitions = try Self.zdumpTransitions(text).filter {
      $0.0 > 86_400 && $0.0 < 4_102_444_800
    }
    if text.contains(",") && !text.contains("J365/25") {
      #expect(transitions.count > 300, "\(text): zdump listed too few transitions")
    }
    for (instant, offset) in transitions {
      #expect(zone.secondsFromGMT(at: instant) == offset, "\(text) at \(instant)")
    }
    // And a grid between the transitions (rules without any are checked against Python).
    guard let first = transitions.first else { return }
    for instant in stride(from: Int64(86_400), to: 4_102_444_800, by: 2_000_003) {
      let expected = (transitions.last { $0.0 <= instant } ?? first).1
      #expect(zone.secondsFromGMT(at: instant) == expected, "\(text) at \(instant)")
    }
  }

  @Test func offsetsAndWallTimesMatchPythonZoneinfo() throws {
    var keys: [String] = []
    var requests: [String] = []
    var ours: [String] = []
    for name in Self.zones {
      let zone = F.zone(name)
      var generator = SeededGenerator(seed: UInt64(name.utf8.count) * 7919)
      // Offsets on a grid 1900–2100 at odd times of day.
      var instant: Int64 = -2_208_988_800
      while instant < 4_102_444_800 {
        keys.append(name)
        requests.append("\(name) o \(instant)")
        ours.append(String(zone.secondsFromGMT(at: instant)))
        instant += 3_000_000 + Int64.random(in: 0..<86_400, using: &generator)
      }
      // Wall times on a grid and at, inside and around every gap and overlap.
      var walls: [Int64] = []
      var wall: Int64 = -2_208_988_800
      while wall < 4_102_444_800 {
        walls.append(wall + 34_200)
        wall += 4_000_000 + Int64.random(in: 0..<3600, using: &generator) * 60
      }
      for (instant, after) in try Self.zdumpTransitions(name) {
        let before = zone.secondsFromGMT(at: instant - 1)
        guard before != after else { continue }
        for base in [instant + Int64(before), instant + Int64(after)] {
          walls += [base - 3601, base - 1, base, base + 1, base + 1800, base + 3600]
        }
        walls.append(instant + Int64(before + after) / 2)
      }
      for wall in walls {
        requests.append("\(name) w \(wall)")
        keys.append(name)
        let shown = zone.instants(showing: Double(wall))
        ours.append(
          shown.isEmpty
            ? "-"
            : shown.map { String(Int64($0.timeIntervalSince1970)) }.joined(separator: " "))
      }
    }
    let theirs = try Self.python(requests)
    try #require(theirs.count == requests.count, "python answered \(theirs.count) lines")
    var mismatches = 0
    for index in requests.indices where ours[index] != theirs[index] {
      mismatches += 1
      if mismatches <= 20 {
        Issue.record("\(requests[index]): ours \(ours[index]), zoneinfo \(theirs[index])")
      }
    }
    #expect(mismatches == 0)
    #expect(requests.count > 15_000)
  }

  @Test func footerOnlyFilesOfVersion3MatchPythonZoneinfo() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "checklists-zones-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var requests: [String] = []
    var ours: [String] = []
    // Python 3.11 reads the zero-based day `n` one day early (it counts it like `Jn`); zdump,
    // glibc and RFC 8536 agree with ours, checked in `posixRulesMatchZdump`.
    for (index, text) in Self.posixRules.enumerated() where text != "XXX3YYY,59,299" {
      let path = folder.appendingPathComponent("rule\(index)").path
      let bytes = TZifFixture.footerOnly(text, version: "3")
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      let zone = try ZoneRules.file(atPath: path)
      #expect(zone == (try ZoneRules(tzif: bytes, identifier: path)))
      let rule = try ZoneRules(posixRule: text)
      var instant: Int64 = 0
      while instant < 4_102_444_800 {
        #expect(zone.secondsFromGMT(at: instant) == rule.secondsFromGMT(at: instant))
        requests.append("file:\(path) o \(instant)")
        ours.append(String(zone.secondsFromGMT(at: instant)))
        instant += 86_400 * 3 + 3_599
      }
    }
    let theirs = try Self.python(requests)
    try #require(theirs.count == requests.count)
    var mismatches = 0
    for index in requests.indices where ours[index] != theirs[index] {
      mismatches += 1
      if mismatches <= 20 {
        Issue.record("\(requests[index]): ours \(ours[index]), zoneinfo \(theirs[index])")
      }
    }
    #expect(mismatches == 0)
  }

  // MARK: - Gaps, folds and the date line

  @Test func gapsAndFoldsInBerlinAndNewYork() throws {
    let berlin = F.zone("Europe/Berlin")
    // 29 March 2026: 02:00 → 03:00; 25 October 2026: 03:00 → 02:00.
    let spring = Double(GregorianDays.days(year: 2026, month: 3, day: 29)) * 86_400
    #expect(berlin.instants(showing: spring + 2.5 * 3600).isEmpty)
    #expect(berlin.instants(showing: spring + 3 * 3600) == [F.utc(2026, 3, 29, 1, 0)])
    let autumn = Double(GregorianDays.days(year: 2026, month: 10, day: 25)) * 86_400
    #expect(
      berlin.instants(showing: autumn + 2.5 * 3600) == [
        F.utc(2026, 10, 25, 0, 30), F.utc(2026, 10, 25, 1, 30),
      ])
    let clock = ZonedWallClock(timeZone: berlin)
    #expect(clock.date(wallSeconds: spring + 2.5 * 3600) == F.utc(2026, 3, 29, 1, 0))
    #expect(
      clock.dateWithOffsetBeforeGap(wallSeconds: spring + 2.5 * 3600)
        == F.utc(2026, 3, 29, 1, 30))
    #expect(clock.date(wallSeconds: autumn + 2.5 * 3600) == F.utc(2026, 10, 25, 0, 30))
    let newYork = F.zone("America/New_York")
    let november = Double(GregorianDays.days(year: 2026, month: 11, day: 1)) * 86_400
    #expect(newYork.instants(showing: november + 1.5 * 3600).count == 2)
  }

  @Test func apiaSkippedThirtiethOfDecember2011() throws {
    let apia = F.zone("Pacific/Apia")
    let day = GregorianDays.days(year: 2011, month: 12, day: 30)
    for hour in [0, 9, 12, 23] {
      #expect(apia.instants(showing: Double(day) * 86_400 + Double(hour * 3600)).isEmpty)
    }
    // Any time that day means the instant the clocks jumped: 31 December 00:00 (+14).
    let clock = ZonedWallClock(timeZone: apia)
    #expect(clock.date(days: day, hour: 12, minute: 0) == F.utc(2011, 12, 30, 10, 0))
    #expect(clock.day(of: F.utc(2011, 12, 30, 9, 59, 59)) == day - 1)
    #expect(clock.day(of: F.utc(2011, 12, 30, 10, 0)) == day + 1)
    #expect(apia.secondsFromGMT(at: 1_325_239_199) == -36_000)
    #expect(apia.secondsFromGMT(at: 1_325_239_200) == 50_400)
  }

  @Test func extremeInstantsDoNotTrap() throws {
    for zone in [F.berlin, F.zone("Australia/Sydney"), try ZoneRules(posixRule: "EST5EDT")] {
      for instant in [Int64.min, Int64.min + 1, -1 << 60, 1 << 60, Int64.max] {
        let offset = zone.secondsFromGMT(at: instant)
        #expect(abs(offset) < 86_400)
      }
      #expect(abs(zone.secondsFromGMT(for: .distantFuture)) < 86_400)
      #expect(abs(zone.secondsFromGMT(for: Date(timeIntervalSince1970: .infinity))) < 86_400)
    }
  }

  @Test func aFIFONamedByTZIsRefusedWithoutWaiting() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "checklists-fifo-\(UUID().uuidString)"
    ).path
    try #require(mkfifo(path, 0o600) == 0)
    defer { unlink(path) }
    #expect(throws: ZoneRulesError.unreadable(path, reason: "not a regular file")) {
      try ZoneRules.file(atPath: path)
    }
    #expect(ZoneRules.resolve(environment: ["TZ": path]) == .utc)
  }

  @Test func kathmanduAndDatesPastTheTable() throws {
    let kathmandu = F.zone("Asia/Kathmandu")
    #expect(kathmandu.secondsFromGMT(for: F.utc(2026, 6, 1)) == 20_700)
    #expect(kathmandu.secondsFromGMT(for: F.utc(2099, 6, 1)) == 20_700)
    #expect(kathmandu.secondsFromGMT(for: F.utc(1980, 6, 1)) == 19_800)
    // Past 2037 the footer rule decides.
    let sydney = F.zone("Australia/Sydney")
    #expect(sydney.secondsFromGMT(for: F.utc(2090, 1, 15)) == 39_600)
    #expect(sydney.secondsFromGMT(for: F.utc(2090, 7, 15)) == 36_000)
    #expect(
      DueDateFormatter(timeZone: kathmandu).full(F.utc(2026, 12, 24, 12, 15))
        == "Thu 24 Dec 2026, 18:00")
    #expect(
      DefaultDueDate.nextWholeHour(after: F.utc(2026, 12, 24, 12, 20), timeZone: kathmandu)
        == F.utc(2026, 12, 24, 13, 15))
  }

  /// The next whole hour is the first time the clock shows one, where clocks move by half an
  /// hour (Lord Howe Island) and when they go back an hour (Berlin).
  @Test func theNextWholeHourIsTheNextOneTheClockShows() {
    let lordHowe = F.zone("Australia/Lord_Howe")
    // 5 April 2026: 02:00 (+11) becomes 01:30 (+10:30) at 15:00 UTC; 01:45 (+11) is 14:45 UTC
    // and the next 02:00 comes at 15:30 UTC (it was 15:00, which shows 01:30).
    #expect(
      DefaultDueDate.nextWholeHour(after: F.utc(2026, 4, 4, 14, 45), timeZone: lordHowe)
        == F.utc(2026, 4, 4, 15, 30))
    // 4 October 2026: 02:00 (+10:30) becomes 02:30 (+11) at 15:30 UTC; from 01:45 the next
    // whole hour is 03:00 (+11), 16:00 UTC (it was 15:30, which shows 02:30).
    #expect(
      DefaultDueDate.nextWholeHour(after: F.utc(2026, 10, 3, 15, 15), timeZone: lordHowe)
        == F.utc(2026, 10, 3, 16, 0))
    // 25 October 2026 in Berlin: 03:00 CEST becomes 02:00 CET at 01:00 UTC; from 02:30 CEST
    // the clock next shows a whole hour then, 02:00 CET.
    #expect(
      DefaultDueDate.nextWholeHour(after: F.utc(2026, 10, 25, 0, 30), timeZone: F.berlin)
        == F.utc(2026, 10, 25, 1, 0))
  }

  /// The next whole hour is exactly on the hour, to the second and below, whatever fraction of
  /// a second `now` has (it was a hair before it for some, which XML wrote as hh:59:59).
  @Test(arguments: ["UTC", "Europe/Berlin", "Asia/Kathmandu", "America/New_York"])
  func theNextWholeHourIsExact(zone: String) {
    let rules = zone == "UTC" ? ZoneRules.utc : F.zone(zone)
    var generator = SeededGenerator(seed: 11)
    let start = F.utc(2026, 12, 2, 16, 30).timeIntervalSinceReferenceDate
    for _ in 0..<20_000 {
      let now = Date(
        timeIntervalSinceReferenceDate: start
          + Double.random(in: 0..<86_400 * 400, using: &generator))
      let due = DefaultDueDate.nextWholeHour(after: now, timeZone: rules)
      let seconds = due.timeIntervalSinceReferenceDate
      let wall = ZonedWallClock(timeZone: rules).wallSeconds(of: due)
      guard seconds == seconds.rounded(), wall.truncatingRemainder(dividingBy: 3600) == 0,
        due > now, due.timeIntervalSince(now) <= 3600
      else {
        Issue.record("\(zone): after \(now.timeIntervalSinceReferenceDate), \(seconds)")
        return
      }
    }
  }

  // MARK: - POSIX strings

  @Test func posixStringsAreParsed() throws {
    let rule = try PosixZoneRule(parsing: "<+0545>-5:45")
    #expect(rule.standardName == "+0545" && rule.standardOffset == 20_700 && rule.daylight == nil)
    let us = try PosixZoneRule(parsing: "EST5EDT")
    #expect(us.daylight?.offset == -14_400)
    #expect(
      us.daylight?.start == .init(day: .monthWeekDay(month: 3, week: 2, weekday: 0), time: 7200))
    let israel = try PosixZoneRule(parsing: "IST-2IDT,M3.4.4/26,M10.5.0")
    #expect(israel.daylight?.start.time == 26 * 3600)
    let greenland = try PosixZoneRule(parsing: "<-02>2<-01>,M3.5.0/-1,M10.5.0/0")
    #expect(greenland.daylight?.start.time == -3600 && greenland.standardOffset == -7200)
    #expect(try PosixZoneRule(parsing: "XXX3:30:15").standardOffset == -(3 * 3600 + 30 * 60 + 15))
  }

  @Test(arguments: [
    ("", "empty"), ("EST", "no offset"), ("ES5", "three"), ("<AB>5", "shorter"),
    ("EST5EDT,M3.2.0", "end rule"), ("EST5EDT,M13.2.0,M11.1.0", "month 1–12"),
    ("EST5EDT,J0,J100", "1 to 365"), ("EST5EDT,366,4", "0 to 365"),
    ("EST25", "hours from 0 to 24"), ("EST5:60", "minutes"),
    ("EST5EDT,M3.2.0/168,M11.1.0", "hours from 0 to 167"), ("EST5EDT4x", "expected \",\""),
    ("<+05", "closing"), ("EST5EDT,M3.2.0;M11.1.0", "end rule"),
  ])
  func badPosixStringsSayWhy(text: String, reason: String) {
    #expect {
      try ZoneRules(posixRule: text)
    } throws: { error in
      "\(error)".contains(reason) && "\(error)".contains("not a POSIX TZ rule")
    }
  }

  // MARK: - TZif files

  @Test func version1FilesAndTheirTablesAreRead() throws {
    // Transitions in 32-bit form only; before the first, type 0.
    let bytes = TZifFixture.file(
      version: 0, transitions: [0, 15_552_000], types: [1, 0], offsets: [3600, 7200], footer: nil)
    let zone = try ZoneRules(tzif: bytes, identifier: "test")
    #expect(zone.secondsFromGMT(at: -1) == 3600)
    #expect(zone.secondsFromGMT(at: 0) == 7200)
    #expect(zone.secondsFromGMT(at: 15_551_999) == 7200)
    #expect(zone.secondsFromGMT(at: 15_552_000) == 3600)
    #expect(zone.secondsFromGMT(at: 4_000_000_000) == 3600)
  }

  @Test func realZoneFilesAreReadOnlyWhole() throws {
    let bytes = try ZoneRules.readZoneFile("/usr/share/zoneinfo/Europe/Berlin")
    #expect(
      try ZoneRules(tzif: bytes, identifier: "Europe/Berlin", databaseName: "Europe/Berlin")
        == F.berlin)
    // Every shorter prefix fails with a typed error, never a crash.
    for length in 0..<bytes.count {
      #expect(throws: ZoneRulesError.self) {
        try ZoneRules(tzif: Array(bytes[0..<length]), identifier: "cut")
      }
    }
  }

  @Test func malformedFilesAreRefusedWithAReason() throws {
    func reason(_ bytes: [UInt8]) -> String {
      do {
        _ = try ZoneRules(tzif: bytes, identifier: "f")
        return "read"
      } catch {
        return error.description
      }
    }
    #expect(reason(Array("TZjf".utf8) + [UInt8](repeating: 0, count: 60)).contains("TZif"))
    var badType = TZifFixture.file(
      version: 0, transitions: [0], types: [0], offsets: [0], footer: nil)
    badType[44 + 4] = 3
    #expect(reason(badType).contains("names time type 3"))
    let descending = TZifFixture.file(
      version: 0, transitions: [10, 5], types: [0, 0], offsets: [0], footer: nil)
    #expect(reason(descending).contains("ascending"))
    var huge = TZifFixture.file(version: 0, transitions: [], types: [], offsets: [0], footer: nil)
    huge[32..<36] = [0x7F, 0xFF, 0xFF, 0xFF]
    #expect(reason(huge).contains("transitions (at most"))
    let tooLarge = [UInt8](repeating: 0, count: (1 << 20) + 1)
    #expect(reason(tooLarge).contains("too large"))
    var noFooter = TZifFixture.footerOnly("EST5", version: "2")
    noFooter.removeLast()
    #expect(reason(noFooter).contains("newline"))
    #expect(reason(TZifFixture.footerOnly("EST", version: "2")).contains("footer"))
    let offset = TZifFixture.file(
      version: 0, transitions: [], types: [], offsets: [100_000], footer: nil)
    #expect(reason(offset).contains("out of range"))
  }

  // MARK: - TZ from the environment

  @Test func tzSelectsTheZoneAsGlibcDoes() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "checklists-tz-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("My"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let kathmandu = "/usr/share/zoneinfo/Asia/Kathmandu"
    let link = folder.appendingPathComponent("localtime-link").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: kathmandu)
    let copy = folder.appendingPathComponent("localtime-copy").path
    try FileManager.default.copyItem(atPath: kathmandu, toPath: copy)
    try FileManager.default.copyItem(
      atPath: "/usr/share/zoneinfo/Pacific/Apia", toPath: folder.path + "/My/Zone")

    func resolved(_ tz: String?, localtime: String = link, tzdir: String? = nil) -> ZoneRules {
      var environment: [String: String] = [:]
      environment["TZ"] = tz
      environment["TZDIR"] = tzdir
      return ZoneRules.resolve(environment: environment, localtime: localtime)
    }
    let unset = resolved(nil)
    #expect(unset.identifier == "Asia/Kathmandu" && unset.databaseName == "Asia/Kathmandu")
    #expect(unset.secondsFromGMT(at: 1_790_000_000) == 20_700)
    #expect(resolved(nil, localtime: copy).identifier == "localtime")
    #expect(resolved(nil, localtime: copy).databaseName == nil)
    #expect(resolved(nil, localtime: copy).secondsFromGMT(at: 1_790_000_000) == 20_700)
    #expect(resolved(nil, localtime: folder.path + "/missing") == .utc)
    #expect(resolved("Europe/Berlin") == F.berlin)
    #expect(resolved(":Europe/Berlin") == F.berlin)
    #expect(resolved("/usr/share/zoneinfo/Australia/Sydney").identifier == "Australia/Sydney")
    #expect(resolved(copy).identifier == copy && resolved(copy).databaseName == nil)
    #expect(resolved("My/Zone", tzdir: folder.path).secondsFromGMT(at: 1_790_000_000) == 46_800)
    #expect(resolved("My/Zone") == .utc)
    let posix = resolved("EST5EDT,M3.2.0,M11.1.0")
    #expect(posix.identifier == "EST5EDT,M3.2.0,M11.1.0" && posix.databaseName == nil)
    #expect(resolved("EST5EDT").databaseName == "EST5EDT")
    #expect(resolved("<+0545>-5:45").secondsFromGMT(at: 0) == 20_700)
    for unknown in ["Bogus/Zone", ":Bogus", "", ":", "../../../etc/passwd", "Europe/../UTC"] {
      #expect(resolved(unknown) == .utc, "TZ=\(unknown)")
    }
    #expect(throws: ZoneRulesError.invalidName("Europe/../UTC")) {
      try ZoneRules.named("Europe/../UTC")
    }
    #expect(throws: ZoneRulesError.self) { try ZoneRules.named("Europe") }
  }

  @Test(arguments: [
    "Europe/Berlin", ":America/New_York", "/usr/share/zoneinfo/Asia/Kathmandu",
    "EST5EDT,M3.2.0,M11.1.0", "<+0545>-5:45", "CET-1CEST", "Bogus/Zone", "", "Pacific/Apia",
  ])
  func tzValuesGiveTheOffsetsDateGives(tz: String) throws {
    let zone = ZoneRules.resolve(environment: ["TZ": tz])
    let instants: [Int64] = [1_767_225_600, 1_775_000_000, 1_790_000_000, 1_798_000_000]
    for instant in instants {
      let run = try runProcess(
        "/usr/bin/env", ["TZ=\(tz)", "date", "-d", "@\(instant)", "+%z"],
        environment: ["PATH": "/usr/bin:/bin"])
      let text = run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
      let sign = text.hasPrefix("-") ? -1 : 1
      let digits = text.dropFirst()
      let hours = Int(digits.prefix(2)) ?? 99
      let minutes = Int(digits.suffix(2)) ?? 99
      #expect(
        zone.secondsFromGMT(at: instant) == sign * (hours * 3600 + minutes * 60),
        "TZ=\(tz) at \(instant): date says \(text)")
    }
  }

  // MARK: - Oracles

  /// Every transition zdump lists from 1900 to 2100: each instant with the offset from then.
  static func zdumpTransitions(_ zone: String) throws -> [(Int64, Int)] {
    let result = try runProcess("/usr/bin/zdump", ["-v", "-c", "1900,2101", zone])
    try #require(result.status == 0, "zdump failed: \(result.stderr)")
    let months = [
      "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    var found: [(Int64, Int)] = []
    for line in result.stdout.split(separator: "\n") where line.contains(" UT = ") {
      let fields = line.split(separator: " ")
      // zone, weekday, month, day, hh:mm:ss, year, "UT", "=", …, "gmtoff=N"
      guard fields.count > 8, let month = months.firstIndex(of: String(fields[2])),
        let day = Int(fields[3]), let year = Int(fields[5]),
        let offsetField = fields.last, offsetField.hasPrefix("gmtoff="),
        let offset = Int(offsetField.dropFirst("gmtoff=".count))
      else {
        Issue.record("unreadable zdump line: \(line)")
        continue
      }
      let time = fields[4].split(separator: ":").compactMap { Int($0) }
      guard time.count == 3 else { continue }
      let days = GregorianDays.days(year: year, month: month + 1, day: day)
      found.append((Int64(days * 86_400 + time[0] * 3600 + time[1] * 60 + time[2]), offset))
    }
    return found
  }

  /// Python's zoneinfo answers, one line per request: `zone o instant` gives the offset,
  /// `zone w wall` every instant showing that wall time (`-` for none).
  static func python(_ requests: [String]) throws -> [String] {
    let python = try FileFormatTestSupport.requirePython3()
    let input = FileManager.default.temporaryDirectory.appendingPathComponent(
      "checklists-zoneinfo-\(UUID().uuidString)")
    try Data(requests.joined(separator: "\n").utf8).write(to: input)
    defer { try? FileManager.default.removeItem(at: input) }
    let result = try runProcess(python, ["-c", pythonOracle], standardInput: input.path)
    try #require(result.status == 0, "python failed: \(result.stderr)")
    return result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(
      String.init)
  }

  static let pythonOracle = """
    import sys
    from datetime import datetime, timedelta
    from zoneinfo import ZoneInfo
    zones = {}
    def zone(key):
        if key not in zones:
            if key.startswith("file:"):
                with open(key[5:], "rb") as f:
                    zones[key] = ZoneInfo.from_file(f)
            else:
                zones[key] = ZoneInfo(key)
        return zones[key]
    epoch = datetime(1970, 1, 1)
    out = []
    for line in sys.stdin:
        key, kind, value = line.split()
        z = zone(key)
        v = int(value)
        if kind == "o":
            out.append(str(int(datetime.fromtimestamp(v, z).utcoffset().total_seconds())))
        else:
            naive = epoch + timedelta(seconds=v)
            found = set()
            for fold in (0, 1):
                t = int(naive.replace(tzinfo=z, fold=fold).timestamp())
                if datetime.fromtimestamp(t, z).replace(tzinfo=None) == naive:
                    found.add(t)
            out.append(" ".join(map(str, sorted(found))) or "-")
    sys.stdout.write("\\n".join(out) + "\\n")
    """
}

/// TZif files made here (RFC 8536), for the reader's tests.
enum TZifFixture {
  /// A file with only a footer: a version 2+ file with no transitions and one time type.
  static func footerOnly(_ rule: String, version: Character) -> [UInt8] {
    var bytes = header(version: version, counts: [0, 0, 0, 0, 1, 4])
    bytes += [0, 0, 0, 0, 0, 0] + Array("UTC\0".utf8)
    bytes += header(version: version, counts: [0, 0, 0, 0, 1, 4])
    bytes += [0, 0, 0, 0, 0, 0] + Array("UTC\0".utf8)
    bytes += [0x0A] + Array(rule.utf8) + [0x0A]
    return bytes
  }

  /// A version 1 file (32-bit times, no footer) when `version` is 0.
  static func file(
    version: UInt8, transitions: [Int32], types: [UInt8], offsets: [Int32], footer: String?
  ) -> [UInt8] {
    var bytes = Array("TZif".utf8) + [version] + [UInt8](repeating: 0, count: 15)
    for count in [0, 0, 0, transitions.count, offsets.count, 4] {
      bytes += bigEndian(UInt32(count))
    }
    for time in transitions { bytes += bigEndian(UInt32(bitPattern: time)) }
    bytes += types
    for offset in offsets { bytes += bigEndian(UInt32(bitPattern: offset)) + [0, 0] }
    bytes += Array("UTC\0".utf8)
    if let footer { bytes += [0x0A] + Array(footer.utf8) + [0x0A] }
    return bytes
  }

  private static func header(version: Character, counts: [Int]) -> [UInt8] {
    var bytes = Array("TZif".utf8) + Array(String(version).utf8)
    bytes += [UInt8](repeating: 0, count: 15)
    for count in counts { bytes += bigEndian(UInt32(count)) }
    return bytes
  }

  private static func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
  }
}
