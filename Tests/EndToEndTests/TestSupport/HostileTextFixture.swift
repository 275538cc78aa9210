import ChecklistsTestSupport
import Foundation

/// Writes a binary `Checklists.plist` full of hostile text (every C0 control, DEL, C1 controls,
/// CSI/OSC/DCS sequences, bidi controls, zero-width characters, variation selectors, a
/// 10,000-character line, and on request UTF-16 lone surrogates) with Python's `plistlib`.
enum HostileTextFixture {
  /// The Python program; its argument is the file to write.
  static let script = #"""
    import plistlib, sys, datetime
    ESC = "\x1b"; BEL = "\x07"
    c0 = "".join(chr(i) for i in range(0x00, 0x20))
    c1 = "".join(chr(i) for i in range(0x80, 0xA0))
    payloads = [
        "C0 " + c0 + " DEL \x7f end",
        "C1 " + c1 + " end",
        "CSI " + ESC + "[2J" + ESC + "[H" + ESC + "[31mred end",
        "OSC0 " + ESC + "]0;pwned" + BEL + " end",
        "OSC2 " + ESC + "]2;pwned" + ESC + "\\ end",
        "OSC8 " + ESC + "]8;;http://evil.example/" + ESC + "\\link" + ESC + "]8;;" + ESC + "\\ end",
        "OSC52 " + ESC + "]52;c;aGVsbG8=" + BEL + " end",
        "DCS " + ESC + "P1$qm" + ESC + "\\ end",
        "Bidi \u202eevil\u202c \u2066iso\u2069 \u2067x\u2069 \u2068y\u2069 \u200f end",
        "Zero\u200bwidth\u200c\u200d\u2060\ufeff end",
        "Variation \u2603\ufe0f \u0041\ufe0e \u2764\ufe0f end",
        "Lone ☃☃☃ end",
        "Long " + "x" * 10000,
    ]
    def item(i, t):
        return {"text": t, "checked": False, "shouldRemind": False, "itemID": i, "dueDate": datetime.datetime(2030, 1, 1, 9, 0)}
    lists = [
        {"name": "Hostile", "iconName": "Folder", "items": [item(i, t) for i, t in enumerate(payloads)]},
        {"name": "Name " + ESC + "]0;pwned" + BEL + ESC + "[2J" + c0[:5] + "\x7f" + c1[:3], "iconName": "No Icon", "items": [item(100, "a")]},
        {"name": "Bidi \u202eeman\u202c \u200b\ufe0f", "iconName": "No Icon", "items": []},
        {"name": "Long " + "y" * 10000, "iconName": "No Icon", "items": [item(101, "b")]},
        {"name": "Plain", "iconName": "No Icon", "items": []},
    ]
    data = plistlib.dumps(lists, fmt=plistlib.FMT_BINARY)
    # Lone surrogates: a UTF-16 high surrogate followed by a snowman, and a lone low surrogate.
    snow = "☃".encode("utf-16-be")
    if len(sys.argv) > 2 and sys.argv[2] == "lone-surrogates":
        data = data.replace(snow * 3, b"\xd8\x00" + snow + b"\xdc\x01", 1)
    open(sys.argv[1], "wb").write(data)
    """#

  /// Writes the fixture into `folder` as `Checklists.plist`.
  static func write(into folder: URL) throws {
    try write(into: folder, loneSurrogates: false)
  }

  /// Writes the fixture with the "Lone" item's text holding a lone high and a lone low
  /// surrogate (binary plists store non-ASCII strings as UTF-16).
  static func writeWithLoneSurrogates(into folder: URL) throws {
    try write(into: folder, loneSurrogates: true)
  }

  private static func write(into folder: URL, loneSurrogates: Bool) throws {
    let program = folder.appendingPathComponent("hostile.py")
    try script.write(to: program, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: program) }
    let result = try runProcess(
      "/usr/bin/python3",
      [program.path, folder.appendingPathComponent("Checklists.plist").path]
        + (loneSurrogates ? ["lone-surrogates"] : []))
    guard result.status == 0 else {
      throw TmuxError(description: "python3 could not write the hostile fixture: \(result.stderr)")
    }
  }
}
