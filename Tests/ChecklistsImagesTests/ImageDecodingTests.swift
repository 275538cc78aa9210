import ChecklistsCore
import ChecklistsTestSupport
import Foundation
import Testing

@testable import ChecklistsImages

@Suite("Images: decoding JPEG, PNG, WebP and GIF")
struct ImageDecodingTests {
  static let redBlue = [
    "red-blue.jpg", "red-blue-progressive.jpg", "red-blue-cmyk.jpg", "red-blue.png",
    "red-blue-palette.png", "red-blue.webp", "red-blue-lossy.webp", "red-blue.gif",
    "animated.gif", "animated.webp",
  ]

  @Test(arguments: redBlue)
  func leftHalfRedRightHalfBlue(name: String) throws {
    let decoded = try ImageDecoder.decode(TestImages.bytes(name), maxWidth: 400, maxHeight: 400)
    #expect(decoded.image.width == 80)
    #expect(decoded.image.height == 40)
    #expect(decoded.info.caption.hasSuffix("80×40 \(decoded.info.format.displayName)]"))
    for y in [0, 20, 39] {
      #expect(isNear(decoded.image.pixel(5, y).color, red), "\(name) at 5,\(y)")
      #expect(isNear(decoded.image.pixel(74, y).color, blue), "\(name) at 74,\(y)")
      #expect(decoded.image.pixel(5, y).alpha == 255)
    }
  }

  @Test(arguments: 1...8)
  func exifOrientationIsHonoured(orientation: Int) throws {
    let bytes = try TestImages.bytes("orientation-\(orientation).jpg")
    let info = try ImageDecoder.probe(bytes)
    #expect(info.orientation.rawValue == orientation)
    #expect(info.caption == "[photo 64×32 JPEG]")
    let decoded = try ImageDecoder.decode(bytes, maxWidth: 200, maxHeight: 200)
    try expectUprightQuadrants(decoded.image)
  }

  @Test(arguments: ["orientation-6.png", "orientation-6.webp"])
  func exifOrientationInPNGAndWebP(name: String) throws {
    let decoded = try ImageDecoder.decode(TestImages.bytes(name), maxWidth: 200, maxHeight: 200)
    #expect(decoded.info.orientation == .right)
    #expect(decoded.info.storedWidth == 32 && decoded.info.storedHeight == 64)
    try expectUprightQuadrants(decoded.image)
  }

  /// 64×32: red top-left, green top-right, blue bottom-left, white bottom-right.
  func expectUprightQuadrants(_ image: RGBAImage) throws {
    #expect(image.width == 64 && image.height == 32)
    #expect(isNear(image.pixel(8, 8).color, red))
    #expect(isNear(image.pixel(56, 8).color, green))
    #expect(isNear(image.pixel(8, 24).color, blue))
    #expect(isNear(image.pixel(56, 24).color, white))
  }

  @Test(arguments: ["red-blue.jpg", "red-blue.png", "red-blue.webp", "red-blue.gif"])
  func decodesAtTheSizeAskedFor(name: String) throws {
    let decoded = try ImageDecoder.decode(TestImages.bytes(name), maxWidth: 10, maxHeight: 10)
    #expect(decoded.image.width == 10 && decoded.image.height == 5)
    #expect(isNear(decoded.image.pixel(1, 2).color, red))
    #expect(isNear(decoded.image.pixel(8, 2).color, blue))
  }

  @Test func greyAndSixteenBitImages() throws {
    for name in ["grey.png", "grey.jpg", "grey-16bit.png"] {
      let decoded = try ImageDecoder.decode(TestImages.bytes(name), maxWidth: 100, maxHeight: 100)
      #expect(decoded.image.width == 40 && decoded.image.height == 20, "\(name)")
      let pixel = decoded.image.pixel(3, 3).color
      #expect(pixel.red == pixel.green && pixel.green == pixel.blue, "\(name): \(pixel)")
    }
  }

  @Test(arguments: ["half-transparent.png", "half-transparent.webp"])
  func transparencyIsKept(name: String) throws {
    let decoded = try ImageDecoder.decode(TestImages.bytes(name), maxWidth: 80, maxHeight: 80)
    #expect(decoded.image.pixel(5, 5).alpha == 0)
    #expect(decoded.image.pixel(70, 5).alpha == 255)
    #expect(isNear(decoded.image.pixel(70, 5).color, blue))
  }

  @Test(arguments: ["huge.png", "huge.jpg", "huge.gif", "huge.webp"])
  func refusesOverAHundredMegapixelsFromTheHeader(name: String) throws {
    let bytes = try TestImages.bytes(name)
    #expect(throws: ImageError.self) { try ImageDecoder.decode(bytes, maxWidth: 40, maxHeight: 40) }
    do {
      _ = try ImageDecoder.probe(bytes)
      Issue.record("\(name) probed as an image of allowed size")
    } catch {
      guard case .tooManyPixels(let width, let height) = error.kind else {
        Issue.record("\(name): \(error.message)")
        return
      }
      #expect(width * height > ImageDecoder.maximumPixels)
      #expect(error.message.contains("over 100 megapixels"))
    }
  }

  @Test func notAnImageAndEmpty() {
    #expect(throws: ImageError(.notAnImage)) {
      try ImageDecoder.decode(Array("hello, world".utf8), maxWidth: 10, maxHeight: 10)
    }
    #expect(throws: ImageError(.notAnImage)) { try ImageDecoder.probe([]) }
  }

  /// Every prefix length class of every format: a typed error (or, for a cut inside trailing
  /// data, the image), never a crash.
  @Test(arguments: [
    "red-blue.jpg", "red-blue.png", "red-blue.webp", "red-blue.gif",
    "red-blue-progressive.jpg", "orientation-6.jpg", "animated.webp",
  ])
  func truncatedFilesAreTypedErrors(name: String) throws {
    let bytes = try TestImages.bytes(name)
    var failures = 0
    for length in stride(from: 0, to: bytes.count - 1, by: max(1, bytes.count / 60)) {
      do {
        _ = try ImageDecoder.decode(Array(bytes.prefix(length)), maxWidth: 40, maxHeight: 40)
      } catch {
        failures += 1
        #expect(error.message.hasPrefix("cannot read this image: "), "\(name)[..<\(length)]")
      }
    }
    #expect(failures > 0)
  }

  @Test func truncatedJPEGSaysSo() throws {
    let bytes = try TestImages.bytes("red-blue.jpg")
    #expect(throws: ImageError(.unreadable(reason: "the file ends early (truncated)"))) {
      try ImageDecoder.decode(Array(bytes.prefix(bytes.count - 40)), maxWidth: 80, maxHeight: 40)
    }
  }

  @Test(arguments: [
    "red-blue.jpg", "red-blue.png", "red-blue.webp", "red-blue.gif",
    "orientation-6.jpg", "animated.webp", "half-transparent.png",
  ])
  func bitFlipsNeverCrash(name: String) throws {
    let bytes = try TestImages.bytes(name)
    var generator = SeededGenerator(seed: 0x5EED_0F_1A)
    for _ in 0..<150 {
      var damaged = bytes
      for _ in 0...Int.random(in: 0...3, using: &generator) {
        let index = Int.random(in: 0..<damaged.count, using: &generator)
        damaged[index] ^= UInt8(1) << UInt8.random(in: 0...7, using: &generator)
      }
      do {
        let decoded = try ImageDecoder.decode(damaged, maxWidth: 64, maxHeight: 64)
        #expect(decoded.image.width <= 64 && decoded.image.height <= 64)
      } catch {
        #expect(!error.message.isEmpty)
      }
    }
  }

  @Test func decodingOnManyThreadsAtOnce() async throws {
    let names = ["red-blue.jpg", "red-blue.png", "red-blue.webp", "red-blue.gif"]
    let inputs = try names.map { try TestImages.bytes($0) }
    let widths = await withTaskGroup(of: Int.self) { group in
      for round in 0..<32 {
        let bytes = inputs[round % inputs.count]
        group.addTask {
          (try? ImageDecoder.decode(bytes, maxWidth: 20, maxHeight: 20))?.image.width ?? -1
        }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(widths.allSatisfy { $0 == 20 })
  }

  @Test func pngEncodingRoundTrips() throws {
    let image = RGBAImage(width: 7, height: 3) { x, y in
      // A transparent pixel's colour is not kept: it is black.
      x == 0 ? (.black, 0) : (RGBColor(UInt8(x * 30), UInt8(y * 80), 9), 255)
    }
    let png = try ImageDecoder.encodePNG(image)
    #expect(PhotoFormat.sniff(png) == .png)
    #expect(try ImageDecoder.decode(png, maxWidth: 7, maxHeight: 3).image == image)
  }
}
