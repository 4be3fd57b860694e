#!/usr/bin/env bash
# Builds the libFuzzer targets (scene JSON, PNG) with AddressSanitizer and runs each for a number
# of executions (default 1,000,000) or, given as "60s", for a time, starting from the seed corpus
# beside this script. Usage: Tests/Fuzz/run.sh [runs | SECONDSs]
set -euo pipefail
cd "$(dirname "$0")/../.."
limit="${1:-1000000}"
if [[ "$limit" == *s ]]; then budget=(-max_total_time="${limit%s}"); else budget=(-runs="$limit"); fi
out=.build/fuzz
mkdir -p "$out"
flags=(-sanitize=fuzzer,address -O -parse-as-library)
swiftc "${flags[@]}" -emit-module -emit-library -module-name LensCore -emit-module-path "$out/LensCore.swiftmodule" \
    -o "$out/libLensCore.so" Sources/LensCore/*.swift
swiftc "${flags[@]}" -emit-module -emit-library -module-name LensIO -emit-module-path "$out/LensIO.swiftmodule" \
    -I "$out" -L "$out" -lLensCore -I Sources/CPNG -lpng16 -o "$out/libLensIO.so" Sources/LensIO/*.swift
swiftc "${flags[@]}" -I "$out" -L "$out" -lLensCore -Xlinker -rpath -Xlinker "$PWD/$out" \
    -o "$out/scene-fuzzer" Tests/Fuzz/SceneFuzzer.swift
swiftc "${flags[@]}" -I "$out" -L "$out" -lLensCore -lLensIO -I Sources/CPNG -lpng16 -Xlinker -rpath -Xlinker "$PWD/$out" \
    -o "$out/png-fuzzer" Tests/Fuzz/PNGFuzzer.swift
for target in scene png; do
    work="$out/corpus-$target"
    mkdir -p "$work"
    cp -n Tests/Fuzz/corpus/$target/* "$work"/ 2>/dev/null || true
    echo "== $target: $limit"
    "$out/$target-fuzzer" "${budget[@]}" -max_len=65536 -print_final_stats=1 "$work" 2>&1 | tail -n 12
done
