#!/usr/bin/env bash
# Builds the consumer package against a version tag of this checkout, as a user's package would
# (`.package(url:from: "0.1.0")`), and runs it: the library must build without unsafe flags and
# render on both backends. Then runs every ```swift example of the README and the DocC articles
# (read out of the tagged clone, each block in a scope of its own) in a scratch copy of
# Tests/Samples, as a user following the documents would. Usage: Tests/Consumer/build.sh [work folder]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="${1:-$(mktemp -d)}"
rm -rf "$work/LiquidLens" "$work/LensConsumer"
git clone --quiet "$root" "$work/LiquidLens"
git -C "$work/LiquidLens" tag 0.1.0
cp -R "$root/Tests/Consumer" "$work/LensConsumer"
rm -rf "$work/LensConsumer/.build" "$work/LensConsumer/Package.resolved"
examples="$work/LensConsumer/Sources/DocExamples"
mkdir -p "$examples"
{
    printf 'import Foundation\nimport LensCompare\nimport LiquidLens\n'
    for document in "$work/LiquidLens/README.md" "$work/LiquidLens/Sources/LiquidLens/LiquidLens.docc/"*.md; do
        awk -v name="${document#"$work/LiquidLens/"}" '
            $0 == "```swift" { inside = 1; count += 1; printf "\n// %s, example %d\ndo {\n", name, count; next }
            inside && $0 == "```" { inside = 0; print "}"; next }
            inside { print "    " $0 }
        ' "$document"
    done
} >"$examples/main.swift"
grep -q '^do {' "$examples/main.swift" || { echo "no Swift examples found in the documents" >&2; exit 1; }
cd "$work/LensConsumer"
LIQUIDLENS_GIT_URL="file://$work/LiquidLens" swift build
LIQUIDLENS_GIT_URL="file://$work/LiquidLens" swift run LensConsumer "$work/consumer.png"
test -s "$work/consumer.png"
grep -q 'tests="2" failures="0"' "$work/consumer.xml"
rm -rf "$work/samples" && cp -R "$work/LiquidLens/Tests/Samples" "$work/samples"
binary="$(LIQUIDLENS_GIT_URL="file://$work/LiquidLens" swift build --show-bin-path)/DocExamples"
(cd "$work/samples" && "$binary")
echo "consumer: built, rendered, and ran $(grep -c '^do {' "$examples/main.swift") documentation examples"
