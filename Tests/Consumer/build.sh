#!/usr/bin/env bash
# Builds the consumer package against a version tag of this checkout, as a user's package would
# (`.package(url:from: "0.1.0")`), and runs it: the library must build without unsafe flags and
# render on both backends. Usage: Tests/Consumer/build.sh [work folder]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="${1:-$(mktemp -d)}"
rm -rf "$work/LiquidLens" "$work/LensConsumer"
git clone --quiet "$root" "$work/LiquidLens"
git -C "$work/LiquidLens" tag 0.1.0
cp -R "$root/Tests/Consumer" "$work/LensConsumer"
rm -rf "$work/LensConsumer/.build" "$work/LensConsumer/Package.resolved"
cd "$work/LensConsumer"
LIQUIDLENS_GIT_URL="file://$work/LiquidLens" swift build
LIQUIDLENS_GIT_URL="file://$work/LiquidLens" swift run LensConsumer "$work/consumer.png"
test -s "$work/consumer.png"
grep -q 'tests="2" failures="0"' "$work/consumer.xml"
