import ChecklistsCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// How the app looks and sounds in this terminal.
public struct AppOptions: Sendable {
  /// Draw ASCII stand-ins (`[x]`, `[groc]`) instead of symbols and emoji.
  public var asciiGlyphs: Bool
  /// Ring the bell when a reminder fires.
  public var bellEnabled: Bool
  /// The time zone due dates are read and shown in.
  public var timeZone: ZoneRules
  /// The keys: the defaults with the user's `bind` lines applied.
  public var keys: KeyTable
  /// The Photos folder and the files to attach; nil where photos are not available.
  public var photos: PhotoAccess?
  /// The colours photos are drawn in (half blocks); nil: their captions only (`NO_COLOR`,
  /// `TERM=vt100`, `CHECKLISTS_IMAGES=text`).
  public var photoColors: PhotoColors?
  /// How long a snooze (`z` on a reminder) puts the reminder off: 10 minutes.
  public var snoozeSeconds: TimeInterval = 600

  /// Creates options; the defaults are symbols, bell on, the local time zone, the default keys.
  public init(
    asciiGlyphs: Bool = false, bellEnabled: Bool = true, timeZone: ZoneRules = .current,
    keys: KeyTable = .defaults, photos: PhotoAccess? = nil, photoColors: PhotoColors? = nil
  ) {
    self.photos = photos
    self.photoColors = photoColors
    self.asciiGlyphs = asciiGlyphs
    self.bellEnabled = bellEnabled
    self.timeZone = timeZone
    self.keys = keys
  }
}
