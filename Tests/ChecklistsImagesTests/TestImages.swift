import ChecklistsCore
import ChecklistsTestSupport
import Foundation

@testable import ChecklistsImages

/// The images the tests read, made once per run by `Tests/Fixtures/images/make-test-images.py`
/// (Debian's python3-pil) into a temporary folder.
enum TestImages {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// The folder, or why it could not be made.
  static let folder: Result<String, Failure> = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let script = root.appendingPathComponent("Tests/Fixtures/images/make-test-images.py").path
    let out = FileManager.default.temporaryDirectory
      .appendingPathComponent("checklists-test-images-\(getpid())").path
    do {
      let result = try runProcess("/usr/bin/python3", [script, out])
      // Removed when the test process ends (the closure may not capture, so it names the
      // folder again).
      atexit {
        try? FileManager.default.removeItem(
          at: FileManager.default.temporaryDirectory
            .appendingPathComponent("checklists-test-images-\(getpid())"))
      }
      guard result.status == 0 else {
        return .failure(Failure(description: "make-test-images.py failed: \(result.stderr)"))
      }
      return .success(out)
    } catch {
      return .failure(Failure(description: "\(error)"))
    }
  }()

  /// The bytes of one image.
  static func bytes(_ name: String) throws -> [UInt8] {
    let folder = try folder.get()
    return [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
  }

  /// The path of one image.
  static func path(_ name: String) throws -> String { try folder.get() + "/" + name }
}

/// Colour checks with the slack lossy formats need.
func isNear(_ color: RGBColor, _ expected: RGBColor, within slack: Int = 40) -> Bool {
  abs(Int(color.red) - Int(expected.red)) <= slack
    && abs(Int(color.green) - Int(expected.green)) <= slack
    && abs(Int(color.blue) - Int(expected.blue)) <= slack
}

let red = RGBColor(255, 0, 0)
let green = RGBColor(0, 255, 0)
let blue = RGBColor(0, 0, 255)
let white = RGBColor(255, 255, 255)
