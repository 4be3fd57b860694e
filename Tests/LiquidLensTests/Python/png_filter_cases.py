"""Writes PNG files by hand, each beside the 8-bit RGBA pixels it holds (NAME.png, NAME.rgba), to
test a PNG decoder on what encoders rarely choose on their own: every row filter (None, Sub, Up,
Average, Paeth, and all five in turn), RGB and RGBA, the image data split over several IDAT
chunks, and the colour chunks an sRGB file may carry. Prints one line per case:
NAME WIDTH HEIGHT KIND, KIND "fast" where the file is an ordinary sRGB 8-bit file and "libpng"
where only libpng may read it (another gamma, 16 bits, transparency, a corrupt or cut file, a zlib
stream whose copies reach past the window its header declares).

Usage: png_filter_cases.py FOLDER
"""

import random
import struct
import sys
import zlib
from pathlib import Path


def chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def paeth(left: int, above: int, above_left: int) -> int:
    estimate = left + above - above_left
    distances = [abs(estimate - left), abs(estimate - above), abs(estimate - above_left)]
    if distances[0] <= distances[1] and distances[0] <= distances[2]:
        return left
    return above if distances[1] <= distances[2] else above_left


def filtered(rows: list[bytes], channels: int, filters: list[int]) -> bytes:
    """The rows filtered, each with its filter type byte, as the PNG specification defines it."""
    out = bytearray()
    prior = bytes(len(rows[0]))
    for row, kind in zip(rows, filters):
        out.append(kind)
        for i, value in enumerate(row):
            left = row[i - channels] if i >= channels else 0
            above = prior[i]
            above_left = prior[i - channels] if i >= channels else 0
            prediction = [0, left, above, (left + above) // 2, paeth(left, above, above_left)][kind]
            out.append((value - prediction) & 255)
        prior = row
    return bytes(out)


def png(width: int, height: int, pixels: bytes, channels: int, filters: list[int], *, depth: int = 8,
        extra: list[bytes] = (), idat_parts: int = 1, zlib_header: bytes = b"", stream_tail: bytes = b"",
        flip_adler: bool = False, between_idats: list[bytes] = (), after_idats: list[bytes] = (),
        after_end: bytes = b"") -> bytes:
    stride = width * 4
    rows = []
    for y in range(height):
        line = pixels[y * stride:(y + 1) * stride]
        rows.append(line if channels == 4 else bytes(b for i, b in enumerate(line) if i % 4 != 3))
    if depth == 16:
        rows = [bytes(b for value in row for b in (value, value)) for row in rows]
    data = zlib.compress(filtered(rows, channels * depth // 8, filters), 6)
    data = zlib_header + data[len(zlib_header):]
    if flip_adler:
        data = data[:-1] + bytes([data[-1] ^ 1])
    data += stream_tail
    header = struct.pack(">IIBBBBB", width, height, depth, 6 if channels == 4 else 2, 0, 0, 0)
    size = -(-len(data) // idat_parts)
    idats = [chunk(b"IDAT", data[i:i + size]) for i in range(0, len(data), size)]
    if between_idats:
        idats = idats[:1] + list(between_idats) + idats[1:]
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + b"".join(extra) + b"".join(idats)
            + b"".join(after_idats) + chunk(b"IEND", b"") + after_end)


def main() -> None:
    folder = Path(sys.argv[1])
    generator = random.Random(28)
    cases = []

    def image(name: str, width: int, height: int, opaque: bool) -> tuple[str, int, int, bytes]:
        pixels = bytearray()
        for y in range(height):
            for x in range(width):
                smooth = [(x * 3 + y * 5) & 255, (x * 7) & 255, (y * 11 + x) & 255]
                noisy = [generator.randrange(256) for _ in range(3)]
                pixel = noisy if (x // 5 + y) % 3 == 0 else smooth
                pixels += bytes(pixel + [255 if opaque else generator.randrange(256)])
        return name, width, height, bytes(pixels)

    for name, width, height, pixels in [image("odd", 37, 11, False), image("one", 1, 1, False),
                                         image("column", 1, 9, False), image("wide", 8192, 2, False)]:
        for channels in (3, 4):
            source = pixels if channels == 4 else bytes(b if i % 4 != 3 else 255 for i, b in enumerate(pixels))
            for kind in range(5):
                cases.append((f"{name}-{channels}-filter{kind}", width, height, source,
                              png(width, height, source, channels, [kind] * height), "fast"))
            cycle = [row % 5 for row in range(height)]
            cases.append((f"{name}-{channels}-cycle", width, height, source,
                          png(width, height, source, channels, cycle, idat_parts=3), "fast"))
    name, width, height, pixels = image("chunks", 23, 7, False)
    cycle = [row % 5 for row in range(height)]
    srgb = [chunk(b"sRGB", b"\x00"), chunk(b"gAMA", struct.pack(">I", 45455)),
            chunk(b"cHRM", struct.pack(">8I", 31270, 32900, 64000, 33000, 30000, 60000, 15000, 6000)),
            chunk(b"tEXt", b"Comment\x00by hand")]
    cases.append(("srgb-chunks", width, height, pixels, png(width, height, pixels, 4, cycle, extra=srgb), "fast"))
    other_gamma = [chunk(b"gAMA", struct.pack(">I", 100000))]
    cases.append(("linear-gamma", width, height, pixels,
                  png(width, height, pixels, 4, cycle, extra=other_gamma), "libpng"))
    cases.append(("sixteen-bit", width, height, pixels, png(width, height, pixels, 4, cycle, depth=16), "libpng"))
    text = chunk(b"tEXt", b"Comment\x00after the image data")
    cases.append(("text-after-idat", width, height, pixels,
                  png(width, height, pixels, 4, cycle, after_idats=[text]), "fast"))
    cases.append(("empty-idat", width, height, pixels,
                  png(width, height, pixels, 4, cycle, idat_parts=2, between_idats=[chunk(b"IDAT", b"")]), "fast"))
    cases.append(("idat-split-by-text", width, height, pixels,
                  png(width, height, pixels, 4, cycle, idat_parts=2, between_idats=[text]), "libpng"))
    cases.append(("bytes-after-end", width, height, pixels,
                  png(width, height, pixels, 4, cycle, after_end=b"\x00"), "libpng"))
    cases.append(("wrong-adler", width, height, pixels, png(width, height, pixels, 4, cycle, flip_adler=True),
                  "libpng"))
    cases.append(("bytes-after-stream", width, height, pixels,
                  png(width, height, pixels, 4, cycle, stream_tail=b"\x00\x00"), "libpng"))
    opaque = bytes(b if i % 4 != 3 else 255 for i, b in enumerate(pixels))
    cases.append(("rgb-transparency", width, height, opaque,
                  png(width, height, opaque, 3, cycle, extra=[chunk(b"tRNS", bytes(6))]), "libpng"))
    # A zlib header declaring a 256-byte window (CINFO 0): zlib refuses copies from further back.
    repeated = bytes(generator.randrange(256) for _ in range(100 * 4)) * 4
    cases.append(("small-window", 100, 4, repeated,
                  png(100, 4, repeated, 4, [0] * 4, zlib_header=b"\x08\x1d"), "libpng"))
    small = bytes(generator.randrange(256) for _ in range(5 * 5 * 4))
    cases.append(("small-window-fits", 5, 5, small, png(5, 5, small, 4, [0] * 5, zlib_header=b"\x08\x1d"), "fast"))
    whole = png(width, height, pixels, 4, cycle)
    corrupt = bytearray(whole)
    corrupt[len(whole) - 20] ^= 0x40
    cases.append(("corrupt-idat", width, height, pixels, bytes(corrupt), "libpng"))
    cases.append(("cut", width, height, pixels, whole[:-30], "libpng"))
    for name, width, height, pixels, data, kind in cases:
        (folder / f"{name}.png").write_bytes(data)
        (folder / f"{name}.rgba").write_bytes(pixels)
        print(name, width, height, kind)


main()
