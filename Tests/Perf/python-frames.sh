#!/usr/bin/env bash
# The Python package's throughput and memory (issue 51):
#   1. `frames()` against the command line's render-only batch (`batch -o - --format rgba` into
#      /dev/null) on the same manifest — the lens-heavy workload's 1920×1080 frame, FRAMES times —
#      and backend, each a whole process (setup included), in PAIRS alternating pairs; prints each
#      pair, the medians in frames per second and their ratio;
#   2. the resident memory of a Python process iterating over MEMORY_FRAMES random frames
#      (lens.json at scale 1, frost and position drawn), read from /proc at each tenth of the run.
# Usage: Tests/Perf/python-frames.sh [backend=vulkan] [frames=48] [pairs=5] [memory frames=10000]
# Needs the release build (swift build -c release -Xswiftc -enable-testing, as the suite's) and
# the test tools' environment, where Tests/test-tools.sh installed the package.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
backend="${1:-vulkan}"
frames="${2:-48}"
pairs="${3:-5}"
memory_frames="${4:-10000}"
tool="$root/.build/release/liquidlens"
python="$root/.venv-tests/bin/python3"
export LIQUIDLENS_LIBRARY="$root/.build/release/libLiquidLensC.so"
for needed in "$tool" "$LIQUIDLENS_LIBRARY" "$python"; do
    [[ -e "$needed" ]] || { echo "python-frames: no $needed (build in release; Tests/test-tools.sh)" >&2; exit 1; }
done
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$python" - "$work/heavy.json" "$frames" <<'PY'
import json, sys
json.dump({"name": "heavy", "scenes": [{"workload": "lens-heavy"}] * int(sys.argv[2])}, open(sys.argv[1], "w"))
PY
cat >"$work/frames.py" <<'PY'
import sys, liquidlens
with liquidlens.Renderer(backend=sys.argv[2]) as renderer:
    count = sum(1 for _ in renderer.frames(sys.argv[1], annotations=False))
assert count == int(sys.argv[3]), count
PY
milliseconds() { # runs the command, prints its wall time in milliseconds
    local start
    start=$(date +%s%N)
    "$@" >/dev/null
    echo $((($(date +%s%N) - start) / 1000000))
}
cli_times=()
python_times=()
for pair in $(seq "$pairs"); do
    cli=$(milliseconds "$tool" batch "$work/heavy.json" -o - --format rgba --backend "$backend" -q)
    py=$(milliseconds "$python" "$work/frames.py" "$work/heavy.json" "$backend" "$frames")
    cli_times+=("$cli")
    python_times+=("$py")
    echo "pair $pair: cli $cli ms, python $py ms"
done
"$python" - "$frames" "${cli_times[*]}" "${python_times[*]}" "$backend" <<'PY'
import statistics, sys
frames = int(sys.argv[1])
cli = statistics.median(map(float, sys.argv[2].split())) / 1000
python = statistics.median(map(float, sys.argv[3].split())) / 1000
print(f"{sys.argv[4]}: median cli {frames / cli:.2f} frames/s, python frames() {frames / python:.2f} frames/s, "
      f"ratio {cli / python:.3f}")
PY
cat >"$work/random.json" <<JSON
{"scene": "$root/Tests/Samples/lens.json", "name": "random", "count": $memory_frames, "seed": 3, "scale": 1,
 "sample": [{"key": "glass[0].frame.x", "uniform": [10, 140]},
            {"key": "glass[0].optics.frost", "uniform": [0, 12]}]}
JSON
"$python" - "$work/random.json" "$backend" "$memory_frames" <<'PY'
import sys, liquidlens

def resident_kib():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])

total = int(sys.argv[3])
readings = []
with liquidlens.Renderer(backend=sys.argv[2]) as renderer:
    for index, image, annotations in renderer.frames(sys.argv[1]):
        if (index + 1) % (total // 10) == 0:
            readings.append(resident_kib())
print(f"{sys.argv[2]}: resident memory over {total} frames with annotations, at each tenth (MiB): "
      + " ".join(f"{kib / 1024:.0f}" for kib in readings))
print(f"growth from the first tenth to the end: {(readings[-1] - readings[0]) / 1024:.1f} MiB; "
      f"over the last eight tenths: {(readings[-1] - readings[1]) / 1024:.1f} MiB")
PY
