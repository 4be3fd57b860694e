#!/usr/bin/env bash
# The lens-heavy workload on both backends and its OpenCV peer (Tests/Perf/opencv_peer.py), back
# to back in one run, with the ratios the GPU path is held to: Vulkan against the CPU reference
# and against the peer. Medians of 60 frames each; a quiet machine gives the numbers that count.
# Usage: Tests/Perf/lens-heavy-vs-peer.sh [work folder]
# Needs: a release build (swift build -c release) and pip install -r Tests/Perf/requirements.txt.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="${1:-/tmp/liquidlens-peer}"
tool="$root/.build/release/liquidlens"
mkdir -p "$work"
"$tool" bench --workload lens-heavy --backend both --frames 60 --json "$work/bench.json" \
    --save-frames "$work/frames" >/dev/null
peer="$(python3 "$root/Tests/Perf/opencv_peer.py" "$work/frames/lens-heavy-cpu.png" 60)"
python3 - "$work/bench.json" "$peer" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
peer = json.loads(sys.argv[2])
ms = {r["backend"]: r["frameMs"]["median"] for r in report["results"] if r["workload"] == "lens-heavy"}
print(f"lens-heavy median ms: vulkan {ms['vulkan']:.1f}, cpu {ms['cpu']:.1f}, opencv peer {peer['medianMs']:.1f}")
print(f"vulkan / cpu speed: {ms['cpu'] / ms['vulkan']:.2f}x; vulkan / peer speed: {peer['medianMs'] / ms['vulkan']:.2f}x")
PY
