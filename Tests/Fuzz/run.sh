#!/usr/bin/env bash
# Builds the libFuzzer targets (scene JSON and batch manifests, PNG, and the image decoders: JPEG,
# WebP, HEIF, AVIF, SVG and embedded ICC profiles) through SwiftPM with AddressSanitizer and runs
# each for a number of executions (default 1,000,000) or, given as "60s", for a time, starting
# from the seed corpus beside this script. Exits non-zero when a fuzzer finds a crash.
# Usage: Tests/Fuzz/run.sh [runs | SECONDSs] [target ...]   (targets: scene png jpeg webp heif avif
# svg icc; default all)
set -euo pipefail
cd "$(dirname "$0")/../.."
limit="${1:-1000000}"
shift || true
targets=("$@")
((${#targets[@]})) || targets=(scene png jpeg webp heif avif svg icc)
if [[ "$limit" == *s ]]; then budget=(-max_total_time="${limit%s}"); else budget=(-runs="$limit"); fi
export LIQUIDLENS_FUZZ=1
export LSAN_OPTIONS="suppressions=$PWD/Tests/Fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# The linker's section garbage collection drops the coverage counters of modules nothing refers to
# by symbol (the fuzzer then runs blind); keep every section. Each fuzzer is built from clean in
# its own folder: an incremental rebuild, or a second fuzzer built into the same folder, left the
# libraries without coverage counters (about a minute each on 2 cores).
build=(-c release --sanitize=fuzzer --sanitize=address -Xlinker --no-gc-sections)
binary() { echo ".build/fuzz/$1/release/$1"; }
for product in scene-fuzzer png-fuzzer image-fuzzer; do
    rm -rf ".build/fuzz/$product"
    swift build "${build[@]}" --build-path ".build/fuzz/$product" --product "$product"
done
for target in "${targets[@]}"; do
    work=".build/fuzz/corpus-$target"
    mkdir -p "$work"
    cp -n Tests/Fuzz/corpus/$target/* "$work"/ 2>/dev/null || true
    echo "== $target: $limit"
    case "$target" in
    scene | png) fuzzer=("$(binary "$target-fuzzer")") ;;
    *) fuzzer=(env LIQUIDLENS_FUZZ_FORMAT="$target" "$(binary image-fuzzer)") ;;
    esac
    # Crashing inputs land in .build/fuzz/, not in the checkout.
    "${fuzzer[@]}" "${budget[@]}" -max_len=65536 -print_final_stats=1 -artifact_prefix=.build/fuzz/ "$work" \
        2>&1 | tee ".build/fuzz/$target.log"
    # A fuzzer without coverage mutates blindly: libFuzzer then prints no "cov:" when it starts.
    if ! grep -q "INITED cov:" ".build/fuzz/$target.log"; then
        echo "$target: the fuzzer ran without coverage (no 'INITED cov:'); rebuild from clean: rm -rf .build/fuzz" >&2
        exit 1
    fi
done
