#!/usr/bin/env bash
# Runs the whole test suite under AddressSanitizer and under ThreadSanitizer, each in its own
# build folder, and fails when any run fails (a failing test or a sanitizer report). LeakSanitizer
# is off: the Mesa ICD (unloaded before exit, so unsymbolisable) and Foundation.Process leak a few
# bytes per process at exit; memory growth over long runs is measured separately (the
# Reliability article). Tests that cannot run under a sanitizer read LIQUIDLENS_SANITIZER. The full log of
# each run stays in .build/sanitize-NAME.log. Usage: Tests/Fuzz/sanitizers.sh [address|thread]...
set -euo pipefail
cd "$(dirname "$0")/../.."
status=0
for sanitizer in ${@:-address thread}; do
    log=".build/sanitize-$sanitizer.log"
    mkdir -p .build
    echo "== swift test --sanitize=$sanitizer (log: $log)"
    if ASAN_OPTIONS=detect_leaks=0 LIQUIDLENS_SANITIZER="$sanitizer" \
        swift test --disable-xctest --sanitize="$sanitizer" --build-path ".build/sanitize-$sanitizer" >"$log" 2>&1; then
        run=0
    else
        run=$?
    fi
    grep -E "Test run|✘|ERROR: |WARNING: ThreadSanitizer|SUMMARY" "$log" || true
    if [[ $run -ne 0 ]] || grep -qE "ERROR: AddressSanitizer|WARNING: ThreadSanitizer" "$log"; then
        echo "== $sanitizer: FAILED (exit $run)"
        status=1
    fi
done
exit $status
