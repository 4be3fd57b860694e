#!/usr/bin/env bash
# A long 1920×1080 batch (default 10 000 frames: Tests/Samples/lens.json at scale 2, its glass
# swept across) with its resident memory and open descriptors sampled every 10 s, to show both
# stay flat. Prints the samples' first, last, lowest and highest values and the peak RSS.
# Usage: Tests/Perf/memory-batch.sh [frames] [format] [work folder]   (format jpeg by default:
# 10 000 fast PNGs would take about 13 GB)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
frames="${1:-10000}"
format="${2:-jpeg}"
work="${3:-/tmp/liquidlens-memory}"
tool="$root/.build/release/liquidlens"
mkdir -p "$work"
cd "$work"
python3 - "$root/Tests/Samples" "$frames" <<'PY'
import json, sys
samples, frames = sys.argv[1], int(sys.argv[2])
scene = json.load(open(f"{samples}/lens.json"))
scene["canvas"] = {"width": 960, "height": 540, "scale": 2}
scene["label"]["mask"] = f"{samples}/titles.png"
json.dump(scene, open("scene.json", "w"))
sweep = [{"key": "glass[0].frame.x", "from": 0, "to": 700, "steps": frames}]
json.dump({"scene": "scene.json", "sweep": sweep}, open("sweep.json", "w"))
PY
rm -rf out samples.txt
/usr/bin/time -f "%e s, peak RSS %M kB" -o time.txt "$tool" batch sweep.json -o out --format "$format" \
    --backend vulkan -q &
sleep 2
pid=$(pgrep -n -x liquidlens)
while kill -0 "$pid" 2>/dev/null; do
    rss=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
    descriptors=$(ls "/proc/$pid/fd" 2>/dev/null | wc -l)
    [ -n "$rss" ] && echo "$rss $descriptors $(ls out 2>/dev/null | wc -l)" >> samples.txt
    sleep 10
done
wait
written=$(ls out | wc -l)
rm -rf out
echo "$frames frames of 1920×1080 as $format: $written written in $(cat time.txt)"
awk 'NR == 1 {first = $1; low = $1; high = $1; fd_low = $2; fd_high = $2}
     {last = $1; if ($1 < low) low = $1; if ($1 > high) high = $1
      if ($2 < fd_low) fd_low = $2; if ($2 > fd_high) fd_high = $2; frames = $3}
     END {printf "RSS every 10 s: first %.0f MB, last %.0f MB (at %d frames), lowest %.0f MB, highest %.0f MB; open descriptors %d…%d\n",
          first / 1024, last / 1024, frames, low / 1024, high / 1024, fd_low, fd_high}' samples.txt
