#!/usr/bin/env bash
# Draws Resources/menu-close.png (Sources/LiquidLens/LiquidLens.docc), the Animation article's
# picture of the built-in `menu-morph` closing: its frames at 1.0 (open), 1.23, 1.26, 1.3, 1.4 and
# 2.0 s side by side at 0.77 px a point. Run it after a change to the morph or the transitions,
# then look at it.
# Usage: Tests/Docs/menu-close-picture.sh [liquidlens binary]   (needs ImageMagick's convert)
set -euo pipefail
cd "$(dirname "$0")/../.."
liquidlens="${1:-.build/release/liquidlens}"
[[ -x "$liquidlens" ]] || { echo "menu-close-picture: no $liquidlens (swift build -c release first)" >&2; exit 1; }
command -v convert >/dev/null || { echo "menu-close-picture: needs ImageMagick's convert" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# A hundred frames a second: frame n is at (n - 1) / 100 s.
"$liquidlens" animate --example menu-morph --fps 100 --duration 2.01 -o "$work/" --backend cpu -q
frames=()
for n in 101 124 127 131 141 201; do frames+=("$work/frame-$(printf %04d "$n").png"); done
resources=Sources/LiquidLens/LiquidLens.docc/Resources
convert "${frames[@]}" -resize 77% +append -strip "$resources/menu-close.png"
echo "menu-close-picture: wrote $resources/menu-close.png"
