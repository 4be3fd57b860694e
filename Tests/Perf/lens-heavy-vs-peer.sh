#!/usr/bin/env bash
# The lens-heavy workload on both backends and its OpenCV peer (Tests/Perf/opencv_peer.py), in
# rounds that take turns (bench on both backends, then the peer), with the ratios the GPU path is
# held to: Vulkan against the CPU reference and against the peer, each round's pair measured
# back to back, then the median over the rounds (this machine's speed drifts between runs by a
# third, so single runs mislead). Medians of 60 frames each per round.
# Usage: Tests/Perf/lens-heavy-vs-peer.sh [work folder] [rounds, default 5]
# Needs: a release build (swift build -c release) and pip install -r Tests/Perf/requirements.txt.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="${1:-/tmp/liquidlens-peer}"
rounds="${2:-5}"
tool="$root/.build/release/liquidlens"
mkdir -p "$work"
for round in $(seq "$rounds"); do
    "$tool" bench --workload lens-heavy --backend both --frames 60 --json "$work/bench-$round.json" \
        --save-frames "$work/frames" >/dev/null
    python3 "$root/Tests/Perf/opencv_peer.py" "$work/frames/lens-heavy-cpu.png" 60 >"$work/peer-$round.json"
done
python3 - "$work" "$rounds" <<'PY'
import json, statistics, sys
work, rounds = sys.argv[1], int(sys.argv[2])
rows = []
for round in range(1, rounds + 1):
    report = json.load(open(f"{work}/bench-{round}.json"))
    ms = {r["backend"]: r["frameMs"]["median"] for r in report["results"] if r["workload"] == "lens-heavy"}
    peer = json.load(open(f"{work}/peer-{round}.json"))["medianMs"]
    rows.append((ms["vulkan"], ms["cpu"], peer))
    print(f"round {round}: lens-heavy median ms: vulkan {ms['vulkan']:.1f}, cpu {ms['cpu']:.1f}, opencv peer {peer:.1f}")
cpu_ratios = [cpu / vulkan for vulkan, cpu, _ in rows]
peer_ratios = [peer / vulkan for vulkan, _, peer in rows]
def spread(values):
    return f"{statistics.median(values):.2f}x (rounds {min(values):.2f}-{max(values):.2f})"
print(f"vulkan / cpu speed: {spread(cpu_ratios)}; vulkan / peer speed: {spread(peer_ratios)}")
PY
