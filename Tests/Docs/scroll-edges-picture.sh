#!/usr/bin/env bash
# Draws the README's pictures of the built-in `scroll-edges`, side by side at half size:
# Resources/scroll-edges.png in light and dark, and Resources/scroll-edges-generations.png as
# iOS 26 and iOS 27 draw its glass (Sources/LiquidLens/LiquidLens.docc). Run it after a change to
# the scroll edges, the progressive blur, Apple's glass or that example, then look at them.
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
for generation in ios26 ios27; do
    "$liquidlens" render --example scroll-edges --generation "$generation" -o "$work/$generation.png" --backend cpu -q
done
resources=Sources/LiquidLens/LiquidLens.docc/Resources
convert "$work/light.png" "$work/dark.png" +append -resize 50% -strip "$resources/scroll-edges.png"
convert "$work/ios26.png" "$work/ios27.png" +append -resize 50% -strip "$resources/scroll-edges-generations.png"
echo "scroll-edges-picture: wrote $resources/scroll-edges.png and $resources/scroll-edges-generations.png"
