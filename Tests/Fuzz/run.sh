#!/usr/bin/env bash
# Builds the libFuzzer targets (scene JSON and batch manifests, PNG, and the image decoders: JPEG,
# WebP, HEIF, AVIF, SVG and embedded ICC profiles) through SwiftPM with AddressSanitizer and runs
# each for a number of executions (default 1,000,000) or, given as "60s", for a time, starting
# from the seed corpus beside this script. Exits non-zero when a fuzzer finds a crash.
# Usage: Tests/Fuzz/run.sh [runs | SECONDSs] [target ...]   (targets: scene png jpeg webp heif avif
# svg icc heif-references; default all)
set -euo pipefail
cd "$(dirname "$0")/../.."
limit="${1:-1000000}"
shift || true
targets=("$@")
((${#targets[@]})) || targets=(scene png jpeg webp heif avif svg icc heif-references)
if [[ "$limit" == *s ]]; then budget=(-max_total_time="${limit%s}"); else budget=(-runs="$limit"); fi
export LIQUIDLENS_FUZZ=1
export LSAN_OPTIONS="suppressions=$PWD/Tests/Fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# The linker's section garbage collection drops the coverage counters of modules nothing refers to
# by symbol (the fuzzer then runs blind); keep every section. Each fuzzer is built from clean in
# its own folder (about a minute on 2 cores): incremental rebuilds, a second fuzzer in the same
# folder, and now and then a clean build too (two clean builds in a row here: one blind, one
# not) have left the libraries without coverage counters. So each fuzzer is probed first, and a
# blind build is built again, three builds at most.
build=(-c release --sanitize=fuzzer --sanitize=address -Xlinker --no-gc-sections)
product() { case "$1" in scene | png) echo "$1-fuzzer" ;; *) echo image-fuzzer ;; esac; }
binary() { echo ".build/fuzz/$1/release/$1"; }
build_product() {
    rm -rf ".build/fuzz/$1"
    swift build "${build[@]}" --build-path ".build/fuzz/$1" --product "$1"
}
# True when one run over the corpus shows no "cov:" (a seed that crashes is left to the real run).
blind() {
    local probe
    probe=$("${fuzzer[@]}" -runs=1 -max_len=65536 -artifact_prefix=.build/fuzz/ "$work" 2>&1) && ! grep -q "INITED cov:" <<<"$probe"
}
for name in $(for target in "${targets[@]}"; do product "$target"; done | sort -u); do
    build_product "$name"
done
for target in "${targets[@]}"; do
    work=".build/fuzz/corpus-$target"
    mkdir -p "$work"
    # The HEIF pre-check starts from the HEIF seeds.
    cp -n Tests/Fuzz/corpus/${target%-references}/* "$work"/ 2>/dev/null || true
    fuzzer=(env LIQUIDLENS_FUZZ_FORMAT="$target" "$(binary "$(product "$target")")")
    builds=1
    while blind; do
        if ((builds == 3)); then
            echo "$target: three builds of $(product "$target") came out without coverage counters" >&2
            exit 1
        fi
        echo "$target: $(product "$target") came out without coverage counters; building it again" >&2
        build_product "$(product "$target")"
        builds=$((builds + 1))
    done
    echo "== $target: $limit"
    # Crashing inputs land in .build/fuzz/, not in the checkout.
    "${fuzzer[@]}" "${budget[@]}" -max_len=65536 -print_final_stats=1 -artifact_prefix=.build/fuzz/ "$work" \
        2>&1 | tee ".build/fuzz/$target.log"
    # The coverage reached: the last status line's edges (cov) and features (ft).
    echo "== $target: $(grep -o 'cov: [0-9]* ft: [0-9]*' ".build/fuzz/$target.log" | tail -n 1), $(grep -o 'stat::number_of_executed_units: [0-9]*' ".build/fuzz/$target.log")"
done
