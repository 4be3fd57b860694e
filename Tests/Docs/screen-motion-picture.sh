#!/usr/bin/env bash
# Draws Resources/screen-motion.png (Sources/LiquidLens/LiquidLens.docc), the README's and the
# Animation article's picture of the built-in `screen-motion`: its frames at 0, 0.6, 1.2, 2, 3 and
# 3.8 s side by side at 0.75 px a point. Run it after a change to that example, the tab bar, its
# accessory or the transitions, then look at it.
# Usage: Tests/Docs/screen-motion-picture.sh [liquidlens binary]   (needs ImageMagick's convert)
set -euo pipefail
cd "$(dirname "$0")/../.."
liquidlens="${1:-.build/release/liquidlens}"
[[ -x "$liquidlens" ]] || { echo "screen-motion-picture: no $liquidlens (swift build -c release first)" >&2; exit 1; }
command -v convert >/dev/null || { echo "screen-motion-picture: needs ImageMagick's convert" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Five frames a second from 0 to 3.8 s: frame n is at (n - 1) / 5 s.
"$liquidlens" animate --example screen-motion --fps 5 --duration 4 --scale 1 -o "$work/" --backend cpu -q
frames=()
for n in 1 4 7 11 16 20; do frames+=("$work/frame-$(printf %04d "$n").png"); done
resources=Sources/LiquidLens/LiquidLens.docc/Resources
convert "${frames[@]}" -resize 75% +append -strip "$resources/screen-motion.png"
echo "screen-motion-picture: wrote $resources/screen-motion.png"
