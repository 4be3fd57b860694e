#!/usr/bin/env bash
# Draws the Fidelity article's and README's picture of our renders of the re-created iOS captures
# (Sources/LiquidLens/LiquidLens.docc/Resources/against-ios.png): each scene in
# Tests/LiquidLensTests/Captures rendered on the CPU reference at its own scale, resized with
# ImageMagick and placed on a 662 × 1358 white sheet. The captures themselves are never drawn.
# Run it after a change that moves a capture scene's pixels, then look at the picture.
# Usage: Tests/Docs/against-ios-picture.sh [liquidlens binary]   (needs ImageMagick's convert)
set -euo pipefail
cd "$(dirname "$0")/../.."
liquidlens="${1:-.build/release/liquidlens}"
[[ -x "$liquidlens" ]] || { echo "against-ios-picture: no $liquidlens (swift build -c release first)" >&2; exit 1; }
command -v convert >/dev/null || { echo "against-ios-picture: needs ImageMagick's convert" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
scenes=Tests/LiquidLensTests/Captures
# name, resize (ImageMagick geometry), crop (or -), position on the sheet
layout=(
    "union-resting 443x - +110+0"
    "union-lens-lifted 443x - +110+110"
    "cn-segmented 443x - +110+228"
    "mecid-regular 55% - +78+307"
    "mecid-clear 55% - +345+307"
    "mecid-container 55% - +0+423"
    "mecid-tabs 55% - +264+423"
    "cn-buttons 443x - +110+522"
    "cn-slider 443x - +110+841"
    "cnb-segmented 100% 394x315+0+0 +134+908"
    "cn-tab-bar 443x - +110+1233"
)
arguments=(-size 662x1358 xc:white)
for entry in "${layout[@]}"; do
    read -r scene resize crop position <<<"$entry"
    "$liquidlens" render "$scenes/$scene.json" -o "$work/$scene.png" --backend cpu -q
    if [[ "$crop" == - ]]; then
        arguments+=(\( "$work/$scene.png" -resize "$resize" \))
    else
        arguments+=(\( "$work/$scene.png" -resize "$resize" -crop "$crop" +repage \))
    fi
    arguments+=(-geometry "$position" -composite)
done
output=Sources/LiquidLens/LiquidLens.docc/Resources/against-ios.png
convert "${arguments[@]}" -strip -depth 8 "PNG24:$work/sheet.png"
mv "$work/sheet.png" "$output"
echo "against-ios-picture: wrote $output"
