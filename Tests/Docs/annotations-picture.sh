#!/usr/bin/env bash
# Draws BatchAndClusters' picture of a frame's annotations
# (Sources/LiquidLens/LiquidLens.docc/Resources/annotations.png): the tab-bar and segmented
# examples rendered with `render --annotations`, and their boxes drawn from that JSON with
# ImageMagick: glass red, control parts yellow, titles' ink cyan. Run it after a change to the
# annotations or to those examples, then look at the picture.
# Usage: Tests/Docs/annotations-picture.sh [liquidlens binary]   (needs ImageMagick's convert and python3)
set -euo pipefail
cd "$(dirname "$0")/../.."
liquidlens="${1:-.build/release/liquidlens}"
[[ -x "$liquidlens" ]] || { echo "annotations-picture: no $liquidlens (swift build -c release first)" >&2; exit 1; }
command -v convert >/dev/null || { echo "annotations-picture: needs ImageMagick's convert" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for example in tab-bar segmented; do
    "$liquidlens" render --example "$example" -o "$work/$example.png" --annotations "$work/$example.json" \
        --backend cpu -q
    # One ImageMagick -draw per box, read from the annotations.
    mapfile -t draws < <(python3 - "$work/$example.json" <<'PY'
import json, sys
frame = json.load(open(sys.argv[1]))
def rectangle(colour, box):
    x, y, w, h = box
    print("-stroke"); print(colour); print("-draw"); print(f"rectangle {x},{y} {x + w},{y + h}")
for glass in frame["glass"]:
    rectangle("#ff2020", glass["box"])
for control in frame["controls"]:
    for part in control["parts"]:
        if part.get("glass") is None:
            rectangle("#ffd000", part["box"])
        if part.get("textBox"):
            rectangle("#00d0ff", part["textBox"])
PY
    )
    convert "$work/$example.png" -fill none -strokewidth 2 "${draws[@]}" "$work/$example-boxes.png"
done
convert "$work/tab-bar-boxes.png" "$work/segmented-boxes.png" -append -resize 600x \
    Sources/LiquidLens/LiquidLens.docc/Resources/annotations.png
echo "annotations-picture: wrote Sources/LiquidLens/LiquidLens.docc/Resources/annotations.png"
