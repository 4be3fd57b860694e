#!/usr/bin/env bash
# One-shot report for a machine with a real GPU: builds release, lists the Vulkan devices, checks
# GPU vs CPU parity on every built-in still (`liquidlens verify`, with a JUnit file and an HTML
# report; again with the unified memory path forced) and on one frame of every benchmark workload (`bench` verifies before it times), then
# runs the benchmark. Everything lands in the folder given. Exit 1 when parity fails anywhere.
# Usage: Tests/Device/report.sh [folder]   (default ./device-report)
set -euo pipefail
cd "$(dirname "$0")/../.."
out="${1:-device-report}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
start=$SECONDS
swift build -c release --product liquidlens 2>&1 | tail -n 3 | tee "$out/build.txt"
bin="$(swift build -c release --show-bin-path)/liquidlens"
"$bin" --version | tee "$out/version.txt"
"$bin" devices | tee "$out/devices.txt"
# Setup and first-frame times on the device: what `--backend auto`'s budget for its kind rests on.
"$bin" render --backend vulkan --timing --frames 5 -o "$out/timing.png" | tee "$out/setup.txt"
stills=$("$bin" examples | awk '/^STILLS/ {on = 1; next} /^$/ {on = 0} on {print $1}')
printf '{"scenes": [%s]}\n' "$(printf '{"example": "%s"},' $stills | sed 's/,$//')" >"$out/stills.json"
status=0
"$bin" verify "$out/stills.json" --junit "$out/parity.xml" --report "$out/parity.html" -q \
    | tee "$out/parity.txt" || status=1
# The other memory path too: on a discrete GPU, host-visible buffers read across the bus.
"$bin" verify "$out/stills.json" --memory unified --junit "$out/parity-unified.xml" -q \
    | tee "$out/parity-unified.txt" || status=1
"$bin" bench --workload all --backend vulkan --frames 600 --frames-in-flight 3 --json "$out/bench.json" \
    --save-frames "$out/bench-frames" | tee "$out/bench.txt" || status=1
echo "report in $out ($((SECONDS - start)) s), parity $([[ $status -eq 0 ]] && echo ok || echo FAILED)"
exit $status
