#!/usr/bin/env bash
# Draws BatchAndClusters' picture of a frame's masks
# (Sources/LiquidLens/LiquidLens.docc/Resources/masks.png): the segmented and tab-bar examples
# rendered with `render --masks`, each frame beside its glass mask and its tint mask. Run it after
# a change to the masks or to those examples, then look at the picture.
# Usage: Tests/Docs/masks-picture.sh [liquidlens binary]   (needs ImageMagick's convert)
set -euo pipefail
cd "$(dirname "$0")/../.."
liquidlens="${1:-.build/release/liquidlens}"
[[ -x "$liquidlens" ]] || { echo "masks-picture: no $liquidlens (swift build -c release first)" >&2; exit 1; }
command -v convert >/dev/null || { echo "masks-picture: needs ImageMagick's convert" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
rows=()
for example in segmented tab-bar; do
    "$liquidlens" render --example "$example" --appearance light -o "$work/$example.png" --masks --backend cpu -q
    # The frame, then its masks; a grey gap between them.
    convert "$work/$example.png" "$work/$example.glass.png" "$work/$example.tint.png" -background "#808080" \
        -splice 8x0 +append -chop 8x0 "$work/$example-row.png"
    rows+=("$work/$example-row.png")
done
convert "${rows[@]}" -background "#808080" -splice 0x8 -append -chop 0x8 -resize 900x \
    Sources/LiquidLens/LiquidLens.docc/Resources/masks.png
echo "masks-picture: wrote Sources/LiquidLens/LiquidLens.docc/Resources/masks.png"
