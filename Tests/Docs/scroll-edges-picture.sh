#!/usr/bin/env bash
# Draws the README's picture of the scroll-edge effect
# (Sources/LiquidLens/LiquidLens.docc/Resources/scroll-edges.png): the built-in `scroll-edges` in
# light and dark, side by side at half size. Run it after a change to the scroll edges, the
# progressive blur or that example, then look at the picture.
# Usage: Tests/Docs/scroll-edges-picture.sh [liquidlens binary]   (needs ImageMagick's convert)
set -euo pipefail
cd "$(dirname "$0")/../.."
liquidlens="${1:-.build/release/liquidlens}"
[[ -x "$liquidlens" ]] || { echo "scroll-edges-picture: no $liquidlens (swift build -c release first)" >&2; exit 1; }
command -v convert >/dev/null || { echo "scroll-edges-picture: needs ImageMagick's convert" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for appearance in light dark; do
    "$liquidlens" render --example scroll-edges --appearance "$appearance" -o "$work/$appearance.png" --backend cpu -q
done
convert "$work/light.png" "$work/dark.png" +append -resize 50% -strip \
    Sources/LiquidLens/LiquidLens.docc/Resources/scroll-edges.png
echo "scroll-edges-picture: wrote Sources/LiquidLens/LiquidLens.docc/Resources/scroll-edges.png"
