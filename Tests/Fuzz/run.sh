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
# by symbol (the fuzzer then runs blind); keep every section.
build=(-c release --build-path .build/fuzz --sanitize=fuzzer --sanitize=address -Xlinker --no-gc-sections)
for product in scene-fuzzer png-fuzzer image-fuzzer; do
    swift build "${build[@]}" --product "$product"
done
bin="$(swift build "${build[@]}" --show-bin-path)"
for target in "${targets[@]}"; do
    work=".build/fuzz/corpus-$target"
    mkdir -p "$work"
    cp -n Tests/Fuzz/corpus/$target/* "$work"/ 2>/dev/null || true
    echo "== $target: $limit"
    case "$target" in
    scene | png) fuzzer=("$bin/$target-fuzzer") ;;
    *) fuzzer=(env LIQUIDLENS_FUZZ_FORMAT="$target" "$bin/image-fuzzer") ;;
    esac
    # Crashing inputs land in .build/fuzz/, not in the checkout.
    "${fuzzer[@]}" "${budget[@]}" -max_len=65536 -print_final_stats=1 -artifact_prefix=.build/fuzz/ "$work"
done
