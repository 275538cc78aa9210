import CNcursesw

#if canImport(Glibc)
  import Glibc
#endif

/// Puts the process's character handling in the user's locale, falling back to `C.UTF-8` when it
/// is not UTF-8.
enum ProcessLocale {
  /// Calls `setlocale(LC_CTYPE, "")` and switches to `C.UTF-8` when the codeset is not UTF-8.
  ///
  /// Only the character type is taken: it is all curses needs for wide characters and their
  /// widths. Numbers and system error texts then stay as the rest of the app's English words
  /// (no "1,5" or translated `strerror` in an English sentence), and the start loads one locale
  /// file instead of thirteen.
  static func adoptUTF8() {
    setlocale(LC_CTYPE, "")
    if !isUTF8 { setlocale(LC_CTYPE, "C.UTF-8") }
  }

  /// Whether the current codeset is UTF-8.
  static var isUTF8: Bool {
    guard let codeset = cn_codeset() else { return false }
    let name = String(cString: codeset).uppercased()
    return name == "UTF-8" || name == "UTF8"
  }
}
