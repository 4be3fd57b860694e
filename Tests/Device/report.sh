#!/usr/bin/env bash
# The GPU report, for a machine with a real GPU and nothing of ours installed: runs the bundle that
# Tests/Device/bundle.sh makes (its liquidlens.tar.xz, unpacked into a temporary folder with xz or
# Python, or a
# folder where it was unpacked; no Swift, no build) and, within 9 minutes,
#   1. lists the Vulkan devices and times setup and the first frames on the one it uses;
#   2. verifies every built-in still and the frame of every benchmark workload that bench checks
#      against the CPU reference (`liquidlens verify`), on the memory path the device calls for and
#      again with the unified path forced;
#   3. runs the benchmark on Vulkan with its GPU stage times, its default frame counts, 3 rounds
#      on a GPU (one on a CPU device such as lavapipe: a dry run).
# It writes at most 8 files into the output folder: summary.txt (what it prints at the end, one
# screen), report.log (every command's whole output), parity.xml and parity-unified.xml (JUnit),
# bench.json, and failures.png / failures-unified.png when frames fail (GPU, CPU, heatmap a row).
# Each step runs under what is left of the 9 minutes, so a slow step cannot lose the summary.
# Exit 1 when parity fails anywhere or a step fails.
# Usage: Tests/Device/report.sh --bundle DIR --out DIR   (see Tests/Device/README.md)
set -uo pipefail
usage() {
    echo "usage: $0 --bundle DIR --out DIR" >&2
    exit 64
}
bundle="" out=""
while (($#)); do
    case "$1" in
    --bundle) bundle="${2:-}" && shift 2 ;;
    --out) out="${2:-}" && shift 2 ;;
    *) usage ;;
    esac
done
[[ -n "$bundle" && -n "$out" ]] || usage
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if [[ -f "$bundle/liquidlens.tar.xz" ]]; then
    mkdir "$work/bundle"
    if command -v xz >/dev/null; then
        tar -C "$work/bundle" -xJf "$bundle/liquidlens.tar.xz" || exit 66
    elif command -v python3 >/dev/null; then
        python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' \
            "$bundle/liquidlens.tar.xz" "$work/bundle" || exit 66
    else
        echo "report: unpacking $bundle/liquidlens.tar.xz needs xz or python3" >&2
        exit 69
    fi
    bin="$work/bundle/liquidlens"
elif [[ -x "$bundle/liquidlens" ]]; then
    bin="$(cd "$bundle" && pwd)/liquidlens"
else
    echo "report: no bundle in $bundle (neither liquidlens.tar.xz nor an unpacked one): make it with Tests/Device/bundle.sh" >&2
    exit 66
fi
mkdir -p "$out" && out="$(cd "$out" && pwd)"
log="$out/report.log" summary="$out/summary.txt"
: >"$log"
: >"$summary"
deadline=$((SECONDS + 540))
status=0

note() { echo "$*" >>"$summary"; }
# step NAME COMMAND...: runs COMMAND with what is left of the time, its output in report.log;
# prints one line with its time and result. Returns the command's status.
step() {
    local name="$1" started=$SECONDS left=$((deadline - SECONDS - 5)) code
    shift
    if ((left < 10)); then
        note "$name: NOT RUN (out of time)"
        echo "report: $name: not run, out of time"
        return 124
    fi
    echo "=== $name: $*" >>"$log"
    timeout --kill-after=5 "$left" "$@" >"$work/step.txt" 2>&1
    code=$?
    cat "$work/step.txt" >>"$log"
    echo "report: $name: $( ((code == 0)) && echo ok || echo "FAILED (exit $code$( ((code == 124)) && echo ', out of time'))") ($((SECONDS - started)) s)"
    return $code
}

step version "$bin" --version && note "$(cat "$work/step.txt")"
if step devices "$bin" devices; then
    note "devices:" && sed 's/^/  /' "$work/step.txt" >>"$summary"
else
    note "devices: FAILED: $(tail -3 "$work/step.txt")"
    status=1
fi
if step setup "$bin" render --backend vulkan --timing --frames 5 -o "$work/timing.png"; then
    note "setup and first frames (render --timing, the showcase):" && sed 's/^/  /' "$work/step.txt" >>"$summary"
else
    note "setup: FAILED: $(tail -3 "$work/step.txt")"
    status=1
fi

for memory in auto unified; do
    suffix=$([[ $memory == auto ]] || echo "-$memory")
    if step "parity ($memory memory path)" "$bin" verify "$(dirname "$bin")/parity.json" --memory "$memory" --progress none \
        --junit "$out/parity$suffix.xml" --failures "$out/failures$suffix.png"; then
        note "parity ($memory memory path): $(grep -E '^[0-9]+ pairs' "$work/step.txt")"
    else
        note "parity ($memory memory path): FAILED"
        grep -E '^(FAILED|MISSING|[0-9]+ pairs)|^Error' "$work/step.txt" | sed 's/^/  /' >>"$summary"
        status=1
    fi
done

# The default frame counts: on a GPU the screen workload's time is the CPU's (resolve, PNG), so
# more frames would not fit the 9 minutes; three rounds give medians there.
if grep -q -E '\((discrete|integrated|virtual) GPU, .*: usable' "$summary"; then
    bench_runs=(--rounds 3)
else
    bench_runs=(--rounds 1)
    note "bench: no GPU, so a dry run of one round"
fi
if step bench "$bin" bench --workload all --backend vulkan "${bench_runs[@]}" --json "$out/bench.json"; then
    note "bench (bench.json):"
    awk '/^TIME/ { on = 1 } /^RATIOS/ { on = 0 } on' "$work/step.txt" | sed 's/^/  /' >>"$summary"
else
    note "bench: FAILED: $(tail -3 "$work/step.txt")"
    status=1
fi

note "report: $( ((status == 0)) && echo "ok" || echo "FAILED") in $((SECONDS)) s; every command's output is in report.log"
echo
cat "$summary"
exit $status
