import ChecklistsCore
import FoundationEssentials

/// What the screens draw and read text with, made once from the options: the glyphs, and
/// due dates read and written in the app's time zone.
struct AppEnvironment {
  let glyphs: Glyphs
  let parser: DueDateParser
  let formatter: DueDateFormatter

  init(options: AppOptions) {
    glyphs = Glyphs(ascii: options.asciiGlyphs)
    parser = DueDateParser(timeZone: options.timeZone)
    formatter = DueDateFormatter(timeZone: options.timeZone)
  }
}

extension ChecklistsApp {
  var glyphs: Glyphs { environment.glyphs }
  var parser: DueDateParser { environment.parser }
  var formatter: DueDateFormatter { environment.formatter }
}
