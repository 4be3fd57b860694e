#!/usr/bin/env bash
# Builds the library's documentation with the toolchain's docc and fails on any warning, and on
# any public declaration of the library without a doc comment. The LiquidLens archive holds the
# catalog (overview, architecture article); each layer it re-exports gets an archive of its own.
# Usage: Tests/Docs/build.sh [output folder]   (default .build/docs)
set -euo pipefail
cd "$(dirname "$0")/../.."
out="${1:-.build/docs}"
mkdir -p .build
modules=(LiquidLens LensModel LensControls LensResolve LensCatalog LensIO LensCompare LensText LensVulkan LensReference)
# The dump also tries the test modules and fails on them; what counts is that every library
# module's graph is there (checked below).
swift package --scratch-path .build/docs-build dump-symbol-graph --minimum-access-level public \
    --skip-synthesized-members --skip-inherited-docs >.build/docs-build.log 2>&1 || true
graphs="$(find .build/docs-build -type d -name symbolgraph | head -n 1)"
for module in "${modules[@]}"; do
    [[ -f "$graphs/$module.symbols.json" ]] || { cat .build/docs-build.log; echo "no symbol graph for $module" >&2; exit 1; }
done
python3 Tests/Docs/undocumented.py "$graphs" "${modules[@]}"
mkdir -p "$out"
for module in "${modules[@]}"; do
    only="$(mktemp -d)"
    cp "$graphs/$module".symbols.json "$graphs/$module"@*.symbols.json "$only"/ 2>/dev/null || true
    catalog=()
    copy="$(mktemp -d)"
    if [[ -d "Sources/$module/$module.docc" ]]; then
        # The articles link as plain Markdown, to read on a repository page; docc gets a copy whose
        # links are doc: links and whose images are bare names, so it checks each one (the copy
        # keeps every line where it was, so docc's file:line messages hold for the sources).
        cp -R "Sources/$module/$module.docc" "$copy/"
        python3 Tests/Docs/docc-links.py "$copy/$module.docc"
        catalog=("$copy/$module.docc")
    fi
    docc convert "${catalog[@]}" --additional-symbol-graph-dir "$only" --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.liquidlens.$module" --output-path "$out/$module.doccarchive" \
        --warnings-as-errors --analyze
    rm -rf "$only" "$copy"
done
echo "documentation: $out/{$(IFS=,; echo "${modules[*]}")}.doccarchive"
