import CNcursesw

#if canImport(Glibc)
  import Glibc
#endif

/// Puts the process in the user's locale, falling back to `C.UTF-8` when it is not UTF-8.
enum ProcessLocale {
  /// Calls `setlocale(LC_ALL, "")` and switches to `C.UTF-8` when the codeset is not UTF-8.
  static func adoptUTF8() {
    setlocale(LC_ALL, "")
    if !isUTF8 { setlocale(LC_ALL, "C.UTF-8") }
  }

  /// Whether the current codeset is UTF-8.
  static var isUTF8: Bool {
    guard let codeset = cn_codeset() else { return false }
    let name = String(cString: codeset).uppercased()
    return name == "UTF-8" || name == "UTF8"
  }
}
