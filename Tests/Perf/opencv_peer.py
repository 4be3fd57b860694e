"""The OpenCV peer of the lens-heavy workload: what a Python user writes for this effect.

One 900 x 300 capsule lens moving across a 1920 x 1080 frame, as `liquidlens bench --workload
lens-heavy` renders it: frost (Gaussian, sigma 4), the Apple-fit bevel refraction (band 60 px,
amount 120 px) with x1.22 magnification and per-channel dispersion 0.02 (three cv2.remap calls,
one per channel, bilinear, mirrored at the edge), saturation 1.5, a white tint at 0.1, two rim
lobes and a drop shadow (offset 8, radius 24, opacity 0.3), laid over the frame with analytic
coverage. The maps depend only on the lens shape, so they are built once; each frame crops,
blurs, remaps and composites. The label tint split has no peer here (OpenCV has no notion of it).

Usage: python3 opencv_peer.py BACKDROP.png [FRAMES [LAST_FRAME.png]]
(prints JSON: median ms, frames/s; writes the last frame when asked, to look at)
"""

import json
import sys
import time

import cv2
import numpy as np

WIDTH, HEIGHT = 1920, 1080
LENS_W, LENS_H = 900, 300
BAND, AMOUNT, MAGNIFICATION, DISPERSION = 60.0, 120.0, 1.22, 0.02
SIGMA, SATURATION, TINT = 4.0, 1.5, 0.1
SHADOW_OFFSET, SHADOW_RADIUS, SHADOW_OPACITY = 8.0, 24.0, 0.3
MARGIN = 48  # shadow reach around the lens box


def capsule_sdf(x, y):
    """Signed distance to the capsule centred at 0 (negative inside) and its outward normal."""
    radius = LENS_H / 2
    half = LENS_W / 2 - radius
    qx = np.clip(np.abs(x) - half, 0, None)
    distance = np.sqrt(qx * qx + y * y) - radius
    length = np.maximum(np.sqrt(qx * qx + y * y), 1e-6)
    return distance, np.sign(x) * qx / length, y / length


def build_maps():
    """Sample positions (per channel), coverage, rim and shadow over the lens box plus margin."""
    ys, xs = np.mgrid[-LENS_H / 2 - MARGIN:LENS_H / 2 + MARGIN, -LENS_W / 2 - MARGIN:LENS_W / 2 + MARGIN]
    xs = xs.astype(np.float32) + 0.5
    ys = ys.astype(np.float32) + 0.5
    distance, nx, ny = capsule_sdf(xs, ys)
    band = np.clip(1 + distance / BAND, 0, 1)
    shift = AMOUNT * (1 - np.sqrt(1 - band * band))
    sx = (xs - nx * shift) / MAGNIFICATION
    sy = (ys - ny * shift) / MAGNIFICATION
    maps = []
    for scale in (1 - DISPERSION, 1.0, 1 + DISPERSION):
        maps.append((xs + (sx - xs) * scale, ys + (sy - ys) * scale))
    coverage = np.clip(0.5 - distance, 0, 1)
    rim_band = np.clip(1 + distance / 2, 0, 1)
    key = np.clip(nx * -0.7071 + ny * -0.7071, 0, None) ** 2 * 0.5
    fill = np.clip(nx * 0.7071 + ny * 0.7071, 0, None) ** 2 * 0.5
    rim = np.minimum((key + fill) * rim_band, 1)
    shadow_distance, _, _ = capsule_sdf(xs, ys - SHADOW_OFFSET)
    t = np.clip((shadow_distance + SHADOW_RADIUS) / (2 * SHADOW_RADIUS), 0, 1)
    shadow = SHADOW_OPACITY * (1 - t * t * (3 - 2 * t)) * (1 - coverage)
    return maps, coverage[..., None], rim[..., None], shadow[..., None], xs.shape


def main():
    original = cv2.imread(sys.argv[1], cv2.IMREAD_COLOR)
    backdrop = original.astype(np.float32) / 255
    frames = int(sys.argv[2]) if len(sys.argv) > 2 else 60
    linear = np.where(backdrop <= 0.04045, backdrop / 12.92, ((backdrop + 0.055) / 1.055) ** 2.4).astype(np.float32)
    maps, coverage, rim, shadow, (box_h, box_w) = build_maps()
    times = []
    for index in range(frames):
        start = time.perf_counter()
        centre_x = 500 + 920 * index / max(1, frames - 1)
        x0 = int(centre_x - LENS_W / 2 - MARGIN)
        y0 = int(HEIGHT / 2 - LENS_H / 2 - MARGIN)
        frame = original.copy()
        # The blur covers the box plus the farthest a sample lands outside it.
        reach = int(AMOUNT + 3 * SIGMA)
        cx0, cy0 = max(0, x0 - reach), max(0, y0 - reach)
        cx1, cy1 = min(WIDTH, x0 + box_w + reach), min(HEIGHT, y0 + box_h + reach)
        frosted = cv2.GaussianBlur(linear[cy0:cy1, cx0:cx1], (0, 0), SIGMA, borderType=cv2.BORDER_REFLECT)
        channels = []
        for channel, (map_x, map_y) in zip((2, 1, 0), maps):  # red, green, blue of BGR
            sampled = cv2.remap(
                frosted[..., channel], map_x + (x0 - cx0 + LENS_W / 2 + MARGIN - 0.5),
                map_y + (y0 - cy0 + LENS_H / 2 + MARGIN - 0.5), cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
            channels.append(sampled)
        glass = np.stack(channels[::-1], axis=-1)
        luma = glass @ np.array([0.0722, 0.7152, 0.2126], dtype=np.float32)
        glass = np.clip(luma[..., None] + (glass - luma[..., None]) * SATURATION, 0, None)
        glass = glass * (1 - TINT) + TINT
        glass = glass + (1 - glass) * rim
        below = linear[y0:y0 + box_h, x0:x0 + box_w] * (1 - shadow)
        box = below + (glass - below) * coverage
        encoded = np.where(box <= 0.0031308, box * 12.92, 1.055 * np.power(box, 1 / 2.4) - 0.055)
        # The 8-bit frame: the backdrop with the lens box encoded over it.
        frame[y0:y0 + box_h, x0:x0 + box_w] = (encoded * 255 + 0.5).astype(np.uint8)
        times.append((time.perf_counter() - start) * 1000)
    if len(sys.argv) > 3:
        cv2.imwrite(sys.argv[3], frame)
    median = float(np.median(times))
    print(json.dumps({"peer": "opencv", "frames": frames, "medianMs": median, "framesPerSecond": 1000 / median}))


if __name__ == "__main__":
    main()
