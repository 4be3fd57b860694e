#!/usr/bin/env python3
"""CPU seconds a pair for the PyPI diff peers on the pairs `diff-folders.sh` renders: SSIM from
scikit-image (Wang et al.'s settings, as the reference check), LDR-FLIP from NVIDIA's
flip-evaluator, pixelmatch from its Python port, and decoding the two PNGs with Pillow, each timed
alone with process_time (CPU, not wall: the machine may be busy). Median over the pairs.

Usage: diff_peers.py ACTUAL_FOLDER EXPECTED_FOLDER [pairs]   (default 5 pairs; pixelmatch's port
is pure Python and takes tens of seconds a 1920x1080 pair)
Run with the test environment's interpreter: .venv-tests/bin/python3 (Tests/test-tools.sh).
"""
import os
import statistics
import sys
import time
import warnings

import numpy as np
from PIL import Image

warnings.filterwarnings("ignore")

import flip_evaluator  # noqa: E402
from pixelmatch import pixelmatch  # noqa: E402
from skimage.metrics import structural_similarity  # noqa: E402


def timed(function):
    start = time.process_time()
    function()
    return time.process_time() - start


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    actual_folder, expected_folder = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    names = sorted(name for name in os.listdir(expected_folder) if name.endswith(".png"))[:count]
    seconds = {"decode": [], "ssim": [], "flip": [], "pixelmatch": []}
    for name in names:
        pair = {}

        def decode():
            pair["actual"] = np.asarray(Image.open(os.path.join(actual_folder, name)).convert("RGBA"))
            pair["expected"] = np.asarray(Image.open(os.path.join(expected_folder, name)).convert("RGBA"))

        seconds["decode"].append(timed(decode))
        actual, expected = pair["actual"], pair["expected"]
        height, width = actual.shape[:2]
        seconds["ssim"].append(timed(lambda: structural_similarity(
            actual[..., :3], expected[..., :3], channel_axis=2, gaussian_weights=True, sigma=1.5,
            use_sample_covariance=False, data_range=255)))
        seconds["flip"].append(timed(lambda: flip_evaluator.evaluate(
            expected[..., :3].astype(np.float32) / 255, actual[..., :3].astype(np.float32) / 255, "LDR",
            applyMagma=False)))
        seconds["pixelmatch"].append(timed(lambda: pixelmatch(
            expected.flatten().tolist(), actual.flatten().tolist(), width, height, None, threshold=0.1)))
    summary = ", ".join(f"{metric} {statistics.median(values):.2f} s" for metric, values in seconds.items())
    total = sum(statistics.median(values) for values in seconds.values())
    print(f"PyPI peers, CPU seconds a pair (median of {len(names)}): {summary}; all four {total:.2f} s")


if __name__ == "__main__":
    main()
