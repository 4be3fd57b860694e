#!/usr/bin/env python3
"""Reference values of the perceptual metrics for pairs of PNGs, from the published implementations:
SSIM from scikit-image (Wang et al.'s settings), CIEDE2000 from colour-science (sRGB -> XYZ -> Lab
under D65), pixelmatch from its Python port and LDR-FLIP from NVIDIA's flip-evaluator.

Usage: reference_metrics.py ACTUAL EXPECTED [ACTUAL EXPECTED ...]  -> a JSON list on stdout.
"""
import json
import sys
import warnings

import numpy as np
from PIL import Image

warnings.filterwarnings("ignore")  # colour-science warns that matplotlib is missing

import colour  # noqa: E402
import flip_evaluator  # noqa: E402
from pixelmatch import pixelmatch  # noqa: E402
from skimage.metrics import structural_similarity  # noqa: E402


def load(path):
    return np.asarray(Image.open(path).convert("RGBA"))


def metrics(actual_path, expected_path):
    actual, expected = load(actual_path), load(expected_path)
    height, width = actual.shape[:2]
    ssim = structural_similarity(
        actual[..., :3], expected[..., :3], channel_axis=2, gaussian_weights=True, sigma=1.5,
        use_sample_covariance=False, data_range=255)
    lab_actual = colour.XYZ_to_Lab(colour.sRGB_to_XYZ(actual[..., :3] / 255.0))
    lab_expected = colour.XYZ_to_Lab(colour.sRGB_to_XYZ(expected[..., :3] / 255.0))
    delta_e = colour.delta_E(lab_actual, lab_expected, method="CIE 2000")
    # One pass: the output marks anti-aliased pixels yellow and differing ones red (others grey).
    output = [0] * (width * height * 4)
    different = pixelmatch(expected.flatten().tolist(), actual.flatten().tolist(), width, height, output,
                           threshold=0.1, aa_color=(255, 255, 0), diff_color=(255, 0, 0))
    marks = np.array(output, dtype=np.uint8).reshape(-1, 4)[:, :3]
    antialiased = int(np.all(marks == (255, 255, 0), axis=1).sum())
    flip_map, _, _ = flip_evaluator.evaluate(
        expected[..., :3].astype(np.float32) / 255, actual[..., :3].astype(np.float32) / 255, "LDR",
        applyMagma=False)
    return {
        "ssim": float(ssim),
        "deltaEMean": float(delta_e.mean()),
        "deltaE99": float(np.percentile(delta_e, 99)),
        "differentPixels": int(different),
        "antialiasedPixels": antialiased,
        # The mean of the reference's error map in float64 (its own mean sums in float32).
        "flipMean": float(flip_map.astype(np.float64).mean()),
    }


if __name__ == "__main__":
    paths = sys.argv[1:]
    if not paths or len(paths) % 2:
        sys.exit("usage: reference_metrics.py ACTUAL EXPECTED [ACTUAL EXPECTED ...]")
    print(json.dumps([metrics(paths[i], paths[i + 1]) for i in range(0, len(paths), 2)]))
