#!/usr/bin/env bash
# Times `liquidlens diff` on 100 pairs of 1920×1080 frames, three ways: the GPU against the CPU
# reference (the pairs the parity suite holds to 1/255: sparse one-level differences), a
# regression (the lens 2 px off in every frame: a local difference per pair), and the worst case
# (the backdrop one level off: every pixel differs, so SSIM and FLIP run over whole frames).
# Then times the PyPI peers (scikit-image SSIM, flip-evaluator, pixelmatch) on the regression's
# pairs with Tests/Perf/diff_peers.py (PEER_PAIRS pairs, default 5).
# Usage: Tests/Perf/diff-folders.sh [work folder]   (renders 400 frames first; reuses them after)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="${1:-/tmp/liquidlens-diff-perf}"
tool="$root/.build/release/liquidlens"
mkdir -p "$work"
cd "$work"
scene() { # $1: file, $2: first gradient colour
    cat > "$1" <<JSON
{"canvas": {"width": 1920, "height": 1080, "scale": 1},
 "background": [
   {"type": "gradient", "colors": ["$2", "#ff7e5f", "#2c5364"], "angle": 30},
   {"type": "lines", "spacing": 24, "width": 2, "angle": -30, "color": "#ffffff", "opacity": 0.3},
   {"type": "checker", "size": 48, "colors": ["#000000", "#ffffff"], "opacity": 0.08},
   {"type": "text", "text": "Liquid Glass regression suite", "center": [960, 540], "size": 96,
    "weight": "bold", "color": "#ffffff"}],
 "glass": [{"shape": "capsule", "frame": {"x": 50, "y": 390, "width": 900, "height": 300},
   "optics": {"bevelWidth": 60, "bevelAmount": 120, "magnification": 1.22, "dispersion": 0.02,
              "frost": 4, "saturation": 1.5, "tint": [1, 1, 1, 0.1]}}]}
JSON
}
manifest() { # $1: file, $2: scene, $3: first x
    echo "{\"scene\": \"$2\", \"name\": \"frame\", \"sweep\": [{\"key\": \"glass[0].frame.x\", \"from\": $3, \"to\": $(($3 + 920)), \"steps\": 100}]}" > "$1"
}
scene base.json "#0f2027"
scene tinted.json "#10202a"
manifest expected.json base.json 50
manifest moved.json base.json 52
manifest backdrop.json tinted.json 50
render() { # $1: manifest, $2: folder, $3: backend
    [ "$(ls "$2" 2>/dev/null | wc -l)" = 100 ] || "$tool" batch "$1" -o "$2" --backend "$3" --png-compression fast -q
}
render expected.json expected cpu
render expected.json gpu vulkan
render moved.json moved cpu
render backdrop.json backdrop cpu
# Wall time, and the CPU time (user + system), which does not depend on what else the machine runs.
measure() { # $1: label, then the command
    local label="$1"
    shift
    /usr/bin/time -f "%e %U %S" -o time.txt "$@" > out.txt || true
    read -r wall user system < time.txt
    printf '%-9s %7.2f s wall %7.2f s CPU  %s\n' "$label" "$wall" "$(echo "$user + $system" | bc)" \
        "$(grep -o '[0-9]* pairs: .*extra' out.txt)"
}
for case in gpu moved backdrop; do
    measure "$case" "$tool" diff "$case" expected -q --max-diff-pixels off
done
measure reports "$tool" diff moved expected -q --max-diff-pixels off --junit moved.xml --report moved.html
# The PyPI peers on the regression's pairs, in CPU seconds a pair (ours: the CPU column over 100).
python="$root/.venv-tests/bin/python3"
if [ -x "$python" ]; then
    "$python" "$root/Tests/Perf/diff_peers.py" moved expected "${PEER_PAIRS:-5}"
else
    echo "no .venv-tests: run Tests/test-tools.sh to time the PyPI diff peers" >&2
fi
