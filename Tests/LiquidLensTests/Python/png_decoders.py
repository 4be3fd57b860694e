"""Decodes each PNG given with Python's zlib (every chunk's CRC-32 and the stream's Adler-32
checked) and with Pillow, and compares both with the raw RGBA file beside it (NAME.png and
NAME.rgba). Prints one line per file; exits 1 on the first mismatch.
Usage: png_decoders.py FILE.png..."""
import struct
import sys
import zlib

from PIL import Image


def inflate_checked(data):
    """The size from IHDR, once the IDAT stream inflates (zlib checks Adler-32) to that many rows and every chunk's CRC holds."""
    position, idat, width, height = 8, b"", 0, 0
    while position < len(data):
        (length,) = struct.unpack(">I", data[position : position + 4])
        kind = data[position + 4 : position + 8]
        body = data[position + 8 : position + 8 + length]
        (crc,) = struct.unpack(">I", data[position + 8 + length : position + 12 + length])
        if zlib.crc32(kind + body) & 0xFFFFFFFF != crc:
            raise SystemExit(f"bad CRC in {kind!r}")
        if kind == b"IHDR":
            width, height = struct.unpack(">II", body[:8])
        if kind == b"IDAT":
            idat += body
        position += 12 + length
    inflated = zlib.decompress(idat)
    if len(inflated) != height * (width * 4 + 1):
        raise SystemExit(f"inflated {len(inflated)} bytes, expected {height * (width * 4 + 1)}")
    return width, height


def main(paths):
    for path in paths:
        expected = open(path[: -len(".png")] + ".rgba", "rb").read()
        width, height = inflate_checked(open(path, "rb").read())
        decoded = Image.open(path).convert("RGBA").tobytes()
        if decoded != expected:
            raise SystemExit(f"{path}: Pillow decodes other pixels")
        print(f"{path}: {width}x{height} zlib and Pillow ok")


if __name__ == "__main__":
    main(sys.argv[1:])
