#!/usr/bin/python3
"""Makes the images the photo tests read, into the folder given (Debian's python3-pil).

    /usr/bin/python3 Tests/Fixtures/images/make-test-images.py OUT [--large]

Every image is drawn here from plain colours; nothing is copied from elsewhere. --large adds
a 12-megapixel JPEG (4032x3024, as a phone takes) for the decoding measurements.
"""
import io
import os
import struct
import sys
import zlib

from PIL import Image, ImageDraw

RED, GREEN, BLUE, WHITE = (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)


def quadrants(width=64, height=32):
    """Upright reference: red top-left, green top-right, blue bottom-left, white bottom-right."""
    image = Image.new("RGB", (width, height))
    draw = ImageDraw.Draw(image)
    draw.rectangle([0, 0, width // 2 - 1, height // 2 - 1], fill=RED)
    draw.rectangle([width // 2, 0, width - 1, height // 2 - 1], fill=GREEN)
    draw.rectangle([0, height // 2, width // 2 - 1, height - 1], fill=BLUE)
    draw.rectangle([width // 2, height // 2, width - 1, height - 1], fill=WHITE)
    return image


def red_blue(width=80, height=40, mode="RGB"):
    image = Image.new("RGB", (width, height), BLUE)
    ImageDraw.Draw(image).rectangle([0, 0, width // 2 - 1, height - 1], fill=RED)
    return image.convert(mode) if mode != "RGB" else image


# What a viewer does to a stored image for each EXIF orientation (as PIL's exif_transpose);
# the files store the inverse, so that honouring the tag shows the reference upright.
SHOWN = {
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_270,
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_90,
}
INVERSE = {
    Image.Transpose.ROTATE_270: Image.Transpose.ROTATE_90,
    Image.Transpose.ROTATE_90: Image.Transpose.ROTATE_270,
}


def stored(reference, orientation):
    if orientation == 1:
        return reference
    method = SHOWN[orientation]
    return reference.transpose(INVERSE.get(method, method))


def exif_bytes(orientation):
    exif = Image.Exif()
    exif[0x0112] = orientation
    return exif.tobytes()


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(
        ">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    path = lambda name: os.path.join(out, name)
    reference = quadrants()
    for orientation in range(1, 9):
        image = stored(reference, orientation)
        image.save(path(f"orientation-{orientation}.jpg"), quality=95, subsampling=0,
                   exif=exif_bytes(orientation))
    stored(reference, 6).save(path("orientation-6.png"), exif=exif_bytes(6))
    stored(reference, 6).save(path("orientation-6.webp"), lossless=True, exif=exif_bytes(6))

    red_blue().save(path("red-blue.jpg"), quality=95, subsampling=0)
    red_blue().save(path("red-blue-progressive.jpg"), quality=95, subsampling=0,
                    progressive=True)
    red_blue().save(path("red-blue.png"))
    red_blue().save(path("red-blue.webp"), lossless=True)
    red_blue().save(path("red-blue-lossy.webp"), quality=90)
    red_blue().convert("P").save(path("red-blue.gif"))
    red_blue(mode="P").save(path("red-blue-palette.png"))
    red_blue().convert("CMYK").save(path("red-blue-cmyk.jpg"), quality=95)
    Image.new("L", (40, 20), 128).save(path("grey.png"))
    Image.new("L", (40, 20), 128).save(path("grey.jpg"))
    Image.new("I;16", (40, 20), 40000).save(path("grey-16bit.png"))

    # Transparent left half, opaque blue right half.
    clear = Image.new("RGBA", (80, 40), (0, 0, 255, 255))
    ImageDraw.Draw(clear).rectangle([0, 0, 39, 39], fill=(255, 0, 0, 0))
    clear.save(path("half-transparent.png"))
    clear.save(path("half-transparent.webp"), lossless=True)

    # Animations: the first frame is red/blue, the second all green.
    frames = [red_blue(), Image.new("RGB", (80, 40), GREEN)]
    frames[0].save(path("animated.gif"), save_all=True, append_images=frames[1:], duration=100,
                   loop=0)
    frames[0].save(path("animated.webp"), save_all=True, append_images=frames[1:],
                   duration=100, loop=0, lossless=True)

    # Declared sizes far over 100 megapixels, in otherwise well-formed headers.
    header = png_chunk(b"IHDR", struct.pack(">IIBBBBB", 20000, 20000, 8, 2, 0, 0, 0))
    with open(path("huge.png"), "wb") as file:
        file.write(b"\x89PNG\r\n\x1a\n" + header + png_chunk(b"IEND", b""))
    jpeg = bytearray(open(path("red-blue.jpg"), "rb").read())
    sof = jpeg.find(b"\xff\xc0")
    jpeg[sof + 5:sof + 9] = struct.pack(">HH", 60000, 60000)
    open(path("huge.jpg"), "wb").write(jpeg)
    gif = bytearray(open(path("red-blue.gif"), "rb").read())
    gif[6:10] = struct.pack("<HH", 65535, 65535)
    open(path("huge.gif"), "wb").write(gif)
    # VP8X: 24-bit width-1 and height-1 at bytes 24-29.
    webp = bytearray(open(path("half-transparent.webp"), "rb").read())
    if webp[12:16] == b"VP8X":
        webp[24:30] = (15999).to_bytes(3, "little") + (15999).to_bytes(3, "little")
    else:  # VP8L: 14-bit sizes after the signature byte
        bits = (16383) | (16383 << 14) | (1 << 28)
        webp[21:25] = bits.to_bytes(4, "little")
    open(path("huge.webp"), "wb").write(webp)

    if "--large" in sys.argv:
        # Noise over a gradient: about as hard to compress as a phone's photo (several MB).
        size = (4032, 3024)
        gradient = Image.linear_gradient("L").resize(size)
        noise = [Image.effect_noise(size, 70) for _ in range(3)]
        large = Image.merge("RGB", [Image.blend(gradient, channel, 0.5) for channel in noise])
        ImageDraw.Draw(large).ellipse([1000, 500, 3000, 2500], fill=(200, 40, 40))
        large.save(path("large-12mp.jpg"), quality=92, exif=exif_bytes(6))


main()
