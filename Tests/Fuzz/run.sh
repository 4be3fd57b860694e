#!/usr/bin/env bash
# Builds the libFuzzer targets (scene JSON and batch manifests, PNG) through SwiftPM with
# AddressSanitizer and runs each for a number of executions (default 1,000,000) or, given as
# "60s", for a time, starting from the seed corpus beside this script. Exits non-zero when a
# fuzzer finds a crash. Usage: Tests/Fuzz/run.sh [runs | SECONDSs]
set -euo pipefail
cd "$(dirname "$0")/../.."
limit="${1:-1000000}"
if [[ "$limit" == *s ]]; then budget=(-max_total_time="${limit%s}"); else budget=(-runs="$limit"); fi
export LIQUIDLENS_FUZZ=1
# The linker's section garbage collection drops the coverage counters of modules nothing refers to
# by symbol (the fuzzer then runs blind); keep every section.
build=(-c release --build-path .build/fuzz --sanitize=fuzzer --sanitize=address -Xlinker --no-gc-sections)
for target in scene png; do
    swift build "${build[@]}" --product "$target-fuzzer"
done
bin="$(swift build "${build[@]}" --show-bin-path)"
for target in scene png; do
    work=".build/fuzz/corpus-$target"
    mkdir -p "$work"
    cp -n Tests/Fuzz/corpus/$target/* "$work"/ 2>/dev/null || true
    echo "== $target: $limit"
    "$bin/$target-fuzzer" "${budget[@]}" -max_len=65536 -print_final_stats=1 "$work"
done
