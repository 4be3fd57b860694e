"""Times the PyPI PNG (and QOI) encoders on the frames `liquidlens bench --save-frames` wrote, as
the peers of `bench`'s ENCODE section: median of 7 runs each, raw RGBA MB/s and bytes, one line
per encoder and frame. Each encoder that cannot be imported is named and skipped.
Usage: python3 Tests/Perf/encode_peers.py FRAME.png...   (a venv with requirements.txt)"""
import statistics
import sys
import time

import numpy as np
from PIL import Image


def peers():
    """(name, encode(rgba array) -> bytes) for every peer that imports."""
    found = []
    try:
        import imagecodecs

        found.append(("libpng level 1 (imagecodecs)", lambda a: imagecodecs.png_encode(a, level=1)))
        found.append(("libpng level 6 (imagecodecs)", lambda a: imagecodecs.png_encode(a, level=6)))
        found.append(("QOI (imagecodecs)", lambda a: imagecodecs.qoi_encode(a)))
    except ImportError as error:
        print(f"skipped imagecodecs: {error}")
    try:
        import cv2

        found.append(
            ("OpenCV imwrite level 1", lambda a: cv2.imencode(".png", a[..., [2, 1, 0, 3]], [cv2.IMWRITE_PNG_COMPRESSION, 1])[1].tobytes())
        )
    except ImportError as error:
        print(f"skipped OpenCV: {error}")
    try:
        import fpng_py

        found.append(("fpng (fpng_py)", lambda a: fpng_py.fpng_encode_image_to_memory(a.tobytes(), a.shape[1], a.shape[0], 4)))
    except ImportError as error:
        print(f"skipped fpng: {error}")
    return found


def main(paths):
    encoders = peers()
    for path in paths:
        rgba = np.ascontiguousarray(np.array(Image.open(path).convert("RGBA")))
        megabytes = rgba.nbytes / 1e6
        for name, encode in encoders:
            times = []
            for _ in range(7):
                started = time.perf_counter()
                encoded = encode(rgba)
                times.append((time.perf_counter() - started) * 1000)
            median = statistics.median(times)
            print(f"{path}  {name:30s} {median:8.1f} ms {megabytes / (median / 1000):8.1f} MB/s {len(encoded):10d} bytes")


if __name__ == "__main__":
    main(sys.argv[1:])
